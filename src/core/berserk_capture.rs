//! Captures among commanders, knights, mercenaries and guards as OpenTafl 0.4.8 makes them
//! (`Taflman.moveTo`, `isCapturedBy`, `checkSandwichCapture`, `getCapturingMoves`;
//! docs/RULES.md section 17.10): custodial captures by the moving piece, the strong king
//! taken only by a commander sandwich when the capturing side has commanders or knights,
//! guards that neither take nor are taken nor are hostile, and whether a piece has a
//! capturing move (what the berserk turn asks).

use super::berserk::{JumpMode, PieceRules};
use super::berserk_slides::slide_targets;
use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;
use super::king::KingCapture;
use super::role::Role;
use super::rules::RuleSet;
use super::special_pieces::{PieceKind, SpecialPiecesOf};
use super::square::{Direction, SquareOf};

/// The pieces a move takes: soldiers (commanders and knights included) and the king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Taken<G: Geometry> {
    /// The soldiers taken.
    pub soldiers: BitboardOf<G>,
    /// The king is taken.
    pub king: bool,
}

/// The board as a Berserk capture test reads it: the pieces, the commanders and knights
/// among them, and the rules of squares, king and jumps.
#[derive(Clone, Copy)]
pub(crate) struct CaptureBoard<'a, G: Geometry> {
    pub(crate) board: &'a BoardOf<G>,
    pub(crate) specials: &'a SpecialPiecesOf<G>,
    pub(crate) rules: &'a RuleSet,
    pub(crate) pieces: &'a PieceRules,
}

impl<G: Geometry> CaptureBoard<'_, G> {
    /// True when the square's kind (corner, throne) is hostile to pieces of `victim`;
    /// `occupied` picks the throne's list for an occupied throne (`cenh`, which hnefi
    /// lets name attackers only) or for an empty one (`cenhe`). OpenTafl reads these by
    /// side: the king is a defender here.
    fn kind_hostile(&self, sq: SquareOf<G>, victim: Role, occupied: bool) -> bool {
        if occupied && self.rules.throne && sq.is_throne() {
            return victim == Role::Attacker && self.rules.occupied_throne_hostile;
        }
        self.rules.hostile_squares::<G>(victim, false).contains(sq)
    }

    /// True when `sq` is hostile to a piece of `victim` (`BoardImpl.isSpaceHostileTo`):
    /// an enemy piece stands on it (the enemy king only as an anvil, an enemy guard
    /// never, whatever the square), or its kind is.
    pub(crate) fn hostile(&self, sq: SquareOf<G>, victim: Role) -> bool {
        let b = self.board;
        if b.pieces(victim.opponent()).contains(sq) {
            if self.specials.guards().contains(sq) {
                return false;
            }
            let unarmed_king =
                victim == Role::Attacker && sq == b.king() && !self.rules.king_armed.anvil();
            return !unarmed_king || self.kind_hostile(sq, victim, true);
        }
        let occupied = b.pieces(victim).contains(sq);
        self.kind_hostile(sq, victim, occupied)
    }

    /// A hostile corner: half of a commander sandwich.
    fn hostile_corner(&self, sq: SquareOf<G>, victim: Role) -> bool {
        self.rules.corner_squares::<G>().contains(sq) && self.hostile(sq, victim)
    }

    /// What a piece of `role` and `kind` arriving on `to` would take, read on this board.
    /// `exempt` is the mover's start square while it still stands there, when that square
    /// is an ordinary one: OpenTafl's "a jumping piece cannot capture against itself".
    /// `count_mover` counts a commander or knight standing on `to` as a sandwich piece
    /// beside the mover itself (OpenTafl counts the moving commander twice once it has
    /// moved).
    pub(crate) fn victims(
        &self,
        role: Role,
        kind: PieceKind,
        to: SquareOf<G>,
        exempt: Option<SquareOf<G>>,
        count_mover: bool,
    ) -> Taken<G> {
        let mut taken = Taken {
            soldiers: BitboardOf::EMPTY,
            king: false,
        };
        // An unarmed king and a guard take nothing.
        if (kind == PieceKind::King && !self.rules.king_armed.hammer()) || kind == PieceKind::Guard
        {
            return taken;
        }
        let foe = role.opponent();
        let b = self.board;
        // Guards are never taken by a sandwich (a capturing jump takes them: `play`).
        let victims = b.pieces(foe) & !self.specials.guards();
        for dir in Direction::ALL {
            let Some(y) = to.step(dir) else { continue };
            if !victims.contains(y) {
                continue;
            }
            // A piece on the edge is never sandwiched across it.
            let Some(far) = y.step(dir) else { continue };
            if exempt == Some(far) || !self.hostile(far, foe) {
                continue;
            }
            if foe == Role::Defender && y == b.king() {
                taken.king |= self.king_taken(role, kind, to, y, far, count_mover);
            } else {
                taken.soldiers.insert(y);
            }
        }
        taken
    }

    /// The king on `king`, sandwiched between the mover on `to` and the hostile `far`.
    fn king_taken(
        &self,
        role: Role,
        kind: PieceKind,
        to: SquareOf<G>,
        king: SquareOf<G>,
        far: SquareOf<G>,
        count_mover: bool,
    ) -> bool {
        if self.rules.king_capture == KingCapture::Weak {
            return true;
        }
        if self.pieces.has_special(role) {
            // The commander sandwich: never on or against the throne.
            let throne = |s: SquareOf<G>| self.rules.throne && s.is_throne();
            if throne(far) || throne(king) || throne(to) {
                return false;
            }
            let special = self.specials.all();
            let mover = matches!(kind, PieceKind::Commander | PieceKind::Knight);
            let count = u32::from(special.contains(far))
                + u32::from(count_mover && special.contains(to))
                + u32::from(mover)
                + u32::from(self.hostile_corner(far, Role::Defender))
                + u32::from(self.hostile_corner(to, Role::Defender));
            return count >= 2;
        }
        // Strong, without commanders: all four sides hostile (never on the edge).
        let mut hostile_sides = 0;
        for dir in Direction::ALL {
            if let Some(n) = king.step(dir)
                && (n == to || self.hostile(n, Role::Defender))
            {
                hostile_sides += 1;
            }
        }
        hostile_sides == 4
    }

    /// What a move of a piece of `role` and `kind` to `to` takes, read on the board after
    /// it (the piece on `to`, a soldier it jumped and captured already off), the jumped
    /// capture aside, and whether OpenTafl listed the move as capturing beforehand
    /// (`Taflman.getCapturingMoves`): it applies a move's captures only then, and marks a
    /// jump (`^`) only then. Beforehand the moving commander was not yet beside the king
    /// and counted once, so a king taken only by the double count is taken only when the
    /// move is listed for something else. A capturing jump is always listed, and so is
    /// any jump of a `fresh` mover (a commander that has not moved yet, whose start
    /// square OpenTafl takes for another piece's, against which the jumped one would be
    /// taken).
    pub(crate) fn captures_after(
        &self,
        role: Role,
        kind: PieceKind,
        to: SquareOf<G>,
        jumped_taken: bool,
        fresh_jump: bool,
    ) -> (Taken<G>, bool) {
        let mut taken = self.victims(role, kind, to, None, true);
        let listed_before = jumped_taken
            || fresh_jump
            || taken.soldiers.any()
            || (taken.king && self.victims(role, kind, to, None, false).king);
        if !listed_before {
            taken.king = false;
        }
        (taken, listed_before)
    }

    /// True when the piece of `role` and `kind` on `from` has a move that would capture,
    /// as OpenTafl reckons it before the move (`Taflman.getCapturingMoves`): every jump of
    /// a capturing jumper, and every destination beside an enemy it would take.
    pub(crate) fn has_capturing_move(
        &self,
        role: Role,
        kind: PieceKind,
        from: SquareOf<G>,
        jumps: BitboardOf<G>,
    ) -> bool {
        if self.pieces.jump(kind) == JumpMode::Capture && jumps.any() {
            return true;
        }
        let exempt = (!self.rules.restricted::<G>().contains(from)).then_some(from);
        let slides = slide_targets(self.board, self.rules, self.pieces, role, kind, from);
        let targets = slides | jumps;
        targets.into_iter().any(|to| {
            let t = self.victims(role, kind, to, exempt, false);
            t.king || t.soldiers.any()
        })
    }
}
