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
//! # Layers
//!
//! A file imports only from its own layer and the ones before it in this list, and no two
//! files import each other, even through others (`tests/layers.rs` checks both):
//!
//! 1. **The interface and the evaluation**: `interface` (what bounds a search, what it
//!    reports and answers, win, draw and loss among it), [`placement`] the piece-square
//!    terms, [`proximity`] the king-relative terms, [`terms`] the terms and their weights,
//!    [`threats`] the rules' escape and capture threats, [`eval`] the hand-written
//!    evaluation.
//! 2. **The learned correction**: [`network`] (the net and its file formats), `ply` the
//!    deepest ply, `accumulator` the net's sums kept along the search's path, [`networks`]
//!    the network of each board size.
//! 3. **The boards and the knowledge**: [`boards`] the board sizes the search is
//!    monomorphised for, [`knowledge`] what the search knows of the rules (the
//!    evaluation, the threats and the network together).
//! 4. **The tree search's parts**: `features` the switchable [`Features`], [`tt`] the
//!    shared transposition table, [`path`] the repetition rule inside the tree,
//!    [`ordering`] move ordering, `pruning` the pruning and reduction rules, `deferral` a
//!    node's deferred moves, `best` a node's best move and tried quiets, `iteration` one
//!    iteration's result at the root.
//! 5. **The threads' parts**: `busy` the positions being searched, `deepest` the deepest
//!    iteration any thread completed, [`timeman`] time budgets, `threadpool` the helper
//!    threads that persist from one search to the next, `shared` what a search's threads
//!    share.
//! 6. **The tree search**: [`alphabeta`], one thread's principal variation search.
//! 7. **The searchers**: `driver` the [`Searcher`] (iterative deepening, aspiration
//!    windows, Lazy SMP helper threads), [`berserk`] Berserk's own smaller search (its
//!    turn that continues with the same side), [`wdl`] win, draw and loss from a score.

// 1. The interface and the evaluation.
pub(crate) mod eval;
mod interface;
pub(crate) mod placement;
pub(crate) mod proximity;
pub mod terms;
pub(crate) mod threats;

// 2. The learned correction.
mod accumulator;
pub mod network;
pub(crate) mod networks;
mod ply;

// 3. The boards and the knowledge.
pub(crate) mod boards;
pub(crate) mod knowledge;

// 4. The tree search's parts.
mod best;
mod deferral;
mod features;
mod iteration;
pub(crate) mod ordering;
pub(crate) mod path;
mod pruning;
pub(crate) mod tt;

// 5. The threads' parts.
mod busy;
mod deepest;
mod shared;
mod threadpool;
pub(crate) mod timeman;

// 6. The tree search.
pub(crate) mod alphabeta;

// 7. The searchers.
pub(crate) mod berserk;
pub(crate) mod berserk_order;
mod driver;
pub(crate) mod wdl;

pub use boards::SearchGeometry;
pub(crate) use driver::{MAX_DEPTH, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};
pub use driver::{Searcher, hardware_threads};
pub use features::{Feature, Features};
pub(crate) use interface::Wdl;
pub use interface::{Clock, Info, Limits, Score, SearchResult};
pub(crate) use networks::Networks;
