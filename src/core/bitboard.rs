//! Sets of squares as the low 121 bits of a `u128`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::{NUM_SQUARES, SIZE, Square};

/// A set of squares: bit `i` is square index `i`; bits 121..128 are always clear.
///
/// ```
/// use hnefi::core::bitboard::Bitboard;
/// use hnefi::core::square::Square;
/// let corners = Bitboard::CORNERS;
/// assert_eq!(corners.count(), 4);
/// assert!(corners.contains(Square::new(120).unwrap()));
/// assert_eq!(Bitboard::EDGE.count(), 40);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const fn file_mask(file: u8) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + file);
        r += 1;
    }
    m
}

const fn rank_mask(rank: u8) -> u128 {
    ((1u128 << SIZE) - 1) << (rank * SIZE)
}

/// `SQUARE_BITS[i]`: the set holding square `i`; empty for `i` >= 121. A table load is
/// cheaper than a variable 128-bit shift.
pub(crate) static SQUARE_BITS: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut s = 0;
    while s < NUM_SQUARES {
        t[s] = 1u128 << s;
        s += 1;
    }
    t
};

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 121 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << NUM_SQUARES) - 1);
    /// File `a`.
    pub const FILE_A: Bitboard = Bitboard(file_mask(0));
    /// File `k`.
    pub const FILE_K: Bitboard = Bitboard(file_mask(SIZE - 1));
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(rank_mask(0));
    /// Rank 11.
    pub const RANK_11: Bitboard = Bitboard(rank_mask(SIZE - 1));
    /// The 40 edge squares.
    pub const EDGE: Bitboard =
        Bitboard(file_mask(0) | file_mask(SIZE - 1) | rank_mask(0) | rank_mask(SIZE - 1));
    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard((1 << 0) | (1 << 10) | (1 << 110) | (1u128 << 120));
    /// The throne `f6`.
    pub const THRONE: Bitboard = Bitboard(1 << 60);
    /// Corners and throne: only the king may stop there.
    pub const RESTRICTED: Bitboard = Bitboard(Self::CORNERS.0 | Self::THRONE.0);

    /// The set holding one square.
    #[inline(always)]
    pub fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// A file (`0` = a) as a set.
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(file_mask(file % SIZE))
    }

    /// A rank (`0` = rank 1) as a set.
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(rank_mask(rank % SIZE))
    }

    /// True when the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the square is in the set.
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index()] != 0
    }

    /// Adds a square.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= SQUARE_BITS[sq.index()];
    }

    /// Removes a square.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !SQUARE_BITS[sq.index()];
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The squares one step north (towards rank 11).
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard((self.0 << SIZE) & Self::FULL.0)
    }

    /// The squares one step south (towards rank 1).
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> SIZE)
    }

    /// The squares one step east (towards file k), without wrapping.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Self::FILE_A.0 & Self::FULL.0)
    }

    /// The squares one step west (towards file a), without wrapping.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !Self::FILE_K.0)
    }

    /// The orthogonal neighbours of the set (not including the set itself).
    #[inline(always)]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }

    /// Grows `self` through `passable` squares by orthogonal steps until it stops growing.
    /// The result is `self` plus every square of `passable` connected to it.
    #[inline]
    pub fn flood(self, passable: Bitboard) -> Bitboard {
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
    pub const fn slide_fill(self, passable: Bitboard) -> Bitboard {
        let g = self.0;
        let p = passable.0;
        let not_a = !Self::FILE_A.0;
        let not_k = !Self::FILE_K.0;
        Bitboard(
            occluded_fill_up(g, p & Self::FULL.0, 11)
                | occluded_fill_down(g, p, 11)
                | occluded_fill_up(g, p & not_a & Self::FULL.0, 1)
                | occluded_fill_down(g, p & not_k, 1),
        )
    }

    /// The same result as [`Bitboard::flood`], grown by whole lines at a time with
    /// [`Bitboard::slide_fill`] (fewer rounds in open positions).
    #[inline]
    pub fn flood_lines(self, passable: Bitboard) -> Bitboard {
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
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }

    /// This set under a board symmetry (see [`Square::transform`]).
    pub fn transform(self, sym: u8) -> Bitboard {
        self.iter()
            .map(|sq| Bitboard::from_square(sq.transform(sym)))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }
}

/// Kogge-Stone fill of `g` towards higher indices by steps of `n` through `p` (which
/// must exclude the squares a step would wrap onto, and stay within the board).
#[inline(always)]
pub(crate) const fn occluded_fill_up(mut g: u128, mut p: u128, n: u32) -> u128 {
    g |= p & (g << n);
    p &= p << n;
    g |= p & (g << (2 * n));
    p &= p << (2 * n);
    g |= p & (g << (4 * n));
    p &= p << (4 * n);
    g | (p & (g << (8 * n)))
}

/// Kogge-Stone fill of `g` towards lower indices by steps of `n` through `p`.
#[inline(always)]
pub(crate) const fn occluded_fill_down(mut g: u128, mut p: u128, n: u32) -> u128 {
    g |= p & (g >> n);
    p &= p >> n;
    g |= p & (g >> (2 * n));
    p &= p >> (2 * n);
    g |= p & (g >> (4 * n));
    p &= p >> (4 * n);
    g | (p & (g >> (8 * n)))
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Self::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 11x11 diagram, rank 11 first, `x` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in (0..SIZE).rev() {
            for file in 0..SIZE {
                let member = Square::from_coords(file, r).is_some_and(|sq| self.contains(sq));
                f.write_str(if member { "x " } else { ". " })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
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
        let a1 = Bitboard::from_square(Square::new(0).unwrap());
        // From a1 on an empty board: file a and rank 1.
        assert_eq!(
            a1.slide_fill(Bitboard::FULL),
            Bitboard::FILE_A | Bitboard::RANK_1
        );
        // A wall on b1 stops the rank.
        let b1 = Bitboard::from_square(Square::new(1).unwrap());
        assert_eq!(a1.slide_fill(!b1), Bitboard::FILE_A);
        // No wrap from file k to file a.
        let k1 = Bitboard::from_square(Square::new(10).unwrap());
        assert_eq!(
            k1.slide_fill(Bitboard::FULL),
            Bitboard::FILE_K | Bitboard::RANK_1
        );
        let wall = Bitboard::file(5);
        assert_eq!(a1.flood(!wall), a1.flood_lines(!wall));
    }

    #[test]
    fn flood_fills_connected_region() {
        let wall = Bitboard::file(5);
        let left = Bitboard::from_square(Square::new(0).unwrap()).flood(!wall);
        assert_eq!(left.count(), 55);
    }
}
