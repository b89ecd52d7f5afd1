//! The searcher behind `generate_move` and `analyze`.
//!
//! This module is pure: it never touches stdin or stdout. Progress is reported through a
//! callback that the protocol layer turns into `info` lines on stderr.
//!
//! The interface ([`Searcher::search`], [`Limits`], [`Info`], [`SearchResult`], [`Score`])
//! is what the protocol layer relies on.
//!
//! The search plays every board size and every rule set hnefi models: one alpha-beta,
//! monomorphised per board size ([`SearchGeometry`]), with one knowledge of the rules
//! (`knowledge`): the core's rules-aware move generation, the rules' threats ([`threats`])
//! and the one hand-written evaluation ([`eval`]), read for the board and rules (Copenhagen
//! 11x11 is one instance of it), with the board's network where it applies ([`networks`]).
//!
//! Files, lower ones first (none imports a file above it): [`terms`] the evaluation's
//! terms and weights; [`placement`] its piece-square terms and [`proximity`] its
//! king-relative terms; [`threats`] the rules' escape and capture threats; [`eval`] the
//! hand-written evaluation; [`network`] the learned correction, `accumulator` its
//! inference from its sums, kept along the search's path, and [`networks`] the network of
//! each board size; `ply` the deepest ply; `knowledge` what the search knows of the rules
//! (the evaluation, the threats and the network together); `ordering` move ordering;
//! `path` the repetition rule inside the tree; `tt` the shared transposition table;
//! `features` the switchable [`Features`] and their names; `pruning` the pruning and
//! reduction rules; `deferral` a node's deferred moves; `alphabeta` the tree search of
//! one thread; [`boards`] the board sizes; `timeman` time budgets; `threadpool` the
//! helper threads that persist from one search to the next; `driver` the [`Searcher`]
//! (iterative deepening, aspiration windows, Lazy SMP helper threads sharing the table);
//! this one the interface.

mod accumulator;
pub(crate) mod alphabeta;
pub(crate) mod berserk;
mod best;
pub(crate) mod boards;
mod busy;
mod deepest;
mod deferral;
mod driver;
pub(crate) mod eval;
mod features;
pub(crate) mod knowledge;
pub mod network;
pub(crate) mod networks;
pub(crate) mod ordering;
pub(crate) mod path;
pub(crate) mod placement;
mod ply;
pub(crate) mod proximity;
mod pruning;
pub mod terms;
mod threadpool;
pub(crate) mod threats;
pub(crate) mod timeman;
pub(crate) mod tt;
pub(crate) mod wdl;

use std::fmt;
use std::time::{Duration, Instant};

use crate::core::moves::Move;

pub use boards::SearchGeometry;
pub(crate) use driver::Shared;
pub(crate) use driver::{MAX_DEPTH, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};
pub use driver::{Searcher, hardware_threads};
pub use features::{Feature, Features};
pub(crate) use networks::Networks;

/// A reading of the mover's clock under a Fischer time control, as the controller reports
/// it: the time left now and the increment its move will earn, from which the searcher
/// budgets the move. Not the time control itself ([`crate::time_control::Fischer`]: the
/// time at the start), from which the session makes the reading. The bot keeps the
/// server's readings of its clock as this type too (`bot::clock::GameClock`), and brings
/// them to now before a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub(crate) remaining: Duration,
    /// Time added after each of the mover's moves.
    pub(crate) increment: Duration,
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
    /// When the request for this search arrived (the protocol stamps the moment it read
    /// the command line): the time budgets count from it, not from the search's start, so
    /// that the time a loaded machine spends before the search (the line queued, parsed,
    /// a previous search or pondering stopped) is spent from the move's time. `None`:
    /// from the search's start.
    pub since: Option<Instant>,
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

/// One completed iteration, reported while searching; `M` the moves' type (the search's
/// [`MoveOf`](crate::core::moves::MoveOf) of its board, or a session's
/// [`AnyMove`](crate::core::any_square::AnyMove)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M = Move> {
    /// Depth completed.
    pub depth: u32,
    /// In a multi-PV search, which line this is (1 the best); `None` otherwise.
    pub(crate) multipv: Option<u32>,
    /// Score of the line's first move.
    pub(crate) score: Score,
    /// The side to move's chances at that score, when asked for (`show_wdl`).
    pub(crate) wdl: Option<wdl::Wdl>,
    /// Nodes searched so far.
    pub(crate) nodes: u64,
    /// Nodes per second.
    pub(crate) nps: u64,
    /// Time used so far.
    pub(crate) time: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
}

impl<M: Copy> Info<M> {
    /// The same report with each move turned by `f` (to a move of any board size).
    pub(crate) fn map_moves<N>(&self, f: impl Fn(M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            multipv: self.multipv,
            score: self.score,
            wdl: self.wdl,
            nodes: self.nodes,
            nps: self.nps,
            time: self.time,
            pv: self.pv.iter().map(|&m| f(m)).collect(),
        }
    }
}

impl<M: fmt::Display> fmt::Display for Info<M> {
    /// `depth D score S nodes N nps R time MS pv MOVE MOVE ...`, with `multipv K` after
    /// the depth in a multi-PV search and `wdl W D L` after the score when asked for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {} ", self.depth)?;
        if let Some(k) = self.multipv {
            write!(f, "multipv {k} ")?;
        }
        write!(f, "score {} ", self.score)?;
        if let Some(wdl) = self.wdl {
            write!(f, "{wdl} ")?;
        }
        write!(
            f,
            "nodes {} nps {} time {} pv",
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

/// The outcome of a search; `M` the moves' type, as in [`Info`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M = Move> {
    /// The move to play; `None` only when the side to move has no legal move or the game
    /// is over.
    pub best: Option<M>,
    /// Its score.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
}

impl<M: Copy> SearchResult<M> {
    /// The same result with each move turned by `f` (to a move of any board size).
    pub(crate) fn map_moves<N>(self, f: impl Fn(M) -> N) -> SearchResult<N> {
        SearchResult {
            best: self.best.map(&f),
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            pv: self.pv.into_iter().map(f).collect(),
        }
    }
}
