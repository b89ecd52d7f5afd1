//! One training sample of any game ([`SampleOf`] on board `G`, [`Sample`] on 11x11): a
//! position, the side to move, the game it came from (its rule family and board), the
//! result of that game and the search's score, and which positions are sampled
//! ([`is_quiet`]). One line of text each:
//!
//! ```text
//! /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker defenders 12 7 copenhagen 11
//! ```
//!
//! that is `POSITION TO_MOVE RESULT SCORE GAME RULES SIZE`: the OpenTafl position,
//! `attacker` or `defender`, `defenders`, `attackers` or `draw` (who won the game), the
//! search's score in centi-units for the side to move, the number of the game (so that a
//! held-out split can keep whole games apart), the rule family and the board's files (so
//! that `hnefi train` knows which board the network is for and which evaluation scored
//! the sample). Lines of the first five fields alone, which earlier builds wrote for
//! Copenhagen 11x11, are still read, as Copenhagen 11x11 samples.

use std::fmt;
use std::str::FromStr;

use crate::core::excerpt::excerpt;
use crate::core::geometry::{BoardSize, Geometry, S11};
use crate::core::moves::MoveOf;
use crate::core::notation::{parse_opentafl_with, to_opentafl};
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::search::threats::Threats;

/// The word of a sample line for the game's result: who won (`defenders`, `attackers`),
/// or `draw`.
fn result_name(result: Outcome<()>) -> &'static str {
    result.winner.map_or("draw", Role::plural)
}

/// The result of its word in a sample line; `None` for a word that is no result.
fn result_of_name(name: &str) -> Option<Outcome<()>> {
    match name {
        "draw" => Some(Outcome::draw(())),
        _ => [Role::Defender, Role::Attacker]
            .into_iter()
            .find(|r| r.plural() == name)
            .map(|r| Outcome::win(r, ())),
    }
}

/// Whether `pos`, whose search chose `best`, is quiet enough for a static evaluation to
/// judge, and so a sample: not when the best move captures or wins, the king sees an
/// escape square (the attackers must block) or can be captured right now, by the rules
/// of `t`.
pub(crate) fn is_quiet<G: Geometry>(pos: &PositionOf<G>, best: MoveOf<G>, t: &Threats<G>) -> bool {
    let board = pos.board();
    let mut child = *pos;
    let captured = child.make_move(best, &t.rules);
    captured.is_empty()
        && child.win_after_move(best.to, &t.rules).is_none()
        && t.escape_lines(board) == 0
        && !(pos.to_move() == Role::Attacker && t.king_capture(board).is_some())
}

/// The game of samples (of a line, a file or a record): a rule family's game on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SampleGame {
    /// The rule family.
    pub(crate) rules: RulePreset,
    /// The board.
    pub(crate) size: BoardSize,
}

impl SampleGame {
    /// Copenhagen 11x11, the game of the legacy five-field lines.
    pub(crate) const COPENHAGEN: SampleGame = SampleGame {
        rules: RulePreset::Copenhagen,
        size: BoardSize::S11,
    };

    /// The game of a sample line, from its last fields alone.
    pub(crate) fn of_line(line: &str) -> Result<SampleGame, SampleError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields[..] {
            [_, _, _, _, _] => Ok(SampleGame::COPENHAGEN),
            [_, _, _, _, _, rules, size] => Ok(SampleGame {
                rules: rules.parse().map_err(|_| bad("rules", rules))?,
                size: size.parse().map_err(|_| bad("board size", size))?,
            }),
            _ => Err(SampleError::Fields(fields.len())),
        }
    }
}

impl fmt::Display for SampleGame {
    /// How a game is named in messages: `copenhagen 11x11`, `brandubh 7x7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}x{}", self.rules, self.size, self.size)
    }
}

/// The board size of geometry `G` (every geometry is one of the five).
fn size_of<G: Geometry>() -> BoardSize {
    BoardSize::ALL
        .into_iter()
        .find(|s| s.files() == G::SIZE)
        .unwrap_or(BoardSize::S11)
}

/// A sampled position of a game on board `G` ([`Sample`] on 11x11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleOf<G: Geometry> {
    /// The position (with its side to move).
    pub position: PositionOf<G>,
    /// The game's rule family (its game on board `G`).
    pub(crate) rules: RulePreset,
    /// How the game ended, its winner only (a draw also for a game that did not finish).
    pub result: Outcome<()>,
    /// The search's score for the side to move, in centi-units.
    pub score: i32,
    /// The number of the game.
    pub game: u64,
}

/// A sampled position of an 11x11 game.
pub(crate) type Sample = SampleOf<S11>;

impl<G: Geometry> SampleOf<G> {
    /// The game the sample is of.
    pub(crate) fn sample_game(&self) -> SampleGame {
        SampleGame {
            rules: self.rules,
            size: size_of::<G>(),
        }
    }

    /// The search's score from the defenders' point of view.
    pub(crate) fn defenders_score(&self) -> i32 {
        match self.position.to_move() {
            Role::Defender => self.score,
            Role::Attacker => -self.score,
        }
    }

    /// Whether the sample is held out of a fit that holds out the games whose number is a
    /// multiple of `every` (0: none).
    pub(crate) fn is_held_out(&self, every: u64) -> bool {
        every > 0 && self.game.is_multiple_of(every)
    }
}

/// A line that is not a sample, or a sample of another board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// Neither seven fields nor the legacy five.
    #[error(
        "expected POSITION TO_MOVE RESULT SCORE GAME RULES SIZE ({0} fields instead of 7, or 5 in the legacy Copenhagen 11x11 lines)"
    )]
    Fields(usize),
    /// A field that does not read.
    #[error("bad {field} {value:?}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// Its text (at most 40 characters).
        value: String,
    },
    /// The position does not read.
    #[error("bad position: {0}")]
    Position(String),
    /// The line's board is not the one it is read for.
    #[error("a {line}x{line} sample where {board}x{board} ones were read")]
    Size {
        /// The line's board.
        line: BoardSize,
        /// The board read for.
        board: u8,
    },
}

/// The error of a field that does not read (its text cut at 40 characters).
fn bad(field: &'static str, value: &str) -> SampleError {
    SampleError::Field {
        field,
        value: excerpt(value),
    }
}

impl<G: Geometry> fmt::Display for SampleOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} {}",
            to_opentafl(self.position.board()),
            self.position.to_move(),
            result_name(self.result),
            self.score,
            self.game,
            self.rules,
            G::SIZE
        )
    }
}

impl<G: Geometry> FromStr for SampleOf<G> {
    type Err = SampleError;

    fn from_str(line: &str) -> Result<SampleOf<G>, SampleError> {
        let game = SampleGame::of_line(line)?;
        if game.size.files() != G::SIZE {
            return Err(SampleError::Size {
                line: game.size,
                board: G::SIZE,
            });
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, to_move, result, score, number, ..] = fields[..] else {
            return Err(SampleError::Fields(fields.len()));
        };
        let to_move: Role = to_move.parse().map_err(|_| bad("side to move", to_move))?;
        // The game's own restricted squares: a soldier may stand on a corner of a game
        // without corners (Sea Battle, Tablut, Tawlbwrdd).
        let variant = game
            .rules
            .variant(game.size)
            .map_err(|e| SampleError::Position(e.to_string()))?;
        let position = parse_opentafl_with::<G>(board, variant.rules().restricted())
            .map(|b| PositionOf::new(b, to_move))
            .map_err(|e| SampleError::Position(e.to_string()))?;
        Ok(SampleOf {
            position,
            rules: game.rules,
            result: result_of_name(result).ok_or_else(|| bad("result", result))?,
            score: score.parse().map_err(|_| bad("score", score))?,
            game: number.parse().map_err(|_| bad("game number", number))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S7, S9};

    #[test]
    fn a_soldier_on_a_square_restricted_only_in_other_games_reads() {
        // Sea Battle has no throne: an attacker on e5 (self-play data).
        let line = "/5t3/5t3/7t1/2TT2T2/4t3t/5TT2/1t2Kt3/3TT1t2/4t4/ defender defenders 777 1 sea-battle 9";
        let s: SampleOf<S9> = line.parse().unwrap();
        assert_eq!(s.to_string(), line);
        // Copenhagen 11x11 keeps its corners restricted.
        let corner = "t10/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/ attacker draw 0 1 copenhagen 11";
        assert!(corner.parse::<Sample>().is_err());
    }

    #[test]
    fn lines_round_trip_and_bad_ones_are_errors() {
        let line = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 hnefatafl-org 7";
        let s: SampleOf<S7> = line.parse().unwrap();
        assert_eq!(s.to_string(), line);
        assert_eq!(s.defenders_score(), 12);
        let game = SampleGame {
            rules: RulePreset::HnefataflOrg,
            size: BoardSize::S7,
        };
        assert_eq!(s.sample_game(), game);
        assert_eq!(SampleGame::of_line(line), Ok(game));
        assert_eq!(game.to_string(), "hnefatafl-org 7x7");
        assert_eq!(
            line.parse::<SampleOf<S9>>(),
            Err(SampleError::Size {
                line: BoardSize::S7,
                board: 9
            })
        );
        assert_eq!(SampleGame::of_line("a b c d e"), Ok(SampleGame::COPENHAGEN));
        assert_eq!(SampleGame::of_line("a b c"), Err(SampleError::Fields(3)));
        // A legacy five-field line is 11x11, no sample of another board.
        assert_eq!(
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7".parse::<SampleOf<S7>>(),
            Err(SampleError::Size {
                line: BoardSize::S11,
                board: 7
            })
        );
        for bad_line in [
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 chess 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw 12 7 brandubh 8",
            "/3t3/3t3/ defender draw 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ king draw 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender won 12 7 brandubh 7",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender draw x 7 brandubh 7",
        ] {
            assert!(bad_line.parse::<SampleOf<S7>>().is_err(), "{bad_line}");
        }
    }

    #[test]
    fn results_are_the_winner() {
        for (result, word, score) in [
            (Outcome::win(Role::Defender, ()), "defenders", 1.0),
            (Outcome::win(Role::Attacker, ()), "attackers", 0.0),
            (Outcome::draw(()), "draw", 0.5),
        ] {
            assert_eq!(result_name(result), word);
            assert_eq!(result_of_name(word), Some(result));
            assert_eq!(result.score(Role::Defender), score);
        }
        assert_eq!(result_of_name("defender"), None);
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn sample_of_from_str() {
        use crate::tune::sample::Sample;
        let line = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker draw -3 9 copenhagen 11";
        let s: Sample = line.parse().unwrap();
        assert_eq!(s.result.winner, None);
        assert_eq!(s.to_string(), line);
        // A legacy line of five fields is a Copenhagen 11x11 sample.
        let legacy = line.trim_end_matches(" copenhagen 11").parse::<Sample>();
        assert_eq!(legacy, Ok(s));
        assert!("/11/ attacker draw 0 1".parse::<Sample>().is_err());
    }
}
