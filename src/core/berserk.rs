//! OpenTafl's Berserk as rule data: how each kind of piece jumps, whether a capture gives
//! the capturing piece another move, and which sides have commanders or knights
//! (docs/RULES.md section 17.10). Kept out of [`RuleSet`](super::rules::RuleSet), which the
//! ordinary rule sets' hot paths read, so that they pay nothing for it.

use super::role::Role;
use super::special_pieces::PieceKind;

/// How a kind of piece jumps (OpenTafl's `kj`, `nj`, `cj`).
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
    /// The berserk turn (`ber`).
    pub(crate) berserk: BerserkMode,
    /// The attackers started with commanders or knights. OpenTafl decides this once, from
    /// the start position: then the strong king falls only to a commander sandwich.
    pub(crate) attackers_special: bool,
    /// The defenders started with commanders or knights.
    pub(crate) defenders_special: bool,
}

impl PieceRules {
    /// OpenTafl's Berserk 11x11 (what the tests expect its rules string to read as).
    #[cfg(test)]
    pub(crate) const BERSERK: PieceRules = PieceRules {
        king_jump: JumpMode::Restricted,
        knight_jump: JumpMode::Capture,
        commander_jump: JumpMode::Jump,
        berserk: BerserkMode::CaptureAgain,
        attackers_special: true,
        defenders_special: true,
    };

    /// How a piece of `kind` jumps; soldiers never do.
    pub(crate) fn jump(&self, kind: PieceKind) -> JumpMode {
        match kind {
            PieceKind::Soldier => JumpMode::None,
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
