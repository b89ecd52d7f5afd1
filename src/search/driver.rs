//! The driver: the [`Searcher`] with the tables that live from one search to the next,
//! iterative deepening with aspiration windows, and Lazy SMP helper threads sharing the
//! transposition table and their completed iterations (the search's result is the deepest
//! any thread completed, [`Deepest`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::core::game::GameOf;

use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::position::PositionOf;
use crate::core::role::{ByRole, Role};
use crate::core::rules::RuleSet;

use super::alphabeta::{self, INFINITE, MATE, MATE_BOUND, Worker};
use super::boards::SearchGeometry;
use super::busy::Busy;
use super::deepest::Deepest;
use super::interface::{Info, Limits, Score, SearchResult};
use super::iteration::Iteration;
use super::knowledge::{KingThreats, Knowledge, RulesKnowledge};
use super::network::NetworkOf;
use super::ordering::{Heuristics, NodeInfo, Picker};
use super::path::SearchPath;
use super::ply::MAX_PLY;
use super::shared::Shared;
use super::terms::Weights;
use super::threadpool::{Task, ThreadPool};
use super::timeman::TimePlan;
use super::tt::Table;
use super::{Features, Networks};

/// The searcher: options and tables that live from one search to the next.
#[derive(Debug)]
pub struct Searcher {
    threads: usize,
    hash_mb: usize,
    tt: Arc<Table>,
    /// The main thread's killers and history.
    heuristics: Heuristics,
    /// The helper threads', one each (moved into each helper's job for a search, and
    /// back).
    helper_heuristics: Vec<Heuristics>,
    /// The last search's helpers, told to stop when it returned and joined at the start
    /// of the next search or change of the searcher: a reply does not wait for a helper
    /// that has no core at that moment to notice the stop.
    pending: Vec<Option<Task<Heuristics>>>,
    /// The helper threads (`threads - 1`), parked between searches.
    pool: ThreadPool,
    /// The evaluation weights of a search for each side (the side to move at the root):
    /// the whole tree of a search for the attackers is scored with `attacker`.
    weights: ByRole<Weights>,
    /// The learned corrections to the evaluation, one per board size at most, shared by
    /// the searches of both sides.
    networks: Networks,
    features: Features,
    /// Root moves reported with their own score and pv (1 = the best only).
    multipv: usize,
    /// The nodes of the search under way, readable while it runs.
    nodes: Arc<AtomicU64>,
}

impl std::fmt::Debug for Heuristics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Heuristics")
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(1, 16)
    }
}

/// The deepest search: iterations beyond it would overrun the per-ply tables
/// ([`ply::MAX_PLY`]) once reductions, quiescence and forced replies are added.
/// The session refuses a deeper `depth`.
pub(crate) const MAX_DEPTH: u32 = (MAX_PLY as u32) / 2;
/// The largest transposition table, in MiB; the session refuses a larger `hash_mb`.
pub(crate) const MAX_HASH_MB: usize = 1024;
/// The most search threads; the session refuses more.
pub(crate) const MAX_THREADS: usize = 256;
/// The most root moves a multi-PV search reports; the session refuses more.
pub(crate) const MAX_MULTIPV: usize = 256;

/// The threads the machine can run at once (its hardware threads, within the process's
/// CPU quota), read once: at least 1.
pub fn hardware_threads() -> usize {
    static HARDWARE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *HARDWARE.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The network among `nets` that the search of a game of board `G` under `rules` adds to
/// the hand-written evaluation: the board's, but on 11x11 only under the rules it learned
/// ([`copenhagen_like`](super::networks::copenhagen_like)).
fn network_for<G: SearchGeometry>(nets: &Networks, rules: &RuleSet) -> Option<Arc<NetworkOf<G>>> {
    if G::SIZE == 11 && !super::networks::copenhagen_like(rules) {
        None
    } else {
        G::network(nets)
    }
}

/// Whether the search of a game of board `G` under `rules` reads the attackers' king
/// captures: everywhere but where the 11x11 network's rules are played, whose search
/// never did ([`KingThreats::Ignored`]).
fn king_threats<G: SearchGeometry>(rules: &RuleSet) -> KingThreats {
    if G::SIZE == 11 && super::networks::copenhagen_like(rules) {
        KingThreats::Ignored
    } else {
        KingThreats::Read
    }
}

/// A root score as a [`Score`].
pub(crate) fn score_of(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Win((MATE - v).max(0) as u32)
    } else if v <= -MATE_BOUND {
        Score::Loss((MATE + v).max(0) as u32)
    } else {
        Score::Cp(v)
    }
}

impl Searcher {
    /// A searcher with `threads` threads and a transposition table of `hash_mb` MiB,
    /// each kept within 1 and [`MAX_THREADS`] / [`MAX_HASH_MB`] (the session refuses
    /// values beyond them before they get here).
    pub fn new(threads: usize, hash_mb: usize) -> Searcher {
        let hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        let mut searcher = Searcher {
            threads: 1,
            hash_mb,
            tt: Arc::new(Table::new(hash_mb)),
            heuristics: Heuristics::default(),
            helper_heuristics: Vec::new(),
            pending: Vec::new(),
            pool: ThreadPool::default(),
            weights: ByRole::new_with(Weights::for_side),
            networks: Networks::embedded(),
            features: Features::default(),
            multipv: 1,
            nodes: Arc::new(AtomicU64::new(0)),
        };
        searcher.set_threads(threads);
        searcher
    }

    /// How many root moves a search reports, each with its own score and pv (1 to
    /// [`MAX_MULTIPV`]): the best, then the best of the others, and so on. The result is
    /// the first; with more than one, each iteration searches the root once per line.
    pub(crate) fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// The node count of the search under way (of the last one once it is over), for a
    /// caller that reports progress while the search runs.
    pub(crate) fn node_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.nodes)
    }

    /// Sets the number of search threads (1 to [`MAX_THREADS`]), of which as many run
    /// as the machine can run at once ([`hardware_threads`]): more would only take turns
    /// on the same cores, and then a stopped search waits for each of them to be
    /// scheduled and notice, which broke time budgets (256 threads on 2 cores took
    /// seconds for a 100 ms move).
    pub fn set_threads(&mut self, threads: usize) {
        self.settle();
        let threads = threads.clamp(1, MAX_THREADS).min(hardware_threads());
        self.pool.resize(threads - 1);
        // A thread the system refused is a thread fewer.
        self.threads = 1 + self.pool.len();
        self.helper_heuristics
            .resize_with(self.threads - 1, Heuristics::default);
    }

    /// The number of threads a search runs.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes the transposition table (1 to [`MAX_HASH_MB`] MiB).
    pub(crate) fn set_hash_mb(&mut self, hash_mb: usize) {
        let mb = hash_mb.clamp(1, MAX_HASH_MB);
        if mb != self.hash_mb {
            self.hash_mb = mb;
            self.tt = Arc::new(Table::new(mb));
        }
    }

    /// Switches search features on or off (for self-play comparisons).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// The search features in force.
    pub(crate) fn features(&self) -> Features {
        self.features
    }

    /// The evaluation weights of a search for `side` (the side to move at the root).
    pub(crate) fn weights(&self, side: Role) -> Weights {
        *self.weights.get(side)
    }

    /// Replaces the evaluation weights of the searches for `side` (for tuning).
    pub fn set_weights(&mut self, side: Role, weights: Weights) {
        *self.weights.get_mut(side) = weights;
    }

    /// Sets the learned correction of every board size (a new searcher has the engine's
    /// own, [`Networks::embedded`]).
    pub(crate) fn set_networks(&mut self, networks: Networks) {
        self.networks = networks;
    }

    /// The learned corrections of the board sizes.
    pub(crate) fn networks(&self) -> &Networks {
        &self.networks
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.settle();
        self.tt.clear();
        self.heuristics.clear();
        for h in &mut self.helper_heuristics {
            h.clear();
        }
    }

    /// Searches the current position of `game` (its history counts for the repetition
    /// rule) within `limits`, until done or until `stop` becomes true. Calls `on_info`
    /// after each completed iteration. Always returns a legal move when one exists.
    ///
    /// Any board size and any rule set: the hand-written evaluation read for its board and
    /// rules, and the network of its board size where it applies
    /// ([`networks`](super::networks)).
    ///
    /// With one thread and a depth or node limit the result is deterministic for a given
    /// state of the searcher (a new searcher, or after [`Searcher::clear`]).
    pub fn search<G: SearchGeometry>(
        &mut self,
        game: &GameOf<G>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<MoveOf<G>>),
    ) -> SearchResult<MoveOf<G>> {
        let rules = game.rules();
        let weights = self.weights(game.position().to_move());
        let net = network_for::<G>(&self.networks, &rules);
        let know = RulesKnowledge::new(&rules, &weights, net, king_threats::<G>(&rules));
        self.run(game, know, limits, stop, on_info)
    }

    /// Joins the last search's helpers (stopped already, or about to notice) and takes
    /// their heuristics back. A helper's panic is the caller's, as with scoped threads; a
    /// helper that never ran starts the next search with fresh tables.
    fn settle(&mut self) {
        let mut panicked = None;
        for task in std::mem::take(&mut self.pending) {
            let heur = match task.map(Task::join) {
                Some(Ok(heur)) => heur,
                Some(Err(payload)) => {
                    panicked.get_or_insert(payload);
                    Heuristics::default()
                }
                None => Heuristics::default(),
            };
            self.helper_heuristics.push(heur);
        }
        if let Some(payload) = panicked {
            std::panic::resume_unwind(payload);
        }
    }

    /// The search of `game` with the knowledge `know`.
    fn run<G: SearchGeometry, K: Knowledge<G> + 'static>(
        &mut self,
        game: &GameOf<G>,
        know: K,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<MoveOf<G>>),
    ) -> SearchResult<MoveOf<G>> {
        self.settle();
        let start = Instant::now();
        let plan = TimePlan::new(limits, start);
        let root = *game.position();
        let legal: MoveListOf<G> = game.legal_moves();
        if legal.is_empty() {
            return no_move(game);
        }
        self.tt.new_search();
        self.heuristics.new_search::<G>();
        for h in &mut self.helper_heuristics {
            h.new_search::<G>();
        }
        let root_moves = self.root_moves(&root, &legal, &know);
        let max_depth = max_depth(limits, legal.len());
        self.nodes.store(0, Ordering::Relaxed);
        let multipv = self.multipv.min(root_moves.len());
        let shared = Arc::new(self.shared(game, know, limits, plan, multipv));
        let helpers = self.start_helpers(&shared, &root_moves, &root, max_depth);
        let mut w = Worker::new(&shared, &mut self.heuristics, 0, stop);
        w.root_moves = root_moves.clone();
        let mut last: Option<Completed<G>> = None;
        let mut report = |depth: i32, line: usize, it: &Iteration<G>| {
            let nodes = shared.nodes.load(Ordering::Relaxed);
            let info = Info {
                depth: depth as u32,
                multipv: (multipv > 1).then_some(line as u32 + 1),
                score: score_of(it.score),
                wdl: None,
                nodes,
                nps: alphabeta::nps(nodes, start),
                time: start.elapsed(),
                pv: it.pv.clone(),
            };
            on_info(&info);
            if line == 0 {
                last = Some((depth, it.score, it.pv.clone()));
            }
        };
        let partial = iterate(&mut w, &root, max_depth, multipv, &mut report);
        w.flush();
        drop(w);
        shared.abort.store(true, Ordering::Relaxed);
        // The helpers stop on `abort`; they are joined by the next search.
        self.pending = helpers;
        let nodes = shared.nodes.load(Ordering::Relaxed);
        chosen(last, partial, &root_moves, &legal, nodes)
    }

    /// The root's legal moves in the order the main thread searches them first.
    fn root_moves<G: SearchGeometry, K: Knowledge<G>>(
        &self,
        root: &PositionOf<G>,
        legal: &MoveListOf<G>,
        know: &K,
    ) -> Vec<MoveOf<G>> {
        let hash_move = self.tt.probe::<G>(root.hash()).and_then(|e| e.mv);
        let node = NodeInfo {
            hash_move,
            blocks: know.escape_blocks(root.board()),
            ply: 0,
        };
        let mut picker = Picker::new(root.board(), root.to_move(), legal.clone(), node, know);
        let heuristics = &self.heuristics;
        std::iter::from_fn(|| picker.pick(heuristics).map(|(m, _)| m)).collect()
    }

    /// What the threads of a search of `game` share, with `multipv` lines.
    fn shared<G: SearchGeometry, K: Knowledge<G>>(
        &self,
        game: &GameOf<G>,
        know: K,
        limits: &Limits,
        plan: TimePlan,
        multipv: usize,
    ) -> Shared<G, K> {
        Shared {
            tt: Arc::clone(&self.tt),
            abort: AtomicBool::new(false),
            nodes: Arc::clone(&self.nodes),
            node_limit: limits.nodes,
            plan,
            rules: game.rules(),
            limit_ply: game
                .rules()
                .move_limit
                .map(|n| (n as usize).saturating_sub(game.moves_played())),
            path: SearchPath::new(game),
            know,
            features: self.features,
            deepest: Deepest::default(),
            race: self.threads > 1 && multipv == 1,
            busy: Busy::new(self.features.defer && self.threads > 1 && multipv == 1),
        }
    }

    /// Starts the helpers, each on its pool thread with its heuristics moved in; they stop
    /// on `abort`, which the main thread sets when it is done.
    fn start_helpers<G: SearchGeometry, K: Knowledge<G> + 'static>(
        &mut self,
        shared: &Arc<Shared<G, K>>,
        root_moves: &[MoveOf<G>],
        root: &PositionOf<G>,
        max_depth: i32,
    ) -> Vec<Option<Task<Heuristics>>> {
        let root = *root;
        std::mem::take(&mut self.helper_heuristics)
            .into_iter()
            .enumerate()
            .map(|(i, heur)| {
                let shared = Arc::clone(shared);
                let root_moves = root_moves.to_vec();
                let job = move || {
                    let mut heur = heur;
                    let mut w = Worker::new(&shared, &mut heur, i + 1, &shared.abort);
                    w.root_moves = root_moves;
                    iterate(&mut w, &root, max_depth, 1, &mut |_, _, _| {});
                    w.flush();
                    drop(w);
                    heur
                };
                self.pool.run(i, job)
            })
            .collect()
    }
}

/// The main thread's last completed iteration: its depth, score and principal variation.
type Completed<G> = (i32, i32, Vec<MoveOf<G>>);

/// The result of a search of a position without a legal move: lost, or the game's over.
fn no_move<G: SearchGeometry>(game: &GameOf<G>) -> SearchResult<MoveOf<G>> {
    let score = if game.status().is_over() {
        Score::Cp(0)
    } else {
        Score::Loss(0)
    };
    SearchResult {
        best: None,
        score,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
    }
}

/// The deepest iteration `limits` allow, with `legal` moves at the root.
fn max_depth(limits: &Limits, legal: usize) -> i32 {
    if legal == 1 && limits.depth.is_none() && limits.nodes.is_none() {
        // A forced move: one iteration for its score, and the clock is spared.
        return 1;
    }
    limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32
}

/// The search's answer from the main thread's last completed iteration and its
/// interrupted one, always a legal move.
fn chosen<G: SearchGeometry>(
    last: Option<Completed<G>>,
    partial: Option<Iteration<G>>,
    root_moves: &[MoveOf<G>],
    legal: &MoveListOf<G>,
    nodes: u64,
) -> SearchResult<MoveOf<G>> {
    // A move from an interrupted iteration that beat the last completed one's best
    // is taken (it was fully searched); otherwise the last completed iteration.
    let (depth, score, pv) = match (last, partial) {
        (Some((d, s, pv)), Some(p)) if p.pv.first() != pv.first() && p.score > s => {
            (d as u32, p.score, p.pv)
        }
        (Some((d, s, pv)), _) => (d as u32, s, pv),
        (None, Some(p)) if !p.pv.is_empty() && p.score > -INFINITE => (0, p.score, p.pv),
        _ => (0, 0, root_moves.first().copied().into_iter().collect()),
    };
    let mut pv = pv;
    let best = match pv.first() {
        Some(m) if legal.contains(m) => Some(*m),
        _ => {
            pv = root_moves.first().copied().into_iter().collect();
            root_moves.first().copied()
        }
    };
    SearchResult {
        best,
        score: score_of(score),
        depth,
        nodes,
        pv,
    }
}

/// Iterative deepening for one worker. Calls `report` after each completed iteration
/// (the main thread reports; helpers ignore it), once per line (0 the best) when
/// `multipv` is more than 1. Returns the best result of an interrupted iteration, if a
/// move in it was fully searched.
fn iterate<G: SearchGeometry, K: Knowledge<G>>(
    w: &mut Worker<'_, G, K>,
    root: &PositionOf<G>,
    max_depth: i32,
    multipv: usize,
    report: &mut dyn FnMut(i32, usize, &Iteration<G>),
) -> Option<Iteration<G>> {
    if multipv > 1 {
        return iterate_multipv(w, root, max_depth, multipv, report);
    }
    let mut prev: Option<i32> = None;
    let main = w.id == 0;
    // Helpers of odd number search a ply ahead of the main thread.
    let offset = if main { 0 } else { (w.id % 2) as i32 };
    let race = w.shared().race;
    let mut depth = 1 + offset;
    while depth <= max_depth {
        w.begin_iteration(depth);
        let searched = match aspirated(w, root, depth, prev) {
            Searched::Done(it) => Some(it),
            Searched::Superseded => None,
            Searched::Stopped(kept) => return kept,
        };
        let Some((reached, it)) = completed(w, depth, searched, report) else {
            depth += 1;
            continue;
        };
        depth = reached;
        prev = Some(it.score);
        w.flush();
        report(depth, 0, &it);
        if main {
            // A proven result needs no deeper search.
            if it.score.abs() >= MATE_BOUND && depth as u32 >= (MATE - it.score.abs()) as u32 {
                break;
            }
            if w.soft_expired() {
                break;
            }
        }
        depth = next_depth(depth, offset, max_depth, race);
    }
    None
}

/// How one iteration's aspiration loop ended.
enum Searched<G: SearchGeometry> {
    /// Completed inside its window.
    Done(Iteration<G>),
    /// Abandoned: another thread completed this depth first.
    Superseded,
    /// The search was stopped: the iteration's fully searched improvement, if any.
    Stopped(Option<Iteration<G>>),
}

/// One iteration at `depth`, in a window around the previous iteration's score `prev`
/// that widens, doubling, on each fail low or high.
fn aspirated<G: SearchGeometry, K: Knowledge<G>>(
    w: &mut Worker<'_, G, K>,
    root: &PositionOf<G>,
    depth: i32,
    prev: Option<i32>,
) -> Searched<G> {
    let (mut alpha, mut beta) = (-INFINITE, INFINITE);
    let mut delta = 40;
    if let Some(p) = prev
        && depth >= 5
        && w.features().aspiration
        && p.abs() < MATE_BOUND
    {
        alpha = p - delta;
        beta = p + delta;
    }
    loop {
        let it = w.search_root(root, depth, alpha, beta);
        if w.stopped() {
            if w.take_superseded() {
                return Searched::Superseded;
            }
            // Keep a fully searched improvement from this iteration.
            let kept = it.score > alpha && it.score > -INFINITE && !it.pv.is_empty();
            return Searched::Stopped(kept.then_some(it));
        }
        if it.score <= alpha && alpha > -INFINITE {
            alpha = (alpha - delta).max(-INFINITE);
            if alpha < -MATE_BOUND {
                alpha = -INFINITE;
            }
        } else if it.score >= beta && beta < INFINITE {
            beta = (beta + delta).min(INFINITE);
            if beta > MATE_BOUND {
                beta = INFINITE;
            }
        } else {
            return Searched::Done(it);
        }
        delta *= 2;
    }
}

/// The iteration to go on from and its depth: this worker's own at `depth`, or a deeper
/// one another thread completed meanwhile (when threads race). `None` when this
/// worker's iteration was abandoned and no other thread's has replaced it.
fn completed<G: SearchGeometry, K: Knowledge<G>>(
    w: &mut Worker<'_, G, K>,
    depth: i32,
    searched: Option<Iteration<G>>,
    report: &mut dyn FnMut(i32, usize, &Iteration<G>),
) -> Option<(i32, Iteration<G>)> {
    let shared = w.shared();
    let deeper = if shared.race {
        if let Some(it) = &searched {
            shared.deepest.publish(depth, it);
        }
        // An abandoned iteration takes the other thread's of the same depth.
        let floor = if searched.is_some() { depth } else { depth - 1 };
        shared.deepest.deeper_than(floor)
    } else {
        None
    };
    match (deeper, searched) {
        (Some((d, it)), own) => {
            // The main thread's own iteration is reported before the deeper one, so
            // that the depths reported rise one by one while it keeps up.
            if let Some(own) = own {
                w.flush();
                report(depth, 0, &own);
            }
            w.put_first(it.pv.first().copied());
            Some((d, it))
        }
        (None, Some(it)) => Some((depth, it)),
        (None, None) => None,
    }
}

/// The depth after `depth` for a worker `offset` plies ahead of the main thread.
fn next_depth(depth: i32, offset: i32, max_depth: i32, race: bool) -> i32 {
    if !race {
        depth + 1
    } else if depth + 1 + offset > max_depth && depth < max_depth {
        // A helper a ply ahead that would step past the last depth searches that
        // depth beside the main thread instead of idling until the search ends.
        max_depth
    } else {
        depth + 1 + offset
    }
}

/// Iterative deepening of the main thread reporting `lines` root moves: at each depth,
/// line k searches the root without the moves of lines 0..k (as Stockfish's multi-PV
/// does), with a full window. Returns what [`iterate`] returns, for line 0.
fn iterate_multipv<G: SearchGeometry, K: Knowledge<G>>(
    w: &mut Worker<'_, G, K>,
    root: &PositionOf<G>,
    max_depth: i32,
    lines: usize,
    report: &mut dyn FnMut(i32, usize, &Iteration<G>),
) -> Option<Iteration<G>> {
    for depth in 1..=max_depth {
        let all = std::mem::take(&mut w.root_moves);
        let mut chosen: Vec<MoveOf<G>> = Vec::with_capacity(lines);
        let mut rest = all.clone();
        for line in 0..lines {
            w.root_moves = rest.clone();
            let it = w.search_root(root, depth, -INFINITE, INFINITE);
            if w.stopped() {
                w.root_moves = all;
                let keep = line == 0 && it.score > -INFINITE && !it.pv.is_empty();
                return keep.then_some(it);
            }
            // search_root left its best move first in its root moves.
            rest = std::mem::take(&mut w.root_moves);
            let Some(best) = rest.first().copied() else {
                break;
            };
            rest.remove(0);
            chosen.push(best);
            w.flush();
            report(depth, line, &it);
            if rest.is_empty() {
                break;
            }
        }
        chosen.extend(rest);
        w.root_moves = chosen;
        if w.soft_expired() {
            break;
        }
    }
    None
}
