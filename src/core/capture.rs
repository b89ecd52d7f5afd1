//! Captures: custodial captures, shield walls and the capture of the king
//! (docs/RULES.md sections 3 to 5).

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::{Bits, Geometry, TABLE};
use super::movegen::nearest_blockers;
use super::moves::{MoveListOf, MoveOf};
use super::role::Role;
use super::square::SquareOf;

/// The squares hostile to the soldiers of `victim`, per the table of docs/RULES.md section 3:
/// enemy pieces (the king included), empty corners and the empty throne.
#[inline(always)]
pub fn hostile_to<G: Geometry>(board: &BoardOf<G>, victim: Role) -> BitboardOf<G> {
    let empty_restricted = BitboardOf::restricted() & board.empty();
    match victim {
        // The king on the throne is hostile to attackers as a piece.
        Role::Attacker => board.defenders_and_king() | empty_restricted,
        Role::Defender => board.attackers() | empty_restricted,
    }
}

/// For a non-corner edge square: the index (in [`Direction::ALL`](super::square::Direction::ALL) order) of its front
/// direction, towards the centre, and of the two directions along its edge.
#[inline(always)]
pub(crate) fn edge_info<G: Geometry>(sq: SquareOf<G>) -> Option<(usize, [usize; 2])> {
    G::tables().edge_info[sq.index() & (TABLE - 1)]
        .map(|(f, [a, b])| (f as usize, [a as usize, b as usize]))
}

/// Soldiers captured custodially by the piece of `mover` that has just landed on `to`.
///
/// ```text
///  . X O X .    after an attacker lands on the right-hand X, O is captured
/// ```
#[inline(always)]
pub fn custodial<G: Geometry>(board: &BoardOf<G>, mover: Role, to: SquareOf<G>) -> BitboardOf<G> {
    let tables = G::tables();
    let bit = &tables.square_bits;
    let victim = mover.opponent();
    let targets = board.soldiers(victim).0;
    let t = to.index() & (TABLE - 1);
    if (tables.neighbours[t] & targets).is_zero() {
        return BitboardOf::EMPTY;
    }
    let hostile = hostile_to(board, victim).0;
    let mut captured = G::Bits::ZERO;
    for step in &tables.step {
        let v = step[t] as usize;
        let w = step[v] as usize;
        if !(bit[v] & targets).is_zero() && !(bit[w] & hostile).is_zero() {
            captured |= bit[v];
        }
    }
    BitboardOf(captured)
}

/// The squares on which a piece of `mover` landing on `board` captures custodially
/// ([`custodial`] is not empty there): next to an enemy soldier that has a square hostile
/// to it on the far side.
#[inline]
pub fn custodial_squares<G: Geometry>(board: &BoardOf<G>, mover: Role) -> BitboardOf<G> {
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
pub fn capture_moves<G: Geometry>(board: &BoardOf<G>, role: Role, list: &mut MoveListOf<G>) {
    let land = board.empty() & !BitboardOf::restricted();
    let targets = custodial_squares(board, role) & land;
    let movers = board.pieces(role);
    let occ = board.occupied();
    for to in targets {
        for from in nearest_blockers(to, occ) & movers {
            list.push(MoveOf { from, to });
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
pub fn shield_wall<G: Geometry>(board: &BoardOf<G>, mover: Role, to: SquareOf<G>) -> BitboardOf<G> {
    let tables = G::tables();
    let bit = &tables.square_bits;
    let t = to.index() & (TABLE - 1);
    let Some((front, dirs)) = tables.edge_info[t] else {
        return BitboardOf::EMPTY;
    };
    let enemy = board.pieces(mover.opponent()).0;
    if (tables.neighbours[t] & enemy).is_zero() {
        return BitboardOf::EMPTY;
    }
    let own = board.pieces(mover).0;
    let front = &tables.step[usize::from(front) & 3];
    let mut captured = G::Bits::ZERO;
    for d in dirs {
        let step = &tables.step[usize::from(d) & 3];
        let mut row = G::Bits::ZERO;
        let mut fronted = true;
        let mut q = step[t] as usize;
        while !(bit[q] & enemy).is_zero() {
            row |= bit[q];
            fronted &= !(bit[front[q] as usize] & own).is_zero();
            q = step[q] as usize;
        }
        // q is on the board: at worst it is the corner.
        let closed = !(bit[q] & (own | G::CORNERS)).is_zero();
        if fronted && closed && row.count_ones() >= 2 {
            captured |= row & board.soldiers(mover.opponent()).0;
        }
    }
    BitboardOf(captured)
}

/// All soldiers captured by a move of `mover` that has landed on `to`: custodial and (where
/// the rules have them) shield-wall captures found on the same board, to be removed
/// together.
#[inline(always)]
pub fn captures<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    to: SquareOf<G>,
    shield_walls: bool,
) -> BitboardOf<G> {
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
pub fn king_captured<G: Geometry>(board: &BoardOf<G>, to: SquareOf<G>) -> bool {
    let king = board.king();
    if king.is_edge() {
        return false;
    }
    let around = BitboardOf::<G>(G::tables().neighbours[king.index() & (TABLE - 1)]);
    around.contains(to) && (around & !(board.attackers() | BitboardOf::THRONE)).is_empty()
}
