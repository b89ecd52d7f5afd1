//! One training sample ([`SampleOf`] on any board, [`Sample`] on 11x11): a position, the
//! side to move, the result of the game it came from and the search's score, and which
//! positions are sampled ([`is_quiet`]). One line of text each:
//!
//! ```text
//! /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker defenders 12 7
//! ```
//!
//! that is `POSITION TO_MOVE RESULT SCORE GAME`: the OpenTafl position, `attacker` or
//! `defender`, `defenders`, `attackers` or `draw` (who won the game), the search's score
//! in centi-units for the side to move, and the number of the game (so that a held-out
//! split can keep whole games apart).

use std::fmt;
use std::str::FromStr;

use crate::core::game::RuleSet;
use crate::core::geometry::{Geometry, S11};
use crate::core::moves::{Move, MoveOf};
use crate::core::notation::{position_from_opentafl, to_opentafl};
use crate::core::position::{Position, PositionOf};
use crate::core::role::Role;
use crate::search::threats::Threats;

/// The defenders' score of a game that `winner` won (`None`: a draw): 1, 0 or one half.
pub fn defender_score(winner: Option<Role>) -> f64 {
    match winner {
        Some(Role::Defender) => 1.0,
        Some(Role::Attacker) => 0.0,
        None => 0.5,
    }
}

/// The word of a sample line for the game's result: who won (`defenders`, `attackers`),
/// or `draw`.
fn result_name(winner: Option<Role>) -> &'static str {
    winner.map_or("draw", Role::plural)
}

/// The result of its word in a sample line: `Some(winner)`, `None` for a word that is no
/// result.
fn result_of_name(name: &str) -> Option<Option<Role>> {
    match name {
        "draw" => Some(None),
        _ => [Role::Defender, Role::Attacker]
            .into_iter()
            .find(|r| r.plural() == name)
            .map(Some),
    }
}

/// Whether `pos`, whose search chose `best`, is quiet enough for a static evaluation to
/// judge, and so a sample: not when the best move captures or wins, the king sees a
/// corner (the attackers must block) or can be captured right now.
pub fn is_quiet(pos: &Position, best: Move, rules: RuleSet) -> bool {
    is_quiet_on(pos, best, &Threats::<S11>::new(&rules))
}

/// Whether `pos` of a game on board `G`, whose search chose `best`, is quiet enough for
/// a static evaluation to judge (as [`is_quiet`] on 11x11, with the escape squares and
/// king captures of the rules of `threats`).
pub fn is_quiet_on<G: Geometry>(pos: &PositionOf<G>, best: MoveOf<G>, t: &Threats<G>) -> bool {
    let board = pos.board();
    let mut child = *pos;
    let captured = child.make_move(best, &t.rules);
    captured.is_empty()
        && child.win_after_move(best.to, &t.rules).is_none()
        && t.escape_lines(board) == 0
        && !(pos.to_move() == Role::Attacker && t.king_capture(board).is_some())
}

/// A sampled position on board `G` ([`Sample`] on Copenhagen's 11x11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleOf<G: Geometry> {
    /// The position (with its side to move).
    pub position: PositionOf<G>,
    /// Who won the game (`None`: a draw, or a game that did not finish).
    pub winner: Option<Role>,
    /// The search's score for the side to move, in centi-units.
    pub score: i32,
    /// The number of the game.
    pub game: u64,
}

/// A sampled position of Copenhagen 11x11.
pub type Sample = SampleOf<S11>;

impl<G: Geometry> SampleOf<G> {
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

    /// The sample of the five fields `POSITION TO_MOVE RESULT SCORE GAME`.
    pub fn from_fields(fields: [&str; 5]) -> Result<SampleOf<G>, SampleError> {
        let [board, to_move, outcome, score, game] = fields;
        let to_move: Role = to_move.parse().map_err(|_| bad("side to move", to_move))?;
        let position = position_from_opentafl::<G>(board, to_move)
            .map_err(|e| SampleError::Position(e.to_string()))?;
        Ok(SampleOf {
            position,
            winner: result_of_name(outcome).ok_or_else(|| bad("result", outcome))?,
            score: score.parse().map_err(|_| bad("score", score))?,
            game: game.parse().map_err(|_| bad("game number", game))?,
        })
    }
}

/// The Copenhagen 11x11 samples of a file, text or binary
/// ([`SampleFile`](super::sample_file::SampleFile)), or the file's first error.
pub fn read_samples(path: &std::path::Path) -> Result<Vec<Sample>, String> {
    let file = super::sample_file::SampleFile::open(path).map_err(|e| e.to_string())?;
    if let Some(Some(game)) = file.game() {
        return Err(format!(
            "{}: samples of {}, where Copenhagen 11x11 ones were expected",
            path.display(),
            super::sized_sample::game_name(Some(game))
        ));
    }
    file.samples::<S11>()
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

/// A line that is not a [`Sample`], or fields that are not a sample's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// Not five fields.
    #[error("expected POSITION TO_MOVE RESULT SCORE GAME ({0} fields instead of 5)")]
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
}

/// The error of a field that does not read (its text cut at 40 characters).
pub(super) fn bad(field: &'static str, value: &str) -> SampleError {
    SampleError::Field {
        field,
        value: value.chars().take(40).collect(),
    }
}

impl<G: Geometry> fmt::Display for SampleOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            to_opentafl(self.position.board()),
            self.position.to_move(),
            result_name(self.winner),
            self.score,
            self.game
        )
    }
}

impl<G: Geometry> FromStr for SampleOf<G> {
    type Err = SampleError;

    /// ```
    /// use hnefi::tune::sample::Sample;
    /// let line = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker draw -3 9";
    /// let s: Sample = line.parse().unwrap();
    /// assert_eq!(s.winner, None);
    /// assert_eq!(s.to_string(), line);
    /// assert!("/11/ attacker draw 0 1".parse::<Sample>().is_err());
    /// ```
    fn from_str(line: &str) -> Result<SampleOf<G>, SampleError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, to_move, outcome, score, game] = fields[..] else {
            return Err(SampleError::Fields(fields.len()));
        };
        SampleOf::from_fields([board, to_move, outcome, score, game])
    }
}
