//! The king's rules that differ between rule sets: how he is captured, whether he takes
//! part in captures, and where he escapes (docs/RULES.md sections 5 and 17).

use std::fmt;

/// How the attackers capture the king. In every mode the attacker that has just moved
/// must be one of the captors (next to him).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KingCapture {
    /// Copenhagen's: all four neighbours are attackers or squares hostile to him; never on
    /// the edge (OpenTafl `ks:s`).
    Strong,
    /// All his neighbours on the board are attackers or hostile squares, so the edge
    /// counts as hostile (OpenTafl `ks:m`).
    Middleweight,
    /// Like a soldier: the arriving attacker and, on the far side of him along the line of
    /// that move, an attacker or a square hostile to him (OpenTafl `ks:w`).
    Weak,
    /// Four attackers on the throne, otherwise like [`KingCapture::Weak`]: the
    /// hnefatafl.org server's 7x7 game.
    StrongOnThrone,
    /// Four attackers on the throne, beside it all four sides hostile (three attackers
    /// and the throne where it is hostile to him), otherwise like [`KingCapture::Weak`]
    /// (OpenTafl `ks:c`).
    StrongNearThrone,
}

/// Whether the king takes part in the capture of attackers.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KingArmed {
    /// As the moving piece and as the far piece (OpenTafl `ka:y`).
    Yes,
    /// Never (`ka:n`).
    No,
    /// Only as the moving piece (`ka:h`).
    HammerOnly,
    /// Only as the far piece (`ka:a`).
    AnvilOnly,
}

impl KingArmed {
    /// True when a king move can capture.
    #[inline(always)]
    pub(crate) const fn hammer(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::HammerOnly)
    }

    /// True when the king is hostile to attackers as the far piece of a capture.
    #[inline(always)]
    pub(crate) const fn anvil(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::AnvilOnly)
    }
}

/// Where the king escapes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Escape {
    /// A corner (OpenTafl `esc:c`).
    Corners,
    /// Any edge square (OpenTafl `esc:e`).
    Edges,
}

/// To whom a special square (a corner, the empty throne) is hostile: it takes part in a
/// capture of that piece as if it were an enemy.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Hostility {
    /// Attacking soldiers.
    pub(crate) attackers: bool,
    /// Defending soldiers.
    pub(crate) defenders: bool,
    /// The king (in the modes of [`KingCapture`] that use hostile squares).
    pub(crate) king: bool,
}

impl Hostility {
    /// Hostile to every piece.
    pub(crate) const ALL: Hostility = Hostility {
        attackers: true,
        defenders: true,
        king: true,
    };
    /// Hostile to the soldiers of both sides, not to the king.
    pub(crate) const SOLDIERS: Hostility = Hostility {
        attackers: true,
        defenders: true,
        king: false,
    };
    /// Hostile to nobody.
    pub(crate) const NONE: Hostility = Hostility {
        attackers: false,
        defenders: false,
        king: false,
    };
}

impl fmt::Display for KingCapture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KingCapture::Strong => "strong",
            KingCapture::Middleweight => "middleweight",
            KingCapture::Weak => "weak",
            KingCapture::StrongOnThrone => "strong-on-throne",
            KingCapture::StrongNearThrone => "strong-near-throne",
        })
    }
}
