//! Squares of the 11x11 board.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Number of files and ranks.
pub const SIZE: u8 = 11;
/// Number of squares on the board.
pub const NUM_SQUARES: usize = 121;

/// The edge squares as bits (the same set as `Bitboard::EDGE`).
const EDGE_BITS: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < NUM_SQUARES {
        let (f, r) = (i % 11, i / 11);
        if f == 0 || f == 10 || r == 0 || r == 10 {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
};

/// A square of the board, `a1` = 0 .. `k11` = 120.
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
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    /// The text is not a file letter `a`..`k` followed by a rank `1`..`11`.
    #[error("invalid square '{0}': expected a file a..k and a rank 1..11, like f6")]
    Invalid(String),
}

impl Square {
    /// The throne, `f6`.
    pub const THRONE: Square = Square(60);
    /// The four corners `a1`, `k1`, `a11`, `k11`.
    pub const CORNERS: [Square; 4] = [Square(0), Square(10), Square(110), Square(120)];

    /// The square with this index, if it is on the board (`index < 121`).
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at a 0-based file and rank, if both are below 11.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square(rank * SIZE + file))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 121.
    ///
    /// Only for indices the caller derived from the board itself: bit positions of a
    /// bitboard, whose bits above 120 are always clear. (An index out of range could
    /// only make a later table lookup panic; it cannot cause undefined behaviour.)
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// The index `0..121`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based file (`a` = 0).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// The 0-based rank (rank 1 = 0).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// True for the four corners.
    pub const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 10 | 110 | 120)
    }

    /// True for the throne `f6`.
    pub const fn is_throne(self) -> bool {
        self.0 == 60
    }

    /// True for the corners and the throne, where only the king may stop.
    pub const fn is_restricted(self) -> bool {
        self.is_corner() || self.is_throne()
    }

    /// True for squares on file `a` or `k` or rank 1 or 11 (corners included).
    #[inline(always)]
    pub const fn is_edge(self) -> bool {
        EDGE_BITS >> (self.0 & 127) & 1 != 0
    }

    /// The neighbour one step in a direction, if it is on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if nf < 0 || nr < 0 || nf >= SIZE as i8 || nr >= SIZE as i8 {
            None
        } else {
            Some(Square(nr as u8 * SIZE + nf as u8))
        }
    }

    /// Iterates over all 121 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// This square under one of the 8 symmetries of the board (`sym` in `0..8`; 0 is the
    /// identity, bit 0 mirrors the files, bit 1 mirrors the ranks, bit 2 swaps files and
    /// ranks).
    pub const fn transform(self, sym: u8) -> Square {
        let (mut f, mut r) = (self.file(), self.rank());
        if sym & 4 != 0 {
            let t = f;
            f = r;
            r = t;
        }
        if sym & 1 != 0 {
            f = SIZE - 1 - f;
        }
        if sym & 2 != 0 {
            r = SIZE - 1 - r;
        }
        Square(r * SIZE + f)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file()) as char;
        write!(f, "{}{}", file, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        let err = || SquareError::Invalid(s.chars().take(16).collect());
        let bytes = s.as_bytes();
        let (&first, rest) = bytes.split_first().ok_or_else(err)?;
        let file = first.to_ascii_lowercase().wrapping_sub(b'a');
        if file >= SIZE || rest.is_empty() || rest.len() > 2 {
            return Err(err());
        }
        if !rest.iter().all(u8::is_ascii_digit) || rest.first() == Some(&b'0') {
            return Err(err());
        }
        let rank = rest.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        if !(1..=SIZE).contains(&rank) {
            return Err(err());
        }
        Ok(Square((rank - 1) * SIZE + file))
    }
}

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
    pub const fn delta(self) -> (i8, i8) {
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
        assert_eq!("K11".parse::<Square>(), Ok(Square(120)));
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
        assert_eq!(Square(60).to_string(), "f6");
    }

    #[test]
    fn symmetries_are_bijections() {
        for sym in 0..8 {
            let mut seen = [false; NUM_SQUARES];
            for sq in Square::all() {
                seen[sq.transform(sym).index()] = true;
            }
            assert!(seen.iter().all(|&b| b));
            assert_eq!(Square::THRONE.transform(sym), Square::THRONE);
        }
    }
}
