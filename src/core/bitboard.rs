//! Sets of squares as the low bits of the board's integer ([`Geometry::Bits`]): a `u128`
//! on 11x11 ([`Bitboard`]).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::geometry::{Bits, Geometry, S11};
use super::square::SquareOf;

/// A set of squares of the 11x11 board: bit `i` is square index `i`; bits 121..128 are
/// always clear.
pub(crate) type Bitboard = BitboardOf<S11>;

/// A set of squares of a board of geometry `G`: bit `i` is square index `i`; the bits past
/// the board are always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitboardOf<G: Geometry>(pub G::Bits);

impl<G: Geometry> BitboardOf<G> {
    /// No squares.
    pub const EMPTY: BitboardOf<G> = BitboardOf(G::Bits::ZERO);
    /// All squares.
    pub(crate) const FULL: BitboardOf<G> = BitboardOf(G::FULL);
    /// File `a`.
    pub(crate) const FILE_A: BitboardOf<G> = BitboardOf(G::FILE_FIRST);
    /// The last file (`k` on 11x11).
    pub(crate) const FILE_LAST: BitboardOf<G> = BitboardOf(G::FILE_LAST);
    /// Rank 1.
    pub(crate) const RANK_1: BitboardOf<G> = BitboardOf(G::RANK_FIRST);
    /// The last rank (11 on 11x11).
    pub(crate) const RANK_LAST: BitboardOf<G> = BitboardOf(G::RANK_LAST);
    /// The edge squares.
    pub(crate) const EDGE: BitboardOf<G> = BitboardOf(G::EDGE);
    /// The four corners.
    pub(crate) const CORNERS: BitboardOf<G> = BitboardOf(G::CORNERS);
    /// The throne.
    pub(crate) const THRONE: BitboardOf<G> = BitboardOf(G::THRONE);

    /// A set from the board's bits (bits past the board are the caller's to keep clear).
    #[inline(always)]
    pub(crate) const fn from_bits(bits: G::Bits) -> BitboardOf<G> {
        BitboardOf(bits)
    }

    /// Corners and throne: only the king may stop there.
    #[inline(always)]
    pub fn restricted() -> BitboardOf<G> {
        BitboardOf(G::CORNERS | G::THRONE)
    }

    /// The set holding one square.
    #[inline(always)]
    pub fn from_square(sq: SquareOf<G>) -> BitboardOf<G> {
        BitboardOf(sq.bit())
    }

    /// A file (`0` = a) as a set.
    #[cfg(test)]
    pub(crate) fn file(file: u8) -> BitboardOf<G> {
        BitboardOf(G::FILE_FIRST << u32::from(file % G::SIZE))
    }

    /// A rank (`0` = rank 1) as a set.
    #[cfg(test)]
    pub(crate) fn rank(rank: u8) -> BitboardOf<G> {
        BitboardOf(G::RANK_FIRST << (u32::from(rank % G::SIZE) * u32::from(G::SIZE)))
    }

    /// True when the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    /// True when the set is not empty.
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.0.is_zero()
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the square is in the set.
    #[inline(always)]
    pub fn contains(self, sq: SquareOf<G>) -> bool {
        !(self.0 & sq.bit()).is_zero()
    }

    /// Adds a square.
    #[inline(always)]
    pub fn insert(&mut self, sq: SquareOf<G>) {
        self.0 |= sq.bit();
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub(crate) fn first(self) -> Option<SquareOf<G>> {
        if self.0.is_zero() {
            None
        } else {
            Some(SquareOf::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The squares one step north (towards the last rank).
    #[inline(always)]
    pub(crate) fn north(self) -> BitboardOf<G> {
        BitboardOf((self.0 << u32::from(G::SIZE)) & G::FULL)
    }

    /// The squares one step south (towards rank 1).
    #[inline(always)]
    pub(crate) fn south(self) -> BitboardOf<G> {
        BitboardOf(self.0 >> u32::from(G::SIZE))
    }

    /// The squares one step east (towards the last file), without wrapping.
    #[inline(always)]
    pub(crate) fn east(self) -> BitboardOf<G> {
        BitboardOf((self.0 << 1) & !G::FILE_FIRST & G::FULL)
    }

    /// The squares one step west (towards file a), without wrapping.
    #[inline(always)]
    pub(crate) fn west(self) -> BitboardOf<G> {
        BitboardOf((self.0 >> 1) & !G::FILE_LAST)
    }

    /// The orthogonal neighbours of the set (not including the set itself).
    #[inline(always)]
    pub fn neighbours(self) -> BitboardOf<G> {
        BitboardOf(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }

    /// Grows `self` through `passable` squares by orthogonal steps until it stops growing.
    /// The result is `self` plus every square of `passable` connected to it.
    #[inline]
    pub(crate) fn flood(self, passable: BitboardOf<G>) -> BitboardOf<G> {
        let mut fill = self;
        loop {
            let next = fill | (fill.neighbours() & passable);
            if next == fill {
                return fill;
            }
            fill = next;
        }
    }

    /// Every square reached from the set by sliding along ranks and files through
    /// `passable` squares (the set itself included): one "rook step" of a flood fill,
    /// computed with Kogge-Stone occluded fills in the four directions.
    #[inline(always)]
    pub(crate) fn slide_fill(self, passable: BitboardOf<G>) -> BitboardOf<G> {
        let g = self.0;
        let p = passable.0;
        let not_a = !G::FILE_FIRST;
        let not_last = !G::FILE_LAST;
        let n = u32::from(G::SIZE);
        BitboardOf(
            occluded_fill_up::<G>(g, p & G::FULL, n)
                | occluded_fill_down::<G>(g, p, n)
                | occluded_fill_up::<G>(g, p & not_a & G::FULL, 1)
                | occluded_fill_down::<G>(g, p & not_last, 1),
        )
    }

    /// The same result as [`BitboardOf::flood`], grown by whole lines at a time with
    /// [`BitboardOf::slide_fill`] (fewer rounds in open positions).
    #[inline]
    pub(crate) fn flood_lines(self, passable: BitboardOf<G>) -> BitboardOf<G> {
        let mut fill = self;
        loop {
            let next = fill.slide_fill(passable) & (passable | fill);
            if next == fill {
                return fill;
            }
            fill = next;
        }
    }

    /// Iterates over the squares of the set, lowest first.
    #[inline(always)]
    pub fn iter(self) -> BitboardIter<G> {
        BitboardIter(self.0)
    }

    /// This set under a board symmetry (see [`SquareOf::transform`]).
    pub fn transform(self, sym: u8) -> BitboardOf<G> {
        self.iter()
            .map(|sq| BitboardOf::from_square(sq.transform(sym)))
            .fold(BitboardOf::EMPTY, |a, b| a | b)
    }
}

/// Kogge-Stone fill of `g` towards higher indices by steps of `n` through `p` (which
/// must exclude the squares a step would wrap onto, and stay within the board). Four
/// doublings cover 15 steps, the longest line up to 15x15 (16 files); the boards past
/// that (18 steps on 19x19) take a fifth, decided by the size, a constant.
#[inline(always)]
pub(crate) fn occluded_fill_up<G: Geometry>(mut g: G::Bits, mut p: G::Bits, n: u32) -> G::Bits {
    g |= p & (g << n);
    p &= p << n;
    g |= p & (g << (2 * n));
    p &= p << (2 * n);
    g |= p & (g << (4 * n));
    p &= p << (4 * n);
    if G::SIZE > 16 {
        g |= p & (g << (8 * n));
        p &= p << (8 * n);
        return g | (p & (g << (16 * n)));
    }
    g | (p & (g << (8 * n)))
}

/// Kogge-Stone fill of `g` towards lower indices by steps of `n` through `p`.
#[inline(always)]
pub(crate) fn occluded_fill_down<G: Geometry>(mut g: G::Bits, mut p: G::Bits, n: u32) -> G::Bits {
    g |= p & (g >> n);
    p &= p >> n;
    g |= p & (g >> (2 * n));
    p &= p >> (2 * n);
    g |= p & (g >> (4 * n));
    p &= p >> (4 * n);
    if G::SIZE > 16 {
        g |= p & (g >> (8 * n));
        p &= p >> (8 * n);
        return g | (p & (g >> (16 * n)));
    }
    g | (p & (g >> (8 * n)))
}

/// Iterator over the squares of a [`BitboardOf`].
pub struct BitboardIter<G: Geometry>(G::Bits);

impl<G: Geometry> Iterator for BitboardIter<G> {
    type Item = SquareOf<G>;

    #[inline(always)]
    fn next(&mut self) -> Option<SquareOf<G>> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 = self.0.clear_lowest();
        Some(SquareOf::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<G: Geometry> ExactSizeIterator for BitboardIter<G> {}

impl<G: Geometry> IntoIterator for BitboardOf<G> {
    type Item = SquareOf<G>;
    type IntoIter = BitboardIter<G>;
    fn into_iter(self) -> BitboardIter<G> {
        self.iter()
    }
}

impl<G: Geometry> FromIterator<SquareOf<G>> for BitboardOf<G> {
    fn from_iter<I: IntoIterator<Item = SquareOf<G>>>(iter: I) -> BitboardOf<G> {
        let mut b = BitboardOf::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<G: Geometry> $tr for BitboardOf<G> {
            type Output = BitboardOf<G>;
            #[inline(always)]
            fn $f(self, rhs: BitboardOf<G>) -> BitboardOf<G> {
                BitboardOf(self.0 $op rhs.0)
            }
        }
        impl<G: Geometry> $tra for BitboardOf<G> {
            #[inline(always)]
            fn $fa(&mut self, rhs: BitboardOf<G>) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<G: Geometry> Not for BitboardOf<G> {
    type Output = BitboardOf<G>;
    #[inline(always)]
    fn not(self) -> BitboardOf<G> {
        BitboardOf(!self.0 & G::FULL)
    }
}

impl<G: Geometry> fmt::Debug for BitboardOf<G> {
    /// A diagram, the last rank first, `x` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in (0..G::SIZE).rev() {
            for file in 0..G::SIZE {
                let member = SquareOf::from_coords(file, r).is_some_and(|sq| self.contains(sq));
                f.write_str(if member { "x " } else { ". " })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Bitboard {
    /// File `k`, the last of the 11x11 board.
    #[cfg(test)]
    pub(crate) const FILE_K: Bitboard = Bitboard::FILE_LAST;
    /// Rank 11, the last of the 11x11 board.
    #[cfg(test)]
    pub(crate) const RANK_11: Bitboard = Bitboard::RANK_LAST;
}

/// Squares of the 11x11 board named in tests.
#[cfg(test)]
fn sq(i: usize) -> super::square::Square {
    super::square::Square::new(i).unwrap_or(super::square::Square::THRONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap() {
        assert!(Bitboard::FILE_K.east().is_empty());
        assert!(Bitboard::FILE_A.west().is_empty());
        assert!(Bitboard::RANK_11.north().is_empty());
        assert!(Bitboard::RANK_1.south().is_empty());
        assert_eq!(Bitboard::THRONE.neighbours().count(), 4);
        assert_eq!(Bitboard::CORNERS.neighbours().count(), 8);
    }

    #[test]
    fn slide_fill_stops_at_walls_and_edges() {
        let a1 = Bitboard::from_square(sq(0));
        // From a1 on an empty board: file a and rank 1.
        assert_eq!(
            a1.slide_fill(Bitboard::FULL),
            Bitboard::FILE_A | Bitboard::RANK_1
        );
        // A wall on b1 stops the rank.
        let b1 = Bitboard::from_square(sq(1));
        assert_eq!(a1.slide_fill(!b1), Bitboard::FILE_A);
        // No wrap from file k to file a.
        let k1 = Bitboard::from_square(sq(10));
        assert_eq!(
            k1.slide_fill(Bitboard::FULL),
            Bitboard::FILE_K | Bitboard::RANK_1
        );
        let wall = Bitboard::file(5);
        assert_eq!(a1.flood(!wall), a1.flood_lines(!wall));
    }

    #[test]
    fn every_size_slides_and_floods_without_wrapping() {
        use crate::core::geometry::{S7, S13, S15, S17, S19};
        fn check<G: Geometry>() {
            let a1 = BitboardOf::<G>::from_square(SquareOf::new(0).unwrap_or(SquareOf::THRONE));
            let full = BitboardOf::<G>::FULL;
            assert_eq!(a1.slide_fill(full), BitboardOf::FILE_A | BitboardOf::RANK_1);
            assert_eq!(a1.flood_lines(full), full);
            assert_eq!(a1.flood(full), full);
            assert!(BitboardOf::<G>::FILE_LAST.east().is_empty());
            assert!(BitboardOf::<G>::RANK_LAST.north().is_empty());
            assert_eq!(BitboardOf::<G>::THRONE.neighbours().count(), 4);
            assert_eq!(BitboardOf::<G>::CORNERS.neighbours().count(), 8);
            assert_eq!(BitboardOf::<G>::file(3).count(), u32::from(G::SIZE));
            assert_eq!(BitboardOf::<G>::rank(3).count(), u32::from(G::SIZE));
            assert_eq!((!BitboardOf::<G>::EMPTY), full);
        }
        check::<S7>();
        check::<S11>();
        check::<S13>();
        check::<S15>();
        check::<S17>();
        check::<S19>();
    }

    #[test]
    fn flood_fills_connected_region() {
        let wall = Bitboard::file(5);
        let left = Bitboard::from_square(sq(0)).flood(!wall);
        assert_eq!(left.count(), 55);
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn bitboard() {
        use crate::core::bitboard::Bitboard;
        use crate::core::square::Square;
        let corners = Bitboard::CORNERS;
        assert_eq!(corners.count(), 4);
        assert!(corners.contains(Square::new(120).unwrap()));
        assert_eq!(Bitboard::EDGE.count(), 40);
    }
}
