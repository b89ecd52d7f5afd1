//! The OpenTafl Engine Protocol from the host's side: the runner hosts an `otep:CMD`
//! engine as OpenTafl would (the protocol and its formats are owned by
//! [`crate::protocol::otep`], which makes hnefi itself an OTEP engine).
//!
//! One process per game: the engine says `hello` (answered with `hello`), gets `rules`
//! (the match's OpenTafl rules string, `--rules STRING`, on its own board; the canonical
//! Copenhagen string for the Copenhagen family on 11x11), as OpenTafl starts a game (no
//! `side`: see [`new_game`]); every turn of the other side
//! (and every turn of the opening) comes as `opponent-move FROM-TO POSITION`, a Berserk
//! game's berserk turn as its moves joined by `|` (`c3-c5|c5-c7`); on its turn it gets
//! `clock` and `play SIDE` and answers `move FROM-TO`, acknowledged with `move
//! POSITION`, and in a berserk turn of its own `clock` and `play SIDE` again for each
//! further move, with no `opponent-move` between (as OpenTafl's host asks); the game ends with `finish CODE` and `goodbye`. `status` lines are
//! ignored (they are in the debug log), and so are the engine's requests the runner has
//! no use for; a request for `rules`, `side`, `position` or `clock` is answered.
//!
//! Clocks: with a time per move, each side is in overtime with that time left in the
//! current period (`clock MS* MS* S 1 1`); with a Fischer clock, the main times
//! (`clock MS MS 0 0 0`); without a time control, `clock -1 -1 0 0 0`.

use std::time::{Duration, Instant};

use crate::core::any_square::AnyMove;
use crate::core::geometry::BoardSize;
use crate::core::role::{ByRole, Role};
use crate::core::rules_source::RulesSource;
use crate::protocol::otep::{COPENHAGEN_RULES, parse_move_on, side_name};
use crate::time_control::TimeControl;

use super::dialect::{Fault, Generated, NotAMove, shown};
use super::engine::Process;

fn send(p: &mut Process, line: &str) -> Result<(), Fault> {
    p.send(line).map_err(Fault::from)
}

/// How many lines other than `status` an engine may write before its `hello`.
/// OpenTafl's own engine (`OpenTafl --engine`) first writes its log banner to stdout
/// (four lines: its version, Java's, twice that it has no settings file), and OpenTafl's
/// host skips any line it does not know; the bound makes an engine that writes on and
/// on without `hello` fail at once, not at the reply deadline.
pub(crate) const LINES_BEFORE_HELLO: usize = 64;

/// Waits for the engine's `hello` and answers it, skipping `status` lines and up to
/// [`LINES_BEFORE_HELLO`] others (a log banner) within `deadline`. More lines than that,
/// or only such lines before the deadline, is garbage, named by the first of them.
pub(crate) fn handshake(p: &mut Process, deadline: Instant) -> Result<(), Fault> {
    let mut skipped = 0_usize;
    let mut first: Option<String> = None;
    loop {
        let line = match p.read_line(deadline) {
            Ok(line) => line,
            Err(e) => {
                return Err(match (Fault::from(e), &first) {
                    (Fault::Timeout, Some(f)) => Fault::Malformed(format!(
                        "no hello before the deadline, {skipped} other lines, the first: '{f}'"
                    )),
                    (f, _) => f,
                });
            }
        };
        match line.split_whitespace().next() {
            Some("hello") => return send(p, "hello"),
            Some("status") | None => {}
            Some(_) => {
                skipped += 1;
                let f = first.get_or_insert_with(|| shown(&line));
                if skipped > LINES_BEFORE_HELLO {
                    return Err(Fault::Malformed(format!(
                        "no hello in its first {LINES_BEFORE_HELLO} lines, the first: '{f}'"
                    )));
                }
            }
        }
    }
}

/// The rules string an OTEP engine is told for the match's game: the `--rules` string
/// itself, or OpenTafl's Copenhagen for a family (the match refuses an OTEP engine on
/// any family game but Copenhagen 11x11).
pub(crate) fn rules_string(source: &RulesSource) -> &str {
    match source {
        RulesSource::Custom(c) => c.text(),
        RulesSource::Berserk(b) => b.text(),
        RulesSource::Family(_) => COPENHAGEN_RULES,
    }
}

/// Starts a game under `rules` (an OpenTafl rules string): `rules` alone, as OpenTafl's
/// host starts a game. The engine learns its side from each `play SIDE`; `side` is the
/// side to move in OpenTafl's engine (OpenTafl sends it only for analysis and replays),
/// so a `side defenders` before the attackers' first move made it refuse that move and
/// drop it silently, its board no longer the game's (session 50: its Brandub move
/// `d4-d7`, through the attackers' piece it had never seen move).
pub(crate) fn new_game(p: &mut Process, rules: &str) -> Result<(), Fault> {
    send(p, &format!("rules {rules}"))
}

/// Tells the engine about a turn of the other side (or of the opening): its moves,
/// oldest first, joined by `|` (OTEP's move list: several moves only in a berserk turn),
/// in simple notation (`FROM-TO`, as OpenTafl's host writes them to an engine that asked
/// for simple moves, and every OTEP engine reads), then `position`, the board after
/// them in OpenTafl's notation.
pub(crate) fn tell(p: &mut Process, turn: &[AnyMove], position: &str) -> Result<(), Fault> {
    let moves: Vec<String> = turn
        .iter()
        .map(|mv| format!("{}-{}", mv.from, mv.to))
        .collect();
    send(p, &format!("opponent-move {} {position}", moves.join("|")))
}

/// Acknowledges the engine's own move; `position` is the board after it.
pub(crate) fn accepted(p: &mut Process, position: &str) -> Result<(), Fault> {
    send(p, &format!("move {position}"))
}

/// Tells the engine how the game ended (`finish 1` draw, `2` attackers, `3` defenders).
pub(crate) fn finish(p: &mut Process, winner: Option<Role>) {
    let code = match winner {
        None => 1,
        Some(Role::Attacker) => 2,
        Some(Role::Defender) => 3,
    };
    let _ = p.send(&format!("finish {code}"));
}

/// The `clock` command for a time control and the clocks (attackers', defenders').
pub(crate) fn clock_command(time: TimeControl, clocks: ByRole<Duration>) -> String {
    match time {
        TimeControl::None => "clock -1 -1 0 0 0".into(),
        TimeControl::MoveTime(t) => {
            let ms = t.as_millis();
            format!("clock {ms}* {ms}* {} 1 1", ms.div_ceil(1000))
        }
        TimeControl::Fischer(_) => format!(
            "clock {} {} 0 0 0",
            clocks.attacker.as_millis(),
            clocks.defender.as_millis()
        ),
    }
}

/// Sends `clock` and `play SIDE` and reads up to the engine's `move` (until
/// `deadline`), answering its requests on the way (`rules` with `rules`, the game's
/// string; `position` with `position`, the board in OpenTafl's notation). An `error -1`
/// (critical) ends the game against it. A move is read on a board of `size`.
pub(crate) fn search(
    p: &mut Process,
    role: Role,
    clock: &str,
    (position, size, rules): (&str, BoardSize, &str),
    deadline: Instant,
) -> Result<Result<Generated, NotAMove>, Fault> {
    send(p, clock)?;
    send(p, &format!("play {}", side_name(role)))?;
    loop {
        let line = p.read_line(deadline).map_err(Fault::from)?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("move") => {
                let token = words.next().unwrap_or("");
                return Ok(match parse_move_on(token, size) {
                    Ok(mv) => Ok(Generated::Move(mv)),
                    Err(e) => Err(NotAMove(format!("not a move: '{}' ({e})", shown(token)))),
                });
            }
            Some("error") if words.next() == Some("-1") => {
                return Ok(Err(NotAMove(format!("critical error: '{}'", shown(&line)))));
            }
            Some("rules") => send(p, &format!("rules {rules}"))?,
            Some("side") => send(p, &format!("side {}", side_name(role)))?,
            Some("position") => send(p, &format!("position {position}"))?,
            Some("clock") => send(p, clock)?,
            _ => {}
        }
    }
}

/// How long a `goodbye` may take before the process is killed anyway.
pub(crate) const GOODBYE_WAIT: Duration = Duration::from_millis(200);

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn clock_command() {
        use crate::core::role::ByRole;
        use crate::time_control::Fischer;
        use crate::time_control::TimeControl;
        use crate::tools::matches::otep::clock_command;
        use std::time::Duration;
        let ms = Duration::from_millis;
        assert_eq!(
            clock_command(TimeControl::MoveTime(ms(250)), ByRole::default()),
            "clock 250* 250* 1 1 1"
        );
        let fischer = TimeControl::Fischer(Fischer {
            base: ms(60000),
            increment: ms(500),
        });
        let clocks = ByRole {
            attacker: ms(59000),
            defender: ms(60000),
        };
        assert_eq!(clock_command(fischer, clocks), "clock 59000 60000 0 0 0");
        assert_eq!(
            clock_command(TimeControl::None, ByRole::default()),
            "clock -1 -1 0 0 0"
        );
    }
}
