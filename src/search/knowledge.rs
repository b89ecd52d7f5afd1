//! What the search knows of the rules beyond the core's judge: how it lists moves, the
//! escape and capture threats its exact shortcuts read, and the evaluation. One
//! alpha-beta ([`alphabeta`](super::alphabeta)) is monomorphised per board size over
//! [`Knowledge`]; [`RulesKnowledge`] is what it knows of any board under any rule set hnefi
//! models: the rules-aware core functions, the rules' [`Threats`], the hand-written
//! evaluation ([`eval`](super::eval)) and the board's network where it applies
//! ([`networks`](super::networks)).

use std::sync::Arc;

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::geometry::Geometry;
use crate::core::movegen;
use crate::core::moves::MoveListOf;
use crate::core::position::PositionOf;
use crate::core::repetition::RepetitionMode;
use crate::core::role::Role;
use crate::core::rules::RuleSet;

use super::accumulator::AccumulatorStackOf;
use super::eval::{Evaluator, for_mover};
use super::network::NetworkOf;
use super::terms::Weights;
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
    /// position, which an attacker move may make, draws or wins for them).
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

/// The search of any board under any rule set: the core's rules-aware move generation,
/// the [`Threats`] of the rules and the hand-written [`Evaluator`], with the correction of
/// the board's network where it applies (its sums kept along the search's path,
/// [`AccumulatorStackOf`]).
pub(crate) struct RulesKnowledge<G: Geometry> {
    threats: Threats<G>,
    evaluator: Evaluator<G>,
    net: Option<Arc<NetworkOf<G>>>,
    /// Whether the search reads the attackers' king captures.
    king_threats: KingThreats,
    /// No repetition verdict can take an attacker's king capture away.
    capture_stands: bool,
}

/// Whether the search reads the attackers' threats to capture the king (see
/// [`Knowledge::king_capturable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KingThreats {
    /// It reads them.
    Read,
    /// It does not: the search of 11x11 under Copenhagen's squares, king and escape
    /// never did (its own test of them was always false), and reading them changes its
    /// play, which a self-play match must judge before it does.
    Ignored,
}

impl<G: Geometry> RulesKnowledge<G> {
    /// The knowledge of `rules` with the weights `w` and the network `net`.
    pub(crate) fn new(
        rules: &RuleSet,
        w: &Weights,
        net: Option<Arc<NetworkOf<G>>>,
        king_threats: KingThreats,
    ) -> RulesKnowledge<G> {
        let threats = Threats::new(rules);
        RulesKnowledge {
            evaluator: Evaluator::new(&threats, w),
            threats,
            net,
            king_threats,
            // Only a rule that bans attacker moves (any-repeat-illegal) can forbid the
            // capturing move; a verdict that loses or draws comes after the win.
            capture_stands: rules.repetition != RepetitionMode::AnyRepeatIllegal,
        }
    }
}

impl<G: Geometry> RulesKnowledge<G> {
    /// True when an attacker move captures the king now, where the search reads such
    /// threats.
    #[inline(always)]
    fn king_threat(&self, board: &BoardOf<G>) -> bool {
        self.king_threats == KingThreats::Read && self.threats.king_capture(board).is_some()
    }
}

/// See [`Knowledge::forcing`]: false where the third occurrence of a position draws or
/// wins for the side that makes it (an attacker move may end the game so).
fn forcing(rules: &RuleSet) -> bool {
    !matches!(
        rules.repetition,
        RepetitionMode::ThirdOccurrenceDraws | RepetitionMode::ThirdOccurrenceMoverWins
    )
}

impl<G: Geometry> Knowledge<G> for RulesKnowledge<G> {
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
        self.capture_stands && self.king_threat(board)
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
        match us {
            Role::Defender => self.king_threat(board),
            Role::Attacker => self.threats.threat_in_one(board, us),
        }
    }
    #[inline(always)]
    fn escape_threats(&self, board: &BoardOf<G>, list: &mut MoveListOf<G>) {
        self.threats.escape_threats(board, list);
    }
    // Out of line on purpose: inlined into the node loop and the quiescence search it
    // made the search run more instructions, not fewer (docs/experiments.md, session 46).
    #[inline(never)]
    fn evaluate(&self, pos: &PositionOf<G>, stack: &mut AccumulatorStackOf<G>, ply: usize) -> i32 {
        let hand = self.evaluator.score(pos);
        let side = pos.to_move();
        let Some(net) = &self.net else {
            return for_mover(side, hand);
        };
        // The correction is the defenders', as the hand-written score.
        for_mover(side, hand + stack.correction(net, ply, pos.board(), side))
    }
}
