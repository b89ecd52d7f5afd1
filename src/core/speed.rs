//! Speed limits: how far a piece may slide in one move (OpenTafl's `spd:`; Magpie's king
//! moves one square). Data only; the move generator applies them.

use super::geometry::Geometry;
use super::role::Role;
use super::square::SquareOf;

/// The most squares each kind of piece may slide in one move; `None` for as far as the
/// line is free. hnefi's pieces are the two sides' soldiers and the king.
///
/// ```
/// use hnefi::core::role::Role;
/// use hnefi::core::speed::SpeedLimits;
/// let magpie = SpeedLimits { king: Some(1), ..SpeedLimits::NONE };
/// assert_eq!(magpie.soldier(Role::Attacker), None);
/// assert!(SpeedLimits::NONE.is_none() && !magpie.is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct SpeedLimits {
    /// The attackers' soldiers.
    pub attacker: Option<u8>,
    /// The defenders' soldiers.
    pub defender: Option<u8>,
    /// The king.
    pub king: Option<u8>,
}

impl SpeedLimits {
    /// No limit for any piece: every rule set but Magpie.
    pub const NONE: SpeedLimits = SpeedLimits {
        attacker: None,
        defender: None,
        king: None,
    };

    /// The limit of `role`'s soldiers.
    #[inline(always)]
    pub fn soldier(&self, role: Role) -> Option<u8> {
        match role {
            Role::Attacker => self.attacker,
            Role::Defender => self.defender,
        }
    }

    /// The limit of a piece of `role`: the king's when `king`, else its soldiers'.
    #[inline(always)]
    pub(crate) fn of(&self, role: Role, king: bool) -> Option<u8> {
        if king { self.king } else { self.soldier(role) }
    }

    /// True when a slide from `from` to `to` (on one line) is within `limit`.
    #[inline(always)]
    pub(crate) fn allows<G: Geometry>(
        limit: Option<u8>,
        from: SquareOf<G>,
        to: SquareOf<G>,
    ) -> bool {
        limit.is_none_or(|l| from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) <= l)
    }

    /// True when no piece has a limit (the move generator's fast paths).
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        // Not `== NONE`: the derived comparison of three options branches on each.
        (self.attacker.is_none() & self.defender.is_none()) & self.king.is_none()
    }
}
