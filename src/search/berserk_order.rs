//! Move ordering of the Berserk search (`super::berserk`): the table's move, the king's
//! moves to a corner, likely captures (most first), killers, moves of the attackers next
//! to the king, then the history heuristic. The scores are estimates made on the board
//! before the move, so that no move is played before it is picked: a cut-off after the
//! first moves plays no other.

use crate::core::berserk_position::{BerserkPositionOf, BerserkRules};
use crate::core::bitboard::BitboardOf;
use crate::core::capture;
use crate::core::geometry::Geometry;
use crate::core::movegen::slides;
use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::role::Role;
use crate::core::special_pieces::PieceKind;

use super::ordering::Heuristics;

const HASH_MOVE: i32 = 1 << 30;
const ESCAPE: i32 = 1 << 29;
const CAPTURE: i32 = 1 << 26;
const KILLER_1: i32 = 1 << 24;
const KILLER_2: i32 = (1 << 24) - 1;
const NEAR_KING: i32 = 1 << 20;

/// A picked move, with what its ordering read from the board: whether it may capture (a
/// knight's jump, a destination where a custodial capture closes, an attacker beside the
/// king) and whether the reductions must spare it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked<G: Geometry> {
    pub(crate) mv: MoveOf<G>,
    /// It may capture: the quiescence plays only these (and then keeps the real ones).
    pub(crate) capture: bool,
    /// A table move, king move, capture, killer or move beside the king: never reduced.
    pub(crate) tactical: bool,
}

/// The moves of one node, picked best first.
pub(crate) struct BerserkPicker<G: Geometry> {
    moves: MoveListOf<G>,
    scores: Vec<i32>,
    captures: Vec<bool>,
    tactical: Vec<bool>,
    next: usize,
}

impl<G: Geometry> BerserkPicker<G> {
    /// The legal moves of `pos`, scored; `escapes` are the squares where the king wins.
    pub(crate) fn new(
        pos: &BerserkPositionOf<G>,
        rules: &BerserkRules,
        escapes: BitboardOf<G>,
        hash_move: Option<MoveOf<G>>,
        h: &Heuristics,
        ply: usize,
    ) -> BerserkPicker<G> {
        let moves = pos.legal_moves(rules);
        let board = pos.board();
        let role = pos.to_move();
        let king = board.king();
        let occ = board.occupied();
        let near_king = if role == Role::Attacker && !pos.king_taken() {
            board.king_bb().neighbours()
        } else {
            BitboardOf::EMPTY
        };
        let capturing = capture::custodial_squares(board, role, &rules.rules);
        let killers = h.killers::<G>(ply);
        let n = moves.as_slice().len();
        let mut scores = Vec::with_capacity(n);
        let mut captures = Vec::with_capacity(n);
        let mut tactical = Vec::with_capacity(n);
        for &mv in moves.as_slice() {
            let is_king = mv.from == king && !pos.king_taken();
            // A knight captures by jumping: a move that is not a slide is a jump.
            let knight_jump =
                pos.kind_at(mv.from) == PieceKind::Knight && !slides(mv.from, occ).contains(mv.to);
            let caps = if capturing.contains(mv.to) {
                capture::custodial(board, role, mv.to, &rules.rules).count() as i32
            } else {
                0
            } + i32::from(knight_jump);
            let beside_king = near_king.contains(mv.to);
            let killer = if Some(mv) == killers[0] {
                KILLER_1
            } else if Some(mv) == killers[1] {
                KILLER_2
            } else {
                0
            };
            let s = if Some(mv) == hash_move {
                HASH_MOVE
            } else if is_king && escapes.contains(mv.to) {
                ESCAPE
            } else if caps > 0 {
                CAPTURE * caps.min(3) / 2 + CAPTURE / 2
            } else if killer > 0 {
                killer
            } else if beside_king {
                NEAR_KING + h.history(role, mv)
            } else {
                h.history(role, mv)
            };
            scores.push(s);
            captures.push(caps > 0 || beside_king);
            tactical.push(s >= NEAR_KING || is_king || beside_king);
        }
        BerserkPicker {
            moves,
            scores,
            captures,
            tactical,
            next: 0,
        }
    }

    /// The next best move.
    pub(crate) fn pick(&mut self) -> Option<Picked<G>> {
        let rest = self.scores.get(self.next..)?;
        let top = rest.iter().copied().max()?;
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        let at = self.next;
        self.scores.swap(at, best);
        self.captures.swap(at, best);
        self.tactical.swap(at, best);
        self.moves.as_mut_slice().swap(at, best);
        self.next += 1;
        Some(Picked {
            mv: *self.moves.as_slice().get(at)?,
            capture: self.captures.get(at).copied().unwrap_or(true),
            tactical: self.tactical.get(at).copied().unwrap_or(true),
        })
    }
}
