//! One search thread: principal variation search with a transposition table, null-move
//! pruning, late-move reductions, the escape-threat rules and a small quiescence search.
//!
//! Exact rules inside the tree:
//! - defenders to move with the king on a free line to a corner win at once (the escape
//!   is always legal: a position with the king on a corner never occurred before);
//! - attackers to move who can close the king's fourth side win at once;
//! - attackers to move facing two escape lines lose, facing one they may only block it
//!   (any other move lets the king escape);
//! - every move is judged by the core's one judge, `judge::outcome`, as `Game` judges it:
//!   the wins it produces, the repetition rule (applied with the game history plus the
//!   path), the move limit and the adjudication in the rule set's order; a side without a
//!   legal move loses (found in the child's own search, except on the limit's ply).
//! - a position one ply before the move limit is scored exactly from its moves alone (a
//!   win, else a draw, else a loss). A side whose every move the repetition rule bans is
//!   taken as drawn at the limit rather than lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::capture;
use crate::core::judge::outcome;
use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::outcome::{Outcome, Reason, Status};
use crate::core::position::PositionOf;
use crate::core::repetition::Verdict;
use crate::core::role::Role;
use crate::core::square::SquareOf;

use super::best::{Best, TriedQuiets};
use super::boards::SearchGeometry;
use super::deferral::Deferral;
use super::iteration::Iteration;
use super::knowledge::Knowledge;
use super::ordering::{Heuristics, NodeInfo, Picker, is_tactical};
use super::path::SearchPath;
use super::ply::MAX_PLY;
use super::pruning::{self, MoveKind, Node};
use super::shared::Shared;
use super::tt::Bound;

/// The score of a win at the root.
pub(crate) const MATE: i32 = 30000;
/// Scores beyond this are wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32 - 10;
/// A score above every other.
pub(crate) const INFINITE: i32 = MATE + 1;
const EVAL_LIMIT: i32 = MATE_BOUND - 100;
/// Nodes between two looks at the stop flags, the hard deadline and the node limit (and
/// between two additions to the shared node count): rare enough to cost nothing, often
/// enough to stop within a fraction of a millisecond.
pub(crate) const POLL_INTERVAL: u64 = 1024;
/// The most plies the quiescence search adds.
const QPLY_LIMIT: u32 = 6;
/// Captures are searched in this many first plies of the quiescence search.
const QCAPTURE_PLIES: u32 = 2;
/// The least remaining depth at which a move another thread is searching is deferred.
const DEFER_DEPTH: i32 = 2;

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search thread's state, on boards of geometry `G` with the knowledge `K` of the
/// rules.
pub(crate) struct Worker<'a, G: SearchGeometry, K: Knowledge<G>> {
    shared: &'a Shared<G, K>,
    /// The flag this thread stops on besides the search's abort: the caller's for the
    /// main thread (which passes it on through the abort), the abort itself for helpers.
    stop: &'a AtomicBool,
    /// Killers and history.
    pub(crate) heur: &'a mut Heuristics,
    /// 0 for the main thread.
    pub(crate) id: usize,
    unflushed: u64,
    stopped: bool,
    /// The depth of the iteration being searched (0 outside [`Worker::begin_iteration`]).
    depth_now: i32,
    /// Set with `stopped` when another thread completed `depth_now` first: the
    /// iteration is abandoned, not the search.
    superseded: bool,
    path: SearchPath<G>,
    pv: Vec<[Option<MoveOf<G>>; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    /// Set when the repetition rule changed a result in the subtree being searched (a
    /// banned move or a third occurrence): such a result depends on the path to it, so
    /// neither the node nor any ancestor stores it in the table.
    rep_affected: bool,
    /// The root moves, best first after each iteration.
    pub(crate) root_moves: Vec<MoveOf<G>>,
    /// What the evaluation keeps along the path (the network's sums).
    scratch: K::Scratch,
}

/// What the table says of a node.
enum Probe<G: SearchGeometry> {
    /// A score that ends the node.
    Cut(i32),
    /// The node's move from the table, where there is one and it is legal here.
    Move(Option<MoveOf<G>>),
}

impl<'a, G: SearchGeometry, K: Knowledge<G>> Worker<'a, G, K> {
    /// A worker over the shared state, with its own heuristics.
    pub(crate) fn new(
        shared: &'a Shared<G, K>,
        heur: &'a mut Heuristics,
        id: usize,
        stop: &'a AtomicBool,
    ) -> Worker<'a, G, K> {
        let path = shared.path.clone();
        Worker {
            shared,
            stop,
            heur,
            id,
            unflushed: 0,
            stopped: false,
            depth_now: 0,
            superseded: false,
            path,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            rep_affected: false,
            root_moves: Vec::new(),
            scratch: K::Scratch::default(),
        }
    }

    /// True once the search was told to stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The state the threads share.
    pub(crate) fn shared(&self) -> &'a Shared<G, K> {
        self.shared
    }

    /// Moves `mv` to the front of the root moves (a best move another thread found).
    pub(crate) fn put_first(&mut self, mv: Option<MoveOf<G>>) {
        if let Some(i) = mv.and_then(|m| self.root_moves.iter().position(|&r| r == m)) {
            let m = self.root_moves.remove(i);
            self.root_moves.insert(0, m);
        }
    }

    /// Starts an iteration of `depth`.
    pub(crate) fn begin_iteration(&mut self, depth: i32) {
        self.depth_now = depth;
    }

    /// True when the iteration stopped only because another thread completed its depth
    /// first; the worker then goes on with the next.
    pub(crate) fn take_superseded(&mut self) -> bool {
        let s = self.superseded;
        if s {
            self.superseded = false;
            self.stopped = false;
        }
        s
    }

    /// Adds the nodes not yet counted to the shared count.
    pub(crate) fn flush(&mut self) {
        self.flush_nodes();
    }

    /// The search features in force.
    pub(crate) fn features(&self) -> super::Features {
        self.shared.features
    }

    /// True once the soft time budget is spent.
    pub(crate) fn soft_expired(&self) -> bool {
        self.shared.plan.soft_expired()
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        if self.unflushed >= POLL_INTERVAL {
            self.flush_nodes();
            self.poll();
        }
    }

    /// Checks the stop flags, the hard deadline and the node limit.
    fn poll(&mut self) {
        let s = self.shared;
        if s.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id == 0 {
            let over_nodes = s
                .node_limit
                .is_some_and(|n| s.nodes.load(Ordering::Relaxed) + self.unflushed >= n);
            if over_nodes || s.plan.hard_expired() {
                s.abort.store(true, Ordering::Relaxed);
                self.stopped = true;
                return;
            }
        }
        // Another thread completed this iteration's depth: this one is abandoned.
        if s.race && self.depth_now > 0 && s.deepest.depth() >= self.depth_now {
            self.stopped = true;
            self.superseded = true;
        }
    }

    fn update_pv(&mut self, ply: usize, mv: MoveOf<G>) {
        let child_len = self.pv_len.get(ply + 1).copied().unwrap_or(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let (Some(row), Some(child)) = (head.get_mut(ply), tail.first()) else {
            return;
        };
        row[ply] = Some(mv);
        let end = child_len.min(MAX_PLY);
        if let (Some(dst), Some(src)) = (row.get_mut(ply + 1..end), child.get(ply + 1..end)) {
            dst.copy_from_slice(src);
        }
        if let Some(l) = self.pv_len.get_mut(ply) {
            *l = end.max(ply + 1);
        }
    }

    /// Searches the root to `depth` within (`alpha`, `beta`).
    pub(crate) fn search_root(
        &mut self,
        root: &PositionOf<G>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Iteration<G> {
        if let Some(l) = self.pv_len.get_mut(0) {
            *l = 0;
        }
        let mut best_score = -INFINITE;
        let mut best_index = 0;
        let mut pv = Vec::new();
        let moves = self.root_moves.clone();
        let defer = self.shared.busy.on() && depth > DEFER_DEPTH;
        // The root moves by index, those another thread was searching appended again.
        let mut order: Vec<(usize, bool)> = (0..moves.len()).map(|i| (i, false)).collect();
        let mut k = 0;
        while let Some(&(i, was_deferred)) = order.get(k) {
            k += 1;
            let Some(&mv) = moves.get(i) else { break };
            let mut child = *root;
            let captured = child.make_move(mv, &self.shared.rules);
            let key = child.hash();
            if defer && i > 0 && !was_deferred && self.shared.busy.is_busy(key) {
                order.push((i, true));
                continue;
            }
            self.count_node();
            // The root moves are the game's legal moves: none is banned.
            let verdict = self.path.judge(0, root, mv, captured, &child);
            let score =
                if let Some((s, _)) = self.decided(&child, mv.to, root.to_move(), verdict, 1) {
                    s
                } else {
                    self.path.push(1, &child, captured.any());
                    let mark = defer && i > 0;
                    if mark {
                        self.shared.busy.enter(key);
                    }
                    let mut s;
                    if i == 0 {
                        s = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, true);
                    } else {
                        s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, false, true);
                        if s > alpha && s < beta && !self.stopped {
                            s = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, true);
                        }
                    }
                    if mark {
                        self.shared.busy.leave(key);
                    }
                    s
                };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = i;
                if score > alpha {
                    self.update_pv(0, mv);
                    pv = self.current_pv();
                    if let Some(p) = pv.first_mut() {
                        *p = mv;
                    } else {
                        pv.push(mv);
                    }
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if best_index > 0 {
            let mv = self.root_moves.remove(best_index);
            self.root_moves.insert(0, mv);
        }
        if pv.is_empty()
            && let Some(&mv) = self.root_moves.first()
        {
            pv.push(mv);
        }
        Iteration {
            score: best_score,
            pv,
        }
    }

    fn current_pv(&self) -> Vec<MoveOf<G>> {
        let len = self.pv_len.first().copied().unwrap_or(0);
        self.pv
            .first()
            .map(|row| row.iter().take(len).map_while(|m| *m).collect())
            .unwrap_or_default()
    }

    /// Whether the move limit has drawn the game `ply` plies below the root.
    #[inline]
    fn at_move_limit(&self, ply: usize) -> bool {
        self.shared.limit_ply.is_some_and(|l| ply >= l)
    }

    /// What the move to `to` that led to `child` decides ([`outcome`]), as a score for
    /// the mover `us` with `ply_after` the ply it leads to; `None` while the game goes on.
    /// The lack of a legal move is left to the child's own search, except on the ply the
    /// move limit ends the game. The flag says that the score depends on the path (the
    /// repetition rule, the move limit), so that the nodes above stay out of the table.
    #[inline]
    fn decided(
        &self,
        child: &PositionOf<G>,
        to: SquareOf<G>,
        us: Role,
        verdict: Verdict,
        ply_after: usize,
    ) -> Option<(i32, bool)> {
        let at_limit = self.at_move_limit(ply_after);
        let status = outcome(&self.shared.rules, child, to, verdict, at_limit, || {
            !at_limit || self.shared.know.has_move(child.board(), child.to_move())
        });
        let mate = MATE - ply_after as i32;
        match status {
            Status::Ongoing => None,
            Status::Over(Outcome {
                winner: Some(winner),
                reason,
            }) => Some((
                if winner == us { mate } else { -mate },
                matches!(reason, Reason::Repetition | Reason::NoMoves),
            )),
            Status::Over(Outcome { winner: None, .. }) => Some((0, true)),
        }
    }

    /// The exact score of a node the move limit ends or whose every move reaches it, for
    /// its side to move; `None` further from the limit.
    #[inline]
    fn near_move_limit(&mut self, pos: &PositionOf<G>, ply: usize) -> Option<i32> {
        if !self.at_move_limit(ply + 1) {
            return None;
        }
        Some(if self.at_move_limit(ply) {
            self.move_limit_score(pos, ply)
        } else {
            self.last_ply_score(pos, ply)
        })
    }

    /// The score of a position the move limit has drawn, for its side to move: a draw,
    /// unless the rules test the limit after the lack of a move (Copenhagen) and there is
    /// none. The score depends on the distance to the root, so the nodes above are kept
    /// out of the table as for the repetition rule.
    fn move_limit_score(&mut self, pos: &PositionOf<G>, ply: usize) -> i32 {
        self.rep_affected = true;
        if !self.shared.rules.referee.move_limit_first()
            && !self.shared.know.has_move(pos.board(), pos.to_move())
        {
            return -(MATE - ply as i32);
        }
        0
    }

    /// The exact score of a position whose every move reaches the move limit: the best of
    /// its moves' decided scores and of the limit's verdict after them (no legal move: a
    /// loss). The escape and capture threats, the quiescence search and the evaluation
    /// mean nothing when the next ply ends the game.
    fn last_ply_score(&mut self, pos: &PositionOf<G>, ply: usize) -> i32 {
        self.rep_affected = true;
        let us = pos.to_move();
        let mut list = MoveListOf::new();
        self.shared.know.generate(pos.board(), us, &mut list);
        let mut best = -(MATE - ply as i32);
        for &mv in list.iter() {
            let mut child = *pos;
            let captured = child.make_move(mv, &self.shared.rules);
            let verdict = self.path.judge(ply, pos, mv, captured, &child);
            if verdict == Verdict::Banned {
                continue;
            }
            // On the limit's ply every move decides the game.
            if let Some((s, _)) = self.decided(&child, mv.to, us, verdict, ply + 1) {
                best = best.max(s);
            }
        }
        best
    }

    #[inline]
    fn eval(&mut self, pos: &PositionOf<G>, ply: usize) -> i32 {
        self.shared
            .know
            .evaluate(pos, &mut self.scratch, ply)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The alpha-beta search below the root, in stages: the node's exact verdicts (wins in
    /// one, the escape threat), the table, the prunings before the moves
    /// ([`pruning`](super::pruning)), then the moves ([`Worker::search_moves`]).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &PositionOf<G>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> i32 {
        if let Some(l) = self.pv_len.get_mut(ply) {
            *l = ply;
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(s) = self.near_move_limit(pos, ply) {
            return s;
        }
        let board = pos.board();
        let us = pos.to_move();
        if self.wins_in_one(board, us) {
            return MATE - (ply as i32 + 1);
        }
        // Mate distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - (ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        let Some(blocks) = self.escape_blocks(board, us) else {
            return -(MATE - (ply as i32 + 2));
        };
        let sharp = blocks.any();

        if ply >= MAX_PLY - 2 {
            return self.eval(pos, ply);
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }

        let key = pos.hash();
        let hash_move = match self.probe(pos, key, depth, alpha, beta, ply, pv_node) {
            Probe::Cut(s) => return s,
            Probe::Move(m) => m,
        };

        let features = self.shared.features;
        let depth = pruning::iir_depth(&features, depth, hash_move.is_some(), sharp);
        // Near a quiet win (an escape, a fort or an encirclement) or a threat the
        // evaluation misses what a move or two decide: no pruning there.
        let shared = self.shared;
        let know = &shared.know;
        let calm = pruning::prunable(&features, depth, sharp, pv_node)
            && !know.quiet_win_near(board)
            && !know.threat_in_one(board, us);
        let beta_heuristic = beta.abs() < MATE_BOUND;
        let static_eval = if pruning::wants_eval(calm, us, beta_heuristic) {
            self.eval(pos, ply)
        } else {
            -INFINITE
        };
        let node = Node {
            us,
            depth,
            calm,
            static_eval,
            beta_heuristic,
        };
        if pruning::reverse_futility(&features, &node, beta) {
            return static_eval;
        }
        if let Some(r) = pruning::null_move(&features, &node, beta, null_ok, || {
            board.soldiers(us).count()
        }) && let Some(s) = self.null_move_search(pos, depth - 1 - r, beta, ply)
        {
            return s;
        }

        let mut list = MoveListOf::new();
        self.shared.know.generate(board, us, &mut list);
        if list.is_empty() {
            return -(MATE - ply as i32);
        }
        if sharp {
            list.retain(|m| blocks.contains(m.to));
            if list.is_empty() {
                return -(MATE - (ply as i32 + 2));
            }
        }
        let info = NodeInfo {
            hash_move,
            blocks,
            ply,
        };
        let window = (alpha, beta);
        self.search_moves(pos, &node, list, info, window, pv_node, key)
    }

    /// Whether the side to move wins in one, exactly: the defenders with the king on a
    /// free line to an escape square, the attackers able to close the king's last side.
    #[inline]
    fn wins_in_one(&self, board: &BoardOf<G>, us: Role) -> bool {
        match us {
            Role::Defender => self.shared.know.escape_lines(board) > 0,
            Role::Attacker => self.shared.know.king_capturable(board),
        }
    }

    /// The escape threat the attackers to move face: the squares that block the king's
    /// one free line (empty where there is none), or `None` when they cannot stop an
    /// escape (two lines, or one they cannot block), a loss in two.
    #[inline]
    fn escape_blocks(&self, board: &BoardOf<G>, us: Role) -> Option<BitboardOf<G>> {
        let know = &self.shared.know;
        if us != Role::Attacker || !know.forcing() {
            return Some(BitboardOf::EMPTY);
        }
        match know.escape_lines(board) {
            0 => Some(BitboardOf::EMPTY),
            1 => Some(know.escape_blocks(board)).filter(|b| b.any()),
            _ => None,
        }
    }

    /// The table's word on a node: a score that cuts it (not in PV nodes, and only from
    /// a search as deep), else its move where it is legal here.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn probe(
        &self,
        pos: &PositionOf<G>,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> Probe<G> {
        let Some(e) = self.shared.tt.probe::<G>(key) else {
            return Probe::Move(None);
        };
        if !pv_node && e.depth >= depth {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Probe::Cut(s);
            }
        }
        Probe::Move(e.mv.filter(|&m| pos.check_move(m, &self.shared.rules).is_ok()))
    }

    /// The null move: the attackers pass and the defenders' reply is searched `depth`
    /// deep with a null window at beta; `Some` with the node's score when that fails
    /// high (or the search stopped), `None` to search the moves.
    #[inline]
    fn null_move_search(
        &mut self,
        pos: &PositionOf<G>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let child = PositionOf::new(*pos.board(), pos.to_move().opponent());
        self.path.push(ply + 1, &child, true);
        let s = -self.negamax(&child, depth, -beta, -beta + 1, ply + 1, false, false);
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// A node's moves, in the picker's order with the moves another thread is searching
    /// put off to the end ([`Deferral`]), each judged by the rules, pruned, reduced and
    /// searched ([`Worker::score_move`]); stores the node's result in the table unless
    /// the path decided it.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &PositionOf<G>,
        node: &Node,
        list: MoveListOf<G>,
        info: NodeInfo<G>,
        (alpha, beta): (i32, i32),
        pv_node: bool,
        key: u64,
    ) -> i32 {
        let shared = self.shared;
        let features = shared.features;
        let board = pos.board();
        let (us, depth) = (node.us, node.depth);
        let (ply, hash_move, sharp) = (info.ply, info.hash_move, info.blocks.any());
        let mut picker = Picker::new(board, us, list, info, &shared.know);
        let mut path_dependent = false;
        let mut legal = 0usize;
        let mut best = Best::new(-INFINITE, alpha);
        let mut quiets = TriedQuiets::new();
        // Whether the repetition rule touches the moves' subtrees (the flag of the
        // subtrees searched before, the siblings' and the null move's, is kept aside).
        let outer_rep = std::mem::replace(&mut self.rep_affected, false);
        let king = board.king();
        // With other threads searching, a move whose position another thread is inside
        // is left for last (not the first move: its subtree bounds the others').
        let defer = shared.busy.on() && depth >= DEFER_DEPTH;
        let mut deferral = Deferral::new(defer);
        // The moves not banned so far in the picker's order: a move's rank there, not
        // when it is searched, decides its reduction, so that a deferred move is reduced
        // as it would have been in its place.
        let mut picked = 0usize;
        while let Some((mv, order, deferred_rank)) =
            next_move(&mut picker, &mut deferral, self.heur)
        {
            let kind = MoveKind {
                rank: deferred_rank.unwrap_or(picked + 1),
                tactical: is_tactical(order),
                king: mv.from == king,
            };
            if pruning::late_move_pruned(&features, node, &kind, best.score <= -MATE_BOUND) {
                continue;
            }
            let mut child = *pos;
            let captured = child.make_move(mv, &shared.rules);
            let verdict = self.path.judge(ply, pos, mv, captured, &child);
            if verdict == Verdict::Banned {
                path_dependent = true;
                continue;
            }
            if deferred_rank.is_none() {
                picked += 1;
            }
            let child_key = child.hash();
            if deferred_rank.is_none()
                && kind.rank > 1
                && deferral.has_room()
                && shared.busy.is_busy(child_key)
            {
                deferral.put_off(mv, order, kind.rank);
                continue;
            }
            legal += 1;
            let mark = (defer && kind.rank > 1).then_some(child_key);
            let played = Played {
                mv,
                captured,
                verdict,
                kind,
                mark,
            };
            let (score, by_path) = self.score_move(
                &child,
                node,
                played,
                &features,
                ply,
                (best.alpha, beta),
                pv_node,
                sharp,
            );
            path_dependent |= by_path;
            if self.stopped {
                return 0;
            }
            if best.update(score, mv) {
                if pv_node {
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    if captured.is_empty() {
                        self.heur.cutoff(us, ply, mv, depth, quiets.iter());
                    }
                    break;
                }
            }
            if captured.is_empty() {
                quiets.push(mv);
            }
        }

        let path_dependent = path_dependent || self.rep_affected;
        self.rep_affected = outer_rep || path_dependent;
        if legal == 0 {
            // Every move is banned by the repetition rule: no legal move, a loss.
            return -(MATE - ply as i32);
        }
        if !path_dependent {
            let bound = best.bound(alpha, beta);
            let mv = best.mv.or(hash_move);
            shared
                .tt
                .store(key, mv, to_tt(best.score, ply), depth, bound);
        }
        best.score
    }

    /// The score of a move just played (`child`) and whether the path decided it: exact
    /// where the rules end the game there, else searched at the reduction its kind, the
    /// node and its history give, with the child marked busy for the other threads
    /// while it is searched where `played.mark` says so.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn score_move(
        &mut self,
        child: &PositionOf<G>,
        node: &Node,
        played: Played<G>,
        features: &super::Features,
        ply: usize,
        window: (i32, i32),
        pv_node: bool,
        sharp: bool,
    ) -> (i32, bool) {
        let (mv, kind) = (played.mv, &played.kind);
        if let Some(decided) = self.decided(child, mv.to, node.us, played.verdict, ply + 1) {
            return decided;
        }
        let busy = &self.shared.busy;
        if let Some(key) = played.mark {
            busy.enter(key);
        }
        self.path.push(ply + 1, child, played.captured.any());
        let quiet = played.captured.is_empty() && !kind.tactical && !kind.king;
        let heur = &self.heur;
        let reduction =
            pruning::reduction(features, node.depth, kind, quiet, sharp, pv_node, || {
                heur.history(node.us, mv)
            });
        let s = self.search_child(child, ply + 1, node.depth, reduction, window, kind, pv_node);
        if let Some(key) = played.mark {
            busy.leave(key);
        }
        (s, false)
    }

    /// One move's subtree by principal variation search: the first move with the full
    /// window, the others with a null window at `reduction` plies less, searched again at
    /// full depth where a reduced search beats alpha and with the full window where a
    /// null-window one falls inside it at a PV node.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &PositionOf<G>,
        ply: usize,
        depth: i32,
        reduction: i32,
        (alpha, beta): (i32, i32),
        kind: &MoveKind,
        pv_node: bool,
    ) -> i32 {
        if kind.rank == 1 {
            return -self.negamax(child, depth - 1, -beta, -alpha, ply, pv_node, true);
        }
        let mut s = -self.negamax(
            child,
            depth - 1 - reduction,
            -alpha - 1,
            -alpha,
            ply,
            false,
            true,
        );
        if s > alpha && reduction > 0 && !self.stopped {
            s = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply, false, true);
        }
        if s > alpha && s < beta && pv_node && !self.stopped {
            s = -self.negamax(child, depth - 1, -beta, -alpha, ply, true, true);
        }
        s
    }

    /// The quiescence search: the escape threats resolved. The defenders may stand pat
    /// or play a king move onto a free line to a corner (Hnefatafl's check); the
    /// attackers facing such a line may only block it. `qply` counts the plies spent
    /// here.
    fn qsearch(&mut self, pos: &PositionOf<G>, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.qsearch_inner(pos, alpha.max(-INFINITE), beta, ply, 0)
    }

    fn qsearch_inner(
        &mut self,
        pos: &PositionOf<G>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(s) = self.near_move_limit(pos, ply) {
            return s;
        }
        let board = pos.board();
        let shared = self.shared;
        let know = &shared.know;
        match pos.to_move() {
            Role::Defender => {
                if know.escape_lines(board) > 0 {
                    return MATE - (ply as i32 + 1);
                }
                let features = self.shared.features;
                let stand = self.eval(pos, ply);
                if stand >= beta
                    || qply >= QPLY_LIMIT
                    || ply >= MAX_PLY - 4
                    || !(features.qsearch_checks || features.qsearch_captures)
                {
                    return stand;
                }
                let best = stand;
                alpha = alpha.max(stand);
                let mut list = MoveListOf::new();
                if features.qsearch_checks {
                    know.escape_threats(board, &mut list);
                }
                if features.qsearch_captures && qply < QCAPTURE_PLIES {
                    capture::capture_moves(board, Role::Defender, &self.shared.rules, &mut list);
                }
                self.qsearch_children(pos, &list, alpha, beta, ply, qply, best)
            }
            Role::Attacker => {
                if know.king_capturable(board) {
                    return MATE - (ply as i32 + 1);
                }
                let lines = if know.forcing() {
                    know.escape_lines(board)
                } else {
                    0
                };
                if ply >= MAX_PLY - 2 {
                    return self.eval(pos, ply);
                }
                if lines == 0 {
                    let stand = self.eval(pos, ply);
                    if stand >= beta
                        || !self.shared.features.qsearch_captures
                        || qply >= QCAPTURE_PLIES
                    {
                        return stand;
                    }
                    let mut list = MoveListOf::new();
                    capture::capture_moves(board, Role::Attacker, &self.shared.rules, &mut list);
                    let alpha = alpha.max(stand);
                    return self.qsearch_children(pos, &list, alpha, beta, ply, qply, stand);
                }
                let blocks = know.escape_blocks(board);
                if lines >= 2 || blocks.is_empty() {
                    return -(MATE - (ply as i32 + 2));
                }
                let mut list = MoveListOf::new();
                know.generate(board, Role::Attacker, &mut list);
                list.retain(|m| blocks.contains(m.to));
                let best = -(MATE - (ply as i32 + 2));
                self.qsearch_children(pos, &list, alpha, beta, ply, qply, best)
            }
        }
    }

    /// Scores the quiescence moves `moves` of `pos` (a move that wins scores as a win at
    /// once; the others are searched further) and returns the best of `best` and their
    /// scores, with a beta cutoff, under the repetition rule.
    #[allow(clippy::too_many_arguments)]
    fn qsearch_children(
        &mut self,
        pos: &PositionOf<G>,
        moves: &[MoveOf<G>],
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        mut best: i32,
    ) -> i32 {
        let us = pos.to_move();
        for &mv in moves {
            let mut child = *pos;
            let captured = child.make_move(mv, &self.shared.rules);
            let verdict = self.path.judge(ply, pos, mv, captured, &child);
            if verdict == Verdict::Banned {
                self.rep_affected = true;
                continue;
            }
            let s = if let Some((s, by_path)) = self.decided(&child, mv.to, us, verdict, ply + 1) {
                self.rep_affected |= by_path;
                s
            } else {
                self.path.push(ply + 1, &child, captured.any());
                -self.qsearch_inner(&child, -beta, -alpha, ply + 1, qply + 1)
            };
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A node's next move: the picker's next, then the moves put off, with the rank a put-off
/// move had in the picker's order.
#[inline(always)]
fn next_move<G: SearchGeometry, K: Knowledge<G>>(
    picker: &mut Picker<'_, G, K>,
    deferral: &mut Deferral<MoveOf<G>>,
    heur: &Heuristics,
) -> Option<(MoveOf<G>, i32, Option<usize>)> {
    match picker.pick(heur) {
        Some((mv, order)) => Some((mv, order, None)),
        None => deferral
            .next()
            .map(|(mv, order, rank)| (mv, order, Some(rank))),
    }
}

/// A move a node has played and judged, as [`Worker::score_move`] scores it.
#[derive(Clone, Copy)]
struct Played<G: SearchGeometry> {
    mv: MoveOf<G>,
    captured: BitboardOf<G>,
    verdict: Verdict,
    kind: MoveKind,
    /// The child's key, to mark busy while it is searched, where moves are deferred.
    mark: Option<u64>,
}

pub(crate) fn nps(nodes: u64, start: Instant) -> u64 {
    let us = start.elapsed().as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}
