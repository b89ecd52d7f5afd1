//! Move ordering: the hash move, captures, king moves that open lines to corners, moves
//! that block the king's lines, killers and the history heuristic.

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::capture;
use crate::core::geometry::{Geometry, S11};
use crate::core::movegen::slides;
use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::role::{ByRole, Role};
use crate::core::square::SquareOf;

use super::boards::SearchGeometry;
use super::knowledge::Knowledge;
use super::ply::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const WIN_MOVE: i32 = 1 << 29;
const CAPTURE: i32 = 1 << 26;
const CORNER_LINE: i32 = 1 << 25;
const BLOCK: i32 = 1 << 25;
const KILLER_1: i32 = 1 << 24;
const KILLER_2: i32 = (1 << 24) - 1;
const NEAR_KING: i32 = 1 << 20;

/// A killer slot without a move.
const NO_KILLER: u32 = u32::MAX;
/// The bound of a history score, either way: the update's gravity keeps it inside.
pub(crate) const HISTORY_LIMIT: i32 = 16384;

/// History and killer tables of one search thread, for the board of the last search
/// (a search on another board size starts them afresh).
#[derive(Clone)]
pub(crate) struct Heuristics {
    /// Indexed by origin and destination, `NUM_SQUARES` squares a row.
    history: ByRole<Vec<i32>>,
    /// The squares of the board the tables are for.
    squares: usize,
    /// Each killer as its origin's and destination's indices (`from << 8 | to`), so that
    /// the tables outlive a search on any board.
    killers: [[u32; 2]; MAX_PLY + 1],
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::for_squares(S11::NUM_SQUARES)
    }
}

#[inline(always)]
fn hidx<G: Geometry>(mv: MoveOf<G>) -> usize {
    mv.from.index() * G::NUM_SQUARES + mv.to.index()
}

#[inline(always)]
fn killer_code<G: Geometry>(mv: MoveOf<G>) -> u32 {
    (mv.from.index() as u32) << 16 | mv.to.index() as u32
}

#[inline(always)]
fn killer_move<G: Geometry>(code: u32) -> Option<MoveOf<G>> {
    if code == NO_KILLER {
        return None;
    }
    Some(MoveOf {
        from: SquareOf::new((code >> 16) as usize)?,
        to: SquareOf::new((code & 0xffff) as usize)?,
    })
}

impl Heuristics {
    fn for_squares(squares: usize) -> Heuristics {
        Heuristics {
            history: ByRole::new_with(|_| vec![0; squares * squares]),
            squares,
            killers: [[NO_KILLER; 2]; MAX_PLY + 1],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        for role in Role::ALL {
            self.history.get_mut(role).iter_mut().for_each(|h| *h = 0);
        }
        self.killers = [[NO_KILLER; 2]; MAX_PLY + 1];
    }

    /// Ages the history between searches and clears the killers; a search on a board of
    /// another size than the last starts with empty tables of its size.
    pub(crate) fn new_search<G: Geometry>(&mut self) {
        if self.squares != G::NUM_SQUARES {
            *self = Heuristics::for_squares(G::NUM_SQUARES);
            return;
        }
        for role in Role::ALL {
            self.history.get_mut(role).iter_mut().for_each(|h| *h /= 8);
        }
        self.killers = [[NO_KILLER; 2]; MAX_PLY + 1];
    }

    /// The killers of a ply.
    #[inline]
    pub(crate) fn killers<G: Geometry>(&self, ply: usize) -> [Option<MoveOf<G>>; 2] {
        self.killers
            .get(ply)
            .map_or([None; 2], |k| k.map(killer_move))
    }

    /// Records a quiet move that caused a cut-off, and penalises the quiet moves tried
    /// before it.
    #[inline]
    pub(crate) fn cutoff<G: Geometry>(
        &mut self,
        role: Role,
        ply: usize,
        mv: MoveOf<G>,
        depth: i32,
        tried: impl IntoIterator<Item = MoveOf<G>>,
    ) {
        let code = killer_code(mv);
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != code
        {
            k[1] = k[0];
            k[0] = code;
        }
        let bonus = (depth * depth).min(400);
        self.update(role, mv, bonus);
        for m in tried {
            if m != mv {
                self.update(role, m, -bonus);
            }
        }
    }

    #[inline(always)]
    fn update<G: Geometry>(&mut self, role: Role, mv: MoveOf<G>, bonus: i32) {
        if let Some(h) = self.history.get_mut(role).get_mut(hidx(mv)) {
            *h += bonus - *h * bonus.abs() / HISTORY_LIMIT;
        }
    }

    /// The history score of a move.
    #[inline(always)]
    pub(crate) fn history<G: Geometry>(&self, role: Role, mv: MoveOf<G>) -> i32 {
        self.history.get(role).get(hidx(mv)).copied().unwrap_or(0)
    }
}

/// What the ordering needs to know about a node.
pub(crate) struct NodeInfo<G: Geometry> {
    /// The hash move.
    pub(crate) hash_move: Option<MoveOf<G>>,
    /// Squares on the king's free lines to where he escapes (blocking squares).
    pub(crate) blocks: BitboardOf<G>,
    /// The ply.
    pub(crate) ply: usize,
}

/// Moves with their ordering scores, picked best first. The hash move comes first
/// without scoring the others: it is searched before they are scored, so where it cuts
/// off no other move is scored, and where it does not, they are scored with the history
/// its subtree has just updated.
pub(crate) struct Picker<'k, G: SearchGeometry, K> {
    moves: MoveListOf<G>,
    scores: G::Scores,
    next: usize,
    board: BoardOf<G>,
    role: Role,
    node: NodeInfo<G>,
    scored: bool,
    know: &'k K,
}

/// A move's ordering class, used by the reductions.
#[inline]
pub(crate) fn is_tactical(score: i32) -> bool {
    score >= NEAR_KING
}

impl<'k, G: SearchGeometry, K: Knowledge<G>> Picker<'k, G, K> {
    /// The moves of `role` on `board`, to be picked in order, under what `know` knows of
    /// the rules.
    pub(crate) fn new(
        board: &BoardOf<G>,
        role: Role,
        moves: MoveListOf<G>,
        node: NodeInfo<G>,
        know: &'k K,
    ) -> Picker<'k, G, K> {
        Picker {
            moves,
            scores: G::ZERO_SCORES,
            next: 0,
            board: *board,
            role,
            node,
            scored: false,
            know,
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
        // The captures as the knowledge's rules make them (on the Copenhagen path,
        // Copenhagen's: every rule set it plays has its hostile squares, and a score
        // needs no more).
        let rules = self.know.capture_rules();
        let escapes = self.know.escape_squares();
        let capturing = capture::custodial_squares(board, role, rules);
        // The squares where a soldier's move gets more than its history and killer
        // scores; most moves land elsewhere and skip the tests below.
        let marked = capturing
            | node.blocks
            | if role == Role::Attacker {
                around_king
            } else {
                BitboardOf::EMPTY
            };
        let killer_bonus = |mv: MoveOf<G>| {
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
            .zip(self.scores.as_mut().iter_mut())
            .skip(self.next);
        for (&mv, slot) in unpicked {
            let mut s;
            if mv.from != king && !marked.contains(mv.to) {
                s = h.history(role, mv) + killer_bonus(mv);
            } else if mv.from == king && escapes.contains(mv.to) {
                s = WIN_MOVE;
            } else {
                s = h.history(role, mv);
                let killer = killer_bonus(mv);
                let caps = if capturing.contains(mv.to) {
                    capture::custodial(board, role, mv.to, rules).count() as i32
                } else {
                    0
                };
                if caps > 0 {
                    s += CAPTURE * caps.min(3) / 2 + CAPTURE / 2;
                } else if mv.from == king {
                    let occ2 = occ ^ board.king_bb();
                    let lines = slides(mv.to, occ2) & escapes;
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
    pub(crate) fn pick(&mut self, h: &Heuristics) -> Option<(MoveOf<G>, i32)> {
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
        let scores = self.scores.as_mut().get_mut(..n)?;
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
