//! Squares of a board of any size ([`Geometry`]); [`Square`] is a square of the 11x11 board.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use thiserror::Error;

use super::excerpt::excerpt;
use super::geometry::{CORNER_SQUARE, EDGE_SQUARE, Geometry, S11, SquareIndex, TABLE};

/// A square of the 11x11 board, `a1` = 0 .. `k11` = 120.
///
/// The index is `(rank - 1) * 11 + file` with file `a` = 0, so the corners are 0, 10, 110
/// and 120 and the throne `f6` is 60.
///
/// ```
/// use hnefi::core::square::Square;
/// let sq: Square = "f6".parse().unwrap();
/// assert_eq!(sq, Square::THRONE);
/// assert_eq!(sq.index(), 60);
/// assert_eq!(Square::new(0).unwrap().to_string(), "a1");
/// assert!("l1".parse::<Square>().is_err());
/// ```
pub type Square = SquareOf<S11>;

/// A square of a board of geometry `G`: index `rank * SIZE + file`, file `a` = 0, held in
/// the board's [`Geometry::Index`] (a byte up to 15x15).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SquareOf<G: Geometry>(G::Index, PhantomData<G>);

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    /// The text is not a file letter followed by a rank on the board.
    #[error(
        "invalid square '{text}': expected a file a..{} and a rank 1..{size}, like {}",
        file_letter(size.saturating_sub(1)),
        middle_name(*size)
    )]
    Invalid {
        /// The text read (at most 16 characters).
        text: String,
        /// The board's size (its last file and rank).
        size: u8,
    },
}

/// The name of the middle square of a board of `size` files (`f6` on 11x11).
fn middle_name(size: u8) -> String {
    format!("{}{}", file_letter(size / 2), size / 2 + 1)
}

impl<G: Geometry> SquareOf<G> {
    /// The throne, the middle square (`f6` on 11x11).
    pub const THRONE: SquareOf<G> = SquareOf(G::THRONE_INDEX, PhantomData);
    /// The four corners, lowest index first (`a1`, `k1`, `a11`, `k11` on 11x11).
    pub const CORNERS: [SquareOf<G>; 4] = [
        SquareOf(G::CORNER_INDICES[0], PhantomData),
        SquareOf(G::CORNER_INDICES[1], PhantomData),
        SquareOf(G::CORNER_INDICES[2], PhantomData),
        SquareOf(G::CORNER_INDICES[3], PhantomData),
    ];

    /// The square with this index, if it is on the board.
    pub fn new(index: usize) -> Option<SquareOf<G>> {
        if index < G::NUM_SQUARES {
            Some(SquareOf(G::Index::from_usize(index), PhantomData))
        } else {
            None
        }
    }

    /// The square at a 0-based file and rank, if both are on the board.
    pub fn from_coords(file: u8, rank: u8) -> Option<SquareOf<G>> {
        if file < G::SIZE && rank < G::SIZE {
            let index = usize::from(rank) * usize::from(G::SIZE) + usize::from(file);
            Some(SquareOf(G::Index::from_usize(index), PhantomData))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be on the board.
    ///
    /// Only for indices the caller derived from the board itself: bit positions of a
    /// bitboard, whose bits past the board are always clear. (An index out of range could
    /// only make a later table lookup panic; it cannot cause undefined behaviour.)
    #[inline(always)]
    pub(crate) fn from_index_unchecked(index: u32) -> SquareOf<G> {
        debug_assert!((index as usize) < G::NUM_SQUARES);
        SquareOf(G::Index::from_usize(index as usize), PhantomData)
    }

    /// The index `0..SIZE * SIZE`.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0.to_usize()
    }

    /// The 0-based file (`a` = 0).
    #[inline(always)]
    pub fn file(self) -> u8 {
        (self.index() % usize::from(G::SIZE)) as u8
    }

    /// The 0-based rank (rank 1 = 0).
    #[inline(always)]
    pub fn rank(self) -> u8 {
        (self.index() / usize::from(G::SIZE)) as u8
    }

    /// The square's kind: the flags of [`Tables::kind`](super::geometry::Tables::kind).
    #[inline(always)]
    pub(crate) fn kind(self) -> u8 {
        G::tables().kind[self.index() & (TABLE - 1)]
    }

    /// True for the four corners.
    #[inline(always)]
    pub fn is_corner(self) -> bool {
        self.kind() & CORNER_SQUARE != 0
    }

    /// True for the throne.
    #[inline(always)]
    pub(crate) fn is_throne(self) -> bool {
        self.0 == G::THRONE_INDEX
    }

    /// True for the corners and the throne, where only the king may stop.
    #[inline(always)]
    pub(crate) fn is_restricted(self) -> bool {
        self.is_corner() || self.is_throne()
    }

    /// True for squares on the first or last file or rank (corners included).
    #[inline(always)]
    pub fn is_edge(self) -> bool {
        self.kind() & EDGE_SQUARE != 0
    }

    /// The neighbour one step in a direction, if it is on the board.
    #[inline]
    pub fn step(self, dir: Direction) -> Option<SquareOf<G>> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if nf < 0 || nr < 0 || nf >= G::SIZE as i8 || nr >= G::SIZE as i8 {
            None
        } else {
            SquareOf::from_coords(nf as u8, nr as u8)
        }
    }

    /// Iterates over all squares in index order.
    pub fn all() -> impl Iterator<Item = SquareOf<G>> {
        (0..G::NUM_SQUARES).map(|i| SquareOf(G::Index::from_usize(i), PhantomData))
    }

    /// This square under one of the 8 symmetries of the board (`sym` in `0..8`; 0 is the
    /// identity, bit 0 mirrors the files, bit 1 mirrors the ranks, bit 2 swaps files and
    /// ranks).
    pub fn transform(self, sym: u8) -> SquareOf<G> {
        let (mut f, mut r) = (self.file(), self.rank());
        if sym & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        if sym & 1 != 0 {
            f = G::SIZE - 1 - f;
        }
        if sym & 2 != 0 {
            r = G::SIZE - 1 - r;
        }
        let index = usize::from(r) * usize::from(G::SIZE) + usize::from(f);
        SquareOf(G::Index::from_usize(index), PhantomData)
    }

    /// The set holding this square alone, as the board's bits.
    #[inline(always)]
    pub(crate) fn bit(self) -> G::Bits {
        G::tables().square_bits[self.index()]
    }
}

/// The file letter of a 0-based file: `a`..`s` (files include `i`, unlike GTP's).
pub(crate) const fn file_letter(file: u8) -> char {
    (b'a' + file) as char
}

impl<G: Geometry> fmt::Display for SquareOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_letter(self.file()), self.rank() + 1)
    }
}

impl<G: Geometry> FromStr for SquareOf<G> {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<SquareOf<G>, SquareError> {
        let err = || SquareError::Invalid {
            text: excerpt(s),
            size: G::SIZE,
        };
        let bytes = s.as_bytes();
        let (&first, rest) = bytes.split_first().ok_or_else(err)?;
        let file = first.to_ascii_lowercase().wrapping_sub(b'a');
        if file >= G::SIZE || rest.is_empty() || rest.len() > 2 {
            return Err(err());
        }
        if !rest.iter().all(u8::is_ascii_digit) || rest.first() == Some(&b'0') {
            return Err(err());
        }
        let rank = rest.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        if !(1..=G::SIZE).contains(&rank) {
            return Err(err());
        }
        SquareOf::from_coords(file, rank - 1).ok_or_else(err)
    }
}

const _: () = assert!(S11::THRONE_INDEX == 60);
/// One of the four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    /// Towards rank 11.
    North,
    /// Towards file k.
    East,
    /// Towards rank 1.
    South,
    /// Towards file a.
    West,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// (file, rank) step.
    pub(crate) const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(
            "K11".parse::<Square>(),
            Square::new(120).ok_or(SquareError::Invalid {
                text: String::new(),
                size: 11
            })
        );
        for bad in [
            "", "a", "a0", "a12", "l1", "a01", "1a", "a1 ", "é1", "a+1", "a111",
        ] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn special_squares() {
        assert_eq!(Square::all().filter(|s| s.is_edge()).count(), 40);
        assert_eq!(Square::all().filter(|s| s.is_restricted()).count(), 5);
        assert_eq!(Square::THRONE.to_string(), "f6");
    }

    #[test]
    fn every_size_names_its_squares() {
        use crate::core::geometry::{S7, S13, S15};
        assert_eq!("g7".parse::<SquareOf<S7>>().map(|s| s.index()), Ok(48));
        assert!("h1".parse::<SquareOf<S7>>().is_err());
        assert_eq!("m13".parse::<SquareOf<S13>>().map(|s| s.index()), Ok(168));
        assert_eq!(SquareOf::<S15>::THRONE.to_string(), "h8");
        assert_eq!(SquareOf::<S13>::CORNERS[3].to_string(), "m13");
        assert_eq!(SquareOf::<S7>::all().filter(|s| s.is_edge()).count(), 24);
        use crate::core::geometry::{S17, S19};
        assert_eq!("s19".parse::<SquareOf<S19>>().map(|s| s.index()), Ok(360));
        assert_eq!("q17".parse::<SquareOf<S17>>().map(|s| s.index()), Ok(288));
        assert!("t1".parse::<SquareOf<S19>>().is_err());
        assert!("a20".parse::<SquareOf<S19>>().is_err());
        assert_eq!(SquareOf::<S19>::THRONE.to_string(), "j10");
        assert_eq!(SquareOf::<S17>::CORNERS[3].to_string(), "q17");
        assert_eq!(SquareOf::<S19>::CORNERS[2].to_string(), "a19");
        for sq in SquareOf::<S19>::all() {
            assert_eq!(sq.to_string().parse::<SquareOf<S19>>(), Ok(sq));
        }
    }

    #[test]
    fn symmetries_are_bijections() {
        for sym in 0..8 {
            let mut seen = [false; S11::NUM_SQUARES];
            for sq in Square::all() {
                seen[sq.transform(sym).index()] = true;
            }
            assert!(seen.iter().all(|&b| b));
            assert_eq!(Square::THRONE.transform(sym), Square::THRONE);
        }
    }
}
