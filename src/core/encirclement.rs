//! Encirclement, tested after attacker moves (docs/RULES.md section 7), under the rule
//! set's [`EncirclementMode`].

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::encirclement_mode::EncirclementMode;
use super::geometry::Geometry;

/// True when the attackers have encircled the defenders.
///
/// Multi-pocket: the squares reachable from any defender or the king through squares
/// without an attacker include no edge square (corners count as edge squares).
///
/// ```text
///  9  . . X X X . . . . . .     E4: after a3-a4 the defenders stand in two
///  8  . X . O . X . . . . .     sealed pockets; the attackers win.
///  7  . X . . . X . X X X .
///  6  . . X X X . X . K . X
///  5  . . . . . . . X . . X
///  4  X . . . . . . . X X .
///     a b c d e f g h i j k
/// ```
#[inline]
pub fn is_encircled<G: Geometry>(board: &BoardOf<G>, mode: EncirclementMode) -> bool {
    let passable = !board.attackers();
    let mut fill = match mode {
        EncirclementMode::MultiPocket => board.defenders_and_king(),
        EncirclementMode::SingleRing => board.king_bb(),
    };
    // Grow by whole lines until the fill touches the edge or stops growing.
    loop {
        if (fill & BitboardOf::<G>::EDGE).any() {
            return false;
        }
        let next = fill | fill.slide_fill(passable);
        if next == fill {
            break;
        }
        fill = next;
    }
    match mode {
        EncirclementMode::MultiPocket => true,
        EncirclementMode::SingleRing => (board.defenders() & !fill).is_empty(),
    }
}
