//! The edge fort ("exit fort"), tested after defender moves (RULES.md section 6).

use super::bitboard::Bitboard;
use super::board::Board;
use super::square::{Direction, Square};

/// The front square (one step towards the centre) of a non-corner edge square.
fn front(sq: Square) -> Option<Square> {
    if sq.is_corner() {
        return None;
    }
    match (sq.file(), sq.rank()) {
        (_, 0) => sq.step(Direction::North),
        (_, 10) => sq.step(Direction::South),
        (0, _) => sq.step(Direction::East),
        (10, _) => sq.step(Direction::West),
        _ => None,
    }
}

/// The two directions along the edge of a non-corner edge square.
fn along(sq: Square) -> Option<[Direction; 2]> {
    if sq.is_corner() || !sq.is_edge() {
        return None;
    }
    if sq.rank() == 0 || sq.rank() == 10 {
        Some([Direction::West, Direction::East])
    } else {
        Some([Direction::South, Direction::North])
    }
}

/// Condition (ii) of step 4c: `d` is on an edge and some run of at least two defender
/// pieces along that edge contains it, with both squares beyond its ends corners or
/// reachable, and the front square of every member reachable.
fn wall_run_vulnerable(d: Square, defenders: Bitboard, reach: Bitboard) -> bool {
    let Some([back, fwd]) = along(d) else {
        return false;
    };
    let is_member =
        |sq: Square| defenders.contains(sq) && front(sq).is_some_and(|f| reach.contains(f));
    let is_end = |sq: Option<Square>| sq.is_some_and(|s| s.is_corner() || reach.contains(s));
    if !is_member(d) {
        return false;
    }
    // Members strictly behind and ahead of d, each with its front reachable.
    let collect = |dir: Direction| {
        let mut v = Vec::with_capacity(10);
        let mut q = d.step(dir);
        while let Some(sq) = q {
            if !is_member(sq) {
                break;
            }
            v.push(sq);
            q = sq.step(dir);
        }
        v
    };
    let behind = collect(back);
    let ahead = collect(fwd);
    // A run is d plus the first i squares behind and the first j ahead.
    for i in 0..=behind.len() {
        let start = if i == 0 { d } else { behind[i - 1] };
        if !is_end(start.step(back)) {
            continue;
        }
        for j in 0..=ahead.len() {
            if i + j == 0 {
                continue;
            }
            let end = if j == 0 { d } else { ahead[j - 1] };
            if is_end(end.step(fwd)) {
                return true;
            }
        }
    }
    false
}

/// True when the board, right after a defender move, shows an edge fort: the king on a
/// non-corner edge square, able to move, inside a region no attacker can ever reach
/// (the fixed-point test of RULES.md section 6).
///
/// ```text
///  3  . . . . . . . . .      F1, after f5-f2: a fort. The interior is e1, f1.
///  2  . . O O . . . . .
///  1  . O K . O . . . .
///     c d e f g h i j k
/// ```
pub fn is_edge_fort(board: &Board) -> bool {
    let king = board.king();
    if !king.is_edge() || king.is_corner() {
        return false;
    }
    let empty = board.empty();
    let kb = board.king_bb();
    if (kb.neighbours() & empty).is_empty() {
        return false;
    }
    let interior = kb.flood(empty);
    let guard = interior | interior.neighbours();
    let defenders = board.defenders_and_king();
    let mut safe = board.defenders();
    loop {
        let passable = (empty | (board.defenders() & !safe)) & !Bitboard::CORNERS;
        let reach = board.attackers().flood(passable);
        if (guard & reach).any() {
            return false;
        }
        let hostile = Bitboard::CORNERS | Bitboard::THRONE | reach;
        let mut vulnerable = Bitboard::EMPTY;
        for d in safe {
            let axis = |a: Direction, b: Direction| {
                d.step(a).is_some_and(|s| hostile.contains(s))
                    && d.step(b).is_some_and(|s| hostile.contains(s))
            };
            if axis(Direction::North, Direction::South)
                || axis(Direction::East, Direction::West)
                || (d.is_edge() && wall_run_vulnerable(d, defenders, reach))
            {
                vulnerable.insert(d);
            }
        }
        if vulnerable.is_empty() {
            return true;
        }
        safe &= !vulnerable;
    }
}
