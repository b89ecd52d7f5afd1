//! The two sides.

use std::fmt;
use std::str::FromStr;

use super::excerpt::excerpt;
use thiserror::Error;

/// A side: the attackers (24 pieces, "black", they move first) or the defenders (12
/// soldiers and the king, "white").
///
/// ```
/// use hnefi::core::role::Role;
/// assert_eq!("black".parse::<Role>(), Ok(Role::Attacker));
/// assert_eq!("D".parse::<Role>(), Ok(Role::Defender));
/// assert_eq!(Role::Attacker.opponent(), Role::Defender);
/// assert_eq!(Role::Defender.to_string(), "defender");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    /// The attackers.
    Attacker,
    /// The defenders, king included.
    Defender,
}

/// Why a role name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RoleError {
    /// Not one of the accepted names.
    #[error("invalid role '{0}': expected attacker or defender")]
    Invalid(String),
}

impl Role {
    /// Both sides, attackers first.
    pub(crate) const ALL: [Role; 2] = [Role::Attacker, Role::Defender];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Role {
        match self {
            Role::Attacker => Role::Defender,
            Role::Defender => Role::Attacker,
        }
    }

    /// Plural name as used by the rules text: `attackers` or `defenders`.
    pub(crate) const fn plural(self) -> &'static str {
        match self {
            Role::Attacker => "attackers",
            Role::Defender => "defenders",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        })
    }
}

impl FromStr for Role {
    type Err = RoleError;

    /// Accepts `attacker`, `attackers`, `a`, `black`, `b`, `defender`, `defenders`, `d`,
    /// `white`, `w`, in any case.
    fn from_str(s: &str) -> Result<Role, RoleError> {
        match s.to_ascii_lowercase().as_str() {
            "attacker" | "attackers" | "a" | "black" | "b" => Ok(Role::Attacker),
            "defender" | "defenders" | "d" | "white" | "w" => Ok(Role::Defender),
            _ => Err(RoleError::Invalid(excerpt(s))),
        }
    }
}

/// One value per side, indexed by [`Role`] (as shakmaty's `ByColor`): the one place that
/// maps a side to a slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct ByRole<T> {
    /// The attackers' value.
    pub(crate) attacker: T,
    /// The defenders' value.
    pub(crate) defender: T,
}

impl<T> ByRole<T> {
    /// A value for each side from a function of the side.
    pub(crate) fn new_with(mut f: impl FnMut(Role) -> T) -> ByRole<T> {
        ByRole {
            attacker: f(Role::Attacker),
            defender: f(Role::Defender),
        }
    }

    /// The value of `role`.
    #[inline(always)]
    pub(crate) const fn get(&self, role: Role) -> &T {
        match role {
            Role::Attacker => &self.attacker,
            Role::Defender => &self.defender,
        }
    }

    /// The value of `role`, mutably.
    #[inline(always)]
    pub(crate) const fn get_mut(&mut self, role: Role) -> &mut T {
        match role {
            Role::Attacker => &mut self.attacker,
            Role::Defender => &mut self.defender,
        }
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn by_role() {
        use crate::core::role::{ByRole, Role};
        let mut captures = ByRole::<u32>::default();
        *captures.get_mut(Role::Defender) += 2;
        assert_eq!(*captures.get(Role::Defender), 2);
        assert_eq!(
            captures,
            ByRole {
                attacker: 0,
                defender: 2
            }
        );
    }
}
