//! Captures: custodial captures, shield walls and the capture of the king
//! (RULES.md sections 3 to 5).

use super::bitboard::Bitboard;
use super::board::Board;
use super::role::Role;
use super::square::{Direction, Square};

/// One step in a direction for a whole set (no wrap-around).
#[inline(always)]
pub(crate) fn shift(b: Bitboard, dir: Direction) -> Bitboard {
    match dir {
        Direction::North => b.north(),
        Direction::East => b.east(),
        Direction::South => b.south(),
        Direction::West => b.west(),
    }
}

/// The squares hostile to the soldiers of `victim`, per the table of RULES.md section 3:
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

/// Soldiers captured custodially by the piece of `mover` that has just landed on `to`.
///
/// ```text
///  . X O X .    after an attacker lands on the right-hand X, O is captured
/// ```
#[inline(always)]
pub fn custodial(board: &Board, mover: Role, to: Square) -> Bitboard {
    let victim = mover.opponent();
    let targets = board.soldiers(victim);
    let t = Bitboard::from_square(to);
    if (t.neighbours() & targets).is_empty() {
        return Bitboard::EMPTY;
    }
    let hostile = hostile_to(board, victim);
    let mut captured = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let v = shift(t, dir) & targets;
        if v.any() && (shift(v, dir) & hostile).any() {
            captured |= v;
        }
    }
    captured
}

/// The front square of a non-corner edge square and the two directions along its edge.
#[inline]
fn edge_geometry(sq: Square) -> Option<(Direction, [Direction; 2])> {
    if sq.is_corner() {
        return None;
    }
    let along_rank = [Direction::East, Direction::West];
    let along_file = [Direction::North, Direction::South];
    match (sq.file(), sq.rank()) {
        (_, 0) => Some((Direction::North, along_rank)),
        (_, 10) => Some((Direction::South, along_rank)),
        (0, _) => Some((Direction::East, along_file)),
        (10, _) => Some((Direction::West, along_file)),
        _ => None,
    }
}

/// Soldiers captured by shield walls closed by the piece of `mover` that has just landed
/// on `to` (RULES.md section 4). The king is never captured, even inside a row.
///
/// ```text
///  2  . . . . . . . . X X .     before the attackers play f1-h1: row i1 (king), j1,
///  1  . . . . . X . . K O .     brackets h1 and corner k1, fronts i2, j2.
///     a b c d e f g h i j k     j1 is captured, the king stays.
/// ```
pub fn shield_wall(board: &Board, mover: Role, to: Square) -> Bitboard {
    let Some((front, dirs)) = edge_geometry(to) else {
        return Bitboard::EMPTY;
    };
    let own = board.pieces(mover);
    let enemy = board.pieces(mover.opponent());
    let mut captured = Bitboard::EMPTY;
    for dir in dirs {
        let mut row = Bitboard::EMPTY;
        let mut q = to.step(dir);
        while let Some(sq) = q {
            if !enemy.contains(sq) {
                break;
            }
            row.insert(sq);
            q = sq.step(dir);
        }
        let Some(end) = q else { continue };
        if row.count() >= 2
            && (end.is_corner() || own.contains(end))
            && row
                .iter()
                .all(|r| r.step(front).is_some_and(|f| own.contains(f)))
        {
            captured |= row & board.soldiers(mover.opponent());
        }
    }
    captured
}

/// All soldiers captured by a move of `mover` that has landed on `to`: custodial and
/// shield-wall captures found on the same board, to be removed together.
#[inline]
pub fn captures(board: &Board, mover: Role, to: Square) -> Bitboard {
    let c = custodial(board, mover, to);
    if to.is_edge() {
        c | shield_wall(board, mover, to)
    } else {
        c
    }
}

/// True when an attacker move that landed on `to` captures the king (RULES.md section 5):
/// the king is off the edge, `to` is next to him and his four neighbours are attackers or
/// the throne.
#[inline]
pub fn king_captured(board: &Board, to: Square) -> bool {
    let king = board.king();
    if king.is_edge() {
        return false;
    }
    let kb = board.king_bb();
    let around = kb.neighbours();
    around.contains(to) && (around & !(board.attackers() | Bitboard::THRONE)).is_empty()
}
