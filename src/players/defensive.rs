//! Defensive (defenders, Algorithm 6): keep every piece safe and capture only safely,
//! forcing an opening slowly. In order: move the king to an exit castle if he can reach
//! one; if the attackers could capture the king, block them; if the attackers could
//! capture a soldier, move a threatened soldier to where it cannot be captured; capture
//! soldiers; move the king closer to an exit castle that is not barricaded; else a random
//! move that leaves no soldier capturable.
//!
//! Decided where the paper is silent:
//! - the threatened soldier's escape is a move of a threatened soldier to a square where
//!   it cannot be captured at once, one that leaves the fewest of our soldiers capturable
//!   first; when none exists the step passes;
//! - captures are the safe ones only (the prose: safely capturing); among them the most
//!   soldiers;
//! - the king's way to an exit never ends where he can be captured at once; when no king
//!   move comes closer, the step passes;
//! - when every move leaves a soldier capturable, a random move.

use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::rng::SplitMix64;

use super::vocabulary::{Turn, capturable, lowest_by, pick, random_move};

/// Move a threatened soldier to safety.
fn rescue(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let threatened = capturable(
        &Position::new(*turn.board(), turn.me().opponent()),
        &turn.rules,
    );
    if threatened.is_empty() {
        return None;
    }
    let escapes = turn.filter(|t, mv| threatened.contains(mv.from) && t.is_safe(mv));
    let fewest = lowest_by(&escapes, |mv| {
        capturable(&turn.try_move(mv).after, &turn.rules).count()
    });
    pick(rng, &fewest)
}

/// Defensive's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if turn.opponent_threatens_win()
        && let Some(mv) = turn.block_win_threat(rng)
    {
        return Some(mv);
    }
    if let Some(mv) = rescue(turn, rng) {
        return Some(mv);
    }
    let safe_captures: Vec<(Move, u32)> = turn
        .capturing_moves()
        .into_iter()
        .filter(|&(mv, _)| turn.is_safe(mv))
        .collect();
    let most = safe_captures.iter().map(|&(_, n)| n).max().unwrap_or(0);
    let captures: Vec<Move> = safe_captures
        .into_iter()
        .filter(|&(_, n)| n == most)
        .map(|(mv, _)| mv)
        .collect();
    if let Some(mv) = pick(rng, &captures) {
        return Some(mv);
    }
    if let Some(mv) = turn.king_towards_open_exit(rng, |_| 0) {
        return Some(mv);
    }
    let quiet = turn.filter(|t, mv| t.leaves_nothing_capturable(mv));
    random_move(rng, &quiet).or_else(|| random_move(rng, &turn.moves))
}
