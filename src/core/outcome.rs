//! How a game ends, as data: the [`Reason`] of an ending, the [`Status`] of a game and a
//! [`Win`]. Below the position and the judge, which produce them, so that every layer
//! above can name them.

use std::fmt;

use super::role::Role;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    /// The attackers closed the king in (docs/RULES.md section 5).
    KingCaptured,
    /// The king reached a corner.
    KingEscaped,
    /// The king stands in an unbreakable edge fort (section 6).
    EdgeFort,
    /// The attackers enclosed every defender (section 7).
    Encirclement,
    /// The side to move had no legal move (section 9).
    NoMoves,
    /// The repetition rule decided (mode `third-occurrence-mover-loses`).
    Repetition,
    /// A side resigned.
    Resignation,
    /// A side ran out of time.
    Time,
    /// The move limit was reached (a draw).
    MoveLimit,
    /// The hnefatafl.org server judged that the king can no longer escape (its early
    /// adjudication, `hnefatafl-org` rules only).
    CannotEscape,
    /// No defender, the king included, has an empty square beside him (OpenTafl's
    /// referee, docs/RULES.md section 17.8).
    DefendersBlocked,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 11] = [
        Reason::KingCaptured,
        Reason::KingEscaped,
        Reason::EdgeFort,
        Reason::Encirclement,
        Reason::NoMoves,
        Reason::Repetition,
        Reason::Resignation,
        Reason::Time,
        Reason::MoveLimit,
        Reason::CannotEscape,
        Reason::DefendersBlocked,
    ];

    /// The protocol name (`king_captured`, `edge_fort`, ...).
    pub const fn protocol_name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::EdgeFort => "edge_fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no_moves",
            Reason::Repetition => "repetition",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::MoveLimit => "move_limit",
            Reason::CannotEscape => "cannot_escape",
            Reason::DefendersBlocked => "defenders_blocked",
        }
    }

    /// The name used in `tests/data/cases.txt` (`king-captured`, `edge-fort`, ...).
    pub const fn rules_name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king-captured",
            Reason::KingEscaped => "king-escaped",
            Reason::EdgeFort => "edge-fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no-moves",
            Reason::Repetition => "repetition",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::MoveLimit => "move-limit",
            Reason::CannotEscape => "cannot-escape",
            Reason::DefendersBlocked => "defenders-blocked",
        }
    }
}

/// The state of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// One side has won.
    Won {
        /// The winner.
        winner: Role,
        /// How.
        reason: Reason,
    },
    /// A draw.
    Drawn {
        /// Why.
        reason: Reason,
    },
}

impl Status {
    /// True unless ongoing.
    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }
}

impl fmt::Display for Status {
    /// The notation of `tests/data/cases.txt`: `ongoing`, `attackers-win king-captured`,
    /// `draw move-limit`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Won { winner, reason } => {
                write!(f, "{}-win {}", winner.plural(), reason.rules_name())
            }
            Status::Drawn { reason } => write!(f, "draw {}", reason.rules_name()),
        }
    }
}

/// A side won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Win {
    /// The winner.
    pub winner: Role,
    /// How.
    pub reason: Reason,
}

impl From<Win> for Status {
    fn from(w: Win) -> Status {
        Status::Won {
            winner: w.winner,
            reason: w.reason,
        }
    }
}
