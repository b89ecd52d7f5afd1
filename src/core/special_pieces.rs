//! The pieces beyond soldier and king of OpenTafl's rules strings: commanders, knights,
//! mercenaries and guards, as extra sets over the board's soldiers (docs/RULES.md section
//! 17.10).
//!
//! Such a piece is, on the [`BoardOf`](super::board::BoardOf), an ordinary soldier of its
//! side; these sets say which soldiers are more. They live beside the board, not in
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
    /// A mercenary (`m`/`M`): changes sides when captured.
    Mercenary,
    /// A guard (`g`/`G`): neither captures nor is captured, except by a capturing jump.
    Guard,
    /// The king (`K`).
    King,
}

/// Which soldiers of the board are commanders, knights, mercenaries and guards (of either
/// side), and which pieces have not moved yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SpecialPiecesOf<G: super::geometry::Geometry> {
    commanders: BitboardOf<G>,
    knights: BitboardOf<G>,
    mercenaries: BitboardOf<G>,
    guards: BitboardOf<G>,
    /// The pieces that have not moved since the position was set up (the king among
    /// them). OpenTafl marks a piece when it first moves, and its test "a jumping piece
    /// cannot capture against itself" misses an unmarked piece, so that the first jump of
    /// a piece that jumps without capturing counts as a capturing move (docs/RULES.md
    /// section 17.10). A mercenary changing sides keeps its mark.
    fresh: BitboardOf<G>,
}

impl<G: super::geometry::Geometry> SpecialPiecesOf<G> {
    /// No commanders and no knights (the tests' board of soldiers only).
    #[cfg(test)]
    pub(crate) const NONE: SpecialPiecesOf<G> = SpecialPiecesOf {
        commanders: BitboardOf::EMPTY,
        knights: BitboardOf::EMPTY,
        mercenaries: BitboardOf::EMPTY,
        guards: BitboardOf::EMPTY,
        fresh: BitboardOf::EMPTY,
    };

    /// Commanders and knights only, none having moved yet; a square in both counts as a
    /// commander.
    pub(crate) fn new(commanders: BitboardOf<G>, knights: BitboardOf<G>) -> SpecialPiecesOf<G> {
        let knights = knights & !commanders;
        SpecialPiecesOf {
            commanders,
            knights,
            mercenaries: BitboardOf::EMPTY,
            guards: BitboardOf::EMPTY,
            fresh: commanders | knights,
        }
    }

    /// The same with `mercenaries` and `guards` (squares not already taken by a
    /// commander or knight), none of them having moved yet.
    pub(crate) fn with_mercenaries_and_guards(
        self,
        mercenaries: BitboardOf<G>,
        guards: BitboardOf<G>,
    ) -> SpecialPiecesOf<G> {
        let taken = self.commanders | self.knights;
        let mercenaries = mercenaries & !taken;
        let guards = guards & !taken & !mercenaries;
        SpecialPiecesOf {
            mercenaries,
            guards,
            fresh: self.fresh | mercenaries | guards,
            ..self
        }
    }

    /// The same with the piece on `sq` (the king) not moved yet either.
    pub(crate) fn with_fresh(self, sq: SquareOf<G>) -> SpecialPiecesOf<G> {
        SpecialPiecesOf {
            fresh: self.fresh | BitboardOf::from_square(sq),
            ..self
        }
    }

    /// True when the piece on `sq` has not moved yet.
    pub(crate) fn is_fresh(&self, sq: SquareOf<G>) -> bool {
        self.fresh.contains(sq)
    }

    /// The pieces that have not moved yet.
    pub(crate) fn fresh(&self) -> BitboardOf<G> {
        self.fresh
    }

    /// The mercenaries of both sides.
    pub fn mercenaries(&self) -> BitboardOf<G> {
        self.mercenaries
    }

    /// The guards of both sides.
    pub fn guards(&self) -> BitboardOf<G> {
        self.guards
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
        } else if self.mercenaries.contains(sq) {
            PieceKind::Mercenary
        } else if self.guards.contains(sq) {
            PieceKind::Guard
        } else {
            PieceKind::Soldier
        }
    }

    /// Follows a piece moving from `from` to `to` (the king or a soldier too: it is no
    /// longer fresh).
    pub(crate) fn move_piece(&mut self, from: SquareOf<G>, to: SquareOf<G>) {
        let m = BitboardOf::from_square(from) | BitboardOf::from_square(to);
        self.fresh &= !BitboardOf::from_square(from);
        for set in [
            &mut self.commanders,
            &mut self.knights,
            &mut self.mercenaries,
            &mut self.guards,
        ] {
            if set.contains(from) {
                *set ^= m;
                return;
            }
        }
    }

    /// Forgets the captured pieces (mercenaries, which change sides instead, stay).
    pub(crate) fn remove(&mut self, captured: BitboardOf<G>) {
        let gone = captured & !self.mercenaries;
        self.commanders &= !gone;
        self.knights &= !gone;
        self.guards &= !gone;
        self.fresh &= !gone;
    }

    /// These sets under a board symmetry (see [`SquareOf::transform`]).
    pub(crate) fn transform(&self, sym: u8) -> SpecialPiecesOf<G> {
        SpecialPiecesOf {
            commanders: self.commanders.transform(sym),
            knights: self.knights.transform(sym),
            mercenaries: self.mercenaries.transform(sym),
            guards: self.guards.transform(sym),
            fresh: self.fresh.transform(sym),
        }
    }
}
