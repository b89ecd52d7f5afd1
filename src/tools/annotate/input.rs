//! The games of a file to annotate: one game per line, in either of two formats, told apart
//! by a comma.
//!
//! - A records line, the format of `tests/data/copenhagen.csv`
//!   (`moves,attacker_captures,defender_captures,result`, [`crate::core::record`]), as
//!   `hnefi match --out` writes them: the counts and the result are checked.
//! - A plain move list: the moves alone, separated by spaces (`h1-h3 f8-i8 d1-d3`), each
//!   `from-to` with optional capture suffixes (`g3-e3xe2`), optionally ending with
//!   `timeout` (the side to move lost on time): the records format's moves field.
//!
//! Either way the game is played from the start position of the game of `--rules` on
//! `--board-size`, its first mover first. Empty lines and lines starting with `#` are no
//! game.

use thiserror::Error;

use crate::core::game::{GameOf, RuleSet};
use crate::core::geometry::Geometry;
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::record::{GameRecordError, GameRecordOf, ReplayErrorOf};

/// One game's line of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLine<'a> {
    /// Its number in the file, from 1.
    pub line: usize,
    /// The line's text.
    pub text: &'a str,
}

/// The lines of `text` that hold a game, with their numbers.
///
/// ```
/// use hnefi::tools::annotate::input::game_lines;
/// let lines = game_lines("# two games\nh1-h3 f8-i8\n\nd1-d3,0,0,Ongoing\n");
/// assert_eq!(lines.iter().map(|g| g.line).collect::<Vec<_>>(), [2, 4]);
/// ```
pub fn game_lines(text: &str) -> Vec<GameLine<'_>> {
    (1..)
        .zip(text.lines())
        .map(|(line, text)| GameLine {
            line,
            text: text.trim(),
        })
        .filter(|g| !g.text.is_empty() && !g.text.starts_with('#'))
        .collect()
}

/// Why a line's game of the board of `G` cannot be annotated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameLineError<G: Geometry> {
    /// The line is no record and no move list.
    #[error(transparent)]
    Record(#[from] GameRecordError),
    /// A move is illegal in its position, or captures other pieces than it lists.
    #[error(transparent)]
    Replay(#[from] ReplayErrorOf<G>),
}

/// A game read from its line and replayed under the rules.
#[derive(Clone, Debug)]
pub struct ReadGame<G: Geometry> {
    /// Its moves.
    pub record: GameRecordOf<G>,
    /// The result field of a records line (`None` inside: `Ongoing`); `None` for a move
    /// list.
    pub result: Option<Option<Outcome<()>>>,
    /// The game after every move (and the final `timeout`).
    pub game: GameOf<G>,
}

/// Reads the game of a line ([`game_lines`]) and replays it from `start` under `rules`,
/// as the replay test replays the records (`tests/replay.rs`): every move legal, every
/// capture listed the move's.
pub fn read_game<G: Geometry>(
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
