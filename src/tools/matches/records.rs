//! The records file: one CSV line per game in the format of `tests/data/copenhagen.csv`
//! (`moves,attacker_captures,defender_captures,result`), appended game by game, and a
//! companion file `OUT.meta` with, line for line, who played which side and why the game
//! ended (`game,attacker,defender,result,reason,detail`; engines numbered from 1) under
//! a header of `#` lines naming the engines, openings, time control and rules. The
//! records replay through the rules core; `--resume` replays them and checks the header
//! before it skips the games done.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::core::any_square::AnyMove;
use crate::core::berserk_game::BerserkGameOf;
use crate::core::game::GameOf;
use crate::core::geometry::{Geometry, S11};
use crate::core::outcome::{Outcome, Reason, Status};
use crate::core::position::PositionOf;
use crate::core::record::{self, GameRecordError, GameRecordOf};
use crate::core::role::{ByRole, Role};
use crate::core::rules::RuleSet;
use crate::core::variant::VariantError;

use super::dialect::shown;
use super::match_game::MatchGame;
use super::reason::MatchReason;
use super::schedule::Scheduled;

/// The result of one finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameResult {
    /// Its number in the match schedule, from 0.
    pub(crate) index: usize,
    /// The engine (index into the engine list) that played the attackers.
    pub(crate) attacker: usize,
    /// The engine that played the defenders.
    pub(crate) defender: usize,
    /// Who won and why.
    pub(crate) outcome: Outcome<MatchReason>,
    /// More about an adjudication (the illegal move, the garbage reply, ...).
    pub(crate) detail: String,
    /// The records line (without newline).
    pub(crate) record: String,
}

impl GameResult {
    /// The score of engine `engine` in this game (1, ½, 0), if it played.
    pub(crate) fn score_of(&self, engine: usize) -> Option<f64> {
        let role = if engine == self.attacker {
            Role::Attacker
        } else if engine == self.defender {
            Role::Defender
        } else {
            return None;
        };
        Some(self.outcome.score(role))
    }
}

/// The winner a result field names, for a finished game (`Ongoing` is none).
fn winner_of(result: &str) -> Option<Option<Role>> {
    record::parse_result(result)
        .ok()
        .flatten()
        .map(|o| o.winner)
}

/// The records line of a finished game (see [`GameRecord`]): moves with their captures
/// (`g3-e3xe2`), a final `timeout` for a loss on time, the capture counts per side and
/// the result.
pub(crate) fn record_line<G: Geometry>(game: &GameOf<G>, winner: Option<Role>) -> String {
    GameRecordOf::from_game(game, Some(Outcome { winner, reason: () })).to_string()
}

/// The records line of a finished Berserk game, in the format of [`record_line`] with
/// OpenTafl's move records (`Nc3^c5xc4 Nc5^=c7xc6`, as `show_moves` writes them; every
/// move of a berserk turn is one), a final `timeout` when the side to move lost on time,
/// the pieces each side took (the king among them), and the result.
pub(crate) fn berserk_record_line(
    game: &BerserkGameOf<S11>,
    timeout: bool,
    winner: Option<Role>,
) -> String {
    let mut moves = game.moves_field();
    if timeout {
        if !moves.is_empty() {
            moves.push(' ');
        }
        moves.push_str("timeout");
    }
    let mut taken = ByRole::<u32>::default();
    for ply in game.plies() {
        *taken.get_mut(ply.role) +=
            ply.effect.taken.soldiers.count() + u32::from(ply.effect.taken.king);
    }
    format!(
        "{moves},{},{},{}",
        taken.attacker,
        taken.defender,
        record::result_word(Some(Outcome { winner, reason: () }))
    )
}

/// The text of a `.meta` field: the whole text, control characters replaced (so that
/// it stays on one line). The detail is the last field, so commas may stay.
fn meta_field(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The meta line of a game.
pub(crate) fn meta_line(r: &GameResult) -> String {
    format!(
        "{},{},{},{},{},{}",
        r.index + 1,
        r.attacker + 1,
        r.defender + 1,
        record::result_word(Some(r.outcome.without_reason())),
        r.outcome.reason,
        meta_field(&r.detail)
    )
}

/// The path of the meta file that goes with a records file.
pub(crate) fn meta_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".meta");
    PathBuf::from(s)
}

/// Why a records file cannot be resumed.
#[derive(Debug, Error)]
pub(crate) enum ResumeError {
    /// The file could not be read or repaired.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// More games than the schedule has.
    #[error(
        "{path} holds {found} games, more than the {scheduled} of this match: resume with the same flags"
    )]
    TooMany {
        /// The file.
        path: PathBuf,
        /// Games in it.
        found: usize,
        /// Games in the schedule.
        scheduled: usize,
    },
    /// A line that does not replay.
    #[error("line {line} of {path} does not replay: {why}")]
    Replay {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: RecordMismatch,
    },
    /// The records file has games but its meta file is gone: the games cannot be checked
    /// against this match.
    #[error(
        "{meta} is missing: the {games} games of {path} cannot be checked against this match's engines, openings, time control and rules; restore it, or give another --out to start a new match"
    )]
    MissingMeta {
        /// The records file.
        path: PathBuf,
        /// Its meta file.
        meta: PathBuf,
        /// Games in the records file.
        games: usize,
    },
    /// The meta file is there but the records file is gone: resuming would start the
    /// match again over the meta file's games.
    #[error(
        "{path} is missing but {meta} is there (a match with {games} games recorded): restore {path}, or remove {meta} to start the match again"
    )]
    MissingRecords {
        /// The records file.
        path: PathBuf,
        /// Its meta file.
        meta: PathBuf,
        /// Game lines in the meta file.
        games: usize,
    },
    /// The match header differs from this match's.
    #[error(
        "{path} was written by another match: {why}; resume with the same engines, openings, time control and rules"
    )]
    Header {
        /// The meta file.
        path: PathBuf,
        /// The first difference.
        why: String,
    },
}

/// Reads the complete lines of a file; a last line without its newline, left by an
/// interrupted run, is dropped (the file rewritten without it) and returned apart. A
/// missing file has no lines.
fn complete_lines(path: &Path) -> io::Result<(Vec<String>, Option<String>)> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(e) => return Err(e),
    };
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut cut = None;
    if keep != bytes.len() {
        cut = Some(String::from_utf8_lossy(bytes.get(keep..).unwrap_or_default()).into_owned());
        fs::write(path, bytes.get(..keep).unwrap_or_default())?;
    }
    let text = String::from_utf8_lossy(bytes.get(..keep).unwrap_or_default()).into_owned();
    Ok((text.lines().map(str::to_string).collect(), cut))
}

/// Why a line of a records file is not a game of this match.
#[derive(Debug, Error)]
pub(crate) enum RecordMismatch {
    /// Not a record.
    #[error(transparent)]
    Syntax(#[from] GameRecordError),
    /// A move differs from the scheduled opening.
    #[error("ply {ply} is {found}, the opening has {opening}")]
    Opening {
        /// The ply, from 1.
        ply: usize,
        /// The move in the record.
        found: AnyMove,
        /// The opening's move.
        opening: AnyMove,
    },
    /// Fewer moves than the opening.
    #[error("shorter than the opening of {0} plies")]
    Short(usize),
    /// The result is `Ongoing`.
    #[error("the game is not finished (Ongoing)")]
    Unfinished,
    /// The moves do not replay (why, as the core says it on the game's board).
    #[error("{0}")]
    Replay(String),
    /// The match's game has no start position on its board (it has: a variant checks
    /// its start when it is made).
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A move does not list all its captures.
    #[error("a move does not list the captures it makes")]
    Captures,
    /// The result contradicts the rules' ending.
    #[error(
        "the result is {}, the rules say {}",
        record::result_word(Some(*.found)),
        record::result_word(Some(*.rules))
    )]
    Result {
        /// The result field.
        found: Outcome<()>,
        /// The result the rules give.
        rules: Outcome<()>,
    },
}

/// Replays a records line from the start of the match's game under `rules` (see
/// [`GameRecordOf::replay_from`]; a Berserk game's under its own): the record must be
/// exactly the one the runner writes for the replayed game (every capture listed),
/// start with `opening`, be finished, and agree with the rules when they ended the
/// game. Returns the winner.
pub(crate) fn replay_record(
    line: &str,
    game: &MatchGame,
    rules: RuleSet,
    opening: &[AnyMove],
) -> Result<Option<Role>, RecordMismatch> {
    match game {
        MatchGame::Ordinary(variant) => crate::with_size!(variant.size(), G => {
            let start = variant.start_position::<G>()?;
            replay_record_on::<G>(line, start, rules, opening)
        }),
        MatchGame::Berserk { start, .. } => replay_berserk_record(line, start, opening),
    }
}

/// [`replay_record`] for a Berserk game from `start`: its records line
/// ([`berserk_record_line`]) replayed move by move, each move's listed captures checked.
fn replay_berserk_record(
    line: &str,
    start: &BerserkGameOf<S11>,
    opening: &[AnyMove],
) -> Result<Option<Role>, RecordMismatch> {
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, _, _, result] = fields.as_slice() else {
        return Err(GameRecordError::Fields(fields.len()).into());
    };
    let Some(found) = record::parse_result(result.trim())? else {
        return Err(RecordMismatch::Unfinished);
    };
    let mut words: Vec<&str> = moves.split_whitespace().collect();
    let timeout = words.last() == Some(&"timeout");
    if timeout {
        words.pop();
    }
    let mut game = start.clone();
    for (i, word) in words.iter().enumerate() {
        game.play_record(word)
            .map_err(|e| RecordMismatch::Replay(format!("ply {}: {e}", i + 1)))?;
    }
    let played: Vec<AnyMove> = game.plies().iter().map(|p| AnyMove::from(p.mv)).collect();
    if let Some((i, (&m, &want))) = played
        .iter()
        .zip(opening)
        .enumerate()
        .find(|(_, (m, want))| m != want)
    {
        return Err(RecordMismatch::Opening {
            ply: i + 1,
            found: m,
            opening: want,
        });
    }
    if played.len() < opening.len() {
        return Err(RecordMismatch::Short(opening.len()));
    }
    // A loss on time ends a game the rules had not ended.
    let status = if timeout && !game.status().is_over() {
        Status::won(game.to_move().opponent(), Reason::Time)
    } else {
        game.status()
    };
    if berserk_record_line(&game, timeout, found.winner) != line {
        return Err(RecordMismatch::Captures);
    }
    if let Some(by_rules) = record::result_of(status)
        && by_rules != found
    {
        return Err(RecordMismatch::Result {
            found,
            rules: by_rules,
        });
    }
    Ok(found.winner)
}

fn replay_record_on<G: Geometry>(
    line: &str,
    start: PositionOf<G>,
    rules: RuleSet,
    opening: &[AnyMove],
) -> Result<Option<Role>, RecordMismatch> {
    let record: GameRecordOf<G> = line.parse()?;
    if let Some(i) = record
        .moves
        .iter()
        .zip(opening)
        .position(|(m, want)| AnyMove::from(m.mv) != *want)
        && let (Some(m), Some(want)) = (record.moves.get(i), opening.get(i))
    {
        return Err(RecordMismatch::Opening {
            ply: i + 1,
            found: m.mv.into(),
            opening: *want,
        });
    }
    if record.moves.len() < opening.len() {
        return Err(RecordMismatch::Short(opening.len()));
    }
    let Some(found) = record.result else {
        return Err(RecordMismatch::Unfinished);
    };
    let game = record
        .replay_from(start, rules)
        .map_err(|e| RecordMismatch::Replay(e.to_string()))?;
    if GameRecordOf::from_game(&game, record.result) != record {
        return Err(RecordMismatch::Captures);
    }
    if let Some(by_rules) = record::result_of(game.status())
        && by_rules != found
    {
        return Err(RecordMismatch::Result {
            found,
            rules: by_rules,
        });
    }
    Ok(found.winner)
}

/// What `--resume` found in the records file.
#[derive(Debug)]
pub(crate) struct Resumed {
    /// The games done, in schedule order.
    pub(crate) done: Vec<GameResult>,
    /// What was repaired (a cut last line), for the user.
    pub(crate) warnings: Vec<String>,
}

/// The games already in a records file, for `--resume`: the `i`-th line is game `i` of
/// `schedule`, and must replay through the core from `game`'s start under `rules`
/// from that game's opening;
/// the meta file's header must equal `header`. Reasons come from the meta file when its
/// line matches.
pub(crate) fn read_done(
    out: &Path,
    schedule: &[Scheduled],
    game: &MatchGame,
    rules: RuleSet,
    header: &[String],
) -> Result<Resumed, ResumeError> {
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ResumeError::Io { path, source }
    };
    let meta_file = meta_path(out);
    let records_there = exists(out).map_err(io_err(out))?;
    let meta_there = exists(&meta_file).map_err(io_err(&meta_file))?;
    let (records, cut) = complete_lines(out).map_err(io_err(out))?;
    let (meta_lines, meta_cut) = complete_lines(&meta_file).map_err(io_err(&meta_file))?;
    if !meta_there && !records.is_empty() {
        return Err(ResumeError::MissingMeta {
            path: out.to_path_buf(),
            meta: meta_file,
            games: records.len(),
        });
    }
    if meta_there && !records_there {
        return Err(ResumeError::MissingRecords {
            path: out.to_path_buf(),
            games: meta_lines.iter().filter(|l| !l.starts_with('#')).count(),
            meta: meta_file,
        });
    }
    let mut warnings = Vec::new();
    for (path, cut) in [(out, cut), (meta_file.as_path(), meta_cut)] {
        if let Some(text) = cut {
            warnings.push(format!(
                "the last line of {} had no newline (a run stopped while writing it); dropped: '{}'",
                path.display(),
                shown(&text)
            ));
        }
    }
    let (old_header, meta): (Vec<String>, Vec<String>) =
        meta_lines.into_iter().partition(|l| l.starts_with('#'));
    if !records.is_empty() || !old_header.is_empty() {
        check_header(&meta_file, &old_header, header)?;
    }
    if records.len() > schedule.len() {
        return Err(ResumeError::TooMany {
            path: out.to_path_buf(),
            found: records.len(),
            scheduled: schedule.len(),
        });
    }
    let mut done = Vec::with_capacity(records.len());
    for (i, (record, scheduled)) in records.iter().zip(schedule).enumerate() {
        let winner = replay_record(record, game, rules, &scheduled.opening).map_err(|why| {
            ResumeError::Replay {
                path: out.to_path_buf(),
                line: i + 1,
                why,
            }
        })?;
        let (mut reason, mut detail) = (MatchReason::Unknown, String::new());
        if let Some(m) = meta.get(i) {
            let f: Vec<&str> = m.splitn(6, ',').collect();
            let expect = [
                (i + 1).to_string(),
                (scheduled.attacker + 1).to_string(),
                (scheduled.defender + 1).to_string(),
            ];
            if let [g, a, d, res, why, more] = f.as_slice()
                && [*g, *a, *d] == [&expect[0], &expect[1], &expect[2]]
                && winner_of(res) == Some(winner)
            {
                reason = why.parse().unwrap_or(MatchReason::Unknown);
                detail = more.to_string();
            }
        }
        done.push(GameResult {
            index: i,
            attacker: scheduled.attacker,
            defender: scheduled.defender,
            outcome: Outcome { winner, reason },
            detail,
            record: record.clone(),
        });
    }
    // Keep the meta file line-aligned with the records, under the header.
    if meta.len() != done.len() || old_header.is_empty() {
        let text: String = header
            .iter()
            .cloned()
            .chain(done.iter().map(meta_line))
            .map(|l| l + "\n")
            .collect();
        fs::write(&meta_file, text).map_err(io_err(&meta_file))?;
    }
    Ok(Resumed { done, warnings })
}

/// Whether a file is there (a missing one is no error; one that cannot be looked at is).
fn exists(path: &Path) -> io::Result<bool> {
    match fs::metadata(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// A header line as this version writes it: files written before it said `# rules:
/// rules: ...`, with the word twice, and still resume.
fn legacy(line: &str) -> String {
    match line.strip_prefix("# rules: rules: ") {
        Some(rest) => format!("# rules: {rest}"),
        None => line.to_string(),
    }
}

fn check_header(path: &Path, old: &[String], new: &[String]) -> Result<(), ResumeError> {
    let err = |why: String| ResumeError::Header {
        path: path.to_path_buf(),
        why,
    };
    if old.is_empty() {
        return Err(err("it has no match header (lines starting with #)".into()));
    }
    for i in 0..old.len().max(new.len()) {
        let (a, b) = (old.get(i).map(|l| legacy(l)), new.get(i));
        if a.as_ref() != b {
            return Err(err(format!(
                "it has '{}' where this match has '{}'",
                a.as_deref().unwrap_or("nothing"),
                b.map_or("nothing", String::as_str)
            )));
        }
    }
    Ok(())
}

/// Appends game results to the records file and its meta file, one line each, flushed at
/// once.
pub(crate) struct Writer {
    records: File,
    meta: File,
}

impl Writer {
    /// Opens both files for appending (creating them); a new meta file starts with the
    /// match header.
    pub(crate) fn open(out: &Path, header: &[String]) -> io::Result<Writer> {
        let open = |p: &Path| OpenOptions::new().create(true).append(true).open(p);
        let meta_file = meta_path(out);
        let fresh = fs::metadata(&meta_file).map_or(true, |m| m.len() == 0);
        let mut meta = open(&meta_file)?;
        if fresh {
            for line in header {
                writeln!(meta, "{line}")?;
            }
            meta.flush()?;
        }
        Ok(Writer {
            records: open(out)?,
            meta,
        })
    }

    /// Appends one game.
    pub(crate) fn append(&mut self, r: &GameResult) -> io::Result<()> {
        writeln!(self.records, "{}", r.record)?;
        self.records.flush()?;
        writeln!(self.meta, "{}", meta_line(r))?;
        self.meta.flush()
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn record_line() {
        use crate::core::game::Game;
        use crate::core::role::Role;
        use crate::core::rules::RuleSet;
        use crate::tools::matches::records::record_line;
        let mut g = Game::new(RuleSet::default());
        for m in ["d1-d3", "e5-e2", "g1-g3", "f4-c4", "g3-e3"] {
            g.play(m.parse().unwrap()).unwrap();
        }
        g.lose_on_time(Role::Defender).unwrap();
        assert_eq!(
            record_line(&g, Some(Role::Attacker)),
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black"
        );
    }
}
