//! The network's first-layer sums: one board's ([`AccumulatorOf`]), made anew or updated
//! by the pieces that differ from another board's, and the network's output from them
//! (its integer inference, [`NetworkOf::evaluate`] among it); and the sums along the
//! search's path ([`AccumulatorStackOf`]), one per ply: a node's sums come from those
//! last kept at its parent's ply or its own, whichever differ by the fewest pieces, by
//! the pieces that differ, instead of being summed anew over every piece (the search
//! evaluates only some nodes, so the parent's are often another node's; looking at the
//! grandparent's too was slower, docs/experiments.md).
//!
//! Each stored sum keeps the pieces it was summed over, so a stale entry (a node whose
//! parent was never evaluated) still gives exact sums, only at a higher cost; the
//! correction is the same as [`NetworkOf::evaluate`]'s for every board.
//!
//! Generic over the board as the network is: the search of each board keeps one of its
//! board's.

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::geometry::Geometry;
use crate::core::role::Role;

use super::network::{HIDDEN, NetworkOf, QA, QB, input_of, pieces};
use super::ply::MAX_PLY;

/// The first layer's sums for one board, kept with the pieces they were summed over so
/// that another board's sums can be had from them ([`AccumulatorOf::update`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AccumulatorOf<G: Geometry> {
    pieces: [BitboardOf<G>; 3],
    sums: [i16; HIDDEN],
}

impl<G: Geometry> AccumulatorOf<G> {
    /// The first layer's sums of `net` for `board`, summed over all its pieces.
    #[inline]
    pub(crate) fn new(net: &NetworkOf<G>, board: &BoardOf<G>) -> AccumulatorOf<G> {
        let mut acc = AccumulatorOf {
            pieces: [BitboardOf::EMPTY; 3],
            sums: net.biases(),
        };
        acc.update(net, board);
        acc
    }

    /// Makes these the first layer's sums for `board`, from the sums of the board they
    /// were for, by the pieces that differ: a move changes two to four inputs, where
    /// summing anew takes one per piece.
    #[inline]
    pub(crate) fn update(&mut self, net: &NetworkOf<G>, board: &BoardOf<G>) {
        // Wrapping arithmetic is exact here: it is modular, and a board's sums (see
        // max_w1_of) lie within an i16.
        let now = pieces(board);
        for (kind, (was, is)) in self.pieces.iter().zip(now).enumerate() {
            for sq in *was & !is {
                if let Some(row) = net.weights_of(input_of::<G>(kind, sq.index())) {
                    for (a, w) in self.sums.iter_mut().zip(row) {
                        *a = a.wrapping_sub(*w);
                    }
                }
            }
            for sq in is & !*was {
                if let Some(row) = net.weights_of(input_of::<G>(kind, sq.index())) {
                    for (a, w) in self.sums.iter_mut().zip(row) {
                        *a = a.wrapping_add(*w);
                    }
                }
            }
        }
        self.pieces = now;
    }

    /// The correction of `net` for the board these sums are for, with `side` to move.
    #[inline]
    pub(crate) fn output(&self, net: &NetworkOf<G>, side: Role) -> i32 {
        let Some((w2, b2)) = net.head_of(side) else {
            return 0;
        };
        // At most HIDDEN · QA · 2^15, well within an i32.
        let sum: i32 = self
            .sums
            .iter()
            .zip(w2)
            .map(|(a, w)| i32::from(*a).clamp(0, QA) * i32::from(*w))
            .sum();
        sum / (QA * QB) + b2
    }

    /// How many inputs differ between the board these sums are for and `board`: the cost
    /// of [`AccumulatorOf::update`] to it.
    #[inline]
    pub(crate) fn distance(&self, board: &BoardOf<G>) -> u32 {
        self.pieces
            .iter()
            .zip(pieces(board))
            .map(|(was, is)| (*was ^ is).count())
            .sum()
    }
}

impl<G: Geometry> NetworkOf<G> {
    /// The network's correction for `board` with `side` to move, in centi-units from the
    /// defenders' point of view: its sums made anew.
    #[inline]
    pub(crate) fn evaluate(&self, board: &BoardOf<G>, side: Role) -> i32 {
        AccumulatorOf::new(self, board).output(self, side)
    }
}

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
                *slot = Some(AccumulatorOf::new(net, board));
            } else {
                // Beyond the plies kept: summed anew, not kept.
                return AccumulatorOf::new(net, board).output(net, side);
            }
        }
        match self.plies.get_mut(ply) {
            Some(Some(acc)) => {
                if from.is_some() {
                    acc.update(net, board);
                }
                acc.output(net, side)
            }
            _ => AccumulatorOf::new(net, board).output(net, side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S7;
    use crate::core::geometry::S11;
    use crate::core::movegen;
    use crate::core::moves::MoveList;
    use crate::core::position::Position;
    use crate::core::rng::SplitMix64;
    use crate::search::network::{MAX_W1, Network, NetworkOf, max_w1_of};

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

    /// The sums of a board made from another's by the pieces that differ are the sums
    /// made anew.
    #[test]
    fn updated_sums_are_the_sums_made_anew() {
        let net = NetworkOf::<S7>::random(10, max_w1_of::<S7>());
        let full = BoardOf::<S7>::start();
        let lone = BoardOf::<S7>::from_parts(BitboardOf::EMPTY, BitboardOf::EMPTY, full.king());
        let mut acc = AccumulatorOf::new(&net, &lone.unwrap_or(full));
        assert_eq!(acc.distance(&full), full.occupied().count() - 1);
        acc.update(&net, &full);
        assert_eq!(acc, AccumulatorOf::new(&net, &full));
    }
}
