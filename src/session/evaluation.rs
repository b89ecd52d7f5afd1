//! What the last search found of a position, and what tells that position from another:
//! the score `show_board` shows for the game in progress (with `show_wdl`) without
//! searching again.

use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::search::Score;

/// What a search found of a position: its score for the side to move and the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Evaluation {
    /// The score, from the side to move's view.
    pub(crate) score: Score,
    /// The depth the search completed.
    pub(crate) depth: u32,
}

impl Evaluation {
    /// The evaluation of the position after the best move: the score negated, a proven
    /// result one ply nearer; the search saw that position one ply shallower.
    pub(super) fn after_best_move(self) -> Evaluation {
        let score = match self.score {
            Score::Cp(c) => Score::Cp(c.saturating_neg()),
            Score::Win(n) => Score::Loss(n.saturating_sub(1)),
            Score::Loss(n) => Score::Win(n.saturating_sub(1)),
        };
        Evaluation {
            score,
            depth: self.depth.saturating_sub(1),
        }
    }
}

/// The position in progress as [`Session::evaluation`](super::Session::evaluation) tells
/// positions apart: the board, the side to move and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PositionKey {
    pub(super) board: String,
    pub(super) to_move: Role,
    pub(super) rules: RuleSet,
}
