//! What the threads of one search share: the table, the stop flag, the node counter, the
//! time plan, the rules and the evaluation, the deepest completed iteration.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use crate::core::rules::RuleSet;

use super::Features;
use super::boards::SearchGeometry;
use super::busy::Busy;
use super::deepest::Deepest;
use super::knowledge::Knowledge;
use super::path::SearchPath;
use super::timeman::TimePlan;
use super::tt::Table;

/// What the search threads share: owned, so that the pool's threads (`threadpool`) hold
/// it in an `Arc` for the search and borrow nothing of the caller's.
pub(crate) struct Shared<G: SearchGeometry, K: Knowledge<G>> {
    pub(super) tt: Arc<Table>,
    /// Set by the main thread when the search ends (done, stopped, out of time or nodes):
    /// the helpers stop on it. Only the main thread watches the caller's stop flag.
    pub(super) abort: AtomicBool,
    /// The searcher's node counter ([`Searcher::node_counter`](super::Searcher::node_counter)), zeroed at the start.
    pub(super) nodes: Arc<AtomicU64>,
    pub(super) node_limit: Option<u64>,
    pub(super) plan: TimePlan,
    pub(super) rules: RuleSet,
    /// The ply below the root at which the move limit draws the game, if it has one.
    pub(super) limit_ply: Option<usize>,
    pub(super) path: SearchPath<G>,
    /// What the search knows of the rules, the evaluation among it.
    pub(super) know: K,
    pub(super) features: Features,
    /// The deepest iteration completed by any thread.
    pub(super) deepest: Deepest<G>,
    /// Whether the threads share their completed iterations through `deepest` (when
    /// there are helpers and one line is searched).
    pub(super) race: bool,
    /// The positions the threads are searching now, for deferring moves (empty, and
    /// nothing deferred, when the threads do not defer).
    pub(super) busy: Busy,
}
