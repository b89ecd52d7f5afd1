//! Board sizes as types: every odd board from 7x7 to 19x19, each with the integer that
//! holds one bit per square, the integer that numbers its squares, and the tables the
//! rules look squares up in.
//!
//! The rules core is generic over a [`Geometry`] and monomorphised per size, so that the
//! 11x11 board keeps its `u128` and its constant shifts: a size is a type, not a value read
//! in the hot path. Squares are numbered rank by rank from `a1`: index `rank * SIZE + file`,
//! a `u8` up to 15x15 (225 squares) and a `u16` on 17x17 and 19x19 (289 and 361), so that
//! the smaller boards' moves stay two bytes.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use super::excerpt::excerpt;
use super::wide::{U256, U384};

/// The integer that holds one bit per square.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// No bit set.
    const ZERO: Self;
    /// The number of bits.
    const WIDTH: u32;
    /// True when no bit is set.
    fn is_zero(self) -> bool;
    /// The number of bits set.
    fn count_ones(self) -> u32;
    /// The index of the lowest bit set (`WIDTH` when none is).
    fn trailing_zeros(self) -> u32;
    /// The number of clear bits above the highest set one (`WIDTH` when none is).
    fn leading_zeros(self) -> u32;
    /// The value with its lowest set bit cleared (`self & (self - 1)`; zero stays zero).
    fn clear_lowest(self) -> Self;
    /// True when bit `i` is set (`i` taken modulo the width).
    fn has(self, i: u32) -> bool;
    /// `self - rhs`, wrapping around at the width.
    fn wrapping_sub(self, rhs: Self) -> Self;
}

macro_rules! prim_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn has(self, i: u32) -> bool {
                self >> (i & (<$t>::BITS - 1)) & 1 != 0
            }
            #[inline(always)]
            fn wrapping_sub(self, rhs: $t) -> $t {
                <$t>::wrapping_sub(self, rhs)
            }
        }
    };
}
prim_bits!(u64);
prim_bits!(u128);

macro_rules! wide_bits {
    ($t:ident, $width:expr) => {
        impl Bits for $t {
            const ZERO: $t = $t::ZERO;
            const WIDTH: u32 = $width;
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == $t::ZERO
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                $t::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                $t::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                $t::leading_zeros(self)
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                $t::clear_lowest(self)
            }
            #[inline(always)]
            fn has(self, i: u32) -> bool {
                !(self & $t::bit((i % $width) as usize)).is_zero()
            }
            #[inline(always)]
            fn wrapping_sub(self, rhs: $t) -> $t {
                $t::wrapping_sub(self, rhs)
            }
        }
    };
}
wide_bits!(U256, 256);
wide_bits!(U384, 384);

/// The integer that numbers a board's squares ([`Geometry::Index`]): `u8` or `u16`.
pub trait SquareIndex: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static {
    /// The index `i`, which the caller knows to be a square of the board (below 512).
    fn from_usize(i: usize) -> Self;
    /// The index as a `usize`.
    fn to_usize(self) -> usize;
}

macro_rules! square_index {
    ($t:ty) => {
        impl SquareIndex for $t {
            #[inline(always)]
            fn from_usize(i: usize) -> $t {
                i as $t
            }
            #[inline(always)]
            fn to_usize(self) -> usize {
                self as usize
            }
        }
    };
}
square_index!(u8);
square_index!(u16);

/// Length of the per-square tables: a power of two above every board's squares (361 on
/// 19x19), so that a lookup by an index masked with `TABLE - 1` needs no bounds check
/// (entries past the board are empty).
pub(crate) const TABLE: usize = 512;

/// The squares beside a square, and the lines from it, for one board size.
#[derive(Debug)]
pub struct Tables<B: 'static> {
    /// `square_bits[i]`: the set holding square `i`; empty past the board.
    pub(crate) square_bits: [B; TABLE],
    /// `rays[sq][d]`: the squares strictly beyond `sq` in direction `d` (N, E, S, W).
    ///
    /// This table, [`Tables::shadow`] and [`Tables::oriented`] are square by square: one
    /// square's four entries share a cache line, and a board's squares fill the cache's
    /// sets evenly. Laid out direction by direction, each direction's table is a multiple
    /// of the cache's way long, a square's entries in all of them fall in one cache set,
    /// and a search's lookups evict each other (docs/experiments.md, session 45).
    pub(crate) rays: [[B; 4]; TABLE],
    /// `shadow[i][d]`: for a blocker on square `i - 1`, that square and everything beyond
    /// it in direction `d`; `shadow[0][d]` is empty (no blocker). Twice [`TABLE`] long so
    /// that an index masked with [`SHADOW_MASK`] needs no bounds check.
    pub(crate) shadow: [[B; 4]; 2 * TABLE],
    /// `step[d][sq]`: the neighbour of `sq` in direction `d`, or [`NO_SQUARE`] (also for
    /// `sq` = [`NO_SQUARE`], so that two steps chain without a check).
    pub step: [[u16; TABLE]; 4],
    /// `neighbours[sq]`: the orthogonal neighbours of a square.
    pub(crate) neighbours: [B; TABLE],
    /// `beyond[sq]`: the squares two steps from `sq` in each of the four directions.
    pub(crate) beyond: [B; TABLE],
    /// `edge_info[sq]`: for a non-corner edge square, its front direction (towards the
    /// centre) and the two directions along its edge, as indices in N, E, S, W order.
    pub(crate) edge_info: [Option<(u8, [u8; 2])>; TABLE],
    /// `oriented[sq][o]`: the set holding square `sq` of the board seen in orientation `o`
    /// (see [`crate::core::oriented`]): 0 as it is, 1 turned half a turn, 2 mirrored in
    /// the a1 diagonal, 3 both; empty past the board.
    pub(crate) oriented: [[B; 4]; TABLE],
    /// `kind[sq]`: [`EDGE_SQUARE`], plus [`CORNER_SQUARE`] for a corner; [`CORNER_BLOCK_SQUARE`]
    /// in a corner's two-by-two block; 0 past the board.
    pub(crate) kind: [u8; TABLE],
}

/// A flag of [`Tables::kind`]: the square is on the first or last file or rank.
pub(crate) const EDGE_SQUARE: u8 = 1;
/// A flag of [`Tables::kind`]: the square is a corner.
pub(crate) const CORNER_SQUARE: u8 = 2;
/// A flag of [`Tables::kind`]: the square is in the two-by-two block at a corner.
pub(crate) const CORNER_BLOCK_SQUARE: u8 = 4;

/// The mask of an index into [`Tables::shadow`].
pub(crate) const SHADOW_MASK: usize = 2 * TABLE - 1;

/// The index that stands for "no square" in [`Tables::step`].
pub(crate) const NO_SQUARE: u16 = (TABLE - 1) as u16;

/// A board size.
pub trait Geometry:
    Copy + Clone + PartialEq + Eq + PartialOrd + Ord + Hash + Debug + Default + Send + Sync + 'static
{
    /// Files and ranks.
    const SIZE: u8;
    /// Squares on the board.
    const NUM_SQUARES: usize;
    /// The integer with a bit per square.
    type Bits: Bits;
    /// The integer that numbers the squares.
    type Index: SquareIndex;
    /// Every square.
    const FULL: Self::Bits;
    /// File `a`.
    const FILE_FIRST: Self::Bits;
    /// The last file.
    const FILE_LAST: Self::Bits;
    /// Rank 1.
    const RANK_FIRST: Self::Bits;
    /// The last rank.
    const RANK_LAST: Self::Bits;
    /// The four corners.
    const CORNERS: Self::Bits;
    /// The two-by-two block of squares at each corner (16 squares): the corners of
    /// OpenTafl's Alea Evangelii.
    const CORNER_BLOCKS: Self::Bits;
    /// The squares of the first and last files and ranks.
    const EDGE: Self::Bits;
    /// The middle square.
    const THRONE: Self::Bits;
    /// The bit just past the last square (every width has room for it).
    const PAST_END: Self::Bits;
    /// The throne's index.
    const THRONE_INDEX: Self::Index;
    /// The four corners' indices, lowest first (`a1`, the end of rank 1, the start and the
    /// end of the last rank).
    const CORNER_INDICES: [Self::Index; 4];
    /// A move list's buffer: four moves per square (each empty square is reached from at
    /// most four directions). Generic over the element, so that the geometry, below the
    /// moves, need not name the move type.
    type Moves<T: Copy>: FourPerSquare<T>;
    /// The tables.
    fn tables() -> &'static Tables<Self::Bits>;
}

/// A fixed-size array of four `T`s per square of a board: the buffer of a move list
/// ([`MoveListOf`](super::moves::MoveListOf)).
pub trait FourPerSquare<T>: Copy + AsRef<[T]> + AsMut<[T]> {
    /// An array with every slot `value`.
    fn filled(value: T) -> Self;
}

impl<T: Copy, const N: usize> FourPerSquare<T> for [T; N] {
    #[inline(always)]
    fn filled(value: T) -> Self {
        [value; N]
    }
}

/// Builds the constants and tables of one bit type from its `bit(i)` and `or(a, b)`
/// const functions (trait methods cannot run in const evaluation).
macro_rules! table_builder {
    ($name:ident, $t:ty, $zero:expr, $bit:path, $or:path) => {
        /// The tables of a board of `n` files for this bit type.
        const fn $name(n: usize) -> Tables<$t> {
            let squares = n * n;
            let mut square_bits = [$zero; TABLE];
            let mut s = 0;
            while s < squares {
                square_bits[s] = $bit(s);
                s += 1;
            }
            let mut step = [[NO_SQUARE; TABLE]; 4];
            let mut edge_info = [None; TABLE];
            s = 0;
            while s < squares {
                let (f, r) = (s % n, s / n);
                if r + 1 < n {
                    step[0][s] = (s + n) as u16;
                }
                if f + 1 < n {
                    step[1][s] = (s + 1) as u16;
                }
                if r > 0 {
                    step[2][s] = (s - n) as u16;
                }
                if f > 0 {
                    step[3][s] = (s - 1) as u16;
                }
                let last = n - 1;
                let corner = (f == 0 || f == last) && (r == 0 || r == last);
                if !corner {
                    if r == 0 {
                        edge_info[s] = Some((0, [1, 3]));
                    } else if r == last {
                        edge_info[s] = Some((2, [1, 3]));
                    } else if f == 0 {
                        edge_info[s] = Some((1, [0, 2]));
                    } else if f == last {
                        edge_info[s] = Some((3, [0, 2]));
                    }
                }
                s += 1;
            }
            let mut rays = [[$zero; 4]; TABLE];
            let mut shadow = [[$zero; 4]; 2 * TABLE];
            let mut neighbours = [$zero; TABLE];
            let mut beyond = [$zero; TABLE];
            let mut d = 0;
            while d < 4 {
                s = 0;
                while s < squares {
                    let mut m = $zero;
                    let mut q = step[d][s];
                    while q != NO_SQUARE {
                        m = $or(m, $bit(q as usize));
                        q = step[d][q as usize];
                    }
                    rays[s][d] = m;
                    shadow[s + 1][d] = $or(m, $bit(s));
                    if step[d][s] != NO_SQUARE {
                        neighbours[s] = $or(neighbours[s], $bit(step[d][s] as usize));
                        let two = step[d][step[d][s] as usize];
                        if two != NO_SQUARE {
                            beyond[s] = $or(beyond[s], $bit(two as usize));
                        }
                    }
                    s += 1;
                }
                d += 1;
            }
            let mut oriented = [[$zero; 4]; TABLE];
            let mut kind = [0u8; TABLE];
            s = 0;
            while s < squares {
                let (f, r) = (s % n, s / n);
                let (on_file_edge, on_rank_edge) = (f == 0 || f == n - 1, r == 0 || r == n - 1);
                if on_file_edge || on_rank_edge {
                    kind[s] |= EDGE_SQUARE;
                }
                if on_file_edge && on_rank_edge {
                    kind[s] |= CORNER_SQUARE;
                }
                if (f < 2 || f >= n - 2) && (r < 2 || r >= n - 2) {
                    kind[s] |= CORNER_BLOCK_SQUARE;
                }
                let last = squares - 1;
                let mirrored = f * n + r;
                oriented[s][0] = $bit(s);
                oriented[s][1] = $bit(last - s);
                oriented[s][2] = $bit(mirrored);
                oriented[s][3] = $bit(last - mirrored);
                s += 1;
            }
            Tables {
                square_bits,
                rays,
                shadow,
                step,
                neighbours,
                beyond,
                edge_info,
                oriented,
                kind,
            }
        }
    };
}

const fn bit_u64(i: usize) -> u64 {
    1 << i
}
const fn or_u64(a: u64, b: u64) -> u64 {
    a | b
}
const fn bit_u128(i: usize) -> u128 {
    1 << i
}
const fn or_u128(a: u128, b: u128) -> u128 {
    a | b
}
table_builder!(tables_u64, u64, 0u64, bit_u64, or_u64);
table_builder!(tables_u128, u128, 0u128, bit_u128, or_u128);
table_builder!(tables_u256, U256, U256::ZERO, U256::bit, U256::or);
table_builder!(tables_u384, U384, U384::ZERO, U384::bit, U384::or);

/// The set of squares `(file, rank)` for which `keep` holds, as a bit pattern of a board
/// of `n` files (for the geometry constants).
macro_rules! mask_fn {
    ($name:ident, $t:ty, $zero:expr, $bit:path, $or:path) => {
        /// Files, ranks, corners and the throne of a board of `n` files: `kind` 0 file a,
        /// 1 the last file, 2 rank 1, 3 the last rank, 4 the corners, 5 the throne, 7 the
        /// edge, 8 the bit past the last square, 9 the two-by-two corner blocks, 6 all.
        const fn $name(n: usize, kind: u8) -> $t {
            let mut m = $zero;
            let mut s = 0;
            while s < n * n {
                let (f, r) = (s % n, s / n);
                let last = n - 1;
                let keep = match kind {
                    0 => f == 0,
                    1 => f == last,
                    2 => r == 0,
                    3 => r == last,
                    4 => (f == 0 || f == last) && (r == 0 || r == last),
                    5 => f == n / 2 && r == n / 2,
                    7 => f == 0 || f == last || r == 0 || r == last,
                    8 => false,
                    9 => (f <= 1 || f + 2 >= n) && (r <= 1 || r + 2 >= n),
                    _ => true,
                };
                if keep {
                    m = $or(m, $bit(s));
                }
                s += 1;
            }
            if kind == 8 {
                m = $bit(n * n);
            }
            m
        }
    };
}
mask_fn!(mask_u64, u64, 0u64, bit_u64, or_u64);
mask_fn!(mask_u128, u128, 0u128, bit_u128, or_u128);
mask_fn!(mask_u256, U256, U256::ZERO, U256::bit, U256::or);
mask_fn!(mask_u384, U384, U384::ZERO, U384::bit, U384::or);

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $n:expr, $t:ty, $idx:ty, $tables:ident, $mask:ident, $static:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        pub struct $name;

        static $static: Tables<$t> = $tables($n);

        impl Geometry for $name {
            const SIZE: u8 = $n;
            const NUM_SQUARES: usize = $n * $n;
            type Bits = $t;
            type Index = $idx;
            const FULL: $t = $mask($n, 6);
            const FILE_FIRST: $t = $mask($n, 0);
            const FILE_LAST: $t = $mask($n, 1);
            const RANK_FIRST: $t = $mask($n, 2);
            const RANK_LAST: $t = $mask($n, 3);
            const CORNERS: $t = $mask($n, 4);
            const CORNER_BLOCKS: $t = $mask($n, 9);
            const EDGE: $t = $mask($n, 7);
            const THRONE: $t = $mask($n, 5);
            const PAST_END: $t = $mask($n, 8);
            const THRONE_INDEX: $idx = (($n / 2) * $n + $n / 2) as $idx;
            const CORNER_INDICES: [$idx; 4] =
                [0, ($n - 1) as $idx, ($n * $n - $n) as $idx, ($n * $n - 1) as $idx];
            type Moves<T: Copy> = [T; 4 * $n * $n];
            #[inline(always)]
            fn tables() -> &'static Tables<$t> {
                &$static
            }
        }
    };
}

geometry!(
    /// The 7x7 board (49 squares in a `u64`).
    S7, 7, u64, u8, tables_u64, mask_u64, TABLES_7
);
geometry!(
    /// The 9x9 board (81 squares in a `u128`).
    S9, 9, u128, u8, tables_u128, mask_u128, TABLES_9
);
geometry!(
    /// The 11x11 board (121 squares in a `u128`).
    S11, 11, u128, u8, tables_u128, mask_u128, TABLES_11
);
geometry!(
    /// The 13x13 board (169 squares in a [`U256`]).
    S13, 13, U256, u8, tables_u256, mask_u256, TABLES_13
);
geometry!(
    /// The 15x15 board (225 squares in a [`U256`]).
    S15, 15, U256, u8, tables_u256, mask_u256, TABLES_15
);
geometry!(
    /// The 17x17 board (289 squares in a [`U384`], numbered by a `u16`).
    S17, 17, U384, u16, tables_u384, mask_u384, TABLES_17
);
geometry!(
    /// The 19x19 board (361 squares in a [`U384`], numbered by a `u16`).
    S19, 19, U384, u16, tables_u384, mask_u384, TABLES_19
);

/// A board size as a value: what a command line or a protocol command names, turned into
/// a [`Geometry`] type by a `match` at the boundary.
///
/// ```
/// use hnefi::core::geometry::BoardSize;
/// assert_eq!("13".parse::<BoardSize>(), Ok(BoardSize::S13));
/// assert_eq!("7x7".parse::<BoardSize>(), Ok(BoardSize::S7));
/// assert_eq!(BoardSize::S11.to_string(), "11");
/// assert!("12".parse::<BoardSize>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum BoardSize {
    /// 7x7.
    S7,
    /// 9x9.
    S9,
    /// 11x11, the default.
    #[default]
    S11,
    /// 13x13.
    S13,
    /// 15x15.
    S15,
    /// 17x17.
    S17,
    /// 19x19.
    S19,
}

impl BoardSize {
    /// Every size, smallest first.
    pub const ALL: [BoardSize; 7] = [
        BoardSize::S7,
        BoardSize::S9,
        BoardSize::S11,
        BoardSize::S13,
        BoardSize::S15,
        BoardSize::S17,
        BoardSize::S19,
    ];

    /// Files (and ranks).
    pub const fn files(self) -> u8 {
        match self {
            BoardSize::S7 => S7::SIZE,
            BoardSize::S9 => S9::SIZE,
            BoardSize::S11 => S11::SIZE,
            BoardSize::S13 => S13::SIZE,
            BoardSize::S15 => S15::SIZE,
            BoardSize::S17 => S17::SIZE,
            BoardSize::S19 => S19::SIZE,
        }
    }
}

impl std::fmt::Display for BoardSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.files())
    }
}

/// A board size hnefi does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid board size '{0}': expected 7, 9, 11, 13, 15, 17 or 19")]
pub struct BoardSizeError(pub String);

impl std::str::FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `N` or `NxN`.
    fn from_str(s: &str) -> Result<BoardSize, BoardSizeError> {
        let n = match s.split_once(['x', 'X']) {
            Some((a, b)) if a == b => a,
            Some(_) => "",
            None => s,
        };
        BoardSize::ALL
            .into_iter()
            .find(|size| n.parse::<u8>().ok() == Some(size.files()))
            .ok_or_else(|| BoardSizeError(excerpt(s)))
    }
}

/// Calls `$body` with `$g` bound to the geometry type of the [`BoardSize`] `$size`.
#[macro_export]
macro_rules! with_size {
    ($size:expr, $g:ident => $body:expr) => {
        match $size {
            $crate::core::geometry::BoardSize::S7 => {
                type $g = $crate::core::geometry::S7;
                $body
            }
            $crate::core::geometry::BoardSize::S9 => {
                type $g = $crate::core::geometry::S9;
                $body
            }
            $crate::core::geometry::BoardSize::S11 => {
                type $g = $crate::core::geometry::S11;
                $body
            }
            $crate::core::geometry::BoardSize::S13 => {
                type $g = $crate::core::geometry::S13;
                $body
            }
            $crate::core::geometry::BoardSize::S15 => {
                type $g = $crate::core::geometry::S15;
                $body
            }
            $crate::core::geometry::BoardSize::S17 => {
                type $g = $crate::core::geometry::S17;
                $body
            }
            $crate::core::geometry::BoardSize::S19 => {
                type $g = $crate::core::geometry::S19;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>() {
        let n = u32::from(G::SIZE);
        let t = G::tables();
        assert_eq!(G::FULL.count_ones(), n * n);
        assert_eq!(G::CORNERS.count_ones(), 4);
        assert_eq!(G::CORNER_BLOCKS.count_ones(), 16);
        assert_eq!(G::CORNER_BLOCKS & G::CORNERS, G::CORNERS);
        assert_eq!(G::THRONE.count_ones(), 1);
        assert_eq!(
            G::THRONE.trailing_zeros() as usize,
            G::THRONE_INDEX.to_usize()
        );
        for (i, c) in G::CORNER_INDICES.into_iter().enumerate() {
            assert!(t.kind[c.to_usize()] & CORNER_SQUARE != 0, "corner {i}");
        }
        for s in 0..(n * n) as usize {
            let in_block = !(G::CORNER_BLOCKS & t.square_bits[s]).is_zero();
            assert_eq!(t.kind[s] & CORNER_BLOCK_SQUARE != 0, in_block, "square {s}");
        }
        assert_eq!((G::FILE_FIRST | G::FILE_LAST).count_ones(), 2 * n);
        let corner = 0;
        assert_eq!(t.neighbours[corner].count_ones(), 2);
        let mid = G::THRONE_INDEX.to_usize();
        assert_eq!(t.neighbours[mid].count_ones(), 4);
        let line = (0..4).fold(G::Bits::ZERO, |m, d| m | t.rays[mid][d]);
        assert_eq!(line.count_ones(), 2 * (n - 1));
        assert!(t.square_bits[G::NUM_SQUARES].is_zero());
        assert_eq!(
            t.edge_info.iter().filter(|e| e.is_some()).count(),
            4 * (n as usize - 2)
        );
    }

    #[test]
    fn every_size_has_its_squares_lines_and_edges() {
        check::<S7>();
        check::<S9>();
        check::<S11>();
        check::<S13>();
        check::<S15>();
        check::<S17>();
        check::<S19>();
        assert!(S19::NUM_SQUARES < TABLE && usize::from(NO_SQUARE) >= S19::NUM_SQUARES);
    }
}
