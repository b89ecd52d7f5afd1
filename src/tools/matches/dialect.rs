//! The protocol dialects the runner speaks: hnefi's own (`docs/PROTOCOL.md`), the reference
//! engine's (`hnefatafl-text-protocol` on stdin/stdout), the reference engine's TCP
//! mode, where the runner is the relay, the UCI style of TaflZero ([`super::uci`]) and
//! the OpenTafl Engine Protocol ([`super::otep`]). The first three share the command
//! set of the Hnefatafl Text Protocol and differ in framing:
//!
//! | | hnefi | htp | htp-tcp |
//! |---|---|---|---|
//! | reply framing | `=`/`?` line, more lines, an empty line | one `=`/`?` line; other lines (its board dumps, `2 turn: ...`) are noise | `generate_move` only: one bare line |
//! | `generate_move` reply | `= play ROLE FROM TO` exactly | `= play ROLE FROM TO, score: ...` | `play ROLE FROM TO` |
//! | `play` of the other side | `play ROLE FROM TO`, replied | the same, replied | the same, no reply |
//! | new game | `clear_board` | a new process | a new process and connection |
//! | another board | `board_size N`, replied | `board_size N`, replied | `board_size N`, no reply |
//!
//! `htp03` speaks the protocol of the crate's 0.3.1 release, as `hnefi --compat 0.3`
//! does ([`crate::protocol::compat03`], which owns its formats): files `a`..`l` without
//! `i`, `black` (the attackers) and `white`, `play COLOR FROM TO`, `generate_move`
//! answered `COLOR FROM TO` (or `COLOR resigns`), `reset_board` for a new game and
//! `time_settings fischer MINUTES ADD_SECONDS` (no `time_left`). Its replies are read as
//! the reference engine's are (the `=`/`?` line; other lines, blank ones included, are
//! noise), so that both framings work.

use std::str::FromStr;
use std::time::Instant;

use thiserror::Error;

use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::geometry::{BoardSize, S11};
use crate::core::role::Role;
use crate::protocol::compat03::notation as compat03;

use super::engine::{EngineError, Process};

/// How to talk to one engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EngineDialect {
    /// hnefi's protocol (`docs/PROTOCOL.md` framing).
    Hnefi,
    /// The reference engine `hnefatafl-text-protocol` on stdin and stdout.
    Htp,
    /// The reference engine's TCP mode: it connects to the runner's relay on
    /// 127.0.0.1:49152.
    HtpTcp,
    /// A UCI-style tafl engine (TaflZero, ZevraTafl): `uci`, `position startpos moves
    /// ...`, `go`, `bestmove`.
    Uci,
    /// An OpenTafl Engine Protocol engine: `hello`, `rules`, `play`, `move`, ...
    Otep,
    /// The protocol of the reference crate's 0.3.1 release (`hnefi --compat 0.3`).
    Htp03,
}

/// A reply to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Success, with the result text (lines joined by `\n`).
    Ok(String),
    /// Failure, with the message.
    Err(String),
}

/// Why no usable reply came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// No reply before the deadline.
    Timeout,
    /// The engine exited or closed its output.
    Exited,
    /// The engine could not be started.
    Start(String),
    /// The engine wrote something that is not a reply.
    Malformed(String),
}

impl From<EngineError> for Fault {
    fn from(e: EngineError) -> Fault {
        match e {
            EngineError::Timeout => Fault::Timeout,
            EngineError::Exited => Fault::Exited,
            EngineError::Start(why) => Fault::Start(why),
            // The game ends here; the runner records no game that an interrupt cut.
            EngineError::Interrupted => Fault::Exited,
        }
    }
}

/// What an engine's `generate_move` reply says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Generated {
    /// A move (its squares named apart from a board size: the referee checks that they
    /// are on the game's board).
    Move(AnyMove),
    /// A move whose squares are not on one line, or which is for the other side: illegal.
    Illegal(String),
    /// The engine resigns.
    Resign,
}

/// A reply to a move request that is not a move (garbage, a failure, a critical error);
/// the text says what came instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub(crate) struct NotAMove(pub String);

/// At most this many characters of an engine's text go into messages.
const SHOWN: usize = 200;

/// The first characters of a text, for messages (commas and control characters
/// replaced, so that it fits a CSV field; `...` marks a cut).
pub(crate) fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(SHOWN)
        .map(|c| if c.is_control() || c == ',' { ' ' } else { c })
        .collect();
    if text.chars().nth(SHOWN).is_some() {
        out.push_str("...");
    }
    out
}

/// Splits `=12 text` / `? text` into the text after the marker and an optional id.
fn after_marker(line: &str) -> &str {
    let rest = line.get(1..).unwrap_or("");
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix(' ').unwrap_or(rest)
}

impl EngineDialect {
    /// The dialect named by an engine spec's prefix, and the command after it:
    /// `htp:CMD`, `htp-tcp:CMD`, `uci:CMD`, `otep:CMD`, `hnefi:CMD` or a bare `CMD`
    /// (hnefi).
    pub(crate) fn from_spec(spec: &str) -> (EngineDialect, &str) {
        for (prefix, d) in [
            ("htp-tcp:", EngineDialect::HtpTcp),
            ("htp03:", EngineDialect::Htp03),
            ("htp:", EngineDialect::Htp),
            ("uci:", EngineDialect::Uci),
            ("otep:", EngineDialect::Otep),
            ("hnefi:", EngineDialect::Hnefi),
        ] {
            if let Some(rest) = spec.strip_prefix(prefix) {
                return (d, rest);
            }
        }
        (EngineDialect::Hnefi, spec)
    }

    /// The prefix that selects this dialect in an engine spec.
    pub(crate) fn name(self) -> &'static str {
        match self {
            EngineDialect::Hnefi => "hnefi",
            EngineDialect::Htp => "htp",
            EngineDialect::HtpTcp => "htp-tcp",
            EngineDialect::Uci => "uci",
            EngineDialect::Otep => "otep",
            EngineDialect::Htp03 => "htp03",
        }
    }

    /// True when the engine plays one game per process (a new process each game).
    pub(crate) fn one_game_per_process(self) -> bool {
        matches!(
            self,
            EngineDialect::Htp | EngineDialect::HtpTcp | EngineDialect::Otep
        )
    }

    /// The `play` command that tells the engine of `mover`'s move, in its notation.
    pub(crate) fn play_command(self, mover: Role, mv: AnyMove) -> String {
        let squares_03 = mv.from.on::<S11>().zip(mv.to.on::<S11>());
        match (self, squares_03) {
            // The 0.3.1 release plays 11x11 only (the match refuses it on other boards).
            (EngineDialect::Htp03, Some((from, to))) => format!(
                "play {} {} {}",
                compat03::colour_name(mover),
                compat03::square_name(from),
                compat03::square_name(to)
            ),
            _ => format!("play {mover} {} {}", mv.from, mv.to),
        }
    }

    /// Whether an engine of this dialect can be told a board other than 11x11 (hnefi's
    /// protocol and the reference engine's dialects have `board_size`; the UCI style,
    /// OTEP as the runner hosts it for a family (the Copenhagen rules string) and the
    /// 0.3.1 release play 11x11 only). OTEP plays any board a rules string names
    /// ([`EngineDialect::told_rules_strings`]).
    pub(crate) fn plays_other_boards(self) -> bool {
        matches!(
            self,
            EngineDialect::Hnefi | EngineDialect::Htp | EngineDialect::HtpTcp
        )
    }

    /// Whether an engine of this dialect can be told an OpenTafl rules string: hnefi's
    /// protocol by `set_rule rules STRING`, OTEP by its `rules STRING`.
    pub(crate) fn told_rules_strings(self) -> bool {
        matches!(self, EngineDialect::Hnefi | EngineDialect::Otep)
    }

    /// The command that asks for a move of `role` (text-protocol dialects).
    pub(crate) fn generate_move(self, role: Role) -> String {
        match self {
            EngineDialect::HtpTcp => format!("generate_move {role}"),
            _ => "generate_move".to_string(),
        }
    }

    /// Reads one reply, waiting until `deadline` at most.
    pub(crate) fn read_reply(self, p: &mut Process, deadline: Instant) -> Result<Reply, Fault> {
        match self {
            EngineDialect::Hnefi => {
                let mut first = p.read_line(deadline)?;
                while first.trim().is_empty() {
                    first = p.read_line(deadline)?;
                }
                let ok = match first.as_bytes().first() {
                    Some(b'=') => true,
                    Some(b'?') => false,
                    _ => return Err(Fault::Malformed(shown(&first))),
                };
                let mut text = after_marker(&first).to_string();
                loop {
                    let line = p.read_line(deadline)?;
                    if line.is_empty() {
                        break;
                    }
                    text.push('\n');
                    text.push_str(&line);
                }
                Ok(if ok {
                    Reply::Ok(text)
                } else {
                    Reply::Err(text)
                })
            }
            EngineDialect::Htp | EngineDialect::Htp03 => loop {
                let line = p.read_line(deadline)?;
                match line.as_bytes().first() {
                    Some(b'=') => return Ok(Reply::Ok(after_marker(&line).to_string())),
                    Some(b'?') => return Ok(Reply::Err(after_marker(&line).to_string())),
                    _ => continue,
                }
            },
            EngineDialect::HtpTcp | EngineDialect::Uci | EngineDialect::Otep => loop {
                let line = p.read_line(deadline)?;
                if !line.trim().is_empty() {
                    return Ok(Reply::Ok(line));
                }
            },
        }
    }

    /// Reads the text of a `generate_move` reply for the side `role`. hnefi must write
    /// exactly `play ROLE FROM TO` (or `play ROLE resign`); the reference engine may add
    /// text after a comma.
    ///
    /// ```
    /// use hnefi::core::role::Role;
    /// use hnefi::tools::matches::dialect::{EngineDialect, Generated};
    /// let g = EngineDialect::Htp.parse_generated("play defender f8 f9, score: 19996", Role::Defender);
    /// assert!(matches!(g, Ok(Generated::Move(m)) if m.to_string() == "f8-f9"));
    /// assert!(EngineDialect::Hnefi.parse_generated("play defender f8 f9, score: 1", Role::Defender).is_err());
    /// assert!(EngineDialect::Hnefi.parse_generated("hello", Role::Defender).is_err());
    /// // The reference engine's resignation, as it really prints it:
    /// let r = EngineDialect::Htp.parse_generated("play defender resigns _  score: -inf", Role::Defender);
    /// assert!(matches!(r, Ok(Generated::Resign)));
    /// assert!(EngineDialect::Hnefi.parse_generated("play defender resigns _", Role::Defender).is_err());
    /// ```
    #[cfg(test)]
    pub(crate) fn parse_generated(self, text: &str, role: Role) -> Result<Generated, NotAMove> {
        self.parse_generated_on(text, role, BoardSize::S11)
    }
    /// [`EngineDialect::parse_generated`] on a board of `size` (its squares named as that
    /// board names them: `m13` on 13x13).
    pub(crate) fn parse_generated_on(
        self,
        text: &str,
        role: Role,
        size: BoardSize,
    ) -> Result<Generated, NotAMove> {
        if self == EngineDialect::Htp03 {
            return parse_generated_03(text, role);
        }
        let body = match self {
            EngineDialect::Hnefi => text,
            _ => text.split(',').next().unwrap_or(""),
        };
        let malformed = || NotAMove(format!("not a move reply: '{}'", shown(text)));
        let words: Vec<&str> = body.split_whitespace().collect();
        let (claimed, rest) = match words.as_slice() {
            ["play", r, rest @ ..] => (Role::from_str(r).map_err(|_| malformed())?, rest),
            _ => return Err(malformed()),
        };
        let is_resign =
            |w: &str| w.eq_ignore_ascii_case("resign") || w.eq_ignore_ascii_case("resigns");
        let resigns = |rest: &[&str]| match rest {
            [w] => is_resign(w),
            // The reference engine resigns with `play ROLE resigns _  score: ...` (no comma).
            [w, ..] => is_resign(w) && self != EngineDialect::Hnefi,
            [] => false,
        };
        generated_move(
            claimed,
            role,
            rest,
            resigns,
            |w| AnySquare::parse(w, size).ok(),
            malformed,
        )
    }
}

/// The move or resignation of a `generate_move` reply once its role word is read as
/// `claimed`: a resignation when `resigns` says so, else `FROM TO` in the notation of
/// `square`. A reply for the side not to move is an illegal move, not a malformed reply.
fn generated_move(
    claimed: Role,
    role: Role,
    rest: &[&str],
    resigns: impl Fn(&[&str]) -> bool,
    square: impl Fn(&str) -> Option<AnySquare>,
    malformed: impl Fn() -> NotAMove,
) -> Result<Generated, NotAMove> {
    let generated = match rest {
        _ if resigns(rest) => Generated::Resign,
        [from, to] => {
            let from = square(from).ok_or_else(&malformed)?;
            let to = square(to).ok_or_else(&malformed)?;
            match AnyMove::new(from, to) {
                Some(mv) => Generated::Move(mv),
                None => Generated::Illegal(format!("{from}-{to} is not a straight move")),
            }
        }
        _ => return Err(malformed()),
    };
    if claimed != role {
        return Ok(Generated::Illegal(format!(
            "played for the {claimed}s, but the {role}s are to move"
        )));
    }
    Ok(generated)
}

/// Reads a 0.3.1 `generate_move` reply: `COLOR FROM TO` or `COLOR resigns`, in that
/// release's notation.
fn parse_generated_03(text: &str, role: Role) -> Result<Generated, NotAMove> {
    let malformed = || NotAMove(format!("not a move reply: '{}'", shown(text)));
    let words: Vec<&str> = text.split_whitespace().collect();
    let (claimed, rest) = match words.as_slice() {
        [c, rest @ ..] => (compat03::parse_colour(c).map_err(|_| malformed())?, rest),
        _ => return Err(malformed()),
    };
    let resigns = |rest: &[&str]| matches!(rest, [w] if w.eq_ignore_ascii_case("resigns"));
    let square = |w: &str| compat03::parse_square(w).ok().map(AnySquare::from);
    generated_move(claimed, role, rest, resigns, square, malformed)
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn shown() {
        use crate::tools::matches::dialect::shown;
        assert_eq!(shown("a,b\tc"), "a b c");
        assert!(shown(&"x".repeat(500)).ends_with("..."));
    }

    #[test]
    fn dialect_from_spec() {
        use crate::tools::matches::dialect::EngineDialect;
        assert_eq!(
            EngineDialect::from_spec("htp:hnefatafl-text-protocol"),
            (EngineDialect::Htp, "hnefatafl-text-protocol")
        );
        assert_eq!(
            EngineDialect::from_spec("uci:./zevratafl"),
            (EngineDialect::Uci, "./zevratafl")
        );
        assert_eq!(
            EngineDialect::from_spec("hnefi --depth 1"),
            (EngineDialect::Hnefi, "hnefi --depth 1")
        );
    }

    #[test]
    fn dialect_parse_generated() {
        use crate::core::role::Role;
        use crate::tools::matches::dialect::{EngineDialect, Generated};
        let g =
            EngineDialect::Htp.parse_generated("play defender f8 f9, score: 19996", Role::Defender);
        assert!(matches!(g, Ok(Generated::Move(m)) if m.to_string() == "f8-f9"));
        assert!(
            EngineDialect::Hnefi
                .parse_generated("play defender f8 f9, score: 1", Role::Defender)
                .is_err()
        );
        assert!(
            EngineDialect::Hnefi
                .parse_generated("hello", Role::Defender)
                .is_err()
        );
        // The reference engine's resignation, as it really prints it:
        let r = EngineDialect::Htp
            .parse_generated("play defender resigns _  score: -inf", Role::Defender);
        assert!(matches!(r, Ok(Generated::Resign)));
        assert!(
            EngineDialect::Hnefi
                .parse_generated("play defender resigns _", Role::Defender)
                .is_err()
        );
    }

    #[test]
    fn parse_generated_03() {
        use crate::core::role::Role;
        use crate::tools::matches::dialect::{EngineDialect, Generated};
        let g = EngineDialect::Htp03.parse_generated("black l4 j4", Role::Attacker);
        assert!(matches!(g, Ok(Generated::Move(m)) if m.to_string() == "k4-i4"));
        let r = EngineDialect::Htp03.parse_generated("white resigns", Role::Defender);
        assert!(matches!(r, Ok(Generated::Resign)));
        assert!(
            EngineDialect::Htp03
                .parse_generated("play attacker k4 i4", Role::Attacker)
                .is_err()
        );
        assert!(matches!(
            EngineDialect::Htp03.parse_generated("white f8 f9", Role::Attacker),
            Ok(Generated::Illegal(_))
        ));
    }
}
