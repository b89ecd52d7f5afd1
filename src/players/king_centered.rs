//! King Centered (attackers, Algorithm 5): everything is subordinate to the king's
//! capture. In order: capture the king if possible; if the king could reach an exit castle
//! with his next move, block him if any move does; otherwise move the piece that can land
//! nearest to the king (Manhattan distance of the landing square; ties at random).
//!
//! Decided where the paper is silent: the block is chosen among the moves after which the
//! king has no winning move, ones whose moved piece cannot be captured at once first;
//! the approach ignores safety (the prose: losing pieces does not matter if the king is
//! taken).

use crate::core::moves::Move;
use crate::core::rng::SplitMix64;

use super::vocabulary::{Turn, closest_first, pick};

/// King Centered's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if turn.opponent_threatens_win()
        && let Some(mv) = turn.block_win_threat(rng)
    {
        return Some(mv);
    }
    closest_first(rng, &turn.moves, turn.king())
        .first()
        .copied()
}
