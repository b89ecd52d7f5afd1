//! How encirclement is judged, as data of the rule set (docs/RULES.md section 7); the test
//! itself is [`is_encircled`](super::encirclement::is_encircled).

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
    pub(crate) const ALL: [EncirclementMode; 2] =
        [EncirclementMode::MultiPocket, EncirclementMode::SingleRing];

    /// The name used by the protocol and the rule cases.
    pub(crate) const fn name(self) -> &'static str {
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
