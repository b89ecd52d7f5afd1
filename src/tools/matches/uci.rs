//! The UCI style of tafl engines (TaflZero and its predecessor ZevraTafl, crate
//! `taflzero`), as their documentation describes it:
//!
//! | runner | engine |
//! |---|---|
//! | `uci` | `id ...`, `option ...`, `uciok` (in any order around it) |
//! | `isready` | `readyok` |
//! | `ucinewgame` | nothing (TaflZero answers `unknown command`: ignored) |
//! | `position startpos moves d1d3 e5e2 ...` | nothing, or a confirmation line (ignored) |
//! | `go movetime MS` or `go wtime MS btime MS winc MS binc MS` | `info ...` lines, then `bestmove FROMTO` |
//! | `stop`, `quit` | (`bye`) |
//!
//! The start position has the attackers to move (TaflZero's start FEN ends in `a`), and
//! the engine follows the side to move by counting the moves of `position`: the runner
//! sends every move of the game from the start (opening included) each time. Moves are
//! the two squares without a dash, with ranks of one or two digits (`a10a11`); squares are
//! named as hnefi names them (files a..k, rank 1 at the bottom, the first rank of the FEN
//! at the top). Any other line is ignored (some engines echo every command); `info` lines
//! are kept for the debug log and for the details of a loss on time.
//!
//! In the chess colours of UCI, the attackers are black and move first (as in the
//! records' result field, where `Black` means the attackers won): `btime`/`binc` are the
//! attackers' clock, `wtime`/`winc` the defenders'. Not every engine reads a clock
//! (TaflZero knows only `movetime` and `nodes`): an engine that answers `go wtime ...`
//! with a complaint (a line with `unknown`, `unsupported` or `invalid`) gets `go
//! movetime` from then on, with a budget from its clock; the time it took to complain
//! counts.

use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::core::moves::Move;
use crate::core::square::Square;

use super::dialect::{Fault, Generated, NotAMove, shown};
use super::engine::Process;

/// Sends `uci` and waits for `uciok`, then `isready` and `readyok`. Lines before them
/// are ignored, but kept (up to a few) for the message if they never come.
pub(crate) fn handshake(p: &mut Process, deadline: Instant) -> Result<(), Fault> {
    send(p, "uci")?;
    wait_for(p, "uciok", deadline)?;
    ready(p, deadline)
}

/// Sends `ucinewgame` and synchronises with `isready`.
pub(crate) fn new_game(p: &mut Process, deadline: Instant) -> Result<(), Fault> {
    send(p, "ucinewgame")?;
    ready(p, deadline)
}

fn ready(p: &mut Process, deadline: Instant) -> Result<(), Fault> {
    send(p, "isready")?;
    wait_for(p, "readyok", deadline)
}

fn send(p: &mut Process, line: &str) -> Result<(), Fault> {
    p.send(line).map_err(Fault::from)
}

/// Reads until a line whose first word is `word`. On a timeout, the lines seen instead
/// make the fault's message (garbage is reported as such).
fn wait_for(p: &mut Process, word: &str, deadline: Instant) -> Result<(), Fault> {
    let mut seen: Vec<String> = Vec::new();
    loop {
        match p.read_line(deadline) {
            Ok(line) => {
                if line.split_whitespace().next() == Some(word) {
                    return Ok(());
                }
                if seen.len() < 3 && !line.trim().is_empty() {
                    seen.push(shown(&line));
                }
            }
            Err(e) => {
                let fault = Fault::from(e);
                return Err(match (fault, seen.is_empty()) {
                    (Fault::Timeout, false) => {
                        Fault::Malformed(format!("no {word}, only: {}", seen.join(" | ")))
                    }
                    (f, _) => f,
                });
            }
        }
    }
}

/// The `position` command for a game's moves from the start.
pub(crate) fn position_command(moves: &[Move]) -> String {
    let mut line = String::from("position startpos");
    if !moves.is_empty() {
        line.push_str(" moves");
        for mv in moves {
            line.push(' ');
            line.push_str(&format!("{}{}", mv.from, mv.to));
        }
    }
    line
}

/// What to search for: a fixed time, or the clocks (attackers', defenders') and the
/// increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Go {
    /// `go movetime MS`.
    MoveTime(Duration),
    /// `go wtime ... btime ... winc ... binc ...`.
    Clock {
        /// The attackers' time left (`btime`).
        attackers: Duration,
        /// The defenders' time left (`wtime`).
        defenders: Duration,
        /// The increment of both (`winc`, `binc`).
        increment: Duration,
    },
}

impl Go {
    /// The `go` command.
    pub(crate) fn command(self) -> String {
        match self {
            Go::MoveTime(t) => format!("go movetime {}", t.as_millis().max(1)),
            Go::Clock {
                attackers,
                defenders,
                increment,
            } => format!(
                "go wtime {} btime {} winc {} binc {}",
                defenders.as_millis(),
                attackers.as_millis(),
                increment.as_millis(),
                increment.as_millis()
            ),
        }
    }
}

/// A per-move budget from a clock, for engines that take only `movetime`: a thirtieth of
/// the time left plus most of the increment, and never more than a fifth of it.
pub(crate) fn budget(left: Duration, increment: Duration) -> Duration {
    let soft = left / 30 + increment.mul_f64(0.8);
    soft.min(left / 5 + increment).max(Duration::from_millis(1))
}

/// True for a line in which an engine complains about a command it does not know.
fn is_complaint(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    ["unknown", "unsupported", "invalid"]
        .iter()
        .any(|w| l.contains(w))
}

/// What a search produced.
#[derive(Debug)]
pub(crate) struct Searched {
    /// The move (or resignation) of `bestmove`.
    pub(crate) generated: Result<Generated, NotAMove>,
    /// The last `info` line, if any.
    pub(crate) last_info: Option<String>,
    /// False if the engine complained about `go wtime ...` (see the module notes).
    pub(crate) clock_understood: bool,
}

/// Sends `position` and `go` and reads up to `bestmove` (until `deadline`). `fallback`
/// is the `go movetime` budget for an engine that complains about a clock.
pub(crate) fn search(
    p: &mut Process,
    moves: &[Move],
    go: Go,
    fallback: Duration,
    deadline: Instant,
) -> Result<Searched, Fault> {
    send(p, &position_command(moves))?;
    let go_line = go.command();
    send(p, &go_line)?;
    let mut clock_pending = matches!(go, Go::Clock { .. });
    let mut clock_understood = true;
    let mut last_info = None;
    loop {
        let line = p.read_line(deadline).map_err(Fault::from)?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") => {
                return Ok(Searched {
                    generated: parse_bestmove(words.next().unwrap_or("")),
                    last_info,
                    clock_understood,
                });
            }
            Some("info") => last_info = Some(shown(&line)),
            _ if clock_pending && line.trim() != go_line && is_complaint(&line) => {
                clock_pending = false;
                clock_understood = false;
                send(p, &Go::MoveTime(fallback).command())?;
            }
            _ => {}
        }
    }
}

/// Reads the move of `bestmove`: `FROMTO` (`d1d3`, `a10a11`); `(none)`,
/// `0000` and `resign` resign.
pub(crate) fn parse_bestmove(token: &str) -> Result<Generated, NotAMove> {
    if matches!(token, "(none)" | "0000" | "resign") {
        return Ok(Generated::Resign);
    }
    let malformed = || NotAMove(format!("not a bestmove: '{}'", shown(token)));
    // The destination starts at the second letter.
    let split = token
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .ok_or_else(malformed)?;
    let (from, to) = token.split_at(split);
    let from = Square::from_str(from).map_err(|_| malformed())?;
    let to = Square::from_str(to).map_err(|_| malformed())?;
    Ok(match Move::new(from, to) {
        Some(mv) => Generated::Move(mv.into()),
        None => Generated::Illegal(format!("{from}-{to} is not a straight move")),
    })
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn position_command() {
        use crate::tools::matches::uci::position_command;
        let moves = ["d1-d3".parse().unwrap(), "a10-a11".parse().unwrap()];
        assert_eq!(
            position_command(&moves),
            "position startpos moves d1d3 a10a11"
        );
        assert_eq!(position_command(&[]), "position startpos");
    }

    #[test]
    fn go_command() {
        use crate::tools::matches::uci::Go;
        use std::time::Duration;
        let ms = Duration::from_millis;
        assert_eq!(Go::MoveTime(ms(250)).command(), "go movetime 250");
        let clock = Go::Clock {
            attackers: ms(6000),
            defenders: ms(5000),
            increment: ms(100),
        };
        assert_eq!(
            clock.command(),
            "go wtime 5000 btime 6000 winc 100 binc 100"
        );
    }

    #[test]
    fn parse_bestmove() {
        use crate::tools::matches::dialect::Generated;
        use crate::tools::matches::uci::parse_bestmove;
        let g = parse_bestmove("a10a11");
        assert!(matches!(g, Ok(Generated::Move(m)) if m.to_string() == "a10-a11"));
        assert!(matches!(parse_bestmove("(none)"), Ok(Generated::Resign)));
        assert!(matches!(parse_bestmove("d1e2"), Ok(Generated::Illegal(_))));
        assert!(parse_bestmove("d1-d3").is_err());
        assert!(parse_bestmove("").is_err());
    }
}
