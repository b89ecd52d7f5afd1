//! A rule set as one value, and the one judge of what a legal move decides under it.
//!
//! The game ([`Game::play`](super::game::Game::play)), the search, the referee of
//! `hnefi match` and the bot all ask [`outcome`]: the order of the end-of-game tests is
//! written here once (docs/RULES.md section 10, and "The `hnefatafl-org` preset").

use super::encirclement::EncirclementMode;
use super::geometry::Geometry;
use super::position::{PositionOf, Reason, Status};
use super::referee::Referee;
use super::repetition::{RepetitionMode, Verdict};
use super::square::SquareOf;

/// Everything that varies between the rule sets hnefi plays; the board, its start position
/// and the moves are Copenhagen's.
///
/// ```
/// use hnefi::core::rules::RuleSet;
/// let rules = RuleSet::default();
/// assert!(rules.shield_walls && rules.edge_fort && rules.encirclement_wins);
/// assert_eq!(rules, RuleSet::COPENHAGEN);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct RuleSet {
    /// The repetition rule.
    pub repetition: RepetitionMode,
    /// How encirclement is judged (when [`RuleSet::encirclement_wins`]).
    pub encirclement: EncirclementMode,
    /// A draw once this many plies have been played (counted from the game's first
    /// position); `None` for no limit.
    pub move_limit: Option<u32>,
    /// Which end-of-game tests follow a move, in which order (Copenhagen, or the
    /// hnefatafl.org server's).
    pub referee: Referee,
    /// Shield walls capture on the edge (docs/RULES.md section 4).
    pub shield_walls: bool,
    /// The defenders win with an edge fort (section 6).
    pub edge_fort: bool,
    /// The attackers win by encircling the defenders (section 7).
    pub encirclement_wins: bool,
}

impl RuleSet {
    /// hnefi's default: Copenhagen Hnefatafl as docs/RULES.md decides it.
    pub const COPENHAGEN: RuleSet = RuleSet {
        repetition: RepetitionMode::DefenderThirdIllegal,
        encirclement: EncirclementMode::MultiPocket,
        move_limit: None,
        referee: Referee::Copenhagen,
        shield_walls: true,
        edge_fort: true,
        encirclement_wins: true,
    };
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::COPENHAGEN
    }
}

/// What a legal move decides under `rules`, in the order of the rule set's referee: the
/// wins (and, under the hnefatafl.org referee, losses) the move makes by itself, then the
/// repetition rule's `verdict`, then the move limit where the referee tests it first, then
/// the server's early adjudication, then the lack of a legal move for the side now to move
/// (`opponent_can_move`, asked only if it can decide), then the move limit.
///
/// `after` is the position after the move to `to`; `limit_reached` says that the move
/// limit ends the game on this ply. A caller that finds the lack of a move otherwise (the
/// search, in the child) passes `|| true` where the limit cannot decide.
///
/// ```
/// use hnefi::core::position::{Position, Status};
/// use hnefi::core::repetition::Verdict;
/// use hnefi::core::rules::{RuleSet, outcome};
/// let mut pos = Position::start();
/// let mv = "h1-h3".parse().unwrap();
/// pos.make_move(mv, &RuleSet::default());
/// assert_eq!(outcome(&RuleSet::default(), &pos, mv.to, Verdict::Allowed, false, || true), Status::Ongoing);
/// ```
#[inline]
pub fn outcome<G: Geometry>(
    rules: &RuleSet,
    after: &PositionOf<G>,
    to: SquareOf<G>,
    verdict: Verdict,
    limit_reached: bool,
    opponent_can_move: impl FnOnce() -> bool,
) -> Status {
    let referee = rules.referee;
    if let Some(win) = referee.after_move(after, to, rules) {
        return win.into();
    }
    let mover = after.to_move().opponent();
    match verdict {
        Verdict::MoverLoses => {
            return Status::Won {
                winner: mover.opponent(),
                reason: Reason::Repetition,
            };
        }
        Verdict::Draws => {
            return Status::Drawn {
                reason: Reason::Repetition,
            };
        }
        Verdict::Allowed | Verdict::Banned => {}
    }
    let limit_draw = Status::Drawn {
        reason: Reason::MoveLimit,
    };
    if limit_reached && referee.move_limit_first() {
        return limit_draw;
    }
    if let Some(win) = referee.adjudicate(after) {
        return win.into();
    }
    if !opponent_can_move() {
        return Status::Won {
            winner: mover,
            reason: Reason::NoMoves,
        };
    }
    if limit_reached {
        return limit_draw;
    }
    Status::Ongoing
}
