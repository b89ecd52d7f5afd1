//! A training sample of any game: a [`Sample`](super::sample::Sample)'s five fields and
//! the game's rule family and board size, so that `hnefi train` knows which board the
//! network is for and which hand-written evaluation scored the sample:
//!
//! ```text
//! /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 hnefatafl-org 7
//! ```
//!
//! that is `POSITION TO_MOVE RESULT SCORE GAME RULES SIZE`. A Copenhagen 11x11 sample of
//! `hnefi selfplay` keeps its five fields (and its files their bytes).

use std::fmt;

use crate::core::geometry::{BoardSize, Geometry};
use crate::core::notation::{position_from_opentafl, to_opentafl};
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::role::Role;

use super::sample::Outcome;

/// A sampled position of a game on board `G`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizedSample<G: Geometry> {
    /// The position (with its side to move).
    pub position: PositionOf<G>,
    /// The game's result.
    pub outcome: Outcome,
    /// The search's score for the side to move, in centi-units.
    pub score: i32,
    /// The number of the game.
    pub game: u64,
    /// The game's rule family (its game of size `G`).
    pub rules: RulePreset,
}

/// A line that is not a sample of any game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizedSampleError {
    /// Not seven fields.
    #[error("expected POSITION TO_MOVE RESULT SCORE GAME RULES SIZE ({0} fields)")]
    Fields(usize),
    /// A field that does not read.
    #[error("bad {field} {value:?}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// Its text (at most 40 characters).
        value: String,
    },
    /// The line's size is not the board it is read for.
    #[error("a {line}x{line} sample where {board}x{board} ones were read")]
    Size {
        /// The line's board.
        line: BoardSize,
        /// The board read for.
        board: u8,
    },
}

fn bad(field: &'static str, value: &str) -> SizedSampleError {
    SizedSampleError::Field {
        field,
        value: value.chars().take(40).collect(),
    }
}

/// The rule family and board size of a sample line of any game: `None` for a five-field
/// (Copenhagen 11x11) line.
pub fn line_game(line: &str) -> Result<Option<(RulePreset, BoardSize)>, SizedSampleError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    match fields[..] {
        [_, _, _, _, _] => Ok(None),
        [_, _, _, _, _, rules, size] => Ok(Some((
            rules.parse().map_err(|_| bad("rules", rules))?,
            size.parse().map_err(|_| bad("board size", size))?,
        ))),
        _ => Err(SizedSampleError::Fields(fields.len())),
    }
}

impl<G: Geometry> SizedSample<G> {
    /// The search's score from the defenders' point of view.
    pub fn defenders_score(&self) -> i32 {
        match self.position.to_move() {
            Role::Defender => self.score,
            Role::Attacker => -self.score,
        }
    }

    /// Whether the sample is held out of a fit that holds out the games whose number is a
    /// multiple of `every` (0: none).
    pub fn is_held_out(&self, every: u64) -> bool {
        every > 0 && self.game.is_multiple_of(every)
    }

    /// The sample of a line of seven fields on board `G`.
    pub fn parse(line: &str) -> Result<SizedSample<G>, SizedSampleError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, to_move, outcome, score, game, rules, size] = fields[..] else {
            return Err(SizedSampleError::Fields(fields.len()));
        };
        let size: BoardSize = size.parse().map_err(|_| bad("board size", size))?;
        if size.files() != G::SIZE {
            return Err(SizedSampleError::Size {
                line: size,
                board: G::SIZE,
            });
        }
        let to_move: Role = to_move.parse().map_err(|_| bad("side to move", to_move))?;
        let position =
            position_from_opentafl::<G>(board, to_move).map_err(|_| bad("position", board))?;
        let outcome = match outcome {
            "defenders" => Outcome::Defenders,
            "attackers" => Outcome::Attackers,
            "draw" => Outcome::Draw,
            _ => return Err(bad("result", outcome)),
        };
        Ok(SizedSample {
            position,
            outcome,
            score: score.parse().map_err(|_| bad("score", score))?,
            game: game.parse().map_err(|_| bad("game number", game))?,
            rules: rules.parse().map_err(|_| bad("rules", rules))?,
        })
    }
}

impl<G: Geometry> fmt::Display for SizedSample<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} {}",
            to_opentafl(self.position.board()),
            self.position.to_move(),
            self.outcome.name(),
            self.score,
            self.game,
            self.rules,
            G::SIZE
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S7, S9};

    #[test]
    fn lines_round_trip_and_bad_ones_are_errors() {
        let line = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 hnefatafl-org 7";
        let s = SizedSample::<S7>::parse(line).unwrap();
        assert_eq!(s.to_string(), line);
        assert_eq!(s.defenders_score(), 12);
        assert_eq!(
            line_game(line),
            Ok(Some((RulePreset::HnefataflOrg, BoardSize::S7)))
        );
        assert_eq!(
            SizedSample::<S9>::parse(line),
            Err(SizedSampleError::Size {
                line: BoardSize::S7,
                board: 9
            })
        );
        assert_eq!(line_game("a b c d e"), Ok(None));
        assert_eq!(line_game("a b c"), Err(SizedSampleError::Fields(3)));
        for bad_line in [
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 chess 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 brandubh 8",
            "/3t3/3t3/ defender draw 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ king draw 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender won 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw x 7 brandubh 7",
        ] {
            assert!(SizedSample::<S7>::parse(bad_line).is_err(), "{bad_line}");
        }
    }
}
