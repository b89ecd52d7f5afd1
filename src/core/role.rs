//! The two sides.

use std::fmt;
use std::str::FromStr;

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
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Role {
        match self {
            Role::Attacker => Role::Defender,
            Role::Defender => Role::Attacker,
        }
    }

    /// Plural name as used by the rules text: `attackers` or `defenders`.
    pub const fn plural(self) -> &'static str {
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
            _ => Err(RoleError::Invalid(s.chars().take(16).collect())),
        }
    }
}
