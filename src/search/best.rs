//! A node's bookkeeping while its moves are searched: the best score and move so far
//! against its window, and the quiet moves tried before a cutoff (for the history).

use crate::core::moves::MoveOf;

use super::boards::SearchGeometry;
use super::tt::Bound;

/// The most quiet moves a node remembers having tried before a cutoff, for the history.
const TRIED_QUIETS: usize = 64;

/// The quiet moves a node has tried, in order (the first [`TRIED_QUIETS`]).
pub(super) struct TriedQuiets<G: SearchGeometry> {
    moves: [Option<MoveOf<G>>; TRIED_QUIETS],
    len: usize,
}

impl<G: SearchGeometry> TriedQuiets<G> {
    #[inline]
    pub(super) fn new() -> TriedQuiets<G> {
        TriedQuiets {
            moves: [None; TRIED_QUIETS],
            len: 0,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, mv: MoveOf<G>) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = Some(mv);
            self.len += 1;
        }
    }

    #[inline]
    pub(super) fn iter(&self) -> impl Iterator<Item = MoveOf<G>> + '_ {
        self.moves.iter().take(self.len).map_while(|m| *m)
    }
}

/// A node's best score and move so far, and its alpha.
#[derive(Clone, Copy)]
pub(super) struct Best<G: SearchGeometry> {
    pub(super) score: i32,
    pub(super) mv: Option<MoveOf<G>>,
    pub(super) alpha: i32,
}

impl<G: SearchGeometry> Best<G> {
    /// A node's bookkeeping before its first move: `floor` is below every score a move
    /// can have.
    #[inline]
    pub(super) fn new(floor: i32, alpha: i32) -> Best<G> {
        Best {
            score: floor,
            mv: None,
            alpha,
        }
    }

    /// Takes a move's score; true when it raised alpha (the move is the node's best).
    #[inline]
    pub(super) fn update(&mut self, score: i32, mv: MoveOf<G>) -> bool {
        if score <= self.score {
            return false;
        }
        self.score = score;
        if score <= self.alpha {
            return false;
        }
        self.mv = Some(mv);
        self.alpha = score;
        true
    }

    /// The table bound of the node's score against its window on entry.
    #[inline]
    pub(super) fn bound(&self, alpha: i32, beta: i32) -> Bound {
        if self.score >= beta {
            Bound::Lower
        } else if self.score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}
