//! The search's pruning and reduction rules: which nodes and moves the tree search cuts
//! or searches shallower, as decisions over what a node knows. The tree search
//! (`alphabeta`) asks them; the searches they call for stay there.
//!
//! Each rule is switchable ([`Features`]) so that its worth is measured in matches.

use crate::core::role::Role;

use super::Features;
use super::ordering::HISTORY_LIMIT;

/// Reverse futility pruning: the deepest node it acts at, and the margin per ply
/// (about one attacker's worth).
const RFP_DEPTH: i32 = 4;
const RFP_MARGIN: i32 = 70;
/// Late-move pruning acts at this depth and below.
const LMP_DEPTH: i32 = 3;
/// Internal iterative reduction acts at this depth and above.
const IIR_DEPTH: i32 = 4;
/// The history score worth one ply of late-move reduction: half the history's bound, so
/// at most two plies either way.
const HISTORY_PER_PLY: i32 = HISTORY_LIMIT / 2;

/// The number of moves searched at a shallow calm node before its late quiet moves are
/// pruned: Copenhagen positions have 60 to 100 moves, so the counts are larger than a
/// chess engine's.
#[inline]
fn lmp_count(depth: i32) -> usize {
    (8 + 4 * depth * depth) as usize
}

/// The late-move reduction for the `moves`-th move at `depth`, from the logarithms of
/// both (the shape chess engines use).
#[inline]
fn log_reduction(depth: i32, moves: usize) -> i32 {
    let d = f64::from(depth.max(1)).ln();
    let m = (moves.max(1) as f64).ln();
    (0.5 + d * m / 2.5) as i32
}

/// Internal iterative reduction: without a move from the table the ordering is poor, so
/// the node is searched a ply shallower; the next iteration comes back with the move this
/// one stores. Not where a block is forced (few moves, all tried).
#[inline]
pub(super) fn iir_depth(features: &Features, depth: i32, hash_move: bool, sharp: bool) -> i32 {
    if features.iir && !hash_move && !sharp && depth >= IIR_DEPTH {
        depth - 1
    } else {
        depth
    }
}

/// Whether a node may be pruned at all, before the (costlier) look at its threats: not
/// where a block is forced, not in a PV node, and only where a pruning rule is on at its
/// depth.
#[inline]
pub(super) fn prunable(features: &Features, depth: i32, sharp: bool, pv_node: bool) -> bool {
    !sharp
        && !pv_node
        && (features.null_move
            || ((features.reverse_futility || features.late_move_pruning)
                && depth <= RFP_DEPTH.max(LMP_DEPTH)))
}

/// What a node before its moves tells the pruning rules.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The side to move.
    pub(crate) us: Role,
    /// The remaining depth.
    pub(crate) depth: i32,
    /// Prunable and with no quiet win or threat near: the evaluation can be trusted.
    pub(crate) calm: bool,
    /// The static evaluation where a pruning reads it (see [`wants_eval`]).
    pub(crate) static_eval: i32,
    /// Beta is a heuristic score, not a win or a loss.
    pub(crate) beta_heuristic: bool,
}

/// Whether the node's static evaluation is read: only where a pruning below reads it (it
/// is a large share of a node's cost; the search itself scores only leaves).
#[inline]
pub(super) fn wants_eval(calm: bool, us: Role, beta_heuristic: bool) -> bool {
    calm && us == Role::Attacker && beta_heuristic
}

/// Reverse futility: an evaluation this far above beta at a shallow node of the
/// attackers is taken as a cut-off without searching. At the defenders' nodes it would
/// cut the replies to a quiet encirclement, which no evaluation sees coming.
#[inline]
pub(super) fn reverse_futility(features: &Features, n: &Node, beta: i32) -> bool {
    features.reverse_futility
        && n.calm
        && n.us == Role::Attacker
        && n.depth <= RFP_DEPTH
        && n.beta_heuristic
        && n.static_eval - RFP_MARGIN * n.depth >= beta
}

/// The null move's depth reduction, where it is tried: for the attackers only (the
/// defenders' threats, escapes, are seen exactly; the attackers' quiet threats,
/// encirclements, are not, so a defender pass would hide them), not when forced, not in
/// PV nodes, and only with a margin of pieces (`soldiers`) so that zugzwang stays
/// unlikely.
#[inline]
pub(super) fn null_move(
    features: &Features,
    n: &Node,
    beta: i32,
    null_ok: bool,
    soldiers: impl FnOnce() -> u32,
) -> Option<i32> {
    (features.null_move
        && n.us == Role::Attacker
        && null_ok
        && n.calm
        && n.depth >= 3
        && n.static_eval >= beta
        && n.beta_heuristic
        && soldiers() >= 4)
        .then_some(2 + n.depth / 4)
}

/// What the move rules read of one move.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoveKind {
    /// Its rank in the picker's order (1 the first).
    pub(crate) rank: usize,
    /// Its ordering score marks it tactical.
    pub(crate) tactical: bool,
    /// A king move.
    pub(crate) king: bool,
}

/// Late-move pruning: at a shallow calm node of the defenders, the quiet moves ordered
/// late (the attackers' late quiet moves are where encirclements hide); `best_lost` while
/// every move so far loses.
#[inline]
pub(super) fn late_move_pruned(
    features: &Features,
    n: &Node,
    m: &MoveKind,
    best_lost: bool,
) -> bool {
    features.late_move_pruning
        && n.calm
        && n.us == Role::Defender
        && n.depth <= LMP_DEPTH
        && m.rank > lmp_count(n.depth)
        && !m.tactical
        && !m.king
        && !best_lost
}

/// The late-move reduction of a move that captured nothing (`quiet` also excludes
/// tactical and king moves: king moves make the threats, escapes and forts, and are never
/// reduced); `history` gives the move's history score where it is read.
#[inline]
pub(super) fn reduction(
    features: &Features,
    depth: i32,
    m: &MoveKind,
    quiet: bool,
    sharp: bool,
    pv_node: bool,
    history: impl FnOnce() -> i32,
) -> i32 {
    if !(features.lmr && quiet && !sharp && depth >= 3 && m.rank > if pv_node { 5 } else { 3 }) {
        return 0;
    }
    let reduction = if features.log_reductions {
        log_reduction(depth, m.rank) - i32::from(pv_node)
    } else {
        1 + i32::from(depth >= 6 && m.rank > 12)
    };
    let reduction = reduction.clamp(1, depth - 2);
    if features.history_reductions {
        (reduction - history() / HISTORY_PER_PLY).clamp(0, depth - 2)
    } else {
        reduction
    }
}
