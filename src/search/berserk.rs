//! The search of Berserk games (docs/RULES.md section 17.10; hnefi's Berserk game is
//! `core::berserk_game`): iterative deepening over a negamax principal variation search
//! with a transposition table, one thread. Moves are picked lazily, best first
//! (`super::berserk_order`: the table's move, the king's escapes, likely captures,
//! killers and history), and late quiet moves are searched one or two plies shallower
//! first. Time is the ordinary search's plan (`super::timeman`). The king's threat is
//! read at every node, past the horizon too: the defenders to move with a corner in
//! the king's reach win at once, and the attackers facing that threat may not stand pat
//! (a quiet line that ends there is not quiet).
//!
//! Every move is a ply, a berserk continuation too. The score of a node is for its side
//! to move; a child's score is negated only when the move passed the turn: after a move
//! that continues a berserk turn the same side is to move, and the child's score is
//! already the mover's (its window is the parent's, not negated). A berserk turn in
//! progress is never cut at the horizon: its continuations are searched until the turn
//! passes (it ends after at most a few captures), and captures are searched past the
//! horizon (quiescence), where standing pat is allowed only when no turn continues.
//!
//! The table is the ordinary search's ([`Table`]), a Berserk move being a move of the
//! board like any other; its key is the position's full hash (`BerserkPositionOf::hash`:
//! the pieces with their kinds, the side to move, the berserker's square, the commanders
//! that have not moved). The scores are the ordinary search's too ([`MATE`] for a win at
//! the root, [`MATE_BOUND`] past which a score is a win or a loss), stored as found
//! (a win's distance is from the root, not from the stored node). The repetition rule (`tfr`) is judged at every node from the game's keys and
//! the path's, as the game judges it.
//!
//! The evaluation is the hand-written one of the ordinary rule sets ([`super::eval`]) on
//! the board, where commanders and knights are soldiers of their side (so each counts as
//! an attacker or a defender), plus a bonus for each commander and knight
//! ([`COMMANDER`], [`KNIGHT`]): they jump, a knight captures by jumping, and only
//! commanders take the strong king.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::berserk_position::{BerserkPositionOf, BerserkRules};
use crate::core::bitboard::BitboardOf;
use crate::core::geometry::Geometry;
use crate::core::judge::berserk_outcome;
use crate::core::moves::MoveOf;
use crate::core::outcome::Status;
use crate::core::position::PositionOf;
use crate::core::role::Role;

use super::alphabeta::{INFINITE, MATE, MATE_BOUND, POLL_INTERVAL};
use super::berserk_order::BerserkPicker;
use super::driver::{MAX_DEPTH, score_of};
use super::eval::{Evaluator, for_mover};
use super::ordering::Heuristics;
use super::ply::MAX_PLY;
use super::terms::Weights;
use super::threats::Threats;
use super::timeman::TimePlan;
use super::tt::{Bound, Entry, Table};
use super::{Info, Limits, Score, SearchResult};

/// The bonus of a commander over an ordinary attacker, in centi-units.
pub(crate) const COMMANDER: i32 = 60;
/// The bonus of a knight over an ordinary defender, in centi-units.
pub(crate) const KNIGHT: i32 = 80;

/// The table's size in MiB: as many entries as the table of its own it had before it used
/// the ordinary search's (2^18).
const TABLE_MB: usize = 4;

/// Late-move reductions: from this depth, after this many moves searched in full.
const LMR_DEPTH: i32 = 3;
const LMR_MOVES: usize = 3;
/// How far past the horizon the attackers must still answer the king's threat to reach a
/// corner (every move of theirs searched): deeper, they may stand pat again.
const QS_THREAT_PLIES: i32 = 4;

/// A Berserk searcher: its table survives between searches of the same game.
#[derive(Debug)]
pub(crate) struct BerserkSearcher {
    table: Table,
    heuristics: Heuristics,
}

impl Default for BerserkSearcher {
    fn default() -> Self {
        BerserkSearcher::new(TABLE_MB)
    }
}

/// One search's state.
struct Run<'a, G: Geometry> {
    table: &'a Table,
    rules: &'a BerserkRules,
    eval: Evaluator<G>,
    heuristics: &'a mut Heuristics,
    /// The squares where the king, arriving, wins.
    escapes: BitboardOf<G>,
    /// The repetition keys of the game's positions and the path's.
    keys: Vec<u64>,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl BerserkSearcher {
    /// A searcher with a table of about `mb` MiB (at least one bucket).
    pub(crate) fn new(mb: usize) -> BerserkSearcher {
        BerserkSearcher {
            table: Table::new(mb),
            heuristics: Heuristics::default(),
        }
    }

    /// Forgets what earlier searches found.
    pub(crate) fn clear(&mut self) {
        self.table.clear();
        self.heuristics.clear();
    }

    /// Searches `pos` (the last of a game whose positions' repetition keys are `keys`,
    /// `pos`'s last; `mover` the side that made the last move) under `limits`, reporting
    /// each completed iteration to `report`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search<G: Geometry>(
        &mut self,
        pos: &BerserkPositionOf<G>,
        rules: &BerserkRules,
        keys: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<MoveOf<G>>),
    ) -> SearchResult<MoveOf<G>> {
        let plan = TimePlan::new(limits, Instant::now());
        let start = plan.start;
        let deadline = plan.hard.map(|t| start + t);
        self.table.new_search();
        self.heuristics.new_search::<G>();
        let threats = Threats::new(&rules.rules);
        let mut run = Run {
            table: &self.table,
            rules,
            eval: Evaluator::new(&threats, &Weights::default()),
            heuristics: &mut self.heuristics,
            escapes: threats.escapes,
            keys: keys.to_vec(),
            nodes: 0,
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            deadline,
            stop,
            aborted: false,
        };
        let moves = pos.legal_moves(rules);
        let mut result = SearchResult {
            best: moves.as_slice().first().copied(),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: moves.as_slice().first().copied().into_iter().collect(),
        };
        if moves.as_slice().len() <= 1 {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let (score, best) = run.root(pos, depth);
            if run.aborted {
                break;
            }
            let Some(best) = best else { break };
            let pv = run.pv(pos, best);
            result = SearchResult {
                best: Some(best),
                score: score_of(score),
                depth,
                nodes: run.nodes,
                pv,
            };
            let elapsed = start.elapsed();
            let ms = u64::try_from(elapsed.as_millis())
                .unwrap_or(u64::MAX)
                .max(1);
            report(&Info {
                depth,
                multipv: None,
                score: result.score,
                wdl: None,
                nodes: run.nodes,
                nps: run.nodes.saturating_mul(1000) / ms,
                time: elapsed,
                pv: result.pv.clone(),
            });
            if score.abs() >= MATE_BOUND {
                break;
            }
            if plan.soft_expired() {
                break;
            }
        }
        result.nodes = run.nodes;
        result
    }
}

impl<G: Geometry> Run<'_, G> {
    /// The table's entry for `key`; every entry stored here has a move.
    fn probe(&self, key: u64) -> Option<Entry<G>> {
        self.table.probe(key)
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, mv: MoveOf<G>) {
        self.table.store(key, Some(mv), score, depth, bound);
    }

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.max_nodes
            || (self.nodes.is_multiple_of(POLL_INTERVAL)
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The static score of `pos` for its side to move.
    fn evaluate(&self, pos: &BerserkPositionOf<G>) -> i32 {
        let b = pos.board();
        let mut s = self.eval.score(&PositionOf::new(*b, pos.to_move()));
        let sp = pos.specials();
        let attackers = b.attackers();
        let defenders = b.defenders_and_king();
        let special = |set: crate::core::bitboard::BitboardOf<G>, value: i32| {
            i32::try_from((set & defenders).count()).unwrap_or(0) * value
                - i32::try_from((set & attackers).count()).unwrap_or(0) * value
        };
        s += special(sp.commanders(), COMMANDER) + special(sp.knights(), KNIGHT);
        for_mover(pos.to_move(), s)
    }

    /// The game's verdict on `pos`, reached by a move of `mover`, for `pos`'s side to
    /// move; `None` while it goes on.
    fn verdict(&self, pos: &BerserkPositionOf<G>, mover: Role, ply: u32) -> Option<i32> {
        match berserk_outcome(pos, self.rules, &self.keys, Some(mover)) {
            Status::Ongoing => None,
            Status::Over(o) => Some(match o.winner {
                None => 0,
                Some(w) if w == pos.to_move() => MATE - ply as i32,
                Some(_) => -(MATE - ply as i32),
            }),
        }
    }

    /// The corners the king could reach in one move were his side to move.
    fn king_escapes(&self, pos: &BerserkPositionOf<G>) -> BitboardOf<G> {
        pos.king_targets(self.rules) & self.escapes
    }

    /// The score, for the defenders to move at `pos`, of the king's move to a corner when
    /// he has one: a win in one (played, so the game's own tests, repetition first, judge
    /// it). Read at every node, past the horizon too, so that no line ends with the king
    /// one move from a corner scored as a quiet position.
    fn escape_now(&mut self, pos: &BerserkPositionOf<G>, ply: u32) -> Option<i32> {
        if pos.to_move() != Role::Defender || pos.king_taken() {
            return None;
        }
        let king = pos.board().king();
        if pos.berserker().is_some_and(|b| b != king) {
            return None;
        }
        let corner = self.king_escapes(pos).into_iter().next()?;
        let mv = MoveOf::new(king, corner)?;
        let mut child = *pos;
        child.play(mv, self.rules);
        self.keys.push(child.repetition_key());
        let v = self.verdict(&child, Role::Defender, ply + 1);
        self.keys.pop();
        v.map(|v| {
            if child.to_move() == Role::Defender {
                v
            } else {
                -v
            }
        })
    }

    fn root(&mut self, pos: &BerserkPositionOf<G>, depth: u32) -> (i32, Option<MoveOf<G>>) {
        let key = pos.hash();
        let first = self.probe(key).and_then(|e| e.mv);
        let mut picker =
            BerserkPicker::new(pos, self.rules, self.escapes, first, self.heuristics, 0);
        let (mut alpha, beta) = (-INFINITE, INFINITE);
        let mut best = None;
        while let Some(p) = picker.pick() {
            let mut child = *pos;
            child.play(p.mv, self.rules);
            let d = depth as i32 - 1;
            let s = if best.is_none() {
                self.child(pos, &child, d, 1, alpha, beta)
            } else {
                let s = self.child(pos, &child, d, 1, alpha, alpha + 1);
                if s > alpha && !self.aborted {
                    self.child(pos, &child, d, 1, alpha, beta)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            if s > alpha || best.is_none() {
                alpha = alpha.max(s);
                best = Some(p.mv);
            }
        }
        if let (Some(mv), false) = (best, self.aborted) {
            self.store(key, depth as i32, alpha, Bound::Exact, mv);
        }
        (alpha, best)
    }

    /// The score of `child` (reached from `parent`) for `parent`'s side to move.
    fn child(
        &mut self,
        parent: &BerserkPositionOf<G>,
        child: &BerserkPositionOf<G>,
        depth: i32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.keys.push(child.repetition_key());
        let mover = parent.to_move();
        let s = if child.to_move() == mover {
            // A berserk continuation: the same side moves again.
            self.node(child, mover, depth, ply, alpha, beta)
        } else {
            -self.node(child, mover, depth, ply, -beta, -alpha)
        };
        self.keys.pop();
        s
    }

    fn node(
        &mut self,
        pos: &BerserkPositionOf<G>,
        mover: Role,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(v) = self.verdict(pos, mover, ply) {
            return v;
        }
        if let Some(v) = self.escape_now(pos, ply) {
            return v;
        }
        let us = pos.to_move();
        let continuing = pos.berserker().is_some();
        if ply as usize >= MAX_PLY {
            return self.evaluate(pos);
        }
        let quiet = depth <= 0;
        // The attackers facing the king one move from a corner must answer it: past the
        // horizon they may not stand pat, and every move of theirs is searched (a few
        // plies deep only, where the quiescence stays small).
        let threatened = us == Role::Attacker
            && !continuing
            && depth > -QS_THREAT_PLIES
            && self.king_escapes(pos).any();
        let mut best = -INFINITE;
        if quiet && !continuing && !threatened {
            // Standing pat: the side may decline every capture.
            best = self.evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let key = pos.hash();
        let entry = self.probe(key);
        // A position met before in the game or on the path is one of a cycle, whose
        // score the repetition rule makes depend on how it was reached (a third
        // occurrence wins for the side that makes it): it is searched, never read from
        // the table nor stored there.
        let repeated = self
            .keys
            .split_last()
            .is_some_and(|(k, earlier)| earlier.contains(k));
        if let Some(e) = entry
            && e.depth >= depth
            && !quiet
            && !repeated
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }
        let pv_node = beta - alpha > 1;
        let original_alpha = alpha;
        let mut best_move = None;
        let mut picker = BerserkPicker::new(
            pos,
            self.rules,
            self.escapes,
            entry.and_then(|e| e.mv),
            self.heuristics,
            ply as usize,
        );
        let everything = !quiet || continuing || threatened;
        let mut searched = 0usize;
        let mut quiets: Vec<MoveOf<G>> = Vec::new();
        while let Some(p) = picker.pick() {
            // Past the horizon only captures, a continuing turn's moves and the answers
            // to the king's threat; a capture the board only suggested is played first.
            if !everything && !p.capture {
                continue;
            }
            let mut child = *pos;
            let effect = child.play(p.mv, self.rules);
            let took = effect.taken.soldiers.any() || effect.taken.king;
            if !everything && !took {
                continue;
            }
            let passes = child.to_move() != us;
            let reducible = !quiet
                && !pv_node
                && depth >= LMR_DEPTH
                && searched >= LMR_MOVES
                && !p.tactical
                && !took
                && !continuing
                && !threatened
                && passes;
            let s = if searched == 0 {
                self.child(pos, &child, depth - 1, ply + 1, alpha, beta)
            } else {
                let r = if reducible {
                    1 + i32::from(searched >= LMR_MOVES * 3 && depth >= 6)
                } else {
                    0
                };
                let mut s = self.child(pos, &child, depth - 1 - r, ply + 1, alpha, alpha + 1);
                if s > alpha && r > 0 && !self.aborted {
                    s = self.child(pos, &child, depth - 1, ply + 1, alpha, alpha + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = self.child(pos, &child, depth - 1, ply + 1, alpha, beta);
                }
                s
            };
            if self.aborted {
                return 0;
            }
            searched += 1;
            if s > best {
                best = s;
                best_move = Some(p.mv);
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                if !took && !quiet {
                    self.heuristics
                        .cutoff(us, ply as usize, p.mv, depth, quiets.iter().copied());
                }
                break;
            }
            if !took {
                quiets.push(p.mv);
            }
        }
        if best == -INFINITE {
            // Only in quiescence mid-turn with no move, which the verdict rules out.
            return self.evaluate(pos);
        }
        if let (Some(mv), false) = (best_move, quiet || repeated) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(key, depth, best, bound, mv);
        }
        best
    }

    /// The principal variation from the table, starting with `best`.
    fn pv(&self, pos: &BerserkPositionOf<G>, best: MoveOf<G>) -> Vec<MoveOf<G>> {
        let mut pv = vec![best];
        let mut p = *pos;
        p.play(best, self.rules);
        let mut seen = vec![p.hash()];
        while pv.len() < 16 {
            let Some(mv) = self
                .probe(p.hash())
                .and_then(|e| e.mv)
                .filter(|&m| p.is_legal(m, self.rules))
            else {
                break;
            };
            p.play(mv, self.rules);
            if seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
            pv.push(mv);
        }
        pv
    }
}
