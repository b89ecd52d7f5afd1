//! OpenTafl's Berserk as rule data: how each kind of piece jumps, whether a capture gives
//! the capturing piece another move, which sides have commanders or knights, and who may
//! pass the throne and the corners (docs/RULES.md section 17.10). Kept out of [`RuleSet`](super::rules::RuleSet), which the
//! ordinary rule sets' hot paths read, so that they pay nothing for it.

use super::role::Role;
use super::special_pieces::PieceKind;

/// How a kind of piece jumps (OpenTafl's `kj`, `nj`, `cj`, `mj`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) enum JumpMode {
    /// No jumps (`n`).
    None,
    /// Over an adjacent enemy soldier to the empty square behind it (`j`).
    Jump,
    /// The same, and the jumped soldier is captured (`c`).
    Capture,
    /// Only from or to a special square (throne, corner), no capture by the jump (`r`).
    Restricted,
}

/// What a capture does to the turn (OpenTafl's `ber`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) enum BerserkMode {
    /// The turn passes after every move (`n`).
    Off,
    /// After a capture the same piece moves again if it has a capturing move (`c`).
    CaptureAgain,
    /// After a capture the same piece moves again if it has any slide (`m`).
    AnyMove,
}

/// A set of kinds of piece by side, as the letters of an OpenTafl piece list
/// (`tcnkmgTCNKMG`) name them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) struct KindSet(u16);

impl KindSet {
    /// The letters of OpenTafl's piece lists, attackers first, in the order of [`KindSet::bit`].
    const LETTERS: &'static str = "tcnkmgTCNKMG";

    /// The kinds a piece list names (letters outside the list are ignored).
    pub(crate) fn from_letters(list: &str) -> KindSet {
        let mut bits = 0u16;
        for (i, c) in Self::LETTERS.chars().enumerate() {
            if list.contains(c) {
                bits |= 1 << i;
            }
        }
        KindSet(bits)
    }

    /// The kinds in both sets.
    pub(crate) fn and(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    fn bit(role: Role, kind: PieceKind) -> u16 {
        let k = match kind {
            PieceKind::Soldier => 0,
            PieceKind::Commander => 1,
            PieceKind::Knight => 2,
            PieceKind::King => 3,
            PieceKind::Mercenary => 4,
            PieceKind::Guard => 5,
        };
        let side = match role {
            Role::Attacker => 0,
            Role::Defender => 6,
        };
        1 << (k + side)
    }

    /// True when the set holds pieces of `role` and `kind`.
    pub(crate) fn has(self, role: Role, kind: PieceKind) -> bool {
        self.0 & Self::bit(role, kind) != 0
    }
}

/// The rules of commanders, knights, jumps and the berserk turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PieceRules {
    /// How the king jumps (`kj`).
    pub(crate) king_jump: JumpMode,
    /// How knights jump (`nj`).
    pub(crate) knight_jump: JumpMode,
    /// How commanders jump (`cj`).
    pub(crate) commander_jump: JumpMode,
    /// How mercenaries jump (`mj`; guards never jump, whatever `gj` says).
    pub(crate) mercenary_jump: JumpMode,
    /// The berserk turn (`ber`).
    pub(crate) berserk: BerserkMode,
    /// The attackers started with commanders or knights. OpenTafl decides this once, from
    /// the start position: then the strong king falls only to a commander sandwich.
    pub(crate) attackers_special: bool,
    /// The defenders started with commanders or knights.
    pub(crate) defenders_special: bool,
    /// Who may pass the empty throne (`cenp`, and `cenre` for those not on it): OpenTafl's
    /// default lists leave the guards out, to whom the throne is then a wall.
    pub(crate) throne_passers: KindSet,
    /// Who may pass a corner (`corp`, and `corre`): only the king may stop there, so
    /// this matters only to the berserk rule `ber:m`, which asks whether a piece could
    /// take a step.
    pub(crate) corner_passers: KindSet,
}

impl PieceRules {
    /// OpenTafl's Berserk 11x11 (what the tests expect its rules string to read as).
    #[cfg(test)]
    pub(crate) const BERSERK: PieceRules = PieceRules {
        king_jump: JumpMode::Restricted,
        knight_jump: JumpMode::Capture,
        commander_jump: JumpMode::Jump,
        mercenary_jump: JumpMode::None,
        berserk: BerserkMode::CaptureAgain,
        attackers_special: true,
        defenders_special: true,
        // OpenTafl's defaults: `tcnkmTCNKM` may pass the throne, `K` a corner.
        throne_passers: KindSet(0b0111_1101_1111),
        corner_passers: KindSet(0b0010_0000_0000),
    };

    /// How a piece of `kind` jumps; soldiers and guards never do.
    pub(crate) fn jump(&self, kind: PieceKind) -> JumpMode {
        match kind {
            PieceKind::Soldier | PieceKind::Guard => JumpMode::None,
            PieceKind::Mercenary => self.mercenary_jump,
            PieceKind::Commander => self.commander_jump,
            PieceKind::Knight => self.knight_jump,
            PieceKind::King => self.king_jump,
        }
    }

    /// True when `role` started with commanders or knights.
    pub(crate) fn has_special(&self, role: Role) -> bool {
        match role {
            Role::Attacker => self.attackers_special,
            Role::Defender => self.defenders_special,
        }
    }
}
