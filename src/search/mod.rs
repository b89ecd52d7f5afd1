//! The searcher behind `generate_move` and `analyze`.
//!
//! This module is pure: it never touches stdin or stdout. Progress is reported through a
//! callback that the protocol layer turns into `info` lines on stderr.
//!
//! The interface ([`Searcher::search`], [`Limits`], [`Info`], [`SearchResult`], [`Score`])
//! is what the protocol layer relies on.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::core::game::Game;
use crate::core::moves::Move;

/// A Fischer clock as the controller reports it for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each of the mover's moves.
    pub increment: Duration,
}

/// What bounds one search. All set limits apply; none set means one second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The mover's clock, from which the searcher budgets its time.
    pub clock: Option<Clock>,
}

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    /// A forced loss in this many plies.
    Loss(u32),
    /// A heuristic score in centi-units.
    Cp(i32),
    /// A forced win in this many plies.
    Win(u32),
}

impl fmt::Display for Score {
    /// `123`, `-40`, `win 3` or `loss 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "{c}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// One completed iteration, reported while searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time used so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

impl fmt::Display for Info {
    /// `depth D score S nodes N nps R time MS pv MOVE MOVE ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {} score {} nodes {} nps {} time {} pv",
            self.depth,
            self.score,
            self.nodes,
            self.nps,
            self.time.as_millis()
        )?;
        for mv in &self.pv {
            write!(f, " {mv}")?;
        }
        Ok(())
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move or the game
    /// is over.
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

/// The searcher: options and tables that live from one search to the next.
#[derive(Debug)]
pub struct Searcher {
    threads: usize,
    hash_mb: usize,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(1, 16)
    }
}

impl Searcher {
    /// A searcher with `threads` threads and a transposition table of `hash_mb` MiB.
    pub fn new(threads: usize, hash_mb: usize) -> Searcher {
        Searcher {
            threads: threads.max(1),
            hash_mb: hash_mb.max(1),
        }
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Resizes the transposition table (at least 1 MiB).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb.max(1);
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {}

    /// Searches the current position of `game` (its history counts for the repetition
    /// rule) within `limits`, until done or until `stop` becomes true. Calls `on_info`
    /// after each completed iteration. Always returns a legal move when one exists.
    ///
    /// This first version plays the first legal move; the search issue replaces it.
    pub fn search(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let moves = game.legal_moves();
        let best = moves.first().copied();
        let info = Info {
            depth: 1,
            score: Score::Cp(0),
            nodes: moves.len() as u64,
            nps: 0,
            time: Duration::ZERO,
            pv: best.into_iter().collect(),
        };
        on_info(&info);
        SearchResult {
            best,
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
            pv: info.pv,
        }
    }
}
