//! The one judge of a move and of a position: what a legal move decides under a rule set
//! ([`outcome`], the order of the end-of-game tests), the wins a move makes by itself under
//! each [`Referee`], the static status of a position with no history, and the same for
//! Berserk's positions ([`berserk_outcome`], OpenTafl's order). The game
//! ([`Game::play`](super::game::Game::play)), perft, the search, the referee of
//! `hnefi match` and the bot all ask here (docs/RULES.md section 10, and "The
//! `hnefatafl-org` preset"); the repetition rule's verdict comes from the
//! [`PositionHistory`](super::history::PositionHistory).
//!
//! Above the position and the mechanics (captures, forts, encirclement, adjudication,
//! move generation), which it combines; below the game.

use super::adjudication::cannot_escape;
use super::berserk_position::{BerserkPositionOf, BerserkRules};
use super::board::BoardOf;
use super::capture;
use super::encirclement::is_encircled;
use super::fort::is_edge_fort;
use super::geometry::Geometry;
use super::king::Escape;
use super::movegen;
use super::moves::MoveOf;
use super::org_fort::is_org_edge_fort;
use super::outcome::{Outcome, Reason, Status};
use super::position::{MoveEffect, PositionOf};
use super::referee::Referee;
use super::repetition::Verdict;
use super::role::Role;
use super::rules::RuleSet;
use super::square::SquareOf;

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
/// use hnefi::core::judge::outcome;
/// use hnefi::core::outcome::Status;
/// use hnefi::core::position::Position;
/// use hnefi::core::repetition::Verdict;
/// use hnefi::core::rules::RuleSet;
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
    if let Some(ended) = repetition_end(verdict, mover) {
        return ended;
    }
    let limit_draw = Status::drawn(Reason::MoveLimit);
    if limit_reached && referee.move_limit_first() {
        return limit_draw;
    }
    if let Some(win) = referee.adjudicate(after) {
        return win.into();
    }
    if !opponent_can_move() {
        return Status::won(mover, Reason::NoMoves);
    }
    if limit_reached {
        return limit_draw;
    }
    Status::Ongoing
}

/// The end of the game that the repetition rule's `verdict` on a move of `mover` makes,
/// if it makes one.
#[inline(always)]
fn repetition_end(verdict: Verdict, mover: Role) -> Option<Status> {
    match verdict {
        Verdict::MoverLoses => Some(Status::won(mover.opponent(), Reason::Repetition)),
        Verdict::Draws => Some(Status::drawn(Reason::Repetition)),
        Verdict::MoverWins => Some(Status::won(mover, Reason::Repetition)),
        Verdict::Allowed | Verdict::Banned => None,
    }
}

/// How a Berserk game stands after its last move, in OpenTafl's order (docs/RULES.md
/// sections 17.8 and 17.10): no attackers, no defenders (the king taken), the repetition
/// rule (not while a berserk turn continues; `keys` are the repetition keys of every
/// position since the start, the current one last; `mover` the side that made the last
/// move), the king on a corner, no defender with an empty neighbour; and then, hnefi's
/// rule (section 9), the side to move without a legal move loses.
///
/// Every position counts for the repetition rule, not only those since the last capture
/// (OpenTafl's), and a berserk continuation leaves the side to move as it was, so the
/// keys are compared one by one rather than through the
/// [`PositionHistory`](super::history::PositionHistory); the verdict is the rule set's
/// mode's ([`RepetitionMode::third_occurrence_ends`](super::repetition::RepetitionMode::third_occurrence_ends)).
pub fn berserk_outcome<G: Geometry>(
    pos: &BerserkPositionOf<G>,
    r: &BerserkRules,
    keys: &[u64],
    mover: Option<Role>,
) -> Status {
    if let Some(o) = berserk_material_end(pos) {
        return o.into();
    }
    if let (None, Some(mover), Some((&key, earlier))) = (pos.berserker(), mover, keys.split_last())
        && let Some(ends) = r.rules.repetition.third_occurrence_ends()
        && earlier.iter().filter(|&&k| k == key).count() >= 2
        && let Some(ended) = repetition_end(ends, mover)
    {
        return ended;
    }
    if let Some(o) = berserk_board_end(pos, r) {
        return o.into();
    }
    if pos.legal_moves(r).as_slice().is_empty() {
        return Status::won(pos.to_move().opponent(), Reason::NoMoves);
    }
    Status::Ongoing
}

/// OpenTafl's tests before the repetition test: no attackers left, no defenders left or
/// the king taken.
fn berserk_material_end<G: Geometry>(pos: &BerserkPositionOf<G>) -> Option<Outcome> {
    if pos.board().attackers().is_empty() {
        win(Role::Defender, Reason::NoMoves)
    } else if pos.king_taken() || pos.pieces_of(Role::Defender).is_empty() {
        win(Role::Attacker, Reason::KingCaptured)
    } else {
        None
    }
}

/// OpenTafl's tests after the repetition test (encirclement, shield walls and edge forts
/// are not in the rule sets Berserk plays), asked once the king is known to be on the
/// board: the king escaped, no defender with an empty square beside it (occupancy only).
fn berserk_board_end<G: Geometry>(pos: &BerserkPositionOf<G>, r: &BerserkRules) -> Option<Outcome> {
    let king = pos.board().king();
    let escaped = match r.rules.escape {
        Escape::Corners => r.rules.corner_squares::<G>().contains(king),
        Escape::Edges => king.is_edge(),
    };
    if escaped {
        win(Role::Defender, Reason::KingEscaped)
    } else if (pos.pieces_of(Role::Defender).neighbours() & pos.board().empty()).is_empty() {
        win(Role::Attacker, Reason::DefendersBlocked)
    } else {
        None
    }
}

// Methods of the Berserk position, written here for the same reason as the ordinary
// position's below.
impl<G: Geometry> BerserkPositionOf<G> {
    /// How the game stands after the last move by the position alone: OpenTafl's tests in
    /// its order ([`berserk_outcome`] without the repetition rule, which needs the game's
    /// positions, and without the lack of a legal move). Perft's leaves ask this.
    pub fn status(&self, r: &BerserkRules) -> Status {
        match berserk_material_end(self).or_else(|| berserk_board_end(self, r)) {
            Some(o) => o.into(),
            None => Status::Ongoing,
        }
    }
}

// Methods of the position, written here because what a move decides is the judge's: the
// position, a layer below, names no referee.
impl<G: Geometry> PositionOf<G> {
    /// The win that the move just played to `to` produced under `rules`, by the side that
    /// is no longer to move (docs/RULES.md section 10, step 3). Always inlined: perft's
    /// leaves call it, and with the larger boards in the binary the compiler stopped
    /// inlining it on 13x13, which cost `perft 3 --board-size 13` instructions
    /// (docs/experiments.md).
    #[inline(always)]
    pub(crate) fn win_after_move(&self, to: SquareOf<G>, rules: &RuleSet) -> Option<Reason> {
        match self.to_move().opponent() {
            Role::Defender => {
                if rules.escaped(self.board().king()) {
                    Some(Reason::KingEscaped)
                } else if rules.edge_fort
                    && self.board().king().is_edge()
                    && is_edge_fort(self.board())
                {
                    Some(Reason::EdgeFort)
                } else {
                    None
                }
            }
            Role::Attacker => {
                if capture::king_captured(self.board(), to, rules) {
                    Some(Reason::KingCaptured)
                } else if rules.encirclement_wins && is_encircled(self.board(), rules.encirclement)
                {
                    Some(Reason::Encirclement)
                } else {
                    None
                }
            }
        }
    }

    /// Plays a move known to be legal: moves, captures, and tests for the wins that the
    /// move itself produces under the rule set's referee (perft's leaves).
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: MoveOf<G>, rules: &RuleSet) -> MoveEffect<G> {
        let captured = self.make_move(mv, rules);
        let win = match rules.referee {
            // Copenhagen's wins are the mover's own, tested here without the referee's
            // other arms (perft's hot path).
            Referee::Copenhagen => self.win_after_move(mv.to, rules),
            referee => referee.after_move(self, mv.to, rules).map(|w| w.reason),
        };
        MoveEffect { captured, win }
    }
}

impl Referee {
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
    ) -> Option<Outcome> {
        let mover = after.to_move().opponent();
        match self {
            Referee::Copenhagen => after
                .win_after_move(to, rules)
                .map(|reason| Outcome::win(mover, reason)),
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
    pub(crate) fn adjudicate<G: Geometry>(self, after: &PositionOf<G>) -> Option<Outcome> {
        match self {
            Referee::Copenhagen | Referee::OpenTafl => None,
            Referee::HnefataflOrg if cannot_escape(after.board()) => {
                win(Role::Attacker, Reason::CannotEscape)
            }
            Referee::HnefataflOrg => None,
        }
    }

    /// The status of a position with no history, judged as if the other side had just
    /// moved (docs/RULES.md section 10, "static status"; no king-capture test).
    pub(crate) fn static_status<G: Geometry>(self, pos: &PositionOf<G>, rules: &RuleSet) -> Status {
        match self {
            Referee::Copenhagen => copenhagen_static_status(pos, rules),
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
                    Status::from(Outcome::win(Role::Defender, Reason::KingEscaped))
                } else if let Some(w) = position_win(board) {
                    w.into()
                } else if !movegen::has_move_under(board, pos.to_move(), rules) {
                    Status::won(last, Reason::NoMoves)
                } else {
                    Status::Ongoing
                }
            }
        }
    }
}

/// The static status of docs/RULES.md section 10 under Copenhagen's referee: the board judged as if the other side
/// had just moved, with no history (no king-capture test, which needs the move). A king
/// where he escapes has escaped whichever side is to move: only his escape puts him
/// there.
fn copenhagen_static_status<G: Geometry>(pos: &PositionOf<G>, rules: &RuleSet) -> Status {
    if rules.escaped(pos.board().king()) {
        return Status::won(Role::Defender, Reason::KingEscaped);
    }
    let last = pos.to_move().opponent();
    let win = match last {
        Role::Defender if rules.edge_fort && is_edge_fort(pos.board()) => Some(Reason::EdgeFort),
        Role::Attacker
            if rules.encirclement_wins && is_encircled(pos.board(), rules.encirclement) =>
        {
            Some(Reason::Encirclement)
        }
        _ => None,
    };
    if let Some(reason) = win {
        return Status::won(last, reason);
    }
    if !movegen::has_move_under(pos.board(), pos.to_move(), rules) {
        return Status::won(last, Reason::NoMoves);
    }
    Status::Ongoing
}

const fn win(winner: Role, reason: Reason) -> Option<Outcome> {
    Some(Outcome::win(winner, reason))
}

/// The server's tests after every move that neither side's move decides by the king
/// alone: its edge fort, encirclement (each where the rule set has it), and no attacker
/// left.
fn org_position_win<G: Geometry>(board: &BoardOf<G>, rules: &RuleSet) -> Option<Outcome> {
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
fn opentafl_position_win<G: Geometry>(board: &BoardOf<G>, rules: &RuleSet) -> Option<Outcome> {
    if (board.defenders_and_king().neighbours() & board.empty()).is_empty() {
        win(Role::Attacker, Reason::DefendersBlocked)
    } else if rules.encirclement_wins && is_encircled(board, rules.encirclement) {
        win(Role::Attacker, Reason::Encirclement)
    } else {
        None
    }
}
