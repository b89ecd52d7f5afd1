//! The records file: one CSV line per game in the format of `tests/data/copenhagen.csv`
//! (`moves,attacker_captures,defender_captures,result`), appended game by game, and a
//! companion file `OUT.meta` with, line for line, who played which side and why the game
//! ended (`game,attacker,defender,result,reason,detail`; engines numbered from 1). The
//! records replay through the rules core; `--resume` reads both to skip the games done.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::core::game::{Game, Ply};
use crate::core::notation::RecordMove;
use crate::core::role::Role;

use super::dialect::shown;

/// The result of one finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Its number in the match schedule, from 0.
    pub index: usize,
    /// The engine (index into the engine list) that played the attackers.
    pub attacker: usize,
    /// The engine that played the defenders.
    pub defender: usize,
    /// The winning side; `None` for a draw.
    pub winner: Option<Role>,
    /// Why it ended: a rules reason (`king_escaped`, `move_limit`, ...), `resignation`,
    /// `time`, or an adjudication (`illegal_move`, `crash`, `malformed_reply`,
    /// `no_reply`, `rejected_move`); `unknown` for a resumed game without meta data.
    pub reason: String,
    /// More about an adjudication (the illegal move, the garbage reply, ...).
    pub detail: String,
    /// The records line (without newline).
    pub record: String,
}

impl GameResult {
    /// The score of engine `engine` in this game (1, ½, 0), if it played.
    pub fn score_of(&self, engine: usize) -> Option<f64> {
        let role = if engine == self.attacker {
            Role::Attacker
        } else if engine == self.defender {
            Role::Defender
        } else {
            return None;
        };
        Some(match self.winner {
            None => 0.5,
            Some(w) if w == role => 1.0,
            Some(_) => 0.0,
        })
    }
}

/// The result field: `Black` (attackers won), `White` (defenders won) or `Draw`.
pub fn result_name(winner: Option<Role>) -> &'static str {
    match winner {
        Some(Role::Attacker) => "Black",
        Some(Role::Defender) => "White",
        None => "Draw",
    }
}

fn winner_of(result: &str) -> Option<Option<Role>> {
    match result {
        "Black" => Some(Some(Role::Attacker)),
        "White" => Some(Some(Role::Defender)),
        "Draw" => Some(None),
        _ => None,
    }
}

/// The records line of a game: moves with their captures (`g3-e3xe2`), a final `timeout`
/// for a loss on time, the capture counts per side and the result.
///
/// ```
/// use hnefi::core::game::{Game, RuleSet};
/// use hnefi::core::role::Role;
/// use hnefi::tools::matches::records::record_line;
/// let mut g = Game::new(RuleSet::default());
/// for m in ["d1-d3", "e5-e2", "g1-g3", "f4-c4", "g3-e3"] {
///     g.play(m.parse().unwrap()).unwrap();
/// }
/// g.lose_on_time(Role::Defender).unwrap();
/// assert_eq!(record_line(&g, Some(Role::Attacker)), "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black");
/// ```
pub fn record_line(game: &Game, winner: Option<Role>) -> String {
    let mut moves = Vec::with_capacity(game.plies().len());
    let mut counts = [0u32; 2];
    let mut mover = game.first_position().to_move();
    for ply in game.plies() {
        match *ply {
            Ply::Move { mv, captured } => {
                counts[(mover == Role::Defender) as usize] += captured.count();
                moves.push(
                    RecordMove {
                        mv,
                        captures: captured,
                    }
                    .to_string(),
                );
                mover = mover.opponent();
            }
            Ply::Timeout(_) => moves.push("timeout".to_string()),
            Ply::Resign(_) => {}
        }
    }
    format!(
        "{},{},{},{}",
        moves.join(" "),
        counts[0],
        counts[1],
        result_name(winner)
    )
}

/// The meta line of a game.
pub fn meta_line(r: &GameResult) -> String {
    format!(
        "{},{},{},{},{},{}",
        r.index + 1,
        r.attacker + 1,
        r.defender + 1,
        result_name(r.winner),
        shown(&r.reason),
        shown(&r.detail)
    )
}

/// The path of the meta file that goes with a records file.
pub fn meta_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".meta");
    PathBuf::from(s)
}

/// Reads the complete lines of a file (a last line without its newline, left by an
/// interrupted run, is dropped and the file rewritten without it); a missing file has
/// none.
fn complete_lines(path: &Path) -> io::Result<Vec<String>> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep != bytes.len() {
        fs::write(path, bytes.get(..keep).unwrap_or_default())?;
    }
    let text = String::from_utf8_lossy(bytes.get(..keep).unwrap_or_default()).into_owned();
    Ok(text.lines().map(str::to_string).collect())
}

/// The games already in a records file, for `--resume`: the `i`-th line is game `i` of
/// `schedule` (attacker, defender). Reasons come from the meta file when its line matches.
pub fn read_done(out: &Path, schedule: &[(usize, usize)]) -> Result<Vec<GameResult>, String> {
    let err = |e: io::Error| format!("cannot read {}: {e}", out.display());
    let records = complete_lines(out).map_err(err)?;
    let meta = complete_lines(&meta_path(out)).unwrap_or_default();
    if records.len() > schedule.len() {
        return Err(format!(
            "{} holds {} games, more than the {} of this match: resume with the same flags",
            out.display(),
            records.len(),
            schedule.len()
        ));
    }
    let mut done = Vec::with_capacity(records.len());
    for (i, (record, &(attacker, defender))) in records.iter().zip(schedule).enumerate() {
        let fields: Vec<&str> = record.split(',').collect();
        let winner = match fields.as_slice() {
            [_, _, _, result] => winner_of(result),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "line {} of {} is not a finished game record",
                i + 1,
                out.display()
            )
        })?;
        let (mut reason, mut detail) = ("unknown".to_string(), String::new());
        if let Some(m) = meta.get(i) {
            let f: Vec<&str> = m.splitn(6, ',').collect();
            let expect = [
                (i + 1).to_string(),
                (attacker + 1).to_string(),
                (defender + 1).to_string(),
            ];
            if let [g, a, d, res, why, more] = f.as_slice()
                && [*g, *a, *d] == [&expect[0], &expect[1], &expect[2]]
                && winner_of(res) == Some(winner)
            {
                reason = why.to_string();
                detail = more.to_string();
            }
        }
        done.push(GameResult {
            index: i,
            attacker,
            defender,
            winner,
            reason,
            detail,
            record: record.clone(),
        });
    }
    // Keep the meta file line-aligned with the records.
    if meta.len() != done.len() {
        let text: String = done.iter().map(|r| meta_line(r) + "\n").collect();
        fs::write(meta_path(out), text).map_err(err)?;
    }
    Ok(done)
}

/// Appends game results to the records file and its meta file, one line each, flushed at
/// once.
pub struct Writer {
    records: File,
    meta: File,
}

impl Writer {
    /// Opens both files for appending (creating them).
    pub fn open(out: &Path) -> io::Result<Writer> {
        let open = |p: &Path| OpenOptions::new().create(true).append(true).open(p);
        Ok(Writer {
            records: open(out)?,
            meta: open(&meta_path(out))?,
        })
    }

    /// Appends one game.
    pub fn append(&mut self, r: &GameResult) -> io::Result<()> {
        writeln!(self.records, "{}", r.record)?;
        self.records.flush()?;
        writeln!(self.meta, "{}", meta_line(r))?;
        self.meta.flush()
    }
}
