//! The pieces beyond soldier and king that OpenTafl's Berserk has: commanders and knights,
//! as two extra sets over the board's soldiers (docs/RULES.md section 17.10).
//!
//! A commander or knight is, on the [`BoardOf`](super::board::BoardOf), an ordinary soldier
//! of its side; these sets say which soldiers are more. They live beside the board, not in
//! it, so that the rule sets without such pieces (all but Berserk) neither store nor move
//! them: their boards, make-move and move generation are untouched.

use super::bitboard::BitboardOf;
use super::square::SquareOf;

/// What kind a piece is, where kinds differ in jumping and in capturing the king.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum PieceKind {
    /// An ordinary soldier (OpenTafl's `t`/`T`).
    Soldier,
    /// A commander (`c`/`C`).
    Commander,
    /// A knight (`n`/`N`).
    Knight,
    /// The king (`K`).
    King,
}

/// Which soldiers of the board are commanders and which are knights (of either side), and
/// which commanders have not moved yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SpecialPiecesOf<G: super::geometry::Geometry> {
    commanders: BitboardOf<G>,
    knights: BitboardOf<G>,
    /// The commanders that have not moved since the position was set up. OpenTafl marks
    /// a piece when it first moves, and its test "a jumping piece cannot capture against
    /// itself" misses an unmarked commander, so that a commander's first jump counts as a
    /// capturing move (docs/RULES.md section 17.10).
    fresh: BitboardOf<G>,
}

impl<G: super::geometry::Geometry> SpecialPiecesOf<G> {
    /// No commanders and no knights (the tests' board of soldiers only).
    #[cfg(test)]
    pub(crate) const NONE: SpecialPiecesOf<G> = SpecialPiecesOf {
        commanders: BitboardOf::EMPTY,
        knights: BitboardOf::EMPTY,
        fresh: BitboardOf::EMPTY,
    };

    /// The two sets, no commander having moved yet; a square in both counts as a
    /// commander.
    pub(crate) fn new(commanders: BitboardOf<G>, knights: BitboardOf<G>) -> SpecialPiecesOf<G> {
        SpecialPiecesOf {
            commanders,
            knights: knights & !commanders,
            fresh: commanders,
        }
    }

    /// True when the piece on `sq` is a commander that has not moved yet.
    pub(crate) fn fresh_commander(&self, sq: SquareOf<G>) -> bool {
        self.fresh.contains(sq)
    }

    /// The commanders that have not moved yet.
    pub(crate) fn fresh(&self) -> BitboardOf<G> {
        self.fresh
    }

    /// The commanders of both sides.
    pub fn commanders(&self) -> BitboardOf<G> {
        self.commanders
    }

    /// The knights of both sides.
    pub fn knights(&self) -> BitboardOf<G> {
        self.knights
    }

    /// Commanders and knights: the pieces that count in a sandwich of the strong king.
    pub(crate) fn all(&self) -> BitboardOf<G> {
        self.commanders | self.knights
    }

    /// The kind of the soldier on `sq` (a soldier when it is neither).
    pub(crate) fn soldier_kind(&self, sq: SquareOf<G>) -> PieceKind {
        if self.commanders.contains(sq) {
            PieceKind::Commander
        } else if self.knights.contains(sq) {
            PieceKind::Knight
        } else {
            PieceKind::Soldier
        }
    }

    /// Follows a piece moving from `from` to `to` (nothing when it is neither).
    pub(crate) fn move_piece(&mut self, from: SquareOf<G>, to: SquareOf<G>) {
        let m = BitboardOf::from_square(from) | BitboardOf::from_square(to);
        if self.commanders.contains(from) {
            self.commanders ^= m;
            self.fresh &= !BitboardOf::from_square(from);
        } else if self.knights.contains(from) {
            self.knights ^= m;
        }
    }

    /// Forgets the captured pieces.
    pub(crate) fn remove(&mut self, captured: BitboardOf<G>) {
        self.commanders &= !captured;
        self.knights &= !captured;
        self.fresh &= !captured;
    }

    /// These sets under a board symmetry (see [`SquareOf::transform`]).
    pub(crate) fn transform(&self, sym: u8) -> SpecialPiecesOf<G> {
        SpecialPiecesOf {
            commanders: self.commanders.transform(sym),
            knights: self.knights.transform(sym),
            fresh: self.fresh.transform(sym),
        }
    }
}
