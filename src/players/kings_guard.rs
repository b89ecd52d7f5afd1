//! King's Guard (defenders, Algorithm 9): a royal guard of at least two defenders escorts
//! the king to an exit castle. In order: until the king has left the throne, move him as
//! far as he can go if that is at least three squares, else clear a way for him (as Mobile
//! King); move the king to an exit castle if he can reach one; if the attackers could
//! capture the king, block them; if fewer than two defenders stand in the 5x5 box around
//! the king, move one from outside it as close to the king as possible; move the king
//! closer to an exit castle that is not barricaded; capture soldiers; else a random move.
//!
//! Decided where the paper is silent (it says its pseudo-code leaves details out):
//! - the guard is called in by the move of a defender outside the box that lands nearest
//!   to the king, a landing where it cannot be captured at once first;
//! - the king moves "as securely as possible": never where he can be captured at once,
//!   and among equally good squares towards an exit, the one with the most guards in the
//!   box around it; when no king move comes closer, the step passes;
//! - captures take the most soldiers, safe ones first.

use crate::core::moves::Move;
use crate::core::rng::SplitMix64;

use super::mobile_king::leave_throne;
use super::vocabulary::{
    Turn, closest_first, guard_box, guards, pick, pick_preferring, random_move,
};

/// The smallest royal guard.
pub(crate) const MIN_GUARDS: u32 = 2;

/// Bring a defender from outside the king's box as close to him as possible.
fn call_guard(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let king = turn.king();
    if guards(turn.board(), king) >= MIN_GUARDS {
        return None;
    }
    let around = guard_box(king);
    let outside = turn.filter(|_, mv| mv.from != king && !around.contains(mv.from));
    let safe: Vec<Move> = outside
        .iter()
        .copied()
        .filter(|&mv| turn.is_safe(mv))
        .collect();
    let pool = if safe.is_empty() { outside } else { safe };
    closest_first(rng, &pool, king).first().copied()
}

/// King's Guard's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = leave_throne(turn, rng) {
        return Some(mv);
    }
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if turn.opponent_threatens_win()
        && let Some(mv) = turn.block_win_threat(rng)
    {
        return Some(mv);
    }
    if let Some(mv) = call_guard(turn, rng) {
        return Some(mv);
    }
    let escorted = |mv: Move| guards(turn.try_move(mv).after.board(), mv.to);
    if let Some(mv) = turn.king_towards_open_exit(rng, escorted) {
        return Some(mv);
    }
    if let Some(mv) = pick_preferring(rng, &turn.best_captures(), |mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    random_move(rng, &turn.moves)
}
