//! The positions some search thread is searching now, shared by the threads, so that a
//! thread can leave a subtree another is inside and come back to it last (simplified
//! ABDADA, after Tom Kerrigan): two threads at the same node then split its moves instead
//! of searching the same ones side by side, and the one that comes back to a deferred move
//! finds its result in the transposition table.
//!
//! A small table of position keys, one per slot chosen by the key. A collision only
//! defers a move that need not have been or marks none: the table decides the order of
//! the moves, never a score.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two).
const SLOTS: usize = 1 << 14;

/// The shared table.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// The table, or an empty one that marks nothing where no thread defers (one
    /// thread, or the feature off), so that such a search allocates none.
    pub(crate) fn new(on: bool) -> Busy {
        let n = if on { SLOTS } else { 0 };
        Busy {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether the table marks anything: whether the threads defer.
    pub(crate) fn on(&self) -> bool {
        !self.slots.is_empty()
    }

    fn slot(&self, key: u64) -> Option<&AtomicU64> {
        self.slots.get((key as usize) & (SLOTS - 1))
    }

    /// Whether some thread marked `key` as being searched.
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        self.slot(key)
            .is_some_and(|s| s.load(Ordering::Relaxed) == key)
    }

    /// Marks `key` as being searched.
    pub(crate) fn enter(&self, key: u64) {
        if let Some(s) = self.slot(key) {
            s.store(key, Ordering::Relaxed);
        }
    }

    /// Clears the mark of `key`, unless another key has taken its slot since.
    pub(crate) fn leave(&self, key: u64) {
        if let Some(s) = self.slot(key) {
            let _ = s.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_busy_from_enter_to_leave() {
        let busy = Busy::new(true);
        assert!(!busy.is_busy(12345));
        busy.enter(12345);
        assert!(busy.is_busy(12345));
        busy.leave(12345);
        assert!(!busy.is_busy(12345));
    }

    #[test]
    fn an_empty_table_marks_nothing() {
        let busy = Busy::new(false);
        busy.enter(12345);
        assert!(!busy.is_busy(12345));
    }

    #[test]
    fn leaving_does_not_clear_another_key_in_the_same_slot() {
        let busy = Busy::new(true);
        let other = 12345 + SLOTS as u64;
        busy.enter(12345);
        busy.enter(other);
        busy.leave(12345);
        assert!(busy.is_busy(other));
        assert!(!busy.is_busy(12345));
    }
}
