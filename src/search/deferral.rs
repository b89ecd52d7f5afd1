//! A node's deferred moves (simplified ABDADA): with other threads searching, a move whose
//! position another thread is inside is put off to the end of its node, so that the
//! threads spread over the tree instead of searching the same subtree at once.

/// The most moves a node puts off; past it, a busy move is searched in its place.
const ROOM: usize = 64;

/// A node's moves put off, in the order they were put off: the move, its ordering score
/// and its rank in the picker's order (which decides its reduction, as it would have in
/// its place).
pub(super) struct Deferral<M> {
    /// `None` where moves are not deferred: set up only where they can be, not at every
    /// node of one thread.
    moves: Option<[Option<(M, i32, usize)>; ROOM]>,
    len: usize,
    next: usize,
}

impl<M: Copy> Deferral<M> {
    /// A node's deferral, `on` where moves can be deferred.
    #[inline]
    pub(crate) fn new(on: bool) -> Deferral<M> {
        Deferral {
            moves: on.then_some([None; ROOM]),
            len: 0,
            next: 0,
        }
    }

    /// Whether another move can be put off.
    #[inline]
    pub(crate) fn has_room(&self) -> bool {
        self.moves.is_some() && self.len < ROOM
    }

    /// Puts a move off (nothing when there is no room).
    #[inline]
    pub(crate) fn put_off(&mut self, mv: M, order: i32, rank: usize) {
        if let Some(slot) = self.moves.as_mut().and_then(|d| d.get_mut(self.len)) {
            *slot = Some((mv, order, rank));
            self.len += 1;
        }
    }

    /// The next move put off, once the others are searched.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(M, i32, usize)> {
        if self.next >= self.len {
            return None;
        }
        let m = self
            .moves
            .as_ref()
            .and_then(|d| d.get(self.next))
            .copied()
            .flatten();
        self.next += 1;
        m
    }
}
