//! Move ordering: the hash move, captures, king moves that open lines to corners, moves
//! that block the king's lines, killers and the history heuristic.

use crate::core::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::capture;
use crate::core::movegen::slides;
use crate::core::moves::{MAX_MOVES, Move, MoveList};
use crate::core::role::{ByRole, Role};
use crate::core::rules::RuleSet;
use crate::core::square::NUM_SQUARES;

/// Maximum search ply the per-ply tables cover.
pub const MAX_PLY: usize = 128;

const HASH_MOVE: i32 = 1 << 30;
const WIN_MOVE: i32 = 1 << 29;
const CAPTURE: i32 = 1 << 26;
const CORNER_LINE: i32 = 1 << 25;
const BLOCK: i32 = 1 << 25;
const KILLER_1: i32 = 1 << 24;
const KILLER_2: i32 = (1 << 24) - 1;
const NEAR_KING: i32 = 1 << 20;

/// History and killer tables of one search thread.
#[derive(Clone)]
pub struct Heuristics {
    history: ByRole<Vec<i32>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            history: ByRole::new_with(|_| vec![0; NUM_SQUARES * NUM_SQUARES]),
            killers: [[None; 2]; MAX_PLY + 1],
        }
    }
}

#[inline(always)]
fn hidx(mv: Move) -> usize {
    mv.from.index() * NUM_SQUARES + mv.to.index()
}

impl Heuristics {
    /// Forgets everything.
    pub fn clear(&mut self) {
        for role in Role::ALL {
            self.history.get_mut(role).iter_mut().for_each(|h| *h = 0);
        }
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Ages the history between searches and clears the killers.
    pub fn new_search(&mut self) {
        for role in Role::ALL {
            self.history.get_mut(role).iter_mut().for_each(|h| *h /= 8);
        }
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// The killers of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a quiet move that caused a cut-off, and penalises the quiet moves tried
    /// before it.
    #[inline]
    pub fn cutoff(&mut self, role: Role, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(mv)
        {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.update(role, mv, bonus);
        for &m in tried {
            if m != mv {
                self.update(role, m, -bonus);
            }
        }
    }

    #[inline(always)]
    fn update(&mut self, role: Role, mv: Move, bonus: i32) {
        if let Some(h) = self.history.get_mut(role).get_mut(hidx(mv)) {
            *h += bonus - *h * bonus.abs() / 16384;
        }
    }

    /// The history score of a move.
    #[inline(always)]
    pub fn history(&self, role: Role, mv: Move) -> i32 {
        self.history.get(role).get(hidx(mv)).copied().unwrap_or(0)
    }
}

/// What the ordering needs to know about a node.
pub struct NodeInfo {
    /// The hash move.
    pub hash_move: Option<Move>,
    /// Squares on the king's free lines to corners (blocking squares).
    pub blocks: Bitboard,
    /// The ply.
    pub ply: usize,
}

/// Moves with their ordering scores, picked best first. The hash move comes first
/// without scoring the others: it is searched before they are scored, so where it cuts
/// off no other move is scored, and where it does not, they are scored with the history
/// its subtree has just updated.
pub struct Picker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    board: Board,
    role: Role,
    node: NodeInfo,
    scored: bool,
}

/// A move's ordering class, used by the reductions.
#[inline]
pub fn is_tactical(score: i32) -> bool {
    score >= NEAR_KING
}

impl Picker {
    /// The moves of `role` on `board`, to be picked in order.
    pub fn new(board: &Board, role: Role, moves: MoveList, node: NodeInfo) -> Picker {
        Picker {
            moves,
            scores: [0; MAX_MOVES],
            next: 0,
            board: *board,
            role,
            node,
            scored: false,
        }
    }

    /// Scores the moves not yet picked (the hash move, if any, is picked already).
    fn score(&mut self, h: &Heuristics) {
        self.scored = true;
        let (board, role, node) = (&self.board, self.role, &self.node);
        let killers = h.killers(node.ply);
        let king = board.king();
        let occ = board.occupied();
        let around_king = board.king_bb().neighbours();
        // Copenhagen's hostile squares: every rule set the search plays has them, and a
        // score needs no more.
        let capturing = capture::custodial_squares(board, role, &RuleSet::COPENHAGEN);
        // The squares where a soldier's move gets more than its history and killer
        // scores; most moves land elsewhere and skip the tests below.
        let marked = capturing
            | node.blocks
            | if role == Role::Attacker {
                around_king
            } else {
                Bitboard::EMPTY
            };
        let killer_bonus = |mv: Move| {
            if Some(mv) == killers[0] {
                KILLER_1
            } else if Some(mv) == killers[1] {
                KILLER_2
            } else {
                0
            }
        };
        let unpicked = self
            .moves
            .iter()
            .zip(self.scores.iter_mut())
            .skip(self.next);
        for (&mv, slot) in unpicked {
            let mut s;
            if mv.from != king && !marked.contains(mv.to) {
                s = h.history(role, mv) + killer_bonus(mv);
            } else if mv.from == king && mv.to.is_corner() {
                s = WIN_MOVE;
            } else {
                s = h.history(role, mv);
                let killer = killer_bonus(mv);
                let caps = if capturing.contains(mv.to) {
                    capture::custodial(board, role, mv.to, &RuleSet::COPENHAGEN).count() as i32
                } else {
                    0
                };
                if caps > 0 {
                    s += CAPTURE * caps.min(3) / 2 + CAPTURE / 2;
                } else if mv.from == king {
                    let occ2 = occ ^ board.king_bb();
                    let lines = slides(mv.to, occ2) & Bitboard::CORNERS;
                    if lines.any() {
                        s += CORNER_LINE;
                    }
                } else if node.blocks.contains(mv.to) {
                    s += BLOCK;
                } else if killer > 0 {
                    s += killer;
                } else if role == Role::Attacker && around_king.contains(mv.to) {
                    s += NEAR_KING;
                }
            }
            *slot = s;
        }
    }

    /// The next best move and its ordering score (`h` scores the moves after the hash
    /// move).
    #[inline]
    pub fn pick(&mut self, h: &Heuristics) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if !self.scored {
            if self.next == 0
                && let Some(mv) = self.node.hash_move
                && let Some(i) = self.moves.iter().position(|&x| x == mv)
            {
                self.moves.as_mut_slice().swap(0, i);
                self.next = 1;
                return Some((mv, HASH_MOVE));
            }
            self.score(h);
        }
        let scores = &mut self.scores[..n];
        // The first of the best scores, found in two passes: the maximum (a loop the
        // compiler vectorises) and then where it first stands.
        let rest = &scores[self.next..];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        scores.swap(self.next, best);
        let moves = self.moves.as_mut_slice();
        moves.swap(self.next, best);
        let r = (moves[self.next], scores[self.next]);
        self.next += 1;
        Some(r)
    }
}
