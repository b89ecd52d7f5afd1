//! A Berserk board as text: hnefi's diagram and OpenTafl's position notation, each with
//! the commanders, knights, mercenaries and guards written with their own letters
//! (docs/RULES.md section 17.10). Reading OpenTafl's notation back is [`parse_start`](super::berserk_variant::parse_start).

use super::berserk_position::BerserkPositionOf;
use super::geometry::Geometry;
use super::notation::opentafl_with;
use super::special_pieces::PieceKind;

/// OpenTafl's letter of a piece of `kind` that is not a soldier or the king: lower case
/// for an attacker's.
fn special_letter(kind: PieceKind, attacker: bool) -> Option<char> {
    let upper = match kind {
        PieceKind::Commander => 'C',
        PieceKind::Knight => 'N',
        PieceKind::Mercenary => 'M',
        PieceKind::Guard => 'G',
        PieceKind::Soldier | PieceKind::King => return None,
    };
    Some(if attacker {
        upper.to_ascii_lowercase()
    } else {
        upper
    })
}

/// A Berserk board as a diagram: hnefi's diagram with each commander written `C`, each
/// knight `N`, mercenary `M` and guard `G` (`c`, `n`, `m`, `g` for the attackers'), a
/// legend, and the square of the piece whose turn continues.
pub(crate) fn diagram<G: Geometry>(pos: &BerserkPositionOf<G>) -> String {
    let board = pos.board();
    let mut rows: Vec<Vec<char>> = board
        .to_string()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    let size = usize::from(G::SIZE);
    let specials = pos.specials();
    let others = specials.mercenaries() | specials.guards();
    for sq in specials.all() | others {
        let (file, rank) = (usize::from(sq.file()), usize::from(sq.rank()));
        let Some(row) = size.checked_sub(1 + rank).and_then(|r| rows.get_mut(r)) else {
            continue;
        };
        let attacker = board.attackers().contains(sq);
        let Some(letter) = special_letter(specials.soldier_kind(sq), attacker) else {
            continue;
        };
        // The diagram's rank numbers take the first columns, then two per file.
        if let Some(cell) = row.get_mut(4 + 2 * file) {
            *cell = letter;
        }
    }
    let mut out: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    out.push("c n: attacking commander, knight; C N: defending commander, knight".into());
    if others.any() {
        out.push("m g: attacking mercenary, guard; M G: defending mercenary, guard".into());
    }
    if let Some(sq) = pos.berserker() {
        out.push(format!("berserk turn: the piece on {sq} moves again"));
    }
    out.join("\n")
}

/// A Berserk board in OpenTafl's notation, the special pieces with their letters.
pub(crate) fn to_opentafl<G: Geometry>(pos: &BerserkPositionOf<G>) -> String {
    let board = pos.board();
    opentafl_with::<G>(|sq| {
        let attacker = board.attackers().contains(sq);
        if sq == board.king() && !pos.king_taken() {
            Some('K')
        } else if attacker || board.defenders_and_king().contains(sq) {
            let kind = pos.specials().soldier_kind(sq);
            Some(special_letter(kind, attacker).unwrap_or(if attacker { 't' } else { 'T' }))
        } else {
            None
        }
    })
}
