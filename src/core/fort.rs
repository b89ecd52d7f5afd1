//! The edge fort ("exit fort"), tested after defender moves (docs/RULES.md section 6).

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::capture::edge_info;
use super::geometry::Geometry;
use super::square::{Direction, SquareOf};

/// The front square (one step towards the centre) of a non-corner edge square.
fn front<G: Geometry>(sq: SquareOf<G>) -> Option<SquareOf<G>> {
    edge_info(sq).and_then(|(f, _)| sq.step(Direction::ALL[f]))
}

/// The two directions along the edge of a non-corner edge square.
fn along<G: Geometry>(sq: SquareOf<G>) -> Option<[Direction; 2]> {
    edge_info(sq).map(|(_, [a, b])| [Direction::ALL[a], Direction::ALL[b]])
}

/// Condition (ii) of step 4c: `d` is on an edge and some run of at least two defender
/// pieces along that edge contains it, with both squares beyond its ends corners or
/// reachable, and the front square of every member reachable.
fn wall_run_vulnerable<G: Geometry>(
    d: SquareOf<G>,
    defenders: BitboardOf<G>,
    reach: BitboardOf<G>,
) -> bool {
    let Some([back, fwd]) = along(d) else {
        return false;
    };
    let is_member =
        |sq: SquareOf<G>| defenders.contains(sq) && front(sq).is_some_and(|f| reach.contains(f));
    let is_end = |sq: Option<SquareOf<G>>| sq.is_some_and(|s| s.is_corner() || reach.contains(s));
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
/// (the fixed-point test of docs/RULES.md section 6).
///
/// ```text
///  3  . . . . . . . . .      F1, after f5-f2: a fort. The interior is e1, f1.
///  2  . . O O . . . . .
///  1  . O K . O . . . .
///     c d e f g h i j k
/// ```
pub(crate) fn is_edge_fort<G: Geometry>(board: &BoardOf<G>) -> bool {
    let king = board.king();
    if !king.is_edge() || king.is_corner() {
        return false;
    }
    let empty = board.empty();
    let kb = board.king_bb();
    if (kb.neighbours() & empty).is_empty() {
        return false;
    }
    // The interior, grown a line at a time; an attacker next to it already breaks the
    // fort (attackers are always in the reach R), which ends most tests early.
    let near_attackers = board.attackers().neighbours();
    let mut interior = kb;
    loop {
        if (interior & near_attackers).any() {
            return false;
        }
        let next = interior | (interior.slide_fill(empty) & empty);
        if next == interior {
            break;
        }
        interior = next;
    }
    let guard = interior | interior.neighbours();
    let defenders = board.defenders_and_king();
    let mut safe = board.defenders();
    loop {
        let passable = (empty | (board.defenders() & !safe)) & !BitboardOf::<G>::CORNERS;
        let reach = board.attackers().flood_lines(passable);
        if (guard & reach).any() {
            return false;
        }
        let hostile = BitboardOf::<G>::CORNERS | BitboardOf::<G>::THRONE | reach;
        let mut vulnerable = BitboardOf::<G>::EMPTY;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::Bitboard;
    use crate::core::square::Square;

    /// A square; a mistyped one fails the test.
    fn sq(s: &str) -> Square {
        s.parse()
            .unwrap_or_else(|e| panic!("square {s:?} in a test: {e}"))
    }

    fn set(squares: &[&str]) -> Bitboard {
        squares.iter().map(|s| sq(s)).collect()
    }

    /// Condition (ii): a run of edge soldiers bracketed by a corner or reachable squares
    /// and fronted by reachable squares can fall to a shield wall.
    ///
    /// ```text
    ///  2  . R R R . .      R: reachable by the attackers
    ///  1  + O O O R .      +: the corner a1
    ///     a b c d e f
    /// ```
    #[test]
    fn edge_run_is_vulnerable_only_when_bracketed_and_fronted() {
        let defenders = set(&["b1", "c1", "d1"]);
        let reach = set(&["b2", "c2", "d2", "e1"]);
        assert!(wall_run_vulnerable(sq("c1"), defenders, reach));
        assert!(wall_run_vulnerable(sq("b1"), defenders, reach));
        // d2 unreachable: no run containing c1 has all fronts reachable and both ends
        // closed (d1 is a defender, not a bracket).
        let reach = set(&["b2", "c2", "e1"]);
        assert!(!wall_run_vulnerable(sq("c1"), defenders, reach));
        // ... unless d1 itself is reachable (an unsafe soldier): then b1-c1 is a run.
        let reach = set(&["b2", "c2", "d1", "e1"]);
        assert!(wall_run_vulnerable(sq("c1"), defenders, reach));
        // The far end open and unreachable: nothing.
        let reach = set(&["b2", "c2", "d2"]);
        assert!(!wall_run_vulnerable(sq("c1"), defenders, reach));
        // A single soldier is never a run.
        let reach = set(&["a2", "b2", "c1", "a3"]);
        assert!(!wall_run_vulnerable(sq("b1"), set(&["b1"]), reach));
    }
}
