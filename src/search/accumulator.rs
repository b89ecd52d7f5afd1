//! The network's first-layer sums along the search's path, one per ply: a node's sums
//! come from those last kept at its parent's ply or its own, whichever differ by the
//! fewest pieces, by the pieces that differ, instead of being summed anew over every
//! piece (the search evaluates only some nodes, so the parent's are often another
//! node's; looking at the grandparent's too was slower, docs/experiments.md).
//!
//! Each stored sum keeps the pieces it was summed over, so a stale entry (a node whose
//! parent was never evaluated) still gives exact sums, only at a higher cost; the
//! correction is the same as [`NetworkOf::evaluate`]'s for every board.
//!
//! Generic over the board as the network is: the search of each board keeps one of its
//! board's.

use crate::core::board::BoardOf;
use crate::core::geometry::Geometry;
use crate::core::role::Role;

use super::network::{AccumulatorOf, NetworkOf};
use super::ply::MAX_PLY;

/// One search thread's sums for a network of board `G`, by ply. It belongs to one
/// network: a thread keeps it for one search only.
pub(crate) struct AccumulatorStackOf<G: Geometry> {
    plies: Vec<Option<AccumulatorOf<G>>>,
}

impl<G: Geometry> Default for AccumulatorStackOf<G> {
    fn default() -> AccumulatorStackOf<G> {
        AccumulatorStackOf {
            plies: vec![None; MAX_PLY + 2],
        }
    }
}

impl<G: Geometry> AccumulatorStackOf<G> {
    /// The network's correction for `board` with `side` to move, reached at `ply` of the
    /// search; keeps its sums for the plies that follow.
    #[inline]
    pub(crate) fn correction(
        &mut self,
        net: &NetworkOf<G>,
        ply: usize,
        board: &BoardOf<G>,
        side: Role,
    ) -> i32 {
        // Summing anew costs one input per piece; an update one per changed input.
        let mut cheapest = board.occupied().count();
        let mut from = None;
        for at in [ply.checked_sub(1), Some(ply)].into_iter().flatten() {
            if let Some(Some(acc)) = self.plies.get(at) {
                let d = acc.distance(board);
                if d < cheapest {
                    cheapest = d;
                    from = Some(at);
                }
            }
        }
        // The sums are updated where they are kept (the parent's copied there first), not
        // copied out and back: the copies showed in profiles beside an update of a move's
        // few inputs.
        if from.is_some_and(|at| at < ply) {
            let (before, here) = self.plies.split_at_mut(ply);
            if let (Some(parent), Some(slot)) = (before.last(), here.first_mut()) {
                *slot = *parent;
            }
        } else if from.is_none() {
            if let Some(slot) = self.plies.get_mut(ply) {
                *slot = Some(net.accumulate(board));
            } else {
                // Beyond the plies kept: summed anew, not kept.
                return net.output(&net.accumulate(board), side);
            }
        }
        match self.plies.get_mut(ply) {
            Some(Some(acc)) => {
                if from.is_some() {
                    net.update(acc, board);
                }
                net.output(acc, side)
            }
            _ => net.output(&net.accumulate(board), side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::core::movegen;
    use crate::core::moves::MoveList;
    use crate::core::position::Position;
    use crate::core::rng::SplitMix64;
    use crate::search::network::{MAX_W1, Network};

    fn random_child(pos: &Position, rng: &mut SplitMix64) -> Option<Position> {
        let mut list = MoveList::new();
        movegen::generate(pos.board(), pos.to_move(), &mut list);
        let mv = *list.as_slice().get(rng.below(list.len()))?;
        let mut child = *pos;
        child.make_move(mv, &Default::default());
        Some(child)
    }

    /// Searches a random tree below `pos` as the search does, evaluating some nodes
    /// only (a node cut off before its evaluation leaves its children a stale entry),
    /// and checks each correction against the network's summed anew.
    fn walk(
        net: &Network,
        stack: &mut AccumulatorStackOf<S11>,
        pos: &Position,
        ply: usize,
        rng: &mut SplitMix64,
    ) {
        if rng.below(4) != 0 {
            let side = pos.to_move();
            assert_eq!(
                stack.correction(net, ply, pos.board(), side),
                net.evaluate(pos.board(), side),
                "ply {ply}"
            );
        }
        if ply < 5 {
            for _ in 0..rng.below(4) {
                if let Some(child) = random_child(pos, rng) {
                    walk(net, stack, &child, ply + 1, rng);
                }
            }
        }
    }

    #[test]
    fn corrections_along_the_path_are_the_networks() {
        // First-layer weights at their bound: the sums come near an i16's range.
        let net = Network::random(7, MAX_W1);
        let mut rng = SplitMix64::new(8);
        let mut stack = AccumulatorStackOf::<S11>::default();
        for _ in 0..300 {
            // Roots far into random games: captures, king moves, and each root far from
            // the entries the last tree left.
            let mut root = Position::start();
            for _ in 0..rng.below(80) {
                match random_child(&root, &mut rng) {
                    Some(child) => root = child,
                    None => break,
                }
            }
            walk(&net, &mut stack, &root, 0, &mut rng);
        }
        // Beyond the plies kept, the sums are made anew.
        let board = Position::start();
        assert_eq!(
            stack.correction(&net, MAX_PLY + 10, board.board(), Role::Attacker),
            net.evaluate(board.board(), Role::Attacker)
        );
    }
}
