//! Which end-of-game tests follow a move, and in which order: Copenhagen as in
//! docs/RULES.md section 10, or the hnefatafl.org server's (docs/RULES.md, "The
//! `hnefatafl-org` preset"). [`outcome`](super::rules::outcome), the one judge of a move,
//! asks the referee of the game's [`RuleSet`].

use std::fmt;

use super::adjudication::cannot_escape;
use super::board::BoardOf;
use super::capture;
use super::encirclement::is_encircled;
use super::geometry::Geometry;
use super::movegen;
use super::org_fort::is_org_edge_fort;
use super::position::{PositionOf, Reason, Status};
use super::role::Role;
use super::rules::RuleSet;
use super::square::SquareOf;

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
    /// ([`cannot_escape`]); then no legal move.
    HnefataflOrg,
    /// OpenTafl's (docs/RULES.md section 17.8): after every move, whoever made it, no
    /// attacker left, the king's escape or capture, no defender with an empty square
    /// beside him, encirclement; then no legal move for the side to move. (Its repetition
    /// test comes first there, which decides nothing differently: a position that any of
    /// these ends a game in cannot have occurred before.)
    OpenTafl,
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

const fn win(winner: Role, reason: Reason) -> Option<Win> {
    Some(Win { winner, reason })
}

impl Referee {
    /// The name, as in `tests/data` rule cases.
    pub const fn name(self) -> &'static str {
        match self {
            Referee::Copenhagen => "copenhagen",
            Referee::HnefataflOrg => "hnefatafl-org",
            Referee::OpenTafl => "opentafl",
        }
    }

    /// The win the move just played to `to` decides by itself, on the board after its
    /// captures (`after`, with the other side to move). Under Copenhagen the winner is
    /// always the mover; under the server's rules a move can also lose (a defender move
    /// that completes an encirclement, an attacker move that leaves an edge fort).
    #[inline]
    pub fn after_move<G: Geometry>(
        self,
        after: &PositionOf<G>,
        to: SquareOf<G>,
        rules: &RuleSet,
    ) -> Option<Win> {
        let mover = after.to_move().opponent();
        match self {
            Referee::Copenhagen => after.win_after_move(to, rules).map(|reason| Win {
                winner: mover,
                reason,
            }),
            Referee::HnefataflOrg => {
                let board = after.board();
                if rules.escaped(board.king()) {
                    return win(Role::Defender, Reason::KingEscaped);
                }
                if mover == Role::Attacker && capture::king_captured(board, to, rules) {
                    return win(Role::Attacker, Reason::KingCaptured);
                }
                org_position_win(board, rules)
            }
            Referee::OpenTafl => {
                let board = after.board();
                if board.attackers().is_empty() {
                    return win(Role::Defender, Reason::NoMoves);
                }
                if rules.escaped(board.king()) {
                    return win(Role::Defender, Reason::KingEscaped);
                }
                if mover == Role::Attacker && capture::king_captured(board, to, rules) {
                    return win(Role::Attacker, Reason::KingCaptured);
                }
                opentafl_position_win(board, rules)
            }
        }
    }

    /// The server's early adjudication, tested after a move that decided nothing else
    /// (and, in a game, after the move limit): an attackers' win. Nothing under
    /// Copenhagen.
    #[inline]
    pub fn adjudicate<G: Geometry>(self, after: &PositionOf<G>) -> Option<Win> {
        match self {
            Referee::Copenhagen | Referee::OpenTafl => None,
            Referee::HnefataflOrg if cannot_escape(after.board()) => {
                win(Role::Attacker, Reason::CannotEscape)
            }
            Referee::HnefataflOrg => None,
        }
    }

    /// True when the move limit is tested before the side to move's lack of a legal move
    /// (and before the adjudication): the server's order. Copenhagen tests it last.
    pub const fn move_limit_first(self) -> bool {
        matches!(self, Referee::HnefataflOrg)
    }

    /// The status of a position with no history, judged as if the other side had just
    /// moved (docs/RULES.md section 10, "static status"; no king-capture test).
    pub fn static_status<G: Geometry>(self, pos: &PositionOf<G>, rules: &RuleSet) -> Status {
        match self {
            Referee::Copenhagen => pos.static_status(rules),
            Referee::HnefataflOrg | Referee::OpenTafl => {
                let board = pos.board();
                let last = pos.to_move().opponent();
                let position_win = |board: &BoardOf<G>| match self {
                    Referee::OpenTafl if board.attackers().is_empty() => {
                        win(Role::Defender, Reason::NoMoves)
                    }
                    Referee::OpenTafl => opentafl_position_win(board, rules),
                    _ => org_position_win(board, rules).or(self.adjudicate(pos)),
                };
                if rules.escaped(board.king()) {
                    Status::from(Win {
                        winner: Role::Defender,
                        reason: Reason::KingEscaped,
                    })
                } else if let Some(w) = position_win(board) {
                    w.into()
                } else if !movegen::has_move_under(board, pos.to_move(), rules) {
                    Status::Won {
                        winner: last,
                        reason: Reason::NoMoves,
                    }
                } else {
                    Status::Ongoing
                }
            }
        }
    }
}

/// The server's tests after every move that neither side's move decides by the king
/// alone: its edge fort, encirclement (each where the rule set has it), and no attacker
/// left.
fn org_position_win<G: Geometry>(board: &BoardOf<G>, rules: &RuleSet) -> Option<Win> {
    if rules.edge_fort && is_org_edge_fort(board) {
        win(Role::Defender, Reason::EdgeFort)
    } else if rules.encirclement_wins && is_encircled(board, rules.encirclement) {
        win(Role::Attacker, Reason::Encirclement)
    } else if board.attackers().is_empty() {
        // The attackers could not move: hnefi's name for that.
        win(Role::Defender, Reason::NoMoves)
    } else {
        None
    }
}

/// OpenTafl's tests after every move once the king has neither escaped nor been taken:
/// no defender with an empty square beside him, then encirclement where the rule set has
/// it (docs/RULES.md section 17.8, steps 6 and 8).
fn opentafl_position_win<G: Geometry>(board: &BoardOf<G>, rules: &RuleSet) -> Option<Win> {
    if (board.defenders_and_king().neighbours() & board.empty()).is_empty() {
        win(Role::Attacker, Reason::DefendersBlocked)
    } else if rules.encirclement_wins && is_encircled(board, rules.encirclement) {
        win(Role::Attacker, Reason::Encirclement)
    } else {
        None
    }
}

impl fmt::Display for Referee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
