//! The game a match plays, of either kind: a rule family's or an ordinary rules
//! string's on the match's board, or a Berserk rules string's (OpenTafl's Berserk 11x11,
//! docs/RULES.md section 17.10), which its own game and records play.

use std::fmt;

use crate::core::berserk_game::BerserkGameOf;
use crate::core::berserk_variant::BerserkVariant;
use crate::core::geometry::{BoardSize, S11};
use crate::core::role::Role;
use crate::core::variant::Variant;

/// The game of a match.
#[derive(Clone, Debug)]
pub(crate) enum MatchGame {
    /// A rule family's game on the match's board, or an ordinary rules string's.
    Ordinary(Variant),
    /// A Berserk rules string's game, with the game at its start (made, and so checked,
    /// when the match is configured).
    Berserk {
        /// The rules string's game.
        variant: BerserkVariant,
        /// A game at the start position, which each game of the match starts from (boxed:
        /// the special-piece game is several times an ordinary variant's size).
        start: Box<BerserkGameOf<S11>>,
    },
}

impl MatchGame {
    /// The board's size.
    pub(crate) fn size(&self) -> BoardSize {
        match self {
            MatchGame::Ordinary(v) => v.size(),
            MatchGame::Berserk { variant, .. } => variant.size(),
        }
    }

    /// The game's name.
    pub(crate) fn name(&self) -> &str {
        match self {
            MatchGame::Ordinary(v) => v.name(),
            MatchGame::Berserk { variant, .. } => variant.name(),
        }
    }

    /// The side that moves first.
    pub(crate) fn first(&self) -> Role {
        match self {
            MatchGame::Ordinary(v) => v.first(),
            MatchGame::Berserk { variant, .. } => variant.first(),
        }
    }
}

impl fmt::Display for MatchGame {
    /// As a variant shows itself: `Berserk 11x11`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchGame::Ordinary(v) => write!(f, "{v}"),
            MatchGame::Berserk { variant, .. } => {
                let size = variant.size();
                write!(f, "{} {size}x{size}", variant.name())
            }
        }
    }
}
