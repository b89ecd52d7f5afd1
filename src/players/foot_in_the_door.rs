//! Foot-in-the-Door (defenders, Algorithm 7): keep the attackers from barricading the
//! exit castles by standing on the barricade squares first, then bring the king out
//! through the door left open. In order: move the king to an exit castle if he can reach
//! one; take a barricade's middle square (b2 for a1); take one of the magic quadrant's
//! key edge squares (a3 and c1 for a1); if the attackers could capture the king, block
//! them; move the king closer to an exit castle that is not barricaded; capture
//! soldiers; else a random move.
//!
//! Decided where the paper is silent:
//! - a square is taken only by a move whose soldier cannot be captured there at once (a
//!   foot that is cut off holds no door), and never by a soldier already standing on one
//!   of these squares;
//! - the king's way to an exit never ends where he can be captured at once; when no king
//!   move comes closer, the step passes;
//! - captures take the most soldiers, safe ones first.

use crate::core::bitboard::Bitboard;
use crate::core::moves::Move;
use crate::core::rng::SplitMix64;
use crate::core::square::Square;

use super::vocabulary::{
    Turn, barricade_border, barricade_middle, pick, pick_preferring, random_move,
};

/// The squares this strategy holds: every corner's barricade middle and key edge squares.
fn doors(of: fn(Square) -> Bitboard) -> Bitboard {
    Square::CORNERS
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, c| acc | of(c))
}

/// A safe move of a soldier not yet on a door square onto one of `targets`.
fn take(turn: &Turn, targets: Bitboard, rng: &mut SplitMix64) -> Option<Move> {
    let held = doors(barricade_middle) | doors(barricade_border);
    let king = turn.king();
    let moves = turn.filter(|t, mv| {
        mv.from != king && targets.contains(mv.to) && !held.contains(mv.from) && t.is_safe(mv)
    });
    pick(rng, &moves)
}

/// Foot-in-the-Door's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if let Some(mv) = take(turn, doors(barricade_middle), rng)
        .or_else(|| take(turn, doors(barricade_border), rng))
    {
        return Some(mv);
    }
    if turn.opponent_threatens_win()
        && let Some(mv) = turn.block_win_threat(rng)
    {
        return Some(mv);
    }
    if let Some(mv) = turn.king_towards_open_exit(rng, |_| 0) {
        return Some(mv);
    }
    if let Some(mv) = pick_preferring(rng, &turn.best_captures(), |mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    random_move(rng, &turn.moves)
}
