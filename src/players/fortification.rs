//! Fortification (defenders, Algorithm 8): play for the draw by building a fort the
//! attackers cannot break, then shuttle inside it for ever. In order: if a fort stands,
//! move inside it; else work on the first fort that can still be completed, trying the
//! northern, western, southern and eastern ones in that order; else a random move.
//!
//! The paper's sample fort (its Figure 6, whose drawing the text does not keep) is one
//! where the king moves between the throne and a neighbouring square for ever. This is
//! its form here, for the northern fort: the king on the throne f6 or on the hole f7,
//! defenders on e7, g7, f8 (around the hole) and e8, g8 (behind them). No attacker can
//! reach the hole, so the king can never be surrounded on four sides; each of the five
//! defenders has a defender or the king's hole on one side of each line through it, so
//! none can be captured. The western, southern and eastern forts are its rotations
//! around the throne.
//!
//! Decided where the paper is silent:
//! - a fort can be completed while no attacker stands on its squares or its hole, the
//!   king is on the throne or the hole, and five defenders are left;
//! - building: a defender in the hole moves onto an empty fort square, or, when it is
//!   walled in, a fort square next to the hole is vacated for it; then an empty fort
//!   square is filled by a defender that can reach it now, else a defender moves to a
//!   square from which it can reach one next move. Pieces already on fort squares stay,
//!   safe moves are preferred;
//! - when no fort can be completed, a random move after which the attackers cannot win
//!   at once, if there is one;
//! - inside a standing fort the king steps between the throne and the hole; when the
//!   repetition rule forbids it, another move that keeps the fort standing and leaves
//!   nothing capturable, if any, else one that keeps the fort; when every move opens the
//!   fort (the repetition rule can force that), one that leaves nothing capturable, else
//!   one after which the attackers cannot win at once, and the fort is rebuilt.

use crate::core::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::movegen;
use crate::core::moves::Move;
use crate::core::rng::SplitMix64;
use crate::core::square::{Direction, Square};

use super::vocabulary::{Turn, pick, pick_preferring, random_move, wins_at_once};

/// The defenders a fort needs.
const FORT_SIZE: u32 = 5;

/// One of the four forts around the throne.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fort {
    /// The square beside the throne the king steps to.
    pub hole: Square,
    /// The five squares its defenders hold.
    pub(crate) walls: Bitboard,
    /// The walls next to the hole.
    pub(crate) inner: Bitboard,
}

/// The directions in which the forts are tried: northern, western, southern, eastern.
const ORDER: [Direction; 4] = [
    Direction::North,
    Direction::West,
    Direction::South,
    Direction::East,
];

/// The two directions across `d`.
const fn across(d: Direction) -> [Direction; 2] {
    match d {
        Direction::North | Direction::South => [Direction::West, Direction::East],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    }
}

impl Fort {
    /// The fort that opens from the throne towards `d`.
    pub(crate) fn towards(d: Direction) -> Option<Fort> {
        let hole = Square::THRONE.step(d)?;
        let back = hole.step(d)?;
        let mut inner = Bitboard::from_square(back);
        let mut walls = inner;
        for side in across(d) {
            let beside = hole.step(side)?;
            inner.insert(beside);
            walls.insert(beside);
            walls.insert(back.step(side)?);
        }
        Some(Fort { hole, walls, inner })
    }

    /// The four forts, in the order they are tried.
    pub fn all() -> impl Iterator<Item = Fort> {
        ORDER.into_iter().filter_map(Fort::towards)
    }

    /// True when the fort stands: every wall a defender, the king on the throne or in
    /// the hole, and no defender in the hole.
    pub fn stands(&self, board: &Board) -> bool {
        (self.walls & !board.defenders()).is_empty()
            && self.king_home(board)
            && !board.defenders().contains(self.hole)
    }

    fn king_home(&self, board: &Board) -> bool {
        let king = board.king();
        king.is_throne() || king == self.hole
    }

    /// True while the fort can still be completed.
    pub(crate) fn completable(&self, board: &Board) -> bool {
        let mut ground = self.walls;
        ground.insert(self.hole);
        (ground & board.attackers()).is_empty()
            && self.king_home(board)
            && board.defenders().count() >= FORT_SIZE
    }

    /// A move that brings the fort closer to standing.
    fn build(&self, turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
        let board = turn.board();
        let empty_walls = self.walls & board.empty();
        let safe = |mv: Move| turn.is_safe(mv);
        if board.defenders().contains(self.hole) {
            let out = turn.filter(|_, mv| mv.from == self.hole && empty_walls.contains(mv.to));
            if let Some(mv) = pick(rng, &out) {
                return Some(mv);
            }
            let inner = self.inner & board.defenders();
            let room = turn.filter(|_, mv| inner.contains(mv.from) && empty_walls.contains(mv.to));
            let room = if room.is_empty() {
                turn.filter(|_, mv| inner.contains(mv.from))
            } else {
                room
            };
            if let Some(mv) = pick_preferring(rng, &room, safe) {
                return Some(mv);
            }
        }
        let staying = self.walls | Bitboard::from_square(self.hole) | board.king_bb();
        let free = turn.filter(|_, mv| !staying.contains(mv.from));
        let fill: Vec<Move> = free
            .iter()
            .copied()
            .filter(|mv| empty_walls.contains(mv.to))
            .collect();
        if let Some(mv) = pick_preferring(rng, &fill, safe) {
            return Some(mv);
        }
        let approach: Vec<Move> = free
            .into_iter()
            .filter(|&mv| {
                let after = turn.try_move(mv).after;
                let reach = movegen::slides(mv.to, after.board().occupied());
                (reach & empty_walls & after.board().empty()).any()
            })
            .collect();
        pick_preferring(rng, &approach, safe)
    }

    /// A move inside the standing fort.
    fn hold(&self, turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
        let king = turn.king();
        let other = if king == self.hole {
            Square::THRONE
        } else {
            self.hole
        };
        if let Some(mv) = Move::new(king, other).and_then(|mv| turn.legal(mv)) {
            return Some(mv);
        }
        let keeping = turn.filter(|t, mv| self.stands(t.try_move(mv).after.board()));
        let quiet = |moves: &[Move]| -> Vec<Move> {
            moves
                .iter()
                .copied()
                .filter(|&mv| turn.leaves_nothing_capturable(mv))
                .collect()
        };
        if let Some(mv) = pick(rng, &quiet(&keeping)).or_else(|| pick(rng, &keeping)) {
            return Some(mv);
        }
        // The fort must open for a move: the least harm, so that it can close again.
        let any = quiet(&turn.moves);
        let not_losing = turn.filter(|t, mv| !wins_at_once(&t.try_move(mv).after, &t.rules));
        pick(rng, &any).or_else(|| pick(rng, &not_losing))
    }
}

/// Fortification's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    let board = turn.board();
    if let Some(fort) = Fort::all().find(|f| f.stands(board)) {
        if let Some(mv) = fort.hold(turn, rng) {
            return Some(mv);
        }
    } else {
        for fort in Fort::all().filter(|f| f.completable(board)) {
            if let Some(mv) = fort.build(turn, rng) {
                return Some(mv);
            }
        }
    }
    let not_losing = turn.filter(|t, mv| !wins_at_once(&t.try_move(mv).after, &t.rules));
    random_move(rng, &not_losing).or_else(|| random_move(rng, &turn.moves))
}
