//! Barricading - Aggressive (attackers, Algorithm 3): wall off every exit castle, then pick
//! off the defenders with few losses and take the king. In order: on the attackers' first
//! move of a game from the start, the Dutch opening (g1-g2); capture the king if possible;
//! if the king could reach an exit castle with his next move, block him; if a defender
//! stands on a barricade square, capture him there; take a barricade's middle square;
//! capture soldiers that are not in the centre of the board; take a barricade's border
//! square; else a random move.
//!
//! Decided where the paper is silent:
//! - the barricade of a corner is the primary one (its middle square, b2 for a1, and the
//!   two key edge squares, a3 and c1); when a defender holds the middle square, its border
//!   squares are those of the secondary barricade (a2, a3, b1, c1). A corner the attackers
//!   already close is left alone, and a piece already on a barricade square is never
//!   taken off it to build another;
//! - "defend the threatened barricade" is capturing the intruder; when no move captures
//!   him, the step passes;
//! - the barricade squares are taken only by moves whose piece cannot be captured at once
//!   (the prose: few casualties); captures prefer such moves;
//! - "the centre" is the 5x5 box around the throne.
//!
//! [`barricade_steps`] is shared with Barricading - Cordon.

use crate::core::bitboard::Bitboard;
use crate::core::moves::Move;
use crate::core::rng::SplitMix64;
use crate::core::square::Square;

use super::vocabulary::{
    Turn, barricade_border, barricade_middle, barricade_squares, centre, is_barricaded, pick,
    pick_preferring, random_move, secondary_barricade,
};

/// The Dutch opening, the barricading attackers' first move.
pub(crate) const DUTCH_OPENING: &str = "g1-g2";

/// The steps both barricading strategies take first: the Dutch opening, the king's
/// capture, blocking his escape.
pub(crate) fn opening_steps(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if turn.is_first_move()
        && let Some(mv) = DUTCH_OPENING.parse().ok().and_then(|mv| turn.legal(mv))
    {
        return Some(mv);
    }
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if turn.opponent_threatens_win() {
        return turn.block_win_threat(rng);
    }
    None
}

/// Every barricade square the attackers hold.
fn held_barricade_squares(turn: &Turn) -> Bitboard {
    let all = Square::CORNERS
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, c| acc | barricade_squares(c));
    all & turn.board().attackers()
}

/// The safe moves of pieces not already on a barricade square onto one of `targets`.
fn safe_moves_onto(turn: &Turn, targets: Bitboard) -> Vec<Move> {
    let held = held_barricade_squares(turn);
    turn.filter(|t, mv| targets.contains(mv.to) && !held.contains(mv.from) && t.is_safe(mv))
}

/// The corners not yet barricaded.
fn open_corners<'a>(turn: &'a Turn<'_>) -> impl Iterator<Item = Square> + 'a {
    Square::CORNERS
        .into_iter()
        .filter(|&c| !is_barricaded(turn.board(), c))
}

/// "Defend the threatened barricade": capture a defender standing on a barricade square.
pub(crate) fn defend_barricade(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let intruders = Square::CORNERS
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, c| acc | barricade_squares(c))
        & turn.board().defenders();
    if intruders.is_empty() {
        return None;
    }
    let hits = turn.filter(|t, mv| (t.try_move(mv).captured & intruders).any());
    pick_preferring(rng, &hits, |mv| turn.is_safe(mv))
}

/// Take the middle square of an open corner's barricade.
pub(crate) fn take_middle(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let targets = open_corners(turn).fold(Bitboard::EMPTY, |acc, c| acc | barricade_middle(c));
    pick(rng, &safe_moves_onto(turn, targets))
}

/// Take a border square of an open corner's barricade (the secondary barricade's when a
/// defender holds the middle square).
pub(crate) fn take_border(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let board = turn.board();
    let targets = open_corners(turn).fold(Bitboard::EMPTY, |acc, c| {
        if (barricade_middle(c) & board.defenders()).any() {
            acc | secondary_barricade(c)
        } else {
            acc | barricade_border(c)
        }
    });
    pick(rng, &safe_moves_onto(turn, targets))
}

/// Barricading - Aggressive's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = opening_steps(turn, rng) {
        return Some(mv);
    }
    if let Some(mv) = defend_barricade(turn, rng).or_else(|| take_middle(turn, rng)) {
        return Some(mv);
    }
    let outside = !centre();
    let captures: Vec<Move> = turn
        .capturing_moves()
        .into_iter()
        .map(|(mv, _)| mv)
        .filter(|&mv| (turn.try_move(mv).captured & !outside).is_empty())
        .collect();
    if let Some(mv) = pick_preferring(rng, &captures, |mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    take_border(turn, rng).or_else(|| random_move(rng, &turn.moves))
}
