//! What the search knows of the rules beyond the core's judge: how it lists moves, the
//! escape and capture threats its exact shortcuts read, and the evaluation. One
//! alpha-beta ([`alphabeta`](super::alphabeta)) is monomorphised per board size and per
//! knowledge: [`Copenhagen11`], the 11x11 search under Copenhagen's squares, king and
//! escape with its fast hand-tuned functions and the learned network, and [`AnyRules`],
//! any board under any rule set hnefi models, with the rules-aware core functions, the
//! hand-written evaluation and the board's own network where it has one.

use std::sync::Arc;

use crate::core::bitboard::{Bitboard, BitboardOf};
use crate::core::board::{Board, BoardOf};
use crate::core::geometry::{Geometry, S11};
use crate::core::movegen;
use crate::core::moves::{Move, MoveList, MoveListOf};
use crate::core::position::{Position, PositionOf};
use crate::core::repetition::RepetitionMode;
use crate::core::role::Role;
use crate::core::rules::RuleSet;

use super::accumulator::{AccumulatorStack, AccumulatorStackOf};
use super::eval::{self, Evaluator, Weights};
use super::general;
use super::network::{Network, NetworkOf};
use super::threats::Threats;

/// The rule-dependent parts of the search on boards of geometry `G`.
pub(crate) trait Knowledge<G: Geometry>: Send + Sync {
    /// What one search thread keeps for the evaluation.
    type Scratch: Default + Send;

    /// The rules the move ordering scores captures with.
    fn capture_rules(&self) -> &RuleSet;
    /// The squares where the king escapes.
    fn escape_squares(&self) -> BitboardOf<G>;
    /// Appends every move of `role` under the rules to `list` (repetition not considered).
    fn generate(&self, board: &BoardOf<G>, role: Role, list: &mut MoveListOf<G>);
    /// True when `role` has a move under the rules.
    fn has_move(&self, board: &BoardOf<G>, role: Role) -> bool;
    /// The escape squares the king can move to now.
    fn escape_lines(&self, board: &BoardOf<G>) -> u32;
    /// The squares where an attacker blocks every line of the king to an escape square.
    fn escape_blocks(&self, board: &BoardOf<G>) -> BitboardOf<G>;
    /// True when an attacker move captures the king now, and that move's win stands
    /// whatever the repetition rule says of it.
    fn king_capturable(&self, board: &BoardOf<G>) -> bool;
    /// True when the attackers facing an escape line lose unless they block it: no move
    /// of theirs can end the game otherwise (false where the third occurrence of a
    /// position draws, which an attacker move may make).
    fn forcing(&self) -> bool;
    /// True when a quiet win is near (no pruning there).
    fn quiet_win_near(&self, board: &BoardOf<G>) -> bool;
    /// True when the side not to move threatens to win next move if `us` passed.
    fn threat_in_one(&self, board: &BoardOf<G>, us: Role) -> bool;
    /// Appends the king moves onto a free line to an escape square to `list`.
    fn escape_threats(&self, board: &BoardOf<G>, list: &mut MoveListOf<G>);
    /// The evaluation of `pos` for the side to move, at `ply` of a search.
    fn evaluate(&self, pos: &PositionOf<G>, scratch: &mut Self::Scratch, ply: usize) -> i32;
}

/// The search of 11x11 under Copenhagen's squares, king and escape (whatever its
/// repetition rule, referee, forts and encirclement: copenhagen, hnefatafl-org, fetlar):
/// the functions of [`eval`](super::eval), written for it, and the learned network.
pub(crate) struct Copenhagen11 {
    evaluator: Evaluator,
    /// See [`Knowledge::forcing`].
    forcing: bool,
}

impl Copenhagen11 {
    /// The knowledge of `rules` with the weights `w` and the network `net`.
    pub(crate) fn new(rules: &RuleSet, w: &Weights, net: Option<Arc<Network>>) -> Copenhagen11 {
        Copenhagen11 {
            evaluator: Evaluator::new(w).with_network(net),
            forcing: forcing(rules),
        }
    }
}

/// See [`Knowledge::forcing`]: false where the third occurrence of a position draws.
fn forcing(rules: &RuleSet) -> bool {
    rules.repetition != RepetitionMode::ThirdOccurrenceDraws
}

impl Knowledge<S11> for Copenhagen11 {
    type Scratch = AccumulatorStack;

    #[inline(always)]
    fn capture_rules(&self) -> &RuleSet {
        // Copenhagen's hostile squares: every rule set this search plays has them, and a
        // score needs no more.
        &RuleSet::COPENHAGEN
    }
    #[inline(always)]
    fn escape_squares(&self) -> Bitboard {
        Bitboard::CORNERS
    }
    #[inline(always)]
    fn generate(&self, board: &Board, role: Role, list: &mut MoveList) {
        movegen::generate(board, role, list);
    }
    #[inline(always)]
    fn has_move(&self, board: &Board, role: Role) -> bool {
        movegen::has_move(board, role)
    }
    #[inline(always)]
    fn escape_lines(&self, board: &Board) -> u32 {
        eval::escape_lines(board)
    }
    #[inline(always)]
    fn escape_blocks(&self, board: &Board) -> Bitboard {
        eval::escape_blocks(board)
    }
    #[inline(always)]
    fn king_capturable(&self, board: &Board) -> bool {
        eval::king_capturable(board)
    }
    #[inline(always)]
    fn forcing(&self) -> bool {
        self.forcing
    }
    #[inline(always)]
    fn quiet_win_near(&self, board: &Board) -> bool {
        eval::quiet_win_near(board)
    }
    #[inline(always)]
    fn threat_in_one(&self, board: &Board, us: Role) -> bool {
        eval::threat_in_one(board, us)
    }
    #[inline(always)]
    fn escape_threats(&self, board: &Board, list: &mut MoveList) {
        let king = board.king();
        let occ_nk = board.occupied() ^ board.king_bb();
        for to in movegen::slides(king, board.occupied()) {
            // Only king moves that open a free line to a corner.
            if !(movegen::slides(to, occ_nk) & Bitboard::CORNERS).is_empty() {
                list.push(Move { from: king, to });
            }
        }
    }
    #[inline(always)]
    fn evaluate(&self, pos: &Position, scratch: &mut AccumulatorStack, ply: usize) -> i32 {
        eval::evaluate_in_search(pos, &self.evaluator, scratch, ply)
    }
}

/// The search of any board under any rule set: the core's rules-aware move generation,
/// the [`Threats`] of the rules and the hand-written evaluation of [`general`], with the
/// correction of the board's network if it has one (kept along the search's path as the
/// Copenhagen search keeps its own, [`AccumulatorStackOf`]).
pub(crate) struct AnyRules<G: Geometry> {
    threats: Threats<G>,
    weights: Weights,
    net: Option<Arc<NetworkOf<G>>>,
    /// No repetition verdict can take an attacker's king capture away.
    capture_stands: bool,
}

impl<G: Geometry> AnyRules<G> {
    /// The knowledge of `rules` with the weights `w` and the network `net`.
    pub(crate) fn new(rules: &RuleSet, w: &Weights, net: Option<Arc<NetworkOf<G>>>) -> AnyRules<G> {
        AnyRules {
            threats: Threats::new(rules),
            weights: *w,
            net,
            // Only a rule that bans attacker moves (any-repeat-illegal) can forbid the
            // capturing move; a verdict that loses or draws comes after the win.
            capture_stands: rules.repetition != RepetitionMode::AnyRepeatIllegal,
        }
    }
}

impl<G: Geometry> Knowledge<G> for AnyRules<G> {
    type Scratch = AccumulatorStackOf<G>;

    #[inline(always)]
    fn capture_rules(&self) -> &RuleSet {
        &self.threats.rules
    }
    #[inline(always)]
    fn escape_squares(&self) -> BitboardOf<G> {
        self.threats.escapes
    }
    #[inline(always)]
    fn generate(&self, board: &BoardOf<G>, role: Role, list: &mut MoveListOf<G>) {
        movegen::generate_under(board, role, &self.threats.rules, list);
    }
    #[inline(always)]
    fn has_move(&self, board: &BoardOf<G>, role: Role) -> bool {
        movegen::has_move_under(board, role, &self.threats.rules)
    }
    #[inline(always)]
    fn escape_lines(&self, board: &BoardOf<G>) -> u32 {
        self.threats.escape_lines(board)
    }
    #[inline(always)]
    fn escape_blocks(&self, board: &BoardOf<G>) -> BitboardOf<G> {
        self.threats.escape_blocks(board)
    }
    #[inline(always)]
    fn king_capturable(&self, board: &BoardOf<G>) -> bool {
        self.capture_stands && self.threats.king_capture(board).is_some()
    }
    #[inline(always)]
    fn forcing(&self) -> bool {
        forcing(&self.threats.rules)
    }
    #[inline(always)]
    fn quiet_win_near(&self, board: &BoardOf<G>) -> bool {
        self.threats.quiet_win_near(board)
    }
    #[inline(always)]
    fn threat_in_one(&self, board: &BoardOf<G>, us: Role) -> bool {
        self.threats.threat_in_one(board, us)
    }
    #[inline(always)]
    fn escape_threats(&self, board: &BoardOf<G>, list: &mut MoveListOf<G>) {
        self.threats.escape_threats(board, list);
    }
    #[inline(always)]
    fn evaluate(&self, pos: &PositionOf<G>, stack: &mut AccumulatorStackOf<G>, ply: usize) -> i32 {
        let hand = general::evaluate(pos, &self.threats, &self.weights);
        let Some(net) = &self.net else {
            return hand;
        };
        // The correction is the defenders'; the evaluation the mover's.
        let side = pos.to_move();
        let correction = stack.correction(net, ply, pos.board(), side);
        match side {
            Role::Defender => hand + correction,
            Role::Attacker => hand - correction,
        }
    }
}
