//! Perft: counting the leaf positions of the move tree, as `tests/data/perft.txt` defines it.
//!
//! The moves and captures are those of a rule set; its repetition rule is off. A move that
//! ends the game by itself (king captured or escaped, edge fort, encirclement, where the
//! rules have them) is a leaf: counted at the last ply, never expanded. A side with no
//! legal move has no children. The last ply is bulk-counted: the moves are counted, not
//! made, since every move there is a leaf whether or not it ends the game.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::berserk_position::{BerserkPositionOf, BerserkRules};
use crate::core::geometry::Geometry;
use crate::core::movegen;
use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::oriented::Orientations;
use crate::core::position::PositionOf;
use crate::core::rules::RuleSet;

/// The number of leaf positions `depth` plies below `pos` under `rules`.
///
/// ```
/// use hnefi::core::position::Position;
/// use hnefi::core::perft::perft;
/// use hnefi::core::rules::RuleSet;
/// assert_eq!(perft(&Position::start(), 2, &RuleSet::default()), 6788);
/// ```
pub fn perft<G: Geometry>(pos: &PositionOf<G>, depth: u32, rules: &RuleSet) -> u64 {
    if !rules.speed.is_none() || rules.has_walls() {
        return perft_plain(pos, depth, rules);
    }
    match depth {
        0 => 1,
        1 => movegen::count_moves(pos.board(), pos.to_move(), rules),
        _ => perft_oriented(pos, &Orientations::of(pos.board()), depth, rules),
    }
}

/// [`perft`] move by move, for the rules the four orientations do not count (speed
/// limits, walls).
fn perft_plain<G: Geometry>(pos: &PositionOf<G>, depth: u32, rules: &RuleSet) -> u64 {
    if depth <= 1 {
        return match depth {
            0 => 1,
            _ => movegen::count_moves(pos.board(), pos.to_move(), rules),
        };
    }
    let mut list = MoveListOf::new();
    movegen::generate_under(pos.board(), pos.to_move(), rules, &mut list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = *pos;
        if child.play_unchecked(mv, rules).win.is_none() {
            total += perft_plain(&child, depth - 1, rules);
        }
    }
    total
}

/// [`perft`] for `depth` of at least 1, with the soldiers of `pos` in `oriented`: the
/// positions one ply above the leaves count their moves from them.
fn perft_oriented<G: Geometry>(
    pos: &PositionOf<G>,
    oriented: &Orientations<G>,
    depth: u32,
    rules: &RuleSet,
) -> u64 {
    if depth <= 1 {
        return oriented.count_moves(pos.board(), pos.to_move(), rules);
    }
    let mut list = MoveListOf::new();
    movegen::generate_under(pos.board(), pos.to_move(), rules, &mut list);
    let role = pos.to_move();
    let mut total = 0;
    if depth == 2 {
        let counter = oriented.leaf_counter(pos.board(), role, rules);
        for &mv in list.iter() {
            let mut child = *pos;
            let effect = child.play_unchecked(mv, rules);
            if effect.win.is_none() {
                total += counter.count(oriented, mv, effect.captured.0, child.board(), rules);
            }
        }
        return total;
    }
    for &mv in list.iter() {
        let mut child = *pos;
        let effect = child.play_unchecked(mv, rules);
        // A move that ends the game here is no leaf: the leaves are plies below.
        if effect.win.is_none() {
            let below = oriented.after(role, mv, effect.captured.0);
            total += perft_oriented(&child, &below, depth - 1, rules);
        }
    }
    total
}

/// [`perft`] that gives up, returning `None`, soon after `stop` becomes true (it looks at
/// the flag once per node above the last three plies, so the count costs the same).
pub(crate) fn perft_until<G: Geometry>(
    pos: &PositionOf<G>,
    depth: u32,
    rules: &RuleSet,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < 4 {
        return Some(perft(pos, depth, rules));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveListOf::new();
    movegen::generate_under(pos.board(), pos.to_move(), rules, &mut list);
    let mut total = 0u64;
    for &mv in list.iter() {
        let mut child = *pos;
        let effect = child.play_unchecked(mv, rules);
        if effect.win.is_none() {
            total += perft_until(&child, depth - 1, rules, stop)?;
        }
    }
    Some(total)
}

/// Leaves below the child reached by `mv`, `depth` plies further.
#[inline]
fn child_count<G: Geometry>(
    pos: &PositionOf<G>,
    mv: MoveOf<G>,
    depth: u32,
    rules: &RuleSet,
) -> u64 {
    let mut child = *pos;
    let effect = child.play_unchecked(mv, rules);
    if effect.win.is_some() {
        u64::from(depth == 0)
    } else {
        perft(&child, depth, rules)
    }
}

/// Perft split by root move: each move with its leaf count, sorted by move (origin, then
/// destination, squares in index order).
pub fn divide<G: Geometry>(
    pos: &PositionOf<G>,
    depth: u32,
    rules: &RuleSet,
) -> Vec<(MoveOf<G>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(MoveOf<G>, u64)> = pos
        .legal_moves(rules)
        .iter()
        .map(|&mv| (mv, child_count(pos, mv, depth - 1, rules)))
        .collect();
    out.sort_unstable_by_key(|&(mv, _)| mv);
    out
}

/// [`divide`] one root move at a time, for a count that may be long: `each` gets each
/// root move and its count as soon as it is counted, in [`divide`]'s order, and the
/// counting gives up soon after `stop` becomes true (see [`perft_until`]). Returns true
/// when every root move was counted; false when it gave up (the moves given to `each`
/// are complete, the one in progress is dropped).
pub(crate) fn divide_until<G: Geometry>(
    pos: &PositionOf<G>,
    depth: u32,
    rules: &RuleSet,
    stop: &AtomicBool,
    mut each: impl FnMut(MoveOf<G>, u64),
) -> bool {
    let Some(below) = depth.checked_sub(1) else {
        return true;
    };
    let mut moves: Vec<MoveOf<G>> = pos.legal_moves(rules).iter().copied().collect();
    moves.sort_unstable();
    for mv in moves {
        let mut child = *pos;
        let effect = child.play_unchecked(mv, rules);
        let count = if effect.win.is_some() {
            Some(u64::from(below == 0))
        } else {
            perft_until(&child, below, rules, stop)
        };
        match count {
            Some(n) => each(mv, n),
            None => return false,
        }
    }
    true
}

/// Perft of a Berserk position: every move is a ply (a berserk continuation too); a move
/// that ends the game by the position alone ([`BerserkPositionOf::status`]) is a leaf,
/// counted at the last ply and never expanded.
pub fn berserk_perft<G: Geometry>(pos: &BerserkPositionOf<G>, depth: u32, r: &BerserkRules) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves(r);
    if depth == 1 {
        return moves.as_slice().len() as u64;
    }
    let mut n = 0;
    for &mv in moves.as_slice() {
        let mut next = *pos;
        next.play(mv, r);
        if !next.status(r).is_over() {
            n += berserk_perft(&next, depth - 1, r);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::position::Position;

    #[test]
    fn perft_until_counts_as_perft_and_gives_up_when_stopped() {
        let pos = Position::start();
        let rules = RuleSet::default();
        let go = AtomicBool::new(false);
        for depth in 0..=3 {
            assert_eq!(
                perft_until(&pos, depth, &rules, &go),
                Some(perft(&pos, depth, &rules))
            );
        }
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&pos, 4, &rules, &stop), None);
        // The last three plies are counted without looking at the flag.
        assert_eq!(
            perft_until(&pos, 3, &rules, &stop),
            Some(perft(&pos, 3, &rules))
        );
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn divide_until() {
        use crate::core::perft::{divide, divide_until};
        use crate::core::position::Position;
        use crate::core::rules::RuleSet;
        use std::sync::atomic::AtomicBool;
        let (pos, rules, mut seen) = (Position::start(), RuleSet::default(), Vec::new());
        let stop = AtomicBool::new(false);
        assert!(divide_until(&pos, 2, &rules, &stop, |mv, n| seen.push((mv, n))));
        assert_eq!(seen, divide(&pos, 2, &rules));
    }
}
