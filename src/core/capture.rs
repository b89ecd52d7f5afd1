//! Captures: custodial captures, shield walls and the capture of the king
//! (docs/RULES.md sections 3 to 5).

use super::bitboard::Bitboard;
use super::board::Board;
use super::movegen::nearest_blockers;
use super::moves::{Move, MoveList};
use super::role::Role;
use super::square::Square;

/// The squares hostile to the soldiers of `victim`, per the table of docs/RULES.md section 3:
/// enemy pieces (the king included), empty corners and the empty throne.
#[inline(always)]
pub fn hostile_to(board: &Board, victim: Role) -> Bitboard {
    let empty_restricted = Bitboard::RESTRICTED & board.empty();
    match victim {
        // The king on the throne is hostile to attackers as a piece.
        Role::Attacker => board.defenders_and_king() | empty_restricted,
        Role::Defender => board.attackers() | empty_restricted,
    }
}

const NONE: u8 = 255;

/// `STEP[d][sq]`: the neighbour of `sq` in direction `d` (N, E, S, W), or 255 (also for
/// `sq` = 255, so that two steps can be chained without a check).
static STEP: [[u8; 256]; 4] = {
    let mut t = [[NONE; 256]; 4];
    let mut s = 0;
    while s < 121 {
        let (f, r) = (s % 11, s / 11);
        if r < 10 {
            t[0][s] = (s + 11) as u8;
        }
        if f < 10 {
            t[1][s] = (s + 1) as u8;
        }
        if r > 0 {
            t[2][s] = (s - 11) as u8;
        }
        if f > 0 {
            t[3][s] = (s - 1) as u8;
        }
        s += 1;
    }
    t
};

use super::bitboard::SQUARE_BITS as BIT;

/// `NEIGHBOURS[sq]`: the orthogonal neighbours of a square.
static NEIGHBOURS: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut s = 0;
    while s < 121 {
        let mut d = 0;
        while d < 4 {
            t[s] |= BIT[STEP[d][s] as usize];
            d += 1;
        }
        s += 1;
    }
    t
};

/// `EDGE_INFO[sq]`: for a non-corner edge square, its front direction and the two
/// directions along its edge, as indices in [`Direction::ALL`](super::square::Direction::ALL) order (N, E, S, W); `None`
/// elsewhere.
static EDGE_INFO: [Option<(u8, [u8; 2])>; 256] = {
    let mut t = [None; 256];
    let mut s = 0;
    while s < 121 {
        let (f, r) = (s % 11, s / 11);
        let corner = (f == 0 || f == 10) && (r == 0 || r == 10);
        if !corner {
            if r == 0 {
                t[s] = Some((0, [1, 3]));
            } else if r == 10 {
                t[s] = Some((2, [1, 3]));
            } else if f == 0 {
                t[s] = Some((1, [0, 2]));
            } else if f == 10 {
                t[s] = Some((3, [0, 2]));
            }
        }
        s += 1;
    }
    t
};

/// For a non-corner edge square: the index (in [`Direction::ALL`](super::square::Direction::ALL) order) of its front
/// direction, towards the centre, and of the two directions along its edge.
#[inline(always)]
pub(crate) fn edge_info(sq: Square) -> Option<(usize, [usize; 2])> {
    EDGE_INFO[sq.index()].map(|(f, [a, b])| (f as usize, [a as usize, b as usize]))
}

/// Soldiers captured custodially by the piece of `mover` that has just landed on `to`.
///
/// ```text
///  . X O X .    after an attacker lands on the right-hand X, O is captured
/// ```
#[inline(always)]
pub fn custodial(board: &Board, mover: Role, to: Square) -> Bitboard {
    let victim = mover.opponent();
    let targets = board.soldiers(victim).0;
    let t = to.index();
    if NEIGHBOURS[t] & targets == 0 {
        return Bitboard::EMPTY;
    }
    let hostile = hostile_to(board, victim).0;
    let mut captured = 0u128;
    for step in &STEP {
        let v = step[t] as usize;
        let w = step[v] as usize;
        if BIT[v] & targets != 0 && BIT[w] & hostile != 0 {
            captured |= BIT[v];
        }
    }
    Bitboard(captured)
}

/// The squares on which a piece of `mover` landing on `board` captures custodially
/// ([`custodial`] is not empty there): next to an enemy soldier that has a square hostile
/// to it on the far side.
#[inline]
pub fn custodial_squares(board: &Board, mover: Role) -> Bitboard {
    let victims = board.soldiers(mover.opponent());
    let hostile = hostile_to(board, mover.opponent());
    (victims & hostile.south()).south()
        | (victims & hostile.north()).north()
        | (victims & hostile.west()).west()
        | (victims & hostile.east()).east()
}

/// Appends to `list` every move of `role` that captures at least one soldier
/// custodially ([`custodial`]), found from the victims rather than from all moves: the
/// landing squares next to an enemy soldier with a hostile square behind it, and the
/// pieces that slide there. The king's moves onto the throne or a corner are left out
/// (a corner wins outright; the search's quiescence wants captures, not the rare king
/// return to the throne that also captures).
pub fn capture_moves(board: &Board, role: Role, list: &mut MoveList) {
    let land = board.empty() & !Bitboard::RESTRICTED;
    let targets = custodial_squares(board, role) & land;
    let movers = board.pieces(role);
    let occ = board.occupied();
    for to in targets {
        for from in nearest_blockers(to, occ) & movers {
            list.push(Move { from, to });
        }
    }
}

/// Soldiers captured by shield walls closed by the piece of `mover` that has just landed
/// on `to` (docs/RULES.md section 4). The king is never captured, even inside a row.
///
/// ```text
///  2  . . . . . . . . X X .     before the attackers play f1-h1: row i1 (king), j1,
///  1  . . . . . X . . K O .     brackets h1 and corner k1, fronts i2, j2.
///     a b c d e f g h i j k     j1 is captured, the king stays.
/// ```
#[inline]
pub fn shield_wall(board: &Board, mover: Role, to: Square) -> Bitboard {
    let t = to.index();
    let Some((front, dirs)) = EDGE_INFO[t] else {
        return Bitboard::EMPTY;
    };
    let enemy = board.pieces(mover.opponent()).0;
    if NEIGHBOURS[t] & enemy == 0 {
        return Bitboard::EMPTY;
    }
    let own = board.pieces(mover).0;
    let front = &STEP[front as usize];
    let mut captured = 0u128;
    for d in dirs {
        let step = &STEP[d as usize];
        let mut row = 0u128;
        let mut fronted = true;
        let mut q = step[t] as usize;
        while BIT[q] & enemy != 0 {
            row |= BIT[q];
            fronted &= BIT[front[q] as usize] & own != 0;
            q = step[q] as usize;
        }
        // q is on the board: at worst it is the corner.
        let closed = BIT[q] & (own | Bitboard::CORNERS.0) != 0;
        if fronted && closed && row.count_ones() >= 2 {
            captured |= row & board.soldiers(mover.opponent()).0;
        }
    }
    Bitboard(captured)
}

/// All soldiers captured by a move of `mover` that has landed on `to`: custodial and (where
/// the rules have them) shield-wall captures found on the same board, to be removed
/// together.
#[inline(always)]
pub fn captures(board: &Board, mover: Role, to: Square, shield_walls: bool) -> Bitboard {
    let c = custodial(board, mover, to);
    if shield_walls && to.is_edge() {
        c | shield_wall(board, mover, to)
    } else {
        c
    }
}

/// True when an attacker move that landed on `to` captures the king (docs/RULES.md section 5):
/// the king is off the edge, `to` is next to him and his four neighbours are attackers or
/// the throne.
#[inline]
pub fn king_captured(board: &Board, to: Square) -> bool {
    let king = board.king();
    if king.is_edge() {
        return false;
    }
    let around = Bitboard(NEIGHBOURS[king.index()]);
    around.contains(to) && (around & !(board.attackers() | Bitboard::THRONE)).is_empty()
}
