//! The hnefatafl.org server's early adjudication (docs/RULES.md, "The `hnefatafl-org`
//! preset"): after any move that ends nothing else, the server gives the attackers the
//! win when it judges that the king can no longer escape (the crate's
//! `Board::can_not_escape`). It is a heuristic of the server, not a Copenhagen rule; hnefi
//! applies it only under [`Referee::HnefataflOrg`](super::referee::Referee).
//!
//! Two tests, either of which adjudicates:
//!
//! - **The king is boxed in on the edge**: see [`king_boxed_on_edge`].
//! - **The corners are closed and the defenders hold too little of the edge**: see
//!   [`corners_closed_edge_lost`].
//!
//! The server counts the pieces left as its start count less those captured; hnefi counts
//! the pieces on the board, which is the same for every game played from the start.

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;
use super::square::{Direction, SquareOf};

/// True when the server would end the game here as an attackers' win.
pub(crate) fn cannot_escape<G: Geometry>(board: &BoardOf<G>) -> bool {
    king_boxed_on_edge(board) || corners_closed_edge_lost(board)
}

/// The direction from an edge square towards the middle of the board, and the two
/// directions along its edge, for a non-corner edge square. A square on two edges is a
/// corner; the file edges are taken first, as the server does.
fn edge_axes<G: Geometry>(sq: SquareOf<G>) -> Option<(Direction, [Direction; 2])> {
    let along_file = [Direction::South, Direction::North];
    let along_rank = [Direction::West, Direction::East];
    match (sq.file(), sq.rank()) {
        (0, _) => Some((Direction::East, along_file)),
        (f, _) if f == G::SIZE - 1 => Some((Direction::West, along_file)),
        (_, r) if r == G::SIZE - 1 => Some((Direction::South, along_rank)),
        (_, 0) => Some((Direction::North, along_rank)),
        _ => None,
    }
}

/// The square `along` steps in direction `a` and then `inward` steps in direction `b`.
fn offset<G: Geometry>(
    sq: SquareOf<G>,
    a: Direction,
    along: u8,
    b: Direction,
    inward: u8,
) -> Option<SquareOf<G>> {
    let mut s = Some(sq);
    for _ in 0..along {
        s = s.and_then(|x| x.step(a));
    }
    for _ in 0..inward {
        s = s.and_then(|x| x.step(b));
    }
    s
}

/// The first test: the king stands on an edge square at least two squares from each
/// corner, and the two squares on each side of him along the edge hold attackers (a
/// corner among them counts as an attacker, and also adds one to the attackers' count).
/// Then, with `a` that count and `d` the defender soldiers left:
///
/// - if `a > 5`, the two squares straight in from the king must also hold attackers, or
///   the test fails;
/// - it holds when `d < 2`, or when `a > 7` and, on one side, the two squares in from
///   the king's neighbour along the edge hold attackers.
///
/// ```text
///  6  X . . . . .      the king on a5; a3, a4, a6 and a7 hold attackers, and so do the
///  5  K X X . . .      two squares in from him (b5, c5). With the corner not among the
///  4  X X X . . .      four, a is the attackers on the board: with 8 or more and b4-c4
///  3  X . . . . .      (or b6-c6) held, or fewer than 2 defender soldiers left, the
///     a b c d e f      attackers win (a7 is off the diagram).
/// ```
pub(crate) fn king_boxed_on_edge<G: Geometry>(board: &BoardOf<G>) -> bool {
    let king = board.king();
    let Some((inward, [back, fwd])) = edge_axes(king) else {
        return false;
    };
    let attackers = board.attackers();
    let is_attacker = |sq: Option<SquareOf<G>>| sq.is_some_and(|s| attackers.contains(s));
    let mut count = attackers.count();
    for dir in [back, fwd] {
        // The king's neighbour along the edge must not be a corner.
        if king.step(dir).is_none_or(SquareOf::<G>::is_corner) {
            return false;
        }
        for dist in 1..=2 {
            match offset(king, dir, dist, inward, 0) {
                Some(s) if s.is_corner() => count += 1,
                s if is_attacker(s) => {}
                _ => return false,
            }
        }
    }
    let line = |dir: Direction, along: u8| {
        is_attacker(offset(king, dir, along, inward, 1))
            && is_attacker(offset(king, dir, along, inward, 2))
    };
    if count > 5 && !line(back, 0) {
        return false;
    }
    board.defenders().count() < 2 || (count > 7 && (line(back, 1) || line(fwd, 1)))
}

/// The squares the server counts as closed to the defenders around one corner, or `None`
/// when the corner is open: a defender piece can reach the corner's area.
///
/// A corner is closed outright when the two squares along each edge next to it hold
/// attackers; its closed squares are then the corner and those four. Otherwise the area
/// is searched from the corner's two neighbours: each of them that is empty or holds an
/// attacker counts as closed and opens the search to its own neighbours; from there the
/// search runs through empty squares, every empty edge square it meets counts as closed,
/// attackers stop it, and a defender or the king anywhere in it (the corner's two
/// neighbours excepted) makes the corner open.
fn closed_corner<G: Geometry>(
    board: &BoardOf<G>,
    corner: SquareOf<G>,
    bracket: BitboardOf<G>,
) -> Option<BitboardOf<G>> {
    let attackers = board.attackers();
    let corner_bb = BitboardOf::<G>::from_square(corner);
    if (bracket & !attackers).is_empty() {
        return Some(bracket | corner_bb);
    }
    let empty = board.empty();
    let defenders = board.defenders_and_king();
    let starts = corner_bb.neighbours();
    let passable_starts = starts & (empty | attackers);
    // The corner and its two neighbours are not entered again.
    let seen = corner_bb | starts;
    let passable = empty & !seen;
    // The squares next to the passable starting squares, then the empty squares reachable
    // from them through empty squares, grown by whole lines (only reachability counts);
    // stop at the first defender piece next to the area.
    let first = passable_starts.neighbours() & !seen;
    if (first & defenders).any() {
        return None;
    }
    let mut area = first & empty;
    loop {
        if (area.neighbours() & defenders & !seen).any() {
            return None;
        }
        let next = area.slide_fill(passable) & passable;
        if next == area {
            break;
        }
        area = next;
    }
    Some(corner_bb | passable_starts | (area & BitboardOf::<G>::EDGE))
}

/// A corner with the two squares along each of its edges next to it.
fn corner_bracket<G: Geometry>(corner: SquareOf<G>) -> BitboardOf<G> {
    let mut bracket = BitboardOf::EMPTY;
    for dir in Direction::ALL {
        let near = corner.step(dir);
        for sq in [near, near.and_then(|s| s.step(dir))].into_iter().flatten() {
            bracket.insert(sq);
        }
    }
    bracket
}

/// True when, on every edge, the squares that are neither attackers nor closed form at
/// most one unbroken run of at most `n` squares.
fn edges_held_at_most<G: Geometry>(board: &BoardOf<G>, closed: BitboardOf<G>, n: u32) -> bool {
    let open = !(board.attackers() | closed) & BitboardOf::<G>::EDGE;
    let file_runs = |line: BitboardOf<G>| (line & !line.north()).count();
    let rank_runs = |line: BitboardOf<G>| (line & !line.east()).count();
    [BitboardOf::<G>::FILE_A, BitboardOf::<G>::FILE_LAST]
        .into_iter()
        .all(|edge| file_runs(open & edge) <= 1 && (open & edge).count() <= n)
        && [BitboardOf::<G>::RANK_1, BitboardOf::<G>::RANK_LAST]
            .into_iter()
            .all(|edge| rank_runs(open & edge) <= 1 && (open & edge).count() <= n)
}

/// The second test: every corner is closed (see [`closed_corner`]), and then, with `a`
/// the attackers left, `d` the defender soldiers left, and "open" an edge square that is
/// neither an attacker nor closed:
///
/// - `d < 4` and `a >= 13`; or
/// - `d < 6` and every edge has at most one unbroken run of open squares, at most 3 long;
/// - or every edge has at most one run of open squares, at most 2 long.
pub(crate) fn corners_closed_edge_lost<G: Geometry>(board: &BoardOf<G>) -> bool {
    let mut closed = BitboardOf::<G>::EMPTY;
    for corner in SquareOf::<G>::CORNERS {
        match closed_corner(board, corner, corner_bracket(corner)) {
            Some(c) => closed |= c,
            None => return false,
        }
    }
    let d = board.defenders().count();
    let a = board.attackers().count();
    (d < 4 && a >= 13)
        || (d < 6 && edges_held_at_most(board, closed, 3))
        || edges_held_at_most(board, closed, 2)
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn cannot_escape() {
        use crate::core::adjudication::cannot_escape;
        use crate::core::board::Board;
        assert!(!cannot_escape(&Board::start()));
    }
}
