//! Why a game of a match ended: by the rules (as the core decides), or by an
//! adjudication against an engine that did not play by the protocol.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::core::excerpt::excerpt;
use crate::core::outcome::Reason as RulesReason;

/// An engine fault that loses the game for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Adjudication {
    /// A move the rules forbid, or a move for the wrong side.
    IllegalMove,
    /// The engine could not be started, exited, or closed its output.
    Crash,
    /// A reply that is not one (garbage, a failure to a move request).
    MalformedReply,
    /// The engine refused a legal move of the game (the opponent's or an opening's).
    RejectedMove,
    /// No reply to a command other than a move request within the reply deadline.
    NoReply,
}

impl Adjudication {
    /// Every adjudication, for parsing.
    pub(crate) const ALL: [Adjudication; 5] = [
        Adjudication::IllegalMove,
        Adjudication::Crash,
        Adjudication::MalformedReply,
        Adjudication::RejectedMove,
        Adjudication::NoReply,
    ];

    /// The name in tables and `.meta` files.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Adjudication::IllegalMove => "illegal_move",
            Adjudication::Crash => "crash",
            Adjudication::MalformedReply => "malformed_reply",
            Adjudication::RejectedMove => "rejected_move",
            Adjudication::NoReply => "no_reply",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MatchReason {
    /// The rules ended it (a win, a draw, a resignation, a loss on time).
    Rules(RulesReason),
    /// An engine fault ended it.
    Adjudicated(Adjudication),
    /// A resumed game whose `.meta` line is missing.
    Unknown,
}

impl MatchReason {
    /// The name in tables and `.meta` files (`king_escaped`, `time`, `crash`, ...).
    pub(crate) const fn name(self) -> &'static str {
        match self {
            MatchReason::Rules(r) => r.protocol_name(),
            MatchReason::Adjudicated(a) => a.name(),
            MatchReason::Unknown => "unknown",
        }
    }
}

impl fmt::Display for MatchReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A reason name that is none of [`MatchReason`]'s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown reason '{0}'")]
pub(crate) struct UnknownReason(pub String);

impl FromStr for MatchReason {
    type Err = UnknownReason;

    fn from_str(s: &str) -> Result<MatchReason, UnknownReason> {
        if s == "unknown" {
            return Ok(MatchReason::Unknown);
        }
        RulesReason::ALL
            .into_iter()
            .map(MatchReason::Rules)
            .chain(Adjudication::ALL.into_iter().map(MatchReason::Adjudicated))
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownReason(excerpt(s)))
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn reason_name() {
        use crate::tools::matches::reason::{Adjudication, MatchReason};
        assert_eq!(
            MatchReason::Adjudicated(Adjudication::NoReply).name(),
            "no_reply"
        );
        assert_eq!(
            "edge_fort".parse::<MatchReason>().unwrap().name(),
            "edge_fort"
        );
        assert!("fell_asleep".parse::<MatchReason>().is_err());
    }
}
