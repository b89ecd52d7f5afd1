//! The soldiers seen in four orientations of the board, so that perft's last ply counts
//! the moves of every direction with one subtraction each.
//!
//! Squares are numbered rank by rank, so a rank is a run of consecutive bits and a slide
//! towards higher indices along it is a carry: for the set `own` of the movers and the set
//! `blockers` of the occupied squares, `blockers - (own << 1)` borrows from the square
//! above each mover through the empty squares above it up to the next blocker, so
//! `(blockers - (own << 1)) & !blockers` is every square those pieces can slide to in that
//! direction, each exactly once. The other three directions are the same slide on the board
//! turned half a turn (west), mirrored in the a1 diagonal (north) and both (south); this
//! type keeps the pieces in each orientation, updated from what a move did, and the
//! [`crate::core::geometry::Tables::oriented`] table gives a square's bit in each.
//!
//! File `a` and the bit past the last square are added to the blockers: a borrow that
//! leaves the end of a rank stops there, and no slide in this direction ends on file `a`.
//! The corners map to corners and the throne to itself in every orientation, so the squares
//! a soldier may not stop on are the same set in each.

use super::board::BoardOf;
use super::geometry::{Bits, Geometry, TABLE};
use super::movegen::king_targets;
use super::moves::MoveOf;
use super::role::Role;
use super::rules::RuleSet;

/// The attackers and all pieces of a board in each of the four orientations (index 0 is
/// the board as it is).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Orientations<G: Geometry> {
    attackers: [G::Bits; 4],
    occupied: [G::Bits; 4],
}

/// The set of `squares` in each of the four orientations.
#[inline(always)]
fn orient<G: Geometry>(squares: G::Bits) -> [G::Bits; 4] {
    let table = &G::tables().oriented;
    let mut out = [G::Bits::ZERO; 4];
    let mut rest = squares;
    while !rest.is_zero() {
        let bits = &table[rest.trailing_zeros() as usize & (TABLE - 1)];
        for (o, &bit) in out.iter_mut().zip(bits) {
            *o |= bit;
        }
        rest = rest.clear_lowest();
    }
    out
}

/// The number of squares the pieces of `own` reach by sliding towards higher indices
/// along their rank through empty squares, landing only on `land`.
#[inline(always)]
fn slides_up_count<G: Geometry>(own: G::Bits, occupied: G::Bits, land: G::Bits) -> u32 {
    let blockers = occupied | G::FILE_FIRST | G::PAST_END;
    (blockers.wrapping_sub(own << 1) & !blockers & land).count_ones()
}

/// The moves of one side counted after each move of the other from one position, with
/// what the moves share computed once (see [`Orientations::leaf_counter`]).
pub struct LeafCounter<G: Geometry> {
    /// The counted side's soldiers, shifted one square up, in each orientation.
    shifted: [G::Bits; 4],
    /// Every piece, in each orientation, before the move.
    occupied: [G::Bits; 4],
    /// The squares no slide counted here ends on: restricted squares, file `a` and the bit
    /// past the last square.
    no_land: G::Bits,
    /// The side whose moves are counted.
    counted: Role,
}

impl<G: Geometry> LeafCounter<G> {
    /// The number of moves of the counted side after the other played `mv` from the
    /// position of `oriented`, capturing `captured` and reaching `child`: the same as
    /// `oriented.after(..).count_moves(child, ..)`.
    #[inline(always)]
    pub fn count(
        &self,
        oriented: &Orientations<G>,
        mv: MoveOf<G>,
        captured: G::Bits,
        child: &BoardOf<G>,
        rules: &RuleSet,
    ) -> u64 {
        let mover = self.counted.opponent();
        if !captured.is_zero() {
            return oriented
                .after(mover, mv, captured)
                .count_moves(child, self.counted, rules);
        }
        // Without a capture the counted side's soldiers stand where they stood: only the
        // two squares of the move change the blockers.
        let t = &G::tables().oriented;
        let (from, to) = (mv.from.index() & (TABLE - 1), mv.to.index() & (TABLE - 1));
        let stop = G::FILE_FIRST | G::PAST_END;
        let mut n = 0;
        let (from, to) = (&t[from], &t[to]);
        for o in 0..4 {
            let (before, shifted) = (self.occupied[o], self.shifted[o]);
            let occupied = before ^ from[o] ^ to[o];
            let blockers = occupied | stop;
            n += (blockers.wrapping_sub(shifted) & !(occupied | self.no_land)).count_ones();
        }
        if self.counted == Role::Defender {
            n += king_targets(child, rules).count();
        }
        u64::from(n)
    }
}

impl<G: Geometry> Orientations<G> {
    /// The pieces of `board` in the four orientations.
    pub fn of(board: &BoardOf<G>) -> Orientations<G> {
        let (a, all) = (board.attackers().0, board.occupied().0);
        Orientations {
            attackers: orient::<G>(a),
            occupied: orient::<G>(all),
        }
    }

    /// The orientations after `role` played `mv`, capturing `captured` (as
    /// [`crate::core::position::PositionOf::make_move`] reports it).
    #[inline(always)]
    pub fn after(&self, role: Role, mv: MoveOf<G>, captured: G::Bits) -> Orientations<G> {
        let t = &G::tables().oriented;
        let (from, to) = (mv.from.index() & (TABLE - 1), mv.to.index() & (TABLE - 1));
        let mut attackers = self.attackers;
        let mut occupied = self.occupied;
        for o in 0..4 {
            let m = t[from][o] | t[to][o];
            occupied[o] ^= m;
            if role == Role::Attacker {
                attackers[o] ^= m;
            }
        }
        if !captured.is_zero() {
            let captured = orient::<G>(captured);
            for o in 0..4 {
                let c = captured[o];
                occupied[o] &= !c;
                if role == Role::Defender {
                    attackers[o] &= !c;
                }
            }
        }
        Orientations {
            attackers,
            occupied,
        }
    }

    /// What perft's last ply needs to count the moves of the other side after each move of
    /// `mover` on `board` (whose pieces these are), under `rules`.
    #[inline(always)]
    pub fn leaf_counter(&self, board: &BoardOf<G>, mover: Role, rules: &RuleSet) -> LeafCounter<G> {
        let t = &G::tables().oriented;
        let k = board.king().index() & (TABLE - 1);
        let counted = mover.opponent();
        let own = |o: usize| match counted {
            Role::Attacker => self.attackers[o],
            Role::Defender => self.occupied[o] & !self.attackers[o] & !t[k][o],
        };
        LeafCounter {
            shifted: [0, 1, 2, 3].map(|o| own(o) << 1),
            occupied: self.occupied,
            no_land: rules.restricted::<G>().0 | G::FILE_FIRST | G::PAST_END,
            counted,
        }
    }

    /// The number of moves of `role` on `board` (whose pieces these are) under `rules`:
    /// [`crate::core::movegen::count_moves`], from the four orientations.
    #[inline(always)]
    pub fn count_moves(&self, board: &BoardOf<G>, role: Role, rules: &RuleSet) -> u64 {
        let land = !rules.restricted::<G>().0;
        let mut n = 0;
        match role {
            Role::Attacker => {
                for o in 0..4 {
                    n += slides_up_count::<G>(self.attackers[o], self.occupied[o], land);
                }
            }
            Role::Defender => {
                let t = &G::tables().oriented;
                let king = board.king();
                let k = king.index() & (TABLE - 1);
                for ((&king_bit, &occupied), &attackers) in
                    t[k].iter().zip(&self.occupied).zip(&self.attackers)
                {
                    let own = occupied & !attackers & !king_bit;
                    n += slides_up_count::<G>(own, occupied, land);
                }
                n += king_targets(board, rules).count();
            }
        }
        u64::from(n)
    }
}
