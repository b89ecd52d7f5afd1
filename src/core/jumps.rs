//! Jumps (OpenTafl's `kj`, `nj`, `cj`; `Taflman.getJumpsFrom`, `checkJumpDestination`):
//! where a king, knight or commander may jump over an adjacent enemy (docs/RULES.md
//! section 17.10).

use super::berserk::{JumpMode, PieceRules};
use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;
use super::role::Role;
use super::rules::RuleSet;
use super::special_pieces::{PieceKind, SpecialPiecesOf};
use super::square::{Direction, SquareOf};

/// The squares a piece of `role` and `kind` on `from` may jump to: over one orthogonally
/// adjacent enemy that is neither the king nor a commander nor a knight, to the empty
/// square right behind it, if the piece may stop there; a restricted jumper only from or
/// to a special square (throne or corner).
pub(crate) fn jump_targets<G: Geometry>(
    board: &BoardOf<G>,
    specials: &SpecialPiecesOf<G>,
    rules: &RuleSet,
    pieces: &PieceRules,
    role: Role,
    kind: PieceKind,
    from: SquareOf<G>,
) -> BitboardOf<G> {
    let mode = pieces.jump(kind);
    if mode == JumpMode::None {
        return BitboardOf::EMPTY;
    }
    // Only plain enemy soldiers may be jumped: OpenTafl's test reads the piece's type.
    let jumpable = board.soldiers(role.opponent()) & !specials.all();
    let special = rules.restricted::<G>();
    let barred = if kind == PieceKind::King {
        rules.king_barred::<G>()
    } else {
        special
    };
    let empty = board.empty();
    let mut targets = BitboardOf::EMPTY;
    for dir in Direction::ALL {
        let Some(over) = from.step(dir) else { continue };
        // Off the board behind the jumped piece (it stands on the edge): no jump.
        let Some(to) = over.step(dir) else { continue };
        if !jumpable.contains(over) || !empty.contains(to) || barred.contains(to) {
            continue;
        }
        if mode == JumpMode::Restricted && !special.contains(from) && !special.contains(to) {
            continue;
        }
        targets.insert(to);
    }
    targets
}
