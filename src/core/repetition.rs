//! The repetition rule as data: its modes (docs/RULES.md section 8), the sides each
//! concerns, and the [`Verdict`] it gives a move. The rule set holds a mode; the
//! positions it compares are the [`PositionHistory`](super::history::PositionHistory)'s,
//! above the position, which judges a move by the mode.
//!
//! Adding a mode: a variant with its name here, the sides it concerns in
//! [`RepetitionMode::restricts`], and its verdict in
//! [`PositionHistory::judge`](super::history::PositionHistory::judge) (for a mode that
//! ends the game on a third occurrence, in [`RepetitionMode::third_occurrence_ends`]).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::excerpt::excerpt;
use super::role::Role;

/// The repetition rule (docs/RULES.md section 8).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum RepetitionMode {
    /// A defender move may not create the third occurrence of a position (the default).
    #[default]
    DefenderThirdIllegal,
    /// No repetition rule (for replaying historical records).
    Off,
    /// A defender move may not produce, before its captures, any earlier board (side to
    /// move ignored): the rule of the hnefatafl-copenhagen crate.
    DefenderAnyRepeatIllegal,
    /// The side whose move creates the third occurrence of a position loses (OpenTafl).
    ThirdOccurrenceMoverLoses,
    /// A move of either side may not recreate any earlier board (side to move ignored): the
    /// rule of the hnefatafl-copenhagen crate's 0.3.1 release, used by `--compat 0.3`. A
    /// capturing move never recreates one, since pieces are never added.
    AnyRepeatIllegal,
    /// The move that creates the third occurrence of a position draws the game (OpenTafl's
    /// Fetlar: its rule that the third repetition draws).
    ThirdOccurrenceDraws,
    /// The side whose move creates the third occurrence of a position wins (OpenTafl's
    /// `tfr:l`, Berserk's).
    ThirdOccurrenceMoverWins,
}

impl RepetitionMode {
    /// All modes, default first.
    pub const ALL: [RepetitionMode; 7] = [
        RepetitionMode::DefenderThirdIllegal,
        RepetitionMode::Off,
        RepetitionMode::DefenderAnyRepeatIllegal,
        RepetitionMode::ThirdOccurrenceMoverLoses,
        RepetitionMode::AnyRepeatIllegal,
        RepetitionMode::ThirdOccurrenceDraws,
        RepetitionMode::ThirdOccurrenceMoverWins,
    ];

    /// The name used by the protocol and the rules text.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            RepetitionMode::DefenderThirdIllegal => "defender-third-illegal",
            RepetitionMode::Off => "off",
            RepetitionMode::DefenderAnyRepeatIllegal => "defender-any-repeat-illegal",
            RepetitionMode::ThirdOccurrenceMoverLoses => "third-occurrence-mover-loses",
            RepetitionMode::AnyRepeatIllegal => "any-repeat-illegal",
            RepetitionMode::ThirdOccurrenceDraws => "third-occurrence-draws",
            RepetitionMode::ThirdOccurrenceMoverWins => "third-occurrence-mover-wins",
        }
    }

    /// True when the rule can ban a move of `role` or end the game after it: for the other
    /// side, [`PositionHistory::judge`](super::history::PositionHistory::judge) always
    /// answers [`Verdict::Allowed`], and callers skip it.
    #[inline(always)]
    pub(crate) const fn restricts(self, role: Role) -> bool {
        match self {
            RepetitionMode::Off => false,
            RepetitionMode::DefenderThirdIllegal | RepetitionMode::DefenderAnyRepeatIllegal => {
                matches!(role, Role::Defender)
            }
            RepetitionMode::ThirdOccurrenceMoverLoses
            | RepetitionMode::AnyRepeatIllegal
            | RepetitionMode::ThirdOccurrenceDraws
            | RepetitionMode::ThirdOccurrenceMoverWins => true,
        }
    }

    /// What a move that creates the third occurrence of a position does under the modes
    /// that end the game on it (OpenTafl's `tfr`); `None` under the others, which ban moves
    /// or ignore repetition. Berserk's game, whose positions the
    /// [`PositionHistory`](super::history::PositionHistory) does not hold, asks this too.
    #[inline(always)]
    pub(crate) const fn third_occurrence_ends(self) -> Option<Verdict> {
        match self {
            RepetitionMode::ThirdOccurrenceMoverLoses => Some(Verdict::MoverLoses),
            RepetitionMode::ThirdOccurrenceDraws => Some(Verdict::Draws),
            RepetitionMode::ThirdOccurrenceMoverWins => Some(Verdict::MoverWins),
            RepetitionMode::DefenderThirdIllegal
            | RepetitionMode::Off
            | RepetitionMode::DefenderAnyRepeatIllegal
            | RepetitionMode::AnyRepeatIllegal => None,
        }
    }
}

impl fmt::Display for RepetitionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown repetition mode name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid repetition mode '{0}': expected {names}", names = mode_names())]
pub struct RepetitionModeError(pub String);

fn mode_names() -> String {
    let names = RepetitionMode::ALL.map(RepetitionMode::name);
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

impl FromStr for RepetitionMode {
    type Err = RepetitionModeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RepetitionMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| RepetitionModeError(excerpt(s)))
    }
}

/// What the repetition rule says about a move that the other rules allow.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The rule does not touch it.
    Allowed,
    /// The move is illegal.
    Banned,
    /// The move is legal and loses for its mover, unless it wins by another rule first
    /// (an escape, a capture of the king, a fort, an encirclement).
    MoverLoses,
    /// The move is legal and draws the game, unless it decides it by another rule first.
    Draws,
    /// The move is legal and wins for its mover, unless it decides the game by another
    /// rule first.
    MoverWins,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_names_round_trip() {
        for m in RepetitionMode::ALL {
            assert_eq!(m.name().parse::<RepetitionMode>(), Ok(m));
        }
        assert_eq!(
            "x".parse::<RepetitionMode>().unwrap_err().to_string(),
            "invalid repetition mode 'x': expected defender-third-illegal, off, defender-any-repeat-illegal, third-occurrence-mover-loses, any-repeat-illegal, third-occurrence-draws or third-occurrence-mover-wins"
        );
    }
}
