//! Encirclement, tested after attacker moves (docs/RULES.md section 7).

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::Geometry;

/// How encirclement is judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum EncirclementMode {
    /// Every defender, in any number of pockets, is cut off from the edge (the default).
    #[default]
    MultiPocket,
    /// The king's region is cut off from the edge and holds every defender.
    SingleRing,
}

impl EncirclementMode {
    /// Both modes, default first.
    pub const ALL: [EncirclementMode; 2] =
        [EncirclementMode::MultiPocket, EncirclementMode::SingleRing];

    /// The name used by the protocol and the rule cases.
    pub const fn name(self) -> &'static str {
        match self {
            EncirclementMode::MultiPocket => "multi-pocket",
            EncirclementMode::SingleRing => "single-ring",
        }
    }
}

impl std::fmt::Display for EncirclementMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown encirclement mode name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid encirclement mode '{0}': expected multi-pocket or single-ring")]
pub struct EncirclementModeError(pub String);

impl std::str::FromStr for EncirclementMode {
    type Err = EncirclementModeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EncirclementMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| EncirclementModeError(s.chars().take(40).collect()))
    }
}

/// True when the attackers have encircled the defenders.
///
/// Multi-pocket: the squares reachable from any defender or the king through squares
/// without an attacker include no edge square (corners count as edge squares).
///
/// ```text
///  9  . . X X X . . . . . .     E4: after a3-a4 the defenders stand in two
///  8  . X . O . X . . . . .     sealed pockets; the attackers win.
///  7  . X . . . X . X X X .
///  6  . . X X X . X . K . X
///  5  . . . . . . . X . . X
///  4  X . . . . . . . X X .
///     a b c d e f g h i j k
/// ```
#[inline]
pub fn is_encircled<G: Geometry>(board: &BoardOf<G>, mode: EncirclementMode) -> bool {
    let passable = !board.attackers();
    let mut fill = match mode {
        EncirclementMode::MultiPocket => board.defenders_and_king(),
        EncirclementMode::SingleRing => board.king_bb(),
    };
    // Grow by whole lines until the fill touches the edge or stops growing.
    loop {
        if (fill & BitboardOf::<G>::EDGE).any() {
            return false;
        }
        let next = fill | fill.slide_fill(passable);
        if next == fill {
            break;
        }
        fill = next;
    }
    match mode {
        EncirclementMode::MultiPocket => true,
        EncirclementMode::SingleRing => (board.defenders() & !fill).is_empty(),
    }
}
