//! The games of a file to annotate, in one of four formats, told apart by the file's
//! content ([`Format::of`]).
//!
//! One game per line, in either of two formats, told apart by a comma:
//!
//! - A records line, the format of `tests/data/copenhagen.csv`
//!   (`moves,attacker_captures,defender_captures,result`, [`crate::core::record`]), as
//!   `hnefi match --out` writes them: the counts and the result are checked.
//! - A plain move list: the moves alone, separated by spaces (`h1-h3 f8-i8 d1-d3`), each
//!   `from-to` with optional capture suffixes (`g3-e3xe2`), optionally ending with
//!   `timeout` (the side to move lost on time): the records format's moves field, and the
//!   record `hnefi bot` logs of each finished game.
//!
//! Either way the game is played from the start position of the game of `--rules` on
//! `--board-size`, its first mover first. Empty lines and lines starting with `#` are no
//! game.
//!
//! Or a game written over several lines, each move with the line it is on
//! ([`WrittenGame`]): hnefatafl.org's client's PGN export ([`super::pgn`]) or an OpenTafl
//! game record, `.otg` ([`super::otg`]).

use thiserror::Error;

use crate::core::game::GameOf;

use crate::core::geometry::Geometry;
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::record::{GameRecordError, GameRecordOf, ReplayErrorOf};
use crate::core::rules::RuleSet;

use super::written::{Notation, WrittenGame};

/// One game's line of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameLine<'a> {
    /// Its number in the file, from 1.
    pub(crate) line: usize,
    /// The line's text.
    pub(crate) text: &'a str,
}

/// The lines of `text` that hold a game, with their numbers.
pub(crate) fn game_lines(text: &str) -> Vec<GameLine<'_>> {
    (1..)
        .zip(text.lines())
        .map(|(line, text)| GameLine {
            line,
            text: text.trim(),
        })
        .filter(|g| !g.text.is_empty() && !g.text.starts_with('#'))
        .collect()
}

/// The formats of a file of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// One game per line: records lines or plain move lists.
    Lines,
    /// hnefatafl.org's client's PGN export ([`super::pgn`]).
    HnefataflOrg,
    /// An OpenTafl game record ([`super::otg`]).
    OpenTafl,
}

impl Format {
    /// The format of `text`, by its first line that is not empty: a tag `[Name "value"]`
    /// opens a PGN export, a tag `[name:value]` an OpenTafl game record; anything else is a
    /// file of games one per line.
    pub(crate) fn of(text: &str) -> Format {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty());
        let Some(tag) = first.and_then(|l| l.strip_prefix('[')) else {
            return Format::Lines;
        };
        let name_end = tag
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(tag.len());
        match tag.get(name_end..).and_then(|rest| rest.chars().next()) {
            Some(':') => Format::OpenTafl,
            Some(' ') if name_end > 0 => Format::HnefataflOrg,
            _ => Format::Lines,
        }
    }
}

/// A game of a file, in the format the file has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FileGame<'a> {
    /// One line's game.
    Line(GameLine<'a>),
    /// A game over several lines.
    Written(WrittenGame<'a>),
}

impl FileGame<'_> {
    /// The line the game starts on, from 1.
    pub(crate) fn line(&self) -> usize {
        match self {
            FileGame::Line(g) => g.line,
            FileGame::Written(g) => g.line,
        }
    }
}

/// Why a move of a [`WrittenGame`] cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum WrittenMoveError {
    /// Not a move of hnefatafl.org's export on this board.
    #[error(transparent)]
    HnefataflOrg(#[from] super::pgn::PgnMoveError),
    /// Not an OpenTafl move record on this board.
    #[error(transparent)]
    OpenTafl(#[from] crate::protocol::otep::OtepError),
}

/// Why a line's game of the board of `G` cannot be annotated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum GameLineError<G: Geometry> {
    /// The line is no record and no move list.
    #[error(transparent)]
    Record(#[from] GameRecordError),
    /// A move is illegal in its position, or captures other pieces than it lists.
    #[error(transparent)]
    Replay(#[from] ReplayErrorOf<G>),
    /// What is wrong with a game over several lines, and the line of the move at fault.
    #[error("line {line}, {source}")]
    AtLine {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        source: WrittenError<G>,
    },
}

/// Why a game over several lines of the board of `G` cannot be annotated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum WrittenError<G: Geometry> {
    /// A move cannot be read.
    #[error("ply {ply} ({token}): {source}")]
    Move {
        /// The ply, from 1.
        ply: usize,
        /// The move as written (shortened).
        token: String,
        /// What is wrong with it.
        source: WrittenMoveError,
    },
    /// A move is illegal in its position, or captures other pieces than it lists.
    #[error(transparent)]
    Replay(#[from] ReplayErrorOf<G>),
}

/// A game read from its line and replayed under the rules.
#[derive(Clone, Debug)]
pub(crate) struct ReadGame<G: Geometry> {
    /// Its moves.
    pub(crate) record: GameRecordOf<G>,
    /// The result field of a records line or an OpenTafl record's result tag (`None`
    /// inside: `Ongoing`); `None` for a format without one.
    pub(crate) result: Option<Option<Outcome<()>>>,
    /// The game after every move (and the final `timeout`).
    pub(crate) game: GameOf<G>,
}

/// Reads a game of the file and replays it from `start` under `rules`, as [`read_game`]
/// does; an error in a game over several lines names the line of the move at fault.
pub(crate) fn read_file_game<G: Geometry>(
    game: &FileGame<'_>,
    start: PositionOf<G>,
    rules: RuleSet,
) -> Result<ReadGame<G>, GameLineError<G>> {
    match game {
        FileGame::Line(g) => read_game(g.text, start, rules),
        FileGame::Written(g) => read_written(g, start, rules),
    }
}

/// Reads and replays a game over several lines.
fn read_written<G: Geometry>(
    written: &WrittenGame<'_>,
    start: PositionOf<G>,
    rules: RuleSet,
) -> Result<ReadGame<G>, GameLineError<G>> {
    let at = |ply: usize, e: WrittenError<G>| {
        let line = ply
            .checked_sub(1)
            .and_then(|i| written.moves.get(i))
            .map_or(written.line, |m| m.line);
        GameLineError::AtLine { line, source: e }
    };
    let mut moves = Vec::with_capacity(written.moves.len());
    for (i, m) in written.moves.iter().enumerate() {
        let read = match written.notation {
            Notation::HnefataflOrg => super::pgn::parse_move::<G>(m.text).map_err(Into::into),
            Notation::OpenTafl => crate::protocol::otep::parse_record_move::<G>(m.text)
                .map_err(WrittenMoveError::from),
        };
        let ply = i + 1;
        moves.push(read.map_err(|source| {
            let token = crate::core::excerpt::excerpt(m.text);
            at(ply, WrittenError::Move { ply, token, source })
        })?);
    }
    let record = GameRecordOf {
        moves,
        timeout: false,
        result: written.result.flatten(),
    };
    let game = record.replay_from(start, rules).map_err(|e| {
        let ply = match &e {
            ReplayErrorOf::Illegal { ply, .. }
            | ReplayErrorOf::Captures { ply, .. }
            | ReplayErrorOf::Timeout { ply, .. } => *ply,
        };
        at(ply, WrittenError::Replay(e))
    })?;
    Ok(ReadGame {
        record,
        result: written.result,
        game,
    })
}

/// Reads the game of a line ([`game_lines`]) and replays it from `start` under `rules`,
/// as the replay test replays the records (`tests/replay.rs`): every move legal, every
/// capture listed the move's.
pub(crate) fn read_game<G: Geometry>(
    text: &str,
    start: PositionOf<G>,
    rules: RuleSet,
) -> Result<ReadGame<G>, GameLineError<G>> {
    let (record, result) = if text.contains(',') {
        let record: GameRecordOf<G> = text.parse()?;
        let result = record.result;
        (record, Some(result))
    } else {
        (GameRecordOf::from_moves(text)?, None)
    };
    let game = record.replay_from(start, rules)?;
    Ok(ReadGame {
        record,
        result,
        game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::core::position::Position;
    use crate::core::role::Role;

    fn read(text: &str) -> Result<ReadGame<S11>, String> {
        read_game(text, Position::start(), RuleSet::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn both_formats_and_their_errors() {
        let list = read("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2").unwrap();
        assert_eq!((list.record.moves.len(), list.result), (5, None));
        let rec = read("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black").unwrap();
        assert_eq!(rec.result, Some(Some(Outcome::win(Role::Attacker, ()))));
        assert!(rec.game.status().is_over());
        assert_eq!(
            read("d1-d3 d3-d4").unwrap_err(),
            "ply 2 (d3-d4): no defender piece on d3"
        );
        assert!(read("d1-d3,0,0").unwrap_err().contains("this line has 3"));
        assert!(
            read("d1-d3 e5-q2")
                .unwrap_err()
                .starts_with("ply 2 (e5-q2)")
        );
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn game_lines() {
        use crate::tools::annotate::input::game_lines;
        let lines = game_lines("# two games\nh1-h3 f8-i8\n\nd1-d3,0,0,Ongoing\n");
        assert_eq!(lines.iter().map(|g| g.line).collect::<Vec<_>>(), [2, 4]);
    }

    #[test]
    fn format_of() {
        use crate::tools::annotate::input::Format;
        assert_eq!(
            Format::of("\n[Event \"Game 7\"]\n1. h1h3"),
            Format::HnefataflOrg
        );
        assert_eq!(
            Format::of("[date:2015.01.07]\n[rules:dim:7 start:/]"),
            Format::OpenTafl
        );
        assert_eq!(Format::of("# games\nh1-h3 f8-i8"), Format::Lines);
    }
}
