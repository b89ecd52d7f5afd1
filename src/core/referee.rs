//! Which end-of-game tests follow a move, and in which order: Copenhagen as in
//! docs/RULES.md section 10, or the hnefatafl.org server's (docs/RULES.md, "The
//! `hnefatafl-org` preset"), or OpenTafl's. The referee is data of the
//! [`RuleSet`](super::rules::RuleSet); the tests themselves are the
//! [judge](super::judge)'s.

use std::fmt;

/// Who judges the end of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum Referee {
    /// docs/RULES.md section 10: the mover's own wins only (an edge fort after a defender
    /// move, encirclement after an attacker move), then no legal move, then the move limit.
    #[default]
    Copenhagen,
    /// The hnefatafl.org server (`hnefatafl-server` 6.4.1): after every move, whoever made
    /// it, the king's escape or capture, the server's edge fort test, encirclement, no
    /// attacker left; then the move limit; then the server's early adjudication
    /// ([`cannot_escape`](super::adjudication::cannot_escape)); then no legal move.
    HnefataflOrg,
    /// OpenTafl's (docs/RULES.md section 17.8): after every move, whoever made it, no
    /// attacker left, the king's escape or capture, no defender with an empty square
    /// beside him, encirclement; then no legal move for the side to move. (Its repetition
    /// test comes first there, which decides nothing differently: a position that any of
    /// these ends a game in cannot have occurred before.)
    OpenTafl,
}

impl Referee {
    /// The name, as in `tests/data` rule cases.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Referee::Copenhagen => "copenhagen",
            Referee::HnefataflOrg => "hnefatafl-org",
            Referee::OpenTafl => "opentafl",
        }
    }

    /// True when the move limit is tested before the side to move's lack of a legal move
    /// (and before the adjudication): the server's order. Copenhagen tests it last.
    pub(crate) const fn move_limit_first(self) -> bool {
        matches!(self, Referee::HnefataflOrg)
    }
}

impl fmt::Display for Referee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
