//! A match's results in schedule order as its games finish out of it: a game that
//! finishes early waits for the ones before it, and each is appended to the records file
//! in turn, so that the file is always a prefix of the schedule (what `--resume` skips).

use std::collections::BTreeMap;
use std::io;

use super::records::{GameResult, Writer};

/// The results in schedule order, the ones waiting for an earlier game, and the records
/// file they go to.
pub(crate) struct InOrder {
    /// The games of the schedule's first `results.len()` places.
    results: Vec<GameResult>,
    /// Finished games whose place comes after a game still playing, by place.
    pending: BTreeMap<usize, GameResult>,
    writer: Option<Writer>,
    /// Why a write failed: nothing is written after it.
    write_error: Option<io::Error>,
}

impl InOrder {
    /// After the games `done` (resumed from the records file), writing to `writer`.
    pub(crate) fn new(done: Vec<GameResult>, writer: Option<Writer>) -> InOrder {
        InOrder {
            results: done,
            pending: BTreeMap::new(),
            writer,
            write_error: None,
        }
    }

    /// The results in schedule order so far.
    pub(crate) fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Takes a finished game: it and any waiting game after it join the results, and are
    /// written. True when a write failed now (the match should stop).
    pub(crate) fn take(&mut self, r: GameResult) -> bool {
        let mut failed = false;
        self.pending.insert(r.index, r);
        while let Some(r) = self.pending.remove(&self.results.len()) {
            if let (Some(w), None) = (self.writer.as_mut(), &self.write_error)
                && let Err(e) = w.append(&r)
            {
                self.write_error = Some(e);
                failed = true;
            }
            self.results.push(r);
        }
        failed
    }

    /// Forgets the games waiting for an earlier one (an interrupt cut that one short).
    pub(crate) fn drop_pending(&mut self) {
        self.pending.clear();
    }

    /// The results, with the games after a gap (only when stopped early) at the end,
    /// reported but never written; and why writing failed, if it did.
    pub(crate) fn finish(mut self) -> (Vec<GameResult>, Option<io::Error>) {
        self.results.extend(self.pending.into_values());
        (self.results, self.write_error)
    }
}
