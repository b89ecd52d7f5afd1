//! The deepest iteration any search thread has completed, shared by the threads.
//!
//! With several threads the search's result is the deepest iteration completed by any of
//! them, not only by the main thread: a helper a ply ahead that finishes first gives the
//! search that depth at once. A thread still searching a depth some thread has completed
//! abandons it and goes on from one deeper, and the main thread reports and plays the
//! completed iteration as if it were its own.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};

use super::boards::SearchGeometry;
use super::iteration::Iteration;

/// The shared record.
pub(crate) struct Deepest<G: SearchGeometry> {
    /// The depth of `iteration`, read without the lock on every poll.
    depth: AtomicI32,
    iteration: Mutex<Option<(i32, Iteration<G>)>>,
}

impl<G: SearchGeometry> Default for Deepest<G> {
    fn default() -> Self {
        Deepest {
            depth: AtomicI32::new(0),
            iteration: Mutex::new(None),
        }
    }
}

impl<G: SearchGeometry> Deepest<G> {
    /// The deepest completed depth (0 before any).
    pub(crate) fn depth(&self) -> i32 {
        self.depth.load(Ordering::Acquire)
    }

    /// Records a completed iteration of `depth`, unless a deeper or as deep one is
    /// recorded already.
    pub(crate) fn publish(&self, depth: i32, it: &Iteration<G>) {
        if depth <= self.depth() || it.pv.is_empty() {
            return;
        }
        // A thread that panicked holding the lock left a whole value behind: use it.
        let mut slot = self.iteration.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|(d, _)| depth > *d) {
            *slot = Some((depth, it.clone()));
            self.depth.store(depth, Ordering::Release);
        }
    }

    /// The recorded iteration, if it is deeper than `depth`.
    pub(crate) fn deeper_than(&self, depth: i32) -> Option<(i32, Iteration<G>)> {
        if self.depth() <= depth {
            return None;
        }
        let slot = self.iteration.lock().unwrap_or_else(|e| e.into_inner());
        slot.as_ref().filter(|(d, _)| *d > depth).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::core::moves::MoveOf;

    fn iteration(score: i32, mv: &str) -> Iteration<S11> {
        Iteration {
            score,
            pv: mv.parse::<MoveOf<S11>>().into_iter().collect(),
        }
    }

    #[test]
    fn only_a_deeper_iteration_replaces_the_recorded_one() {
        let d = Deepest::<S11>::default();
        assert_eq!(d.depth(), 0);
        assert!(d.deeper_than(0).is_none());
        d.publish(3, &iteration(10, "d1-d4"));
        d.publish(3, &iteration(20, "h1-h4"));
        d.publish(2, &iteration(30, "a4-c4"));
        assert_eq!(d.depth(), 3);
        let (depth, it) = d.deeper_than(2).expect("depth 3 is deeper than 2");
        assert_eq!((depth, it.score), (3, 10));
        assert!(d.deeper_than(3).is_none());
        d.publish(5, &iteration(40, "a4-c4"));
        assert_eq!(
            d.deeper_than(3).map(|(depth, it)| (depth, it.score)),
            Some((5, 40))
        );
    }

    #[test]
    fn an_iteration_without_a_move_is_not_recorded() {
        let d = Deepest::<S11>::default();
        d.publish(
            4,
            &Iteration {
                score: 0,
                pv: Vec::new(),
            },
        );
        assert_eq!(d.depth(), 0);
    }
}
