//! Mobile King (defenders, Algorithm 10): bring the king into play at once and fight with
//! him before the attackers close the exits. In order: until the king has left the
//! throne, move him as far as he can go if that is at least three squares, else clear a
//! way for him; move the king to an exit castle if he can reach one; if the attackers
//! could capture the king, block them; move the king closer to an exit castle that is
//! not barricaded; capture soldiers, with the king when he can; else a random move.
//!
//! Decided where the paper is silent:
//! - "clear the way" is the soldier move that opens the king's way most, safe ones
//!   first: the one after which his longest move is longest, then that leaves the fewest
//!   defenders on the three squares along each line from him, then that gives those
//!   defenders the most moves (so that the next move can take them off his lines). It
//!   must open the way more than it is now; when no move does, the step passes;
//! - the king's longest move from the throne is chosen among the longest at random, a
//!   square where he cannot be captured at once first;
//! - the king's way to an exit never ends where he can be captured at once; when no king
//!   move comes closer, the step passes;
//! - captures: the king's first, then the most soldiers, safe ones first.
//!
//! [`leave_throne`] is shared with King's Guard.

use crate::core::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::rng::SplitMix64;
use crate::core::role::Role;
use crate::core::square::Direction;

use super::vocabulary::{
    Turn, distance, king_reach, lowest_by, pick, pick_preferring, random_move,
};

/// How far the king must be able to go for his first move.
const FIRST_KING_MOVE: u8 = 3;

/// Until the king has left the throne: his longest move when it is long enough, else the
/// soldier move that opens the longest way for him.
pub(crate) fn leave_throne(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if turn.king_has_left_throne() {
        return None;
    }
    let king = turn.king();
    let longest = lowest_by(&turn.king_moves(), |mv| {
        std::cmp::Reverse(distance(mv.from, mv.to))
    });
    if longest
        .first()
        .is_some_and(|mv| distance(mv.from, mv.to) >= FIRST_KING_MOVE)
    {
        return pick_preferring(rng, &longest, |mv| turn.is_safe(mv));
    }
    let now = clearance(turn.board());
    let opening =
        turn.filter(|t, mv| mv.from != king && clearance(t.try_move(mv).after.board()) > now);
    let widest = lowest_by(&opening, |mv| {
        std::cmp::Reverse(clearance(turn.try_move(mv).after.board()))
    });
    pick_preferring(rng, &widest, |mv| turn.is_safe(mv))
}

/// How open the king's way off the throne is, compared in order: his longest move; fewer
/// defenders on the squares he needs for a first move of three (up to three squares
/// along each line from him); more moves for the defenders standing there.
fn clearance(board: &Board) -> (u8, std::cmp::Reverse<u32>, usize) {
    let king = board.king();
    let mut lane = Bitboard::EMPTY;
    for d in Direction::ALL {
        let mut sq = king;
        for _ in 0..FIRST_KING_MOVE {
            let Some(next) = sq.step(d) else { break };
            lane.insert(next);
            sq = next;
        }
    }
    let blockers = lane & board.defenders();
    // A heuristic count: Copenhagen's squares, which every 11x11 rule set shares.
    let freedom = Position::new(*board, Role::Defender)
        .legal_moves(&crate::core::rules::RuleSet::COPENHAGEN)
        .iter()
        .filter(|mv| blockers.contains(mv.from))
        .count();
    (
        king_reach(board),
        std::cmp::Reverse(blockers.count()),
        freedom,
    )
}

/// Mobile King's move.
pub(crate) fn choose(turn: &Turn, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(mv) = leave_throne(turn, rng) {
        return Some(mv);
    }
    if let Some(mv) = pick(rng, &turn.winning_moves()) {
        return Some(mv);
    }
    if turn.opponent_threatens_win()
        && let Some(mv) = turn.block_win_threat(rng)
    {
        return Some(mv);
    }
    if let Some(mv) = turn.king_towards_open_exit(rng, |_| 0) {
        return Some(mv);
    }
    let king = turn.king();
    let captures = turn.best_captures();
    let by_king: Vec<Move> = captures
        .iter()
        .copied()
        .filter(|m| m.from == king)
        .collect();
    let chosen = if by_king.is_empty() {
        captures
    } else {
        by_king
    };
    if let Some(mv) = pick_preferring(rng, &chosen, |mv| turn.is_safe(mv)) {
        return Some(mv);
    }
    random_move(rng, &turn.moves)
}
