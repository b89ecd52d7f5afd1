//! Barricading - Cordon (attackers, Algorithm 4): barricade the exit castles, then close
//! one side of the board with a cordon and push it in, shrinking the defenders' room
//! until they cannot move. In order: the Dutch opening, the king's capture and blocking
//! his escape as in Barricading - Aggressive; while no cordon stands, defend the
//! barricades, take their middle and border squares, then build a cordon on the first
//! side (north, east, south, west) whose edge holds no defender; once a cordon stands,
//! move its first piece that can one step inwards; else a random move.
//!
//! Decided where the paper is silent:
//! - a cordon is a line of attackers across the board, one on every file (north and
//!   south) or rank (east and west), neighbours at most one line apart, with no defender
//!   between it and the edge (the paper's condition for a working cordon; see
//!   [`cordon`](super::vocabulary::cordon)). Allowing that one-line step is what lets the
//!   wall move in one piece at a time and stay closed, which is how the prose describes
//!   "moving the wall up the board" (the pseudo-code's straight line would open a gap at
//!   every step);
//! - the cordon is built on the second line from the edge (rank 10 for the north), by
//!   moves of pieces not already on it, safe ones first;
//! - pushing in: the first piece along the cordon (from file a or rank 1) whose step
//!   inwards is legal and keeps the cordon closed, a safe step preferred;
//! - the random move at the end moves no piece of a standing cordon when another move
//!   exists.

use crate::core::geometry::{Geometry, S11};
use crate::core::moves::Move;
use crate::core::rng::SplitMix64;

use super::barricading_aggressive::{defend_barricade, opening_steps, take_border, take_middle};
use super::vocabulary::{
    Cordon, Side, Turn, any_cordon, cordon_squares, pick_preferring, random_move,
};

/// The line the cordon is built on: the second from the edge.
const CORDON_DEPTH: u8 = 1;

/// The side to build a cordon on: the first whose edge and cordon line hold no defender.
fn side_to_close(turn: &Turn) -> Option<Side> {
    let defenders = turn.board().defenders_and_king();
    Side::ALL
        .into_iter()
        .find(|s| (0..=CORDON_DEPTH).all(|d| (s.line(d) & defenders).is_empty()))
}

/// A move that fills an empty square of the cordon line on `side`.
fn build(turn: &Turn, side: Side, rng: &mut SplitMix64) -> Option<Move> {
    let line = side.line(CORDON_DEPTH);
    let moves = turn.filter(|_, mv| line.contains(mv.to) && !line.contains(mv.from));
    pick_preferring(rng, &moves, |mv| turn.is_safe(mv))
}

/// The step inwards of the first cordon piece that can take it and keep the cordon.
fn push(turn: &Turn, side: Side, c: &Cordon) -> Option<Move> {
    let mut steps = Vec::new();
    for (i, across) in (0..S11::SIZE).enumerate() {
        let depth = *c.get(i)?;
        let deeper = depth.checked_add(1)?;
        let neighbours_ok = [i.checked_sub(1), i.checked_add(1)]
            .into_iter()
            .flatten()
            .filter_map(|j| c.get(j))
            .all(|&d| d.abs_diff(deeper) <= 1);
        if !neighbours_ok {
            continue;
        }
        let (Some(from), Some(to)) = (side.square(across, depth), side.square(across, deeper))
        else {
            continue;
        };
        if let Some(mv) = Move::new(from, to).and_then(|mv| turn.legal(mv)) {
            steps.push(mv);
        }
    }
    steps
        .iter()
        .copied()
        .find(|&mv| turn.is_safe(mv))
        .or_else(|| steps.first().copied())
}

/// Barricading - Cordon's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = opening_steps(turn, rng) {
        return Some(mv);
    }
    match any_cordon(turn.board()) {
        None => {
            let built = defend_barricade(turn, rng)
                .or_else(|| take_middle(turn, rng))
                .or_else(|| take_border(turn, rng))
                .or_else(|| side_to_close(turn).and_then(|s| build(turn, s, rng)));
            built.or_else(|| random_move(rng, &turn.moves))
        }
        Some((side, c)) => {
            if let Some(mv) = push(turn, side, &c) {
                return Some(mv);
            }
            let wall = cordon_squares(side, &c);
            let free = turn.filter(|_, mv| !wall.contains(mv.from));
            random_move(rng, &free).or_else(|| random_move(rng, &turn.moves))
        }
    }
}
