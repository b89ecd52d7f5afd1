//! Moves and fixed-capacity move lists.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::square::{Square, SquareError};

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
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
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

impl Move {
    /// A move between two squares, if they differ and share a rank or file.
    pub fn new(from: Square, to: Square) -> Option<Move> {
        if from != to && (from.file() == to.file() || from.rank() == to.rank()) {
            Some(Move { from, to })
        } else {
            None
        }
    }

    /// This move under a board symmetry.
    pub fn transform(self, sym: u8) -> Move {
        Move {
            from: self.from.transform(sym),
            to: self.to.transform(sym),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Reads `FROM-TO` or `FROM TO` (one space), case-insensitive.
    fn from_str(s: &str) -> Result<Move, MoveError> {
        let short = || s.chars().take(24).collect::<String>();
        let (a, b) = s
            .split_once('-')
            .or_else(|| s.split_once(' '))
            .ok_or_else(|| MoveError::Syntax(short()))?;
        let from: Square = a.parse()?;
        let to: Square = b.parse()?;
        Move::new(from, to).ok_or_else(|| MoveError::NotStraight(short()))
    }
}

/// Enough room for every move of any position: each empty square is reached from at most
/// four directions.
pub const MAX_MOVES: usize = 484;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        let sq = Square::THRONE;
        MoveList {
            moves: [Move { from: sq, to: sq }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; a full list ignores it (it cannot be full: see [`MAX_MOVES`]).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// A fast appender that keeps the length in a register; the list's length is
    /// updated when the sink is dropped.
    #[inline(always)]
    pub fn sink(&mut self) -> Sink<'_> {
        Sink {
            len: self.len,
            list: self,
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len.min(MAX_MOVES)]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len.min(MAX_MOVES)]
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len.min(MAX_MOVES) {
            let mv = self.moves[i];
            if f(mv) {
                self.moves[j] = mv;
                j += 1;
            }
        }
        self.len = j;
    }
}

/// Appends moves to a [`MoveList`] with the length kept in a local variable (see
/// [`MoveList::sink`]).
pub struct Sink<'a> {
    list: &'a mut MoveList,
    len: usize,
}

impl Sink<'_> {
    /// Appends a move; a full list ignores it (it cannot be full: see [`MAX_MOVES`]).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.list.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }
}

impl Drop for Sink<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.list.len = self.len;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
