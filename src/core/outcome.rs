//! How a game ends, as data: the [`Reason`] of an ending, the [`Status`] of a game, and the
//! [`Outcome`] of a finished one (winner and reason). Below the position and the judge,
//! which produce them, so that every layer above can name them.

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
    /// The repetition rule decided (the modes that end the game on a third occurrence:
    /// `third-occurrence-mover-loses`, `-draws`, `-mover-wins`).
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
    pub(crate) const ALL: [Reason; 11] = [
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
    pub(crate) const fn protocol_name(self) -> &'static str {
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
    pub(crate) const fn rules_name(self) -> &'static str {
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

/// The state of a game: going on, or over with its [`Outcome`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// The game is over.
    Over(Outcome),
}

impl Status {
    /// `winner` has won by `reason`.
    pub const fn won(winner: Role, reason: Reason) -> Status {
        Status::Over(Outcome::win(winner, reason))
    }

    /// A draw by `reason`.
    pub const fn drawn(reason: Reason) -> Status {
        Status::Over(Outcome::draw(reason))
    }

    /// True unless ongoing.
    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }

    /// How the game ended; `None` while it goes on.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Over(o) => Some(o),
        }
    }

    /// The winner; `None` while the game goes on and after a draw.
    pub(crate) const fn winner(self) -> Option<Role> {
        match self {
            Status::Over(o) => o.winner,
            Status::Ongoing => None,
        }
    }
}

impl fmt::Display for Status {
    /// The notation of `tests/data/cases.txt`: `ongoing`, or the [`Outcome`]'s.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Over(o) => o.fmt(f),
        }
    }
}

/// How a finished game ended: the winner (none for a draw) and why. The one answer to "who
/// won": the core's judge gives one with a rule's [`Reason`]; what adds reasons of its own
/// (the match runner's adjudication of a crashed engine) gives one with a wider `R`.
///
/// ```
/// use hnefi::core::outcome::{Outcome, Reason, Status};
/// use hnefi::core::role::Role;
/// let won = Outcome::win(Role::Defender, Reason::EdgeFort);
/// assert_eq!(Status::from(won).outcome(), Some(won));
/// assert_eq!(won.to_string(), "defenders-win edge-fort");
/// assert_eq!(won.score(Role::Attacker), 0.0);
/// assert_eq!(Outcome::draw(Reason::MoveLimit).score(Role::Attacker), 0.5);
/// assert_eq!(Status::Ongoing.outcome(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome<R = Reason> {
    /// The winner; `None` for a draw.
    pub winner: Option<Role>,
    /// Why.
    pub reason: R,
}

impl<R> Outcome<R> {
    /// `winner` won by `reason`.
    pub const fn win(winner: Role, reason: R) -> Outcome<R> {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw by `reason`.
    pub const fn draw(reason: R) -> Outcome<R> {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `side`'s score: 1 for a win, 0 for a loss, one half for a draw.
    pub fn score(&self, side: Role) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The same winner, the reason left untold: what a format that names only the winner
    /// (a records file's result field) keeps of it.
    pub(crate) fn without_reason(self) -> Outcome<()> {
        Outcome {
            winner: self.winner,
            reason: (),
        }
    }

    /// The same winner, with the reason put in other terms.
    pub(crate) fn map_reason<T>(self, f: impl FnOnce(R) -> T) -> Outcome<T> {
        Outcome {
            winner: self.winner,
            reason: f(self.reason),
        }
    }
}

impl From<Outcome> for Status {
    fn from(o: Outcome) -> Status {
        Status::Over(o)
    }
}

impl fmt::Display for Outcome {
    /// The notation of `tests/data/cases.txt`: `attackers-win king-captured`, `draw
    /// move-limit`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "{}-win {}", winner.plural(), self.reason.rules_name()),
            None => write!(f, "draw {}", self.reason.rules_name()),
        }
    }
}
