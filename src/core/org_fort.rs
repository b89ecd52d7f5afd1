//! The hnefatafl.org server's edge fort test (docs/RULES.md, "The `hnefatafl-org`
//! preset"), used by [`Referee::HnefataflOrg`](super::referee::Referee) in place of the
//! fixed-point test of [`fort`](super::fort).
//!
//! The server judges a fort by one walk from the king through empty squares: it fails on
//! any attacker it meets, and a defender piece it meets (the king included) must have a
//! defender piece or the board's edge on at least one side of the axis *across* the
//! direction in which the walk reached it. It ignores corners, the throne and whether an
//! attacker could ever get there, so it differs from the Copenhagen test both ways.
//!
//! The walk is a depth-first search, and a square is checked only along the axis of the
//! step that first reached it, so the result can depend on the order of the walk (a wall
//! piece reached both across and along its own line is checked once). hnefi walks in the
//! server's order so that it agrees with the server on every board: the king's neighbours
//! are seeded north, west, south, east (they are not marked as seen and may be reached
//! again), the last one pushed is taken first, and an empty square adds its unseen
//! neighbours in the same order.

use super::board::{BoardOf, Piece};
use super::geometry::Geometry;
use super::role::Role;
use super::square::{Direction, SquareOf};

/// The order in which the server visits the neighbours of a square.
const ORDER: [Direction; 4] = [
    Direction::North,
    Direction::West,
    Direction::South,
    Direction::East,
];

/// The most entries the walk's stack can hold: four seeds, then each square at most once.
const STACK: usize = 4 + 121;

/// True when `sq` holds a defender piece (the king included) or `dir` leads off the board.
fn backed<G: Geometry>(board: &BoardOf<G>, sq: SquareOf<G>, dir: Direction) -> bool {
    sq.step(dir).is_none_or(|n| {
        board
            .piece_at(n)
            .is_some_and(|p| p.role() == Role::Defender)
    })
}

/// The check of a defender piece the walk reached by a step in direction `came`: it needs
/// a defender piece or the edge on one side of the other axis.
fn wall_holds<G: Geometry>(board: &BoardOf<G>, sq: SquareOf<G>, came: Direction) -> bool {
    let [a, b] = match came {
        Direction::North | Direction::South => [Direction::East, Direction::West],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    };
    backed(board, sq, a) || backed(board, sq, b)
}

/// True when the server would declare an edge fort on this board: the king stands on the
/// edge, can step to an empty neighbour, and the walk described in the module documentation
/// passes. With fewer than two attackers left the wall checks are waived (only an attacker
/// next to the open area breaks the fort).
pub(crate) fn is_org_edge_fort<G: Geometry>(board: &BoardOf<G>) -> bool {
    let king = board.king();
    if !king.is_edge() || (board.king_bb().neighbours() & board.empty()).is_empty() {
        return false;
    }
    let waive_walls = board.attackers().count() < 2;
    let mut stack = [(king, Direction::North); STACK];
    let mut len = 0;
    for dir in ORDER {
        if let (Some(n), Some(slot)) = (king.step(dir), stack.get_mut(len)) {
            *slot = (n, dir);
            len += 1;
        }
    }
    let mut seen = super::bitboard::BitboardOf::<G>::EMPTY;
    while let Some(&(sq, came)) = len.checked_sub(1).and_then(|i| stack.get(i)) {
        len -= 1;
        match board.piece_at(sq) {
            None => {
                for dir in ORDER {
                    if let Some(n) = sq.step(dir)
                        && !seen.contains(n)
                        && let Some(slot) = stack.get_mut(len)
                    {
                        seen.insert(n);
                        *slot = (n, dir);
                        len += 1;
                    }
                }
            }
            Some(Piece::Attacker) => return false,
            Some(Piece::Defender | Piece::King) => {
                if !waive_walls && !wall_holds(board, sq, came) {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn is_org_edge_fort() {
        use crate::core::board::Board;
        use crate::core::org_fort::is_org_edge_fort;
        // Case F1 of tests/data/hnefatafl_org_cases.txt: the king on e1, the open square e2,
        // and each wall piece backed on the axis the walk checks; two attackers far away.
        let mut rows = vec!["..........."; 8];
        rows[2] = "X.........X";
        rows.extend(["...OO......", "...O.O.....", "...OKO....."]);
        let board = Board::from_rows(rows.iter().copied()).unwrap();
        assert!(is_org_edge_fort(&board));
        // Without d3, e3 has nothing beside it on rank 3 (case F2).
        rows[8] = "....O......";
        let board = Board::from_rows(rows.iter().copied()).unwrap();
        assert!(!is_org_edge_fort(&board));
    }
}
