//! The study's Random player, the baseline of its tables, for either side: a random piece
//! among those that can move, then a random legal move of that piece (so a piece with few
//! moves is as likely to move as one with many). It is also what every strategy answers
//! when asked to move for the side it does not play.

use crate::core::moves::Move;
use crate::core::rng::SplitMix64;

use super::vocabulary::{Turn, random_move};

/// The Random player's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    random_move(rng, &turn.moves)
}
