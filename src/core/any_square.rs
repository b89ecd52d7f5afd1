//! Squares and moves named apart from a board size: what a game on any board
//! ([`AnyGame`](super::any_game::AnyGame)) takes and gives, read and written as the
//! protocol names them (`a1`.. `s19`, files with `i`).

use std::fmt;

use super::geometry::{BoardSize, Geometry};
use super::moves::{MoveError, MoveOf};
use super::square::{SquareError, SquareOf, file_letter};

/// A square of a board of some size, by its 0-based rank and file; ordered by rank, then
/// file, as every board orders its squares.
///
/// ```
/// use hnefi::core::any_square::AnySquare;
/// use hnefi::core::geometry::BoardSize;
/// let m13 = AnySquare::parse("m13", BoardSize::S13).unwrap();
/// assert_eq!(m13.to_string(), "m13");
/// assert!(AnySquare::parse("m13", BoardSize::S11).is_err());
/// assert!(AnySquare::parse("b1", BoardSize::S7).unwrap() < m13);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct AnySquare {
    rank: u8,
    file: u8,
}

impl AnySquare {
    /// Reads a square of a board of `size` (an error names that board's files and ranks).
    pub fn parse(text: &str, size: BoardSize) -> Result<AnySquare, SquareError> {
        crate::with_size!(size, G => text.parse::<SquareOf<G>>().map(AnySquare::from))
    }

    /// The square on a board of geometry `G`, if it is on that board.
    pub(crate) fn on<G: Geometry>(self) -> Option<SquareOf<G>> {
        SquareOf::from_coords(self.file, self.rank)
    }

    /// The 0-based file (`a` = 0).
    pub(crate) const fn file(self) -> u8 {
        self.file
    }

    /// The 0-based rank (rank 1 = 0).
    pub(crate) const fn rank(self) -> u8 {
        self.rank
    }
}

impl<G: Geometry> From<SquareOf<G>> for AnySquare {
    fn from(sq: SquareOf<G>) -> AnySquare {
        AnySquare {
            rank: sq.rank(),
            file: sq.file(),
        }
    }
}

impl fmt::Display for AnySquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_letter(self.file), u32::from(self.rank) + 1)
    }
}

/// A move on a board of some size; ordered by its start square, then its end.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct AnyMove {
    /// Where the piece starts.
    pub from: AnySquare,
    /// Where it ends.
    pub to: AnySquare,
}

impl AnyMove {
    /// A move between two squares, if they differ and share a rank or file.
    pub fn new(from: AnySquare, to: AnySquare) -> Option<AnyMove> {
        (from != to && (from.file == to.file || from.rank == to.rank))
            .then_some(AnyMove { from, to })
    }

    /// Reads `FROM-TO` or `FROM TO` on a board of `size`.
    pub fn parse(text: &str, size: BoardSize) -> Result<AnyMove, MoveError> {
        crate::with_size!(size, G => text.parse::<MoveOf<G>>().map(AnyMove::from))
    }

    /// The move on a board of geometry `G`, if both squares are on that board.
    pub(crate) fn on<G: Geometry>(self) -> Option<MoveOf<G>> {
        MoveOf::new(self.from.on()?, self.to.on()?)
    }
}

impl<G: Geometry> From<MoveOf<G>> for AnyMove {
    fn from(mv: MoveOf<G>) -> AnyMove {
        AnyMove {
            from: mv.from.into(),
            to: mv.to.into(),
        }
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S7, S11, S15};

    #[test]
    fn squares_keep_their_names_and_order_across_sizes() {
        for sq in SquareOf::<S15>::all() {
            let any = AnySquare::from(sq);
            assert_eq!(any.to_string(), sq.to_string());
            assert_eq!(any.on::<S15>(), Some(sq));
            assert_eq!(AnySquare::parse(&sq.to_string(), BoardSize::S15), Ok(any));
        }
        let h8 = AnySquare::parse("h8", BoardSize::S15).unwrap();
        assert_eq!(h8.on::<S7>(), None);
        assert!(h8.on::<S11>().is_some());
        let mut all: Vec<AnySquare> = SquareOf::<S11>::all().map(AnySquare::from).collect();
        let sorted = all.clone();
        all.sort();
        assert_eq!(all, sorted, "index order is rank-then-file order");
    }

    #[test]
    fn moves_off_the_board_do_not_convert() {
        let mv = AnyMove::parse("a1-a9", BoardSize::S11).unwrap();
        assert_eq!(mv.to_string(), "a1-a9");
        assert!(mv.on::<S11>().is_some());
        assert_eq!(mv.on::<S7>(), None);
        assert!(AnyMove::parse("a1-a9", BoardSize::S7).is_err());
        assert!(AnyMove::new(mv.from, mv.from).is_none());
    }
}
