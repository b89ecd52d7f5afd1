//! Moves and fixed-capacity move lists.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::excerpt::excerpt;
use super::geometry::{FourPerSquare, Geometry, S11};
use super::square::{SquareError, SquareOf};

/// A move on the 11x11 board.
pub type Move = MoveOf<S11>;

/// A move of one piece from a square to another along a rank or file.
///
/// ```
/// use hnefi::core::moves::Move;
/// let mv: Move = "h1-h3".parse().unwrap();
/// assert_eq!(mv.to_string(), "h1-h3");
/// assert_eq!("H1 h3".parse::<Move>(), Ok(mv));
/// assert!("h1-i2".parse::<Move>().is_err()); // not a straight line
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct MoveOf<G: Geometry> {
    /// Where the piece starts.
    pub from: SquareOf<G>,
    /// Where it ends.
    pub to: SquareOf<G>,
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not `FROM-TO` or `FROM TO`.
    #[error("invalid move '{0}': expected FROM-TO, like h1-h3")]
    Syntax(String),
    /// A square in the move is invalid.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// The squares are the same or not on one rank or file.
    #[error("invalid move '{0}': the squares must differ and share a rank or file")]
    NotStraight(String),
}

impl<G: Geometry> MoveOf<G> {
    /// A placeholder (throne to throne, never legal) for filling move buffers.
    pub(crate) const NULL: MoveOf<G> = MoveOf {
        from: SquareOf::THRONE,
        to: SquareOf::THRONE,
    };

    /// A move between two squares, if they differ and share a rank or file.
    pub fn new(from: SquareOf<G>, to: SquareOf<G>) -> Option<MoveOf<G>> {
        if from != to && (from.file() == to.file() || from.rank() == to.rank()) {
            Some(MoveOf { from, to })
        } else {
            None
        }
    }

    /// This move under a board symmetry.
    pub fn transform(self, sym: u8) -> MoveOf<G> {
        MoveOf {
            from: self.from.transform(sym),
            to: self.to.transform(sym),
        }
    }
}

impl<G: Geometry> fmt::Display for MoveOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl<G: Geometry> FromStr for MoveOf<G> {
    type Err = MoveError;

    /// Reads `FROM-TO` or `FROM TO` (one space), case-insensitive.
    fn from_str(s: &str) -> Result<MoveOf<G>, MoveError> {
        let (a, b) = s
            .split_once('-')
            .or_else(|| s.split_once(' '))
            .ok_or_else(|| MoveError::Syntax(excerpt(s)))?;
        let from: SquareOf<G> = a.parse()?;
        let to: SquareOf<G> = b.parse()?;
        MoveOf::new(from, to).ok_or_else(|| MoveError::NotStraight(excerpt(s)))
    }
}

/// A list of moves of the 11x11 board on the stack.
pub type MoveList = MoveListOf<S11>;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveListOf<G: Geometry> {
    moves: G::Moves<MoveOf<G>>,
    len: usize,
}

impl<G: Geometry> Default for MoveListOf<G> {
    fn default() -> Self {
        MoveListOf::new()
    }
}

impl<G: Geometry> MoveListOf<G> {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveListOf<G> {
        MoveListOf {
            moves: FourPerSquare::filled(MoveOf::NULL),
            len: 0,
        }
    }

    /// Appends a move; a full list ignores it (it cannot be full: four moves per square).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: MoveOf<G>) {
        if let Some(slot) = self.moves.as_mut().get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// A fast appender that keeps the length in a register; the list's length is
    /// updated when the sink is dropped.
    #[inline(always)]
    pub(crate) fn sink(&mut self) -> Sink<'_, G> {
        Sink {
            len: self.len,
            list: self,
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[MoveOf<G>] {
        let all = self.moves.as_ref();
        &all[..self.len.min(all.len())]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [MoveOf<G>] {
        let all = self.moves.as_mut();
        let len = self.len.min(all.len());
        &mut all[..len]
    }

    /// Keeps only the moves for which `f` is true.
    pub(crate) fn retain(&mut self, mut f: impl FnMut(MoveOf<G>) -> bool) {
        let mut j = 0;
        let all = self.moves.as_mut();
        for i in 0..self.len.min(all.len()) {
            let mv = all[i];
            if f(mv) {
                all[j] = mv;
                j += 1;
            }
        }
        self.len = j;
    }
}

/// Appends moves to a [`MoveListOf`] with the length kept in a local variable (see
/// [`MoveListOf::sink`]).
pub(crate) struct Sink<'a, G: Geometry> {
    list: &'a mut MoveListOf<G>,
    len: usize,
}

impl<G: Geometry> Sink<'_, G> {
    /// Appends a move; a full list ignores it (it cannot be full: four moves per square).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: MoveOf<G>) {
        if let Some(slot) = self.list.moves.as_mut().get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }
}

impl<G: Geometry> Drop for Sink<'_, G> {
    #[inline(always)]
    fn drop(&mut self) {
        self.list.len = self.len;
    }
}

impl<G: Geometry> std::ops::Deref for MoveListOf<G> {
    type Target = [MoveOf<G>];
    fn deref(&self) -> &[MoveOf<G>] {
        self.as_slice()
    }
}

impl<'a, G: Geometry> IntoIterator for &'a MoveListOf<G> {
    type Item = &'a MoveOf<G>;
    type IntoIter = std::slice::Iter<'a, MoveOf<G>>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
