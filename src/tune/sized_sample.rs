//! A training sample of any game: a [`Sample`](super::sample::Sample)'s five fields and
//! the game's rule family and board size, so that `hnefi train` knows which board the
//! network is for and which hand-written evaluation scored the sample:
//!
//! ```text
//! /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 hnefatafl-org 7
//! ```
//!
//! that is `POSITION TO_MOVE RESULT SCORE GAME RULES SIZE`: the five fields of
//! [`SampleOf`] and the game. A Copenhagen 11x11 sample of
//! `hnefi selfplay` keeps its five fields (and its files their bytes).

use std::fmt;

use crate::core::geometry::{BoardSize, Geometry};
use crate::core::preset::RulePreset;

use super::sample::{SampleError, SampleOf};

/// A sampled position of a game on board `G`: the sample and its game's rule family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizedSample<G: Geometry> {
    /// The sample (position, result, score and game number).
    pub sample: SampleOf<G>,
    /// The game's rule family (its game of size `G`).
    pub rules: RulePreset,
}

/// A line that is not a sample of any game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizedSampleError {
    /// Not seven fields.
    #[error("expected POSITION TO_MOVE RESULT SCORE GAME RULES SIZE ({0} fields)")]
    Fields(usize),
    /// A field that does not read (one of the five of every sample, or the game's).
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// The line's size is not the board it is read for.
    #[error("a {line}x{line} sample where {board}x{board} ones were read")]
    Size {
        /// The line's board.
        line: BoardSize,
        /// The board read for.
        board: u8,
    },
}

/// A field of the game (the rules or the size) that does not read.
fn bad(field: &'static str, value: &str) -> SizedSampleError {
    SizedSampleError::Sample(super::sample::bad(field, value))
}

/// The game of a sample (line, file or record): `None` for Copenhagen 11x11 (a line of
/// five fields), else its rule family and board size.
pub type SampleGame = Option<(RulePreset, BoardSize)>;

/// The game of a sample line: `None` for a five-field (Copenhagen 11x11) line.
pub fn line_game(line: &str) -> Result<SampleGame, SizedSampleError> {
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

/// How a game is named in messages: `copenhagen 11x11 (five fields)`, `brandubh 7x7`.
pub fn game_name(game: SampleGame) -> String {
    match game {
        None => "copenhagen 11x11 (five fields)".to_string(),
        Some((family, size)) => format!("{family} {size}x{size}"),
    }
}

impl<G: Geometry> SizedSample<G> {
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
        Ok(SizedSample {
            sample: SampleOf::from_fields([board, to_move, outcome, score, game])?,
            rules: rules.parse().map_err(|_| bad("rules", rules))?,
        })
    }
}

impl<G: Geometry> fmt::Display for SizedSample<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.sample, self.rules, G::SIZE)
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
        assert_eq!(s.sample.defenders_score(), 12);
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
