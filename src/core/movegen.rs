//! Legal move generation (without the repetition rule, which needs the game history).
//!
//! Moves are rook slides through empty squares. Only the king may stop on the throne or a
//! corner; every piece may pass over the empty throne. Generation scans rays with
//! precomputed masks and `trailing_zeros`/`leading_zeros`; counting (for perft) uses
//! Kogge-Stone fills of all pieces of a side at once: in one direction each reached empty
//! square belongs to exactly one move.

use super::bitboard::{Bitboard, occluded_fill_down, occluded_fill_up};
use super::board::Board;
use super::moves::{Move, MoveList, Sink};
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

/// Table length for per-square tables: any `u8` index is in range, so lookups need no
/// bounds check (entries past 120 are empty).
const TABLE: usize = 256;

const fn rays() -> [[u128; TABLE]; 4] {
    let mut t = [[0u128; TABLE]; 4];
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
static RAYS: [[u128; TABLE]; 4] = rays();

/// `SHADOW[d][i]`: for a blocker on square `i - 1`, that square and everything beyond it
/// in direction `d`; `SHADOW[d][0]` is empty (no blocker). Indexed by one plus the
/// blocker's index so that "no blocker" needs no branch.
const fn shadows() -> [[u128; 129]; 4] {
    let r = rays();
    let mut t = [[0u128; 129]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < NUM_SQUARES {
            t[d][s + 1] = r[d][s] | (1u128 << s);
            s += 1;
        }
        d += 1;
    }
    t
}

static SHADOW: [[u128; 129]; 4] = shadows();

/// One plus the index of the lowest set bit, or 0 for an empty set: north and east
/// blockers are the lowest bits of the ray.
#[inline(always)]
fn nearest_up(b: u128) -> usize {
    if b == 0 {
        0
    } else {
        (b.trailing_zeros() as usize + 1) & 127
    }
}

/// One plus the index of the highest set bit, or 0 for an empty set: south and west
/// blockers are the highest bits of the ray.
#[inline(always)]
fn nearest_down(b: u128) -> usize {
    128 - b.leading_zeros() as usize
}

/// The squares a piece on `sq` can slide to through empty squares (restricted squares
/// included; the caller removes them for soldiers).
#[inline(always)]
pub fn slides(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index() & (TABLE - 1);
    let occ = occupied.0;
    let mut out = 0u128;
    for d in 0..2 {
        let ray = RAYS[d][i];
        out |= ray & !SHADOW[d][nearest_up(ray & occ)];
    }
    for d in 2..4 {
        let ray = RAYS[d][i];
        out |= ray & !SHADOW[d][nearest_down(ray & occ)];
    }
    Bitboard(out)
}

/// The pieces of `occupied` that see `sq` along a free line: the nearest occupied square
/// in each of the four directions (the pieces that could slide to `sq` if it is empty).
#[inline]
pub fn nearest_blockers(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index() & (TABLE - 1);
    let occ = occupied.0;
    let (up, down) = RAYS.split_at(2);
    let nearest = up
        .iter()
        .map(|rays| nearest_up(rays[i] & occ))
        .chain(down.iter().map(|rays| nearest_down(rays[i] & occ)));
    let mut out = 0u128;
    for b in nearest {
        // One plus the blocker's index, 0 for none.
        if b > 0 {
            out |= 1u128 << (b - 1);
        }
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

/// Appends every move of `role` to `list` (repetition not considered).
///
/// Soldiers are generated a direction and a distance at a time: the set of soldiers
/// shifted `k` steps through empty squares gives every move of length `k` in that
/// direction at once, and each destination names its origin by arithmetic. The king's
/// moves come from his rays.
#[inline]
pub fn generate(board: &Board, role: Role, list: &mut MoveList) {
    let empty = board.empty().0;
    let land = !Bitboard::RESTRICTED.0;
    let soldiers = board.soldiers(role).0;
    let mut sink = list.sink();
    let not_a = empty & !Bitboard::FILE_A.0;
    let not_k = empty & !Bitboard::FILE_K.0;
    let mut cur = soldiers;
    let mut k = 0u8;
    while cur != 0 {
        k += 1;
        cur = (cur << 11) & empty;
        push_layer(&mut sink, cur & land, 11 * k, true);
    }
    cur = soldiers;
    k = 0;
    while cur != 0 {
        k += 1;
        cur = (cur >> 11) & empty;
        push_layer(&mut sink, cur & land, 11 * k, false);
    }
    cur = soldiers;
    k = 0;
    while cur != 0 {
        k += 1;
        cur = (cur << 1) & not_a;
        push_layer(&mut sink, cur & land, k, true);
    }
    cur = soldiers;
    k = 0;
    while cur != 0 {
        k += 1;
        cur = (cur >> 1) & not_k;
        push_layer(&mut sink, cur & land, k, false);
    }
    if role == Role::Defender {
        let from = board.king();
        push_all(&mut sink, from, slides(from, board.occupied()));
    }
}

/// Pushes the moves that end on `targets` after sliding `dist` index steps up (towards
/// higher indices) or down. One 128-bit bit-scan loop per layer: on real-game positions
/// it beats two 64-bit loops, whose extra loop exits mispredict (152 vs 170 ns per
/// position in `cargo bench --bench core`).
#[inline(always)]
fn push_layer(sink: &mut Sink<'_>, targets: u128, dist: u8, up: bool) {
    let mut push = |to: u8| {
        let from = if up { to - dist } else { to + dist };
        sink.push(Move {
            from: Square::from_index_unchecked(from),
            to: Square::from_index_unchecked(to),
        });
    };
    let mut t = targets;
    while t != 0 {
        push(t.trailing_zeros() as u8);
        t &= t - 1;
    }
}

/// Pushes a move from `from` to every square of `targets`.
#[inline(always)]
fn push_all(sink: &mut Sink<'_>, from: Square, targets: Bitboard) {
    let mut t = targets.0;
    while t != 0 {
        let to = Square::from_index_unchecked(t.trailing_zeros() as u8);
        t &= t - 1;
        sink.push(Move { from, to });
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

/// The empty squares that `soldiers` can reach in one move (sliding through `empty`, never
/// stopping on the throne or a corner), and the number of such moves. In one direction
/// each reached square is exactly one move, so the count is the sum of four population
/// counts of Kogge-Stone fills.
#[inline(always)]
pub fn soldier_reach(soldiers: Bitboard, empty: Bitboard) -> (Bitboard, u32) {
    let g = soldiers.0;
    let e = empty.0;
    let land = e & !Bitboard::RESTRICTED.0;
    let n = occluded_fill_up(g, e, 11) & land;
    let s = occluded_fill_down(g, e, 11) & land;
    let east = occluded_fill_up(g, e & !Bitboard::FILE_A.0, 1) & land;
    let w = occluded_fill_down(g, e & !Bitboard::FILE_K.0, 1) & land;
    let count = n.count_ones() + s.count_ones() + east.count_ones() + w.count_ones();
    (Bitboard(n | s | east | w), count)
}

/// Counts the soldier moves of a set of soldiers through `empty` squares.
#[inline(always)]
fn count_soldier_moves(soldiers: Bitboard, empty: Bitboard) -> u32 {
    soldier_reach(soldiers, empty).1
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
