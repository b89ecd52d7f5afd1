//! Aggressive (attackers, Algorithm 2): outnumber the defenders by capturing whenever
//! possible. In order: on the attackers' first move of a game from the start, the first
//! move of the Millar Gambit (h1-h3); capture the king if possible; capture soldiers if
//! possible; else the move landing nearest to the king if its piece cannot be captured at
//! once, else the second nearest on the same condition; else a random move.
//!
//! Decided where the paper is silent: among captures, the one taking the most soldiers,
//! and among those one whose piece cannot be taken back at once if there is one (the
//! prose: steps against moves that lose pieces); "nearest" is the Manhattan distance of
//! the landing square to the king, equally near moves in random order, so "first" and
//! "second closest" are the first two of that order.

use crate::core::moves::Move;
use crate::core::rng::SplitMix64;

use super::vocabulary::{Turn, closest_first, pick, pick_preferring, random_move};

/// The first move of the Millar Gambit, from the attackers' south side.
pub(crate) const MILLAR_GAMBIT: &str = "h1-h3";

/// Aggressive's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if turn.is_first_move()
        && let Some(mv) = MILLAR_GAMBIT.parse().ok().and_then(|mv| turn.legal(mv))
    {
        return Some(mv);
    }
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if let Some(mv) = pick_preferring(rng, &turn.best_captures(), |mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    let order = closest_first(rng, &turn.moves, turn.king());
    if let Some(&mv) = order.iter().take(2).find(|&&mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    random_move(rng, &turn.moves)
}
