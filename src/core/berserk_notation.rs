//! A Berserk board as text: hnefi's diagram and OpenTafl's position notation, each with
//! the commanders and knights written with their own letters (docs/RULES.md section
//! 17.10). Reading OpenTafl's notation back is [`parse_start`](super::berserk_variant::parse_start).

use super::berserk_position::BerserkPositionOf;
use super::geometry::Geometry;
use super::notation::opentafl_with;
use super::special_pieces::PieceKind;

/// A Berserk board as a diagram: hnefi's diagram with each commander written `C` and
/// each knight `N` (`c`, `n` for the attackers'), a legend, and the square of the piece
/// whose turn continues.
pub(crate) fn diagram<G: Geometry>(pos: &BerserkPositionOf<G>) -> String {
    let board = pos.board();
    let mut rows: Vec<Vec<char>> = board
        .to_string()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    let size = usize::from(G::SIZE);
    for sq in pos.specials().all() {
        let (file, rank) = (usize::from(sq.file()), usize::from(sq.rank()));
        let Some(row) = size.checked_sub(1 + rank).and_then(|r| rows.get_mut(r)) else {
            continue;
        };
        let letter = match (
            pos.specials().commanders().contains(sq),
            board.attackers().contains(sq),
        ) {
            (true, true) => 'c',
            (true, false) => 'C',
            (false, true) => 'n',
            (false, false) => 'N',
        };
        // The diagram's rank numbers take the first columns, then two per file.
        if let Some(cell) = row.get_mut(4 + 2 * file) {
            *cell = letter;
        }
    }
    let mut out: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    out.push("c n: attacking commander, knight; C N: defending commander, knight".into());
    if let Some(sq) = pos.berserker() {
        out.push(format!("berserk turn: the piece on {sq} moves again"));
    }
    out.join("\n")
}

/// A Berserk board in OpenTafl's notation, commanders and knights with their letters.
pub(crate) fn to_opentafl<G: Geometry>(pos: &BerserkPositionOf<G>) -> String {
    let board = pos.board();
    opentafl_with::<G>(|sq| {
        let attacker = board.attackers().contains(sq);
        if sq == board.king() && !pos.king_taken() {
            Some('K')
        } else if attacker || board.defenders_and_king().contains(sq) {
            Some(match (pos.specials().soldier_kind(sq), attacker) {
                (PieceKind::Commander, true) => 'c',
                (PieceKind::Commander, false) => 'C',
                (PieceKind::Knight, true) => 'n',
                (PieceKind::Knight, false) => 'N',
                (_, true) => 't',
                (_, false) => 'T',
            })
        } else {
            None
        }
    })
}
