//! Which corner squares a rule set has, as data of the rule set (docs/RULES.md sections 1
//! and 17.11): who may stop on them, who escapes there and to whom they are hostile are
//! the rule set's other fields.

use super::geometry::{Bits, CORNER_BLOCK_SQUARE, CORNER_SQUARE, Geometry};

/// The corner squares of a rule set. One value rather than a flag for each shape, since
/// a rule set has one shape, and the king's escape tests it after every move of his side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Corners {
    /// No corner squares (the Tablut family, OpenTafl's `cor:` with no squares).
    Off,
    /// The four corner squares.
    Squares,
    /// The two-by-two block of squares at each corner, 16 squares in all (OpenTafl's
    /// Alea Evangelii).
    Blocks,
}

impl Corners {
    /// True when the board has corner squares.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self != Corners::Off
    }

    /// The corner squares on a board of geometry `G`.
    #[inline(always)]
    pub(crate) fn bits<G: Geometry>(self) -> G::Bits {
        match self {
            Corners::Off => G::Bits::ZERO,
            Corners::Squares => G::CORNERS,
            Corners::Blocks => G::CORNER_BLOCKS,
        }
    }

    /// The flag of the geometry's square kinds that marks these corner squares (0 for
    /// none): a king's escape is one table read.
    #[inline(always)]
    pub(crate) fn kind(self) -> u8 {
        match self {
            Corners::Off => 0,
            Corners::Squares => CORNER_SQUARE,
            Corners::Blocks => CORNER_BLOCK_SQUARE,
        }
    }
}
