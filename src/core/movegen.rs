//! Legal move generation (without the repetition rule, which needs the game history).
//!
//! Moves are rook slides through empty squares. Only the king may stop on the throne or a
//! corner; every piece may pass over the empty throne. Generation scans rays with
//! precomputed masks and `trailing_zeros`/`leading_zeros`; counting (for perft) uses
//! Kogge-Stone fills of all pieces of a side at once: in one direction each reached empty
//! square belongs to exactly one move.

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::{Move, MoveList};
use super::role::Role;
use super::square::{NUM_SQUARES, Square};

const fn ray(sq: usize, dir: usize) -> u128 {
    let (mut f, mut r) = ((sq % 11) as i32, (sq / 11) as i32);
    let (df, dr) = match dir {
        0 => (0, 1),
        1 => (1, 0),
        2 => (0, -1),
        _ => (-1, 0),
    };
    let mut m = 0u128;
    loop {
        f += df;
        r += dr;
        if f < 0 || r < 0 || f > 10 || r > 10 {
            return m;
        }
        m |= 1u128 << (r * 11 + f);
    }
}

const fn rays() -> [[u128; NUM_SQUARES]; 4] {
    let mut t = [[0u128; NUM_SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < NUM_SQUARES {
            t[d][s] = ray(s, d);
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][sq]`: the squares strictly beyond `sq` in direction `d` (N, E, S, W).
static RAYS: [[u128; NUM_SQUARES]; 4] = rays();

/// The squares a piece on `sq` can slide to through empty squares (restricted squares
/// included; the caller removes them for soldiers).
#[inline(always)]
pub fn slides(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index();
    let occ = occupied.0;
    let mut out = 0u128;
    // North and east: increasing indices; the nearest blocker is the lowest bit.
    for ray in [RAYS[0][i], RAYS[1][i]] {
        let b = ray & occ;
        out |= ray & (b & b.wrapping_neg()).wrapping_sub(1);
    }
    // South and west: decreasing indices; the nearest blocker is the highest bit.
    for ray in [RAYS[2][i], RAYS[3][i]] {
        let b = ray & occ;
        out |= if b == 0 {
            ray
        } else {
            ray & (u128::MAX << (128 - b.leading_zeros()))
        };
    }
    Bitboard(out)
}

/// The squares strictly between two squares on a line (empty if not on a line).
pub fn between(a: Square, b: Square) -> Bitboard {
    for rays in &RAYS {
        let r = rays[a.index()];
        if r >> b.index() & 1 != 0 {
            return Bitboard(r & !rays[b.index()] & !(1u128 << b.index()));
        }
    }
    Bitboard::EMPTY
}

/// The squares a piece on `from` may move to, for the piece standing there.
#[inline]
pub fn destinations(board: &Board, from: Square) -> Bitboard {
    let s = slides(from, board.occupied());
    if from == board.king() {
        s
    } else {
        s & !Bitboard::RESTRICTED
    }
}

/// Appends every move of `role` to `list` (repetition not considered).
#[inline]
pub fn generate(board: &Board, role: Role, list: &mut MoveList) {
    let occ = board.occupied();
    for from in board.soldiers(role) {
        for to in slides(from, occ) & !Bitboard::RESTRICTED {
            list.push(Move { from, to });
        }
    }
    if role == Role::Defender {
        let from = board.king();
        for to in slides(from, occ) {
            list.push(Move { from, to });
        }
    }
}

/// Every move of `role` (repetition not considered).
pub fn legal_moves(board: &Board, role: Role) -> MoveList {
    let mut list = MoveList::new();
    generate(board, role, &mut list);
    list
}

/// True when `role` has at least one move (repetition not considered).
#[inline]
pub fn has_move(board: &Board, role: Role) -> bool {
    let empty = board.empty();
    let soldiers = board.soldiers(role);
    // Fast path: a soldier next to an empty ordinary square can step there.
    if (soldiers.neighbours() & empty & !Bitboard::RESTRICTED).any() {
        return true;
    }
    if role == Role::Defender && slides(board.king(), board.occupied()).any() {
        return true;
    }
    // Otherwise a soldier can only move by passing over the empty throne.
    count_soldier_moves(soldiers, empty) > 0
}

macro_rules! fill {
    ($gen:expr, $pro:expr, $sh:tt, $n:expr) => {{
        let mut g = $gen;
        let mut p = $pro;
        g |= p & (g $sh $n);
        p &= p $sh $n;
        g |= p & (g $sh (2 * $n));
        p &= p $sh (2 * $n);
        g |= p & (g $sh (4 * $n));
        p &= p $sh (4 * $n);
        g |= p & (g $sh (8 * $n));
        g
    }};
}

/// Counts the soldier moves of a set of soldiers through `empty` squares (they may pass the
/// empty throne but not stop on restricted squares).
#[inline(always)]
fn count_soldier_moves(soldiers: Bitboard, empty: Bitboard) -> u32 {
    let g = soldiers.0;
    let e = empty.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_k = !Bitboard::FILE_K.0;
    let land = e & !Bitboard::RESTRICTED.0;
    let n = fill!(g, e, <<, 11) & land;
    let s = fill!(g, e, >>, 11) & land;
    let east = fill!(g, e & not_a, <<, 1) & land;
    let w = fill!(g, e & not_k, >>, 1) & land;
    n.count_ones() + s.count_ones() + east.count_ones() + w.count_ones()
}

/// The number of moves of `role`, as [`legal_moves`] would list them, computed without
/// listing them (perft's bulk count).
#[inline]
pub fn count_moves(board: &Board, role: Role) -> u64 {
    let empty = board.empty();
    let mut n = count_soldier_moves(board.soldiers(role), empty);
    if role == Role::Defender {
        n += slides(board.king(), board.occupied()).count();
    }
    n as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_116_attacker_moves() {
        let b = Board::start();
        assert_eq!(legal_moves(&b, Role::Attacker).len(), 116);
        assert_eq!(count_moves(&b, Role::Attacker), 116);
        assert_eq!(
            count_moves(&b, Role::Defender),
            legal_moves(&b, Role::Defender).len() as u64
        );
    }

    #[test]
    fn between_squares() {
        let a1 = Square::new(0).unwrap();
        let a5 = Square::new(44).unwrap();
        assert_eq!(between(a1, a5).count(), 3);
        assert_eq!(between(a5, a1).count(), 3);
        assert_eq!(between(a1, Square::THRONE).count(), 0);
    }
}
