//! OpenTafl's shield walls as its 0.4.8 scan finds them, taken by any move of a side
//! (its "relaxed shieldwall", `swf:n`; docs/RULES.md section 17.9). hnefi's own shield
//! walls (section 4, [`shield_wall`](super::capture::shield_wall)) are closed by a flanking
//! move; these are OpenTafl's rows, with the quirks of the scan that finds them.

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;
use super::role::Role;
use super::square::SquareOf;

/// The most rows one side's scan can find: a row needs two squares and a bracket, so an
/// edge of 15 holds at most five.
const MAX_ROWS: usize = 24;

/// The rows of one side's walls.
struct Rows<G: Geometry> {
    rows: [BitboardOf<G>; MAX_ROWS],
    len: usize,
}

impl<G: Geometry> Rows<G> {
    fn push(&mut self, row: BitboardOf<G>) {
        if let Some(slot) = self.rows.get_mut(self.len) {
            *slot = row;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = &BitboardOf<G>> {
        self.rows.iter().take(self.len)
    }
}

/// The edge square `i` of edge `e` in OpenTafl's order (rank 1, the last rank, file a, the
/// last file; along each from its lowest coordinate), and the square inward of it.
fn edge_square<G: Geometry>(e: usize, i: u8) -> Option<(SquareOf<G>, SquareOf<G>)> {
    let last = G::SIZE - 1;
    let (f, r, inf, inr) = match e {
        0 => (i, 0, i, 1),
        1 => (i, last, i, last - 1),
        2 => (0, i, 1, i),
        _ => (last, i, last - 1, i),
    };
    Some((
        SquareOf::from_coords(f, r)?,
        SquareOf::from_coords(inf, inr)?,
    ))
}

/// The rows OpenTafl 0.4.8 finds walled by `own` (the walling side's pieces, its king
/// included) with `corners` as brackets, edge by edge in its order. Its walk decides which
/// pieces a relaxed wall takes, so its quirks are the rule here (measured in the rule cases
/// and games of tests/data): a walling piece on the edge continues the row when the square
/// `index + 1` of the edge holds a walling piece, where `index` counts only the squares
/// that neither started a row nor were a walling piece, so it lags behind.
fn rows<G: Geometry>(own: BitboardOf<G>, king: BitboardOf<G>, corners: BitboardOf<G>) -> Rows<G> {
    let mut out = Rows {
        rows: [BitboardOf::EMPTY; MAX_ROWS],
        len: 0,
    };
    for e in 0..4 {
        let mut started = false;
        let mut index: u8 = 0;
        let mut row = BitboardOf::EMPTY;
        for i in 0..G::SIZE {
            let Some((sq, inward)) = edge_square::<G>(e, i) else {
                continue;
            };
            if !started && (corners.contains(sq) || own.contains(sq)) {
                started = true;
                continue;
            }
            if started {
                if corners.contains(sq) {
                    if row.count() > 1 {
                        out.push(row);
                    }
                    break;
                }
                if own.contains(sq) {
                    let next_own = index
                        .checked_add(1)
                        .and_then(|j| edge_square::<G>(e, j))
                        .is_some_and(|(next, _)| own.contains(next));
                    if (next_own || king.contains(sq)) && own.contains(inward) {
                        row.insert(sq);
                    } else {
                        // The row ends here, and a new one starts from this piece.
                        if row.count() > 1 {
                            out.push(row);
                        }
                        row = BitboardOf::EMPTY;
                    }
                    continue;
                }
                if own.contains(inward) {
                    row.insert(sq);
                } else {
                    started = false;
                    row = BitboardOf::EMPTY;
                }
            }
            index += 1;
        }
    }
    out
}

/// The pieces a move of `mover` takes by OpenTafl's relaxed shield walls, on `board` after
/// the move with `captured` (its custodial captures) still on it, the king gone from the
/// scan when `king_taken`. Every row of either side's walls (the attackers' first) whose
/// squares all hold pieces of the side not moving is taken, the king left standing;
/// OpenTafl removes each row's pieces before it looks at the next row. The scan runs only
/// while each side has at least two pieces on the edge.
pub(crate) fn captures<G: Geometry>(
    board: &BoardOf<G>,
    captured: BitboardOf<G>,
    king_taken: bool,
    mover: Role,
    corners: BitboardOf<G>,
) -> BitboardOf<G> {
    let king = if king_taken {
        BitboardOf::EMPTY
    } else {
        board.king_bb()
    };
    let attackers = board.attackers() & !captured;
    let defenders = (board.defenders() & !captured) | king;
    let edge = BitboardOf::<G>::EDGE;
    if (attackers & edge).count() < 2 || (defenders & edge).count() < 2 {
        return BitboardOf::EMPTY;
    }
    let by_attackers = rows(attackers, king, corners);
    let by_defenders = rows(defenders, king, corners);
    let movers = match mover {
        Role::Attacker => attackers,
        Role::Defender => defenders,
    };
    let mut taken = BitboardOf::EMPTY;
    for &row in by_attackers.iter().chain(by_defenders.iter()) {
        let standing = (attackers | defenders) & !taken;
        if (row & !standing).is_empty() && (row & movers).is_empty() {
            taken |= row & !king;
        }
    }
    taken
}
