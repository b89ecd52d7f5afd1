//! Where a piece of the special-piece game slides (OpenTafl's `Taflman.getAllowableMovesFrom`
//! and `getAllowableDestinationsFrom`; docs/RULES.md section 17.10): as a rook, the empty
//! throne a wall to a kind of piece that may not pass it (the guards, by OpenTafl's default
//! lists), never onto a square it may not stop on; and whether it could take one step,
//! which is what the berserk rule `ber:m` asks.

use super::berserk::PieceRules;
use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;
use super::movegen::slides;
use super::role::Role;
use super::rules::RuleSet;
use super::special_pieces::PieceKind;
use super::square::{Direction, SquareOf};

/// The throne when it is empty and pieces of `role` and `kind` may not pass it.
fn throne_wall<G: Geometry>(
    board: &BoardOf<G>,
    rules: &RuleSet,
    pieces: &PieceRules,
    role: Role,
    kind: PieceKind,
) -> BitboardOf<G> {
    if rules.throne && !pieces.throne_passers.has(role, kind) {
        BitboardOf::THRONE & board.empty()
    } else {
        BitboardOf::EMPTY
    }
}

/// The squares a piece of `role` and `kind` on `from` may slide to and stop on.
pub(crate) fn slide_targets<G: Geometry>(
    board: &BoardOf<G>,
    rules: &RuleSet,
    pieces: &PieceRules,
    role: Role,
    kind: PieceKind,
    from: SquareOf<G>,
) -> BitboardOf<G> {
    let barred = if kind == PieceKind::King {
        rules.king_barred::<G>()
    } else {
        rules.restricted::<G>()
    };
    let walls = throne_wall(board, rules, pieces, role, kind);
    slides(from, board.occupied() | walls) & !barred
}

/// True when the piece could take a step: some neighbour empty and one it may pass,
/// whether or not it may stop there (OpenTafl's `getAllowableMoves` is not empty; jumps do
/// not count).
pub(crate) fn can_step<G: Geometry>(
    board: &BoardOf<G>,
    rules: &RuleSet,
    pieces: &PieceRules,
    role: Role,
    kind: PieceKind,
    from: SquareOf<G>,
) -> bool {
    let mut closed = board.occupied() | throne_wall(board, rules, pieces, role, kind);
    if !pieces.corner_passers.has(role, kind) {
        closed |= rules.corner_squares::<G>();
    }
    Direction::ALL
        .into_iter()
        .filter_map(|d| from.step(d))
        .any(|n| !closed.contains(n))
}
