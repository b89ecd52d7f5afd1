//! A game: positions played, the rule set, the repetition history and the status.

use super::bitboard::BitboardOf;
use super::geometry::{Geometry, S11};
use super::history::PositionHistory;
use super::judge::outcome;
use super::movegen;
use super::moves::{MoveListOf, MoveOf};
use super::outcome::{Reason, Status};
use super::position::{IllegalMoveOf, PositionOf};
use super::repetition::Verdict;
use super::role::Role;
use super::rules::RuleSet;

/// One entry of the game record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlyOf<G: Geometry> {
    /// A move and the soldiers it captured.
    Move {
        /// The move.
        mv: MoveOf<G>,
        /// Its captures.
        captured: BitboardOf<G>,
    },
    /// A side resigned.
    Resign(Role),
    /// A side lost on time.
    Timeout(Role),
}

impl<G: Geometry> PlyOf<G> {
    /// The move of this ply, if it is one.
    pub fn mv(&self) -> Option<MoveOf<G>> {
        match *self {
            PlyOf::Move { mv, .. } => Some(mv),
            PlyOf::Resign(_) | PlyOf::Timeout(_) => None,
        }
    }
}

/// A game in progress or finished.
///
/// ```
/// use hnefi::core::game::Game;
/// use hnefi::core::rules::RuleSet;
/// use hnefi::core::outcome::Status;
/// let mut game = Game::new(RuleSet::default());
/// let effect = game.play("h1-h3".parse().unwrap()).unwrap();
/// assert!(effect.is_empty());
/// assert_eq!(game.status(), Status::Ongoing);
/// assert!(game.play("h3-h4".parse().unwrap()).is_err()); // the defenders are to move
/// game.undo().unwrap();
/// assert_eq!(game.position(), &hnefi::core::position::Position::start());
/// ```
pub type Game = GameOf<S11>;

/// A game on a board of geometry `G`.
#[derive(Clone, Debug)]
pub struct GameOf<G: Geometry> {
    rules: RuleSet,
    /// The first position (also `positions[0]`).
    first: PositionOf<G>,
    /// `positions[0]` is the first position; one more after each move.
    positions: Vec<PositionOf<G>>,
    plies: Vec<PlyOf<G>>,
    /// The status after each ply (`statuses[0]` for the first position).
    statuses: Vec<Status>,
    /// The hashes of `positions`, for the repetition rule.
    history: PositionHistory,
}

impl<G: Geometry> GameOf<G> {
    /// A new game from the size's start position, attackers first.
    pub fn new(rules: RuleSet) -> GameOf<G> {
        GameOf::from_position(PositionOf::start(), rules)
    }

    /// A new game from any valid position. Its status is evaluated at once as if the
    /// other side had just moved (the static status of docs/RULES.md section 10).
    pub fn from_position(pos: PositionOf<G>, rules: RuleSet) -> GameOf<G> {
        let mut positions = Vec::with_capacity(256);
        positions.push(pos);
        GameOf {
            rules,
            first: pos,
            positions,
            plies: Vec::with_capacity(256),
            statuses: vec![rules.referee.static_status(&pos, &rules)],
            history: {
                let mut history = PositionHistory::new(&pos);
                if !rules.first_position_counts {
                    history.forget_first();
                }
                history
            },
        }
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Changes the rules for the rest of the game (the history is kept). The status of
    /// the current position is not re-evaluated.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The current position.
    pub fn position(&self) -> &PositionOf<G> {
        self.positions.last().unwrap_or(&self.first)
    }

    /// The first position of the game.
    pub(crate) fn first_position(&self) -> &PositionOf<G> {
        &self.first
    }

    /// Every position so far, the first one included.
    pub fn positions(&self) -> &[PositionOf<G>] {
        &self.positions
    }

    /// The record: moves, resignations and time losses.
    pub fn plies(&self) -> &[PlyOf<G>] {
        &self.plies
    }

    /// The number of moves played (resignations and time losses not counted).
    pub fn moves_played(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    /// The status.
    pub fn status(&self) -> Status {
        self.statuses.last().copied().unwrap_or(Status::Ongoing)
    }

    /// The side to move.
    pub fn to_move(&self) -> Role {
        self.position().to_move()
    }

    /// The positions of the game for the repetition rule (what the search starts from).
    pub fn history(&self) -> &PositionHistory {
        &self.history
    }

    /// The repetition rule's verdict on a pseudo-legal move of the current position.
    fn verdict(&self, pos: &PositionOf<G>, mv: MoveOf<G>) -> Verdict {
        if !self.rules.repetition.restricts(pos.to_move()) {
            return Verdict::Allowed;
        }
        let mut after = *pos;
        let captured = after.make_move(mv, &self.rules);
        self.history
            .judge(self.rules.repetition, pos, mv, captured, &after)
    }

    /// Every legal move of the side to move, repetition rule included; empty once the game
    /// is over.
    pub fn legal_moves(&self) -> MoveListOf<G> {
        if self.status().is_over() {
            return MoveListOf::new();
        }
        let pos = *self.position();
        let mut list = pos.legal_moves(&self.rules);
        if self.rules.repetition.restricts(pos.to_move()) {
            list.retain(|mv| self.verdict(&pos, mv) != Verdict::Banned);
        }
        list
    }

    /// True when the side to move in `pos` (the current position) has a legal move, the
    /// repetition rule included.
    fn has_legal_move(&self, pos: &PositionOf<G>) -> bool {
        if !movegen::has_move_under(pos.board(), pos.to_move(), &self.rules) {
            return false;
        }
        if !self.rules.repetition.restricts(pos.to_move()) {
            return true;
        }
        pos.legal_moves(&self.rules)
            .iter()
            .any(|&mv| self.verdict(pos, mv) != Verdict::Banned)
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: MoveOf<G>) -> Result<(), IllegalMoveOf<G>> {
        if self.status().is_over() {
            return Err(IllegalMoveOf::GameOver);
        }
        let pos = self.position();
        pos.check_move(mv, &self.rules)?;
        if self.verdict(pos, mv) == Verdict::Banned {
            return Err(IllegalMoveOf::Repetition(mv));
        }
        Ok(())
    }

    /// Plays a move and returns its captures: what it decides is [`outcome`]'s verdict
    /// under the game's rules. An illegal move changes nothing.
    pub fn play(&mut self, mv: MoveOf<G>) -> Result<BitboardOf<G>, IllegalMoveOf<G>> {
        if self.status().is_over() {
            return Err(IllegalMoveOf::GameOver);
        }
        let before = *self.position();
        before.check_move(mv, &self.rules)?;
        let mut pos = before;
        let captured = pos.make_move(mv, &self.rules);
        let verdict = self
            .history
            .judge(self.rules.repetition, &before, mv, captured, &pos);
        if verdict == Verdict::Banned {
            return Err(IllegalMoveOf::Repetition(mv));
        }
        self.positions.push(pos);
        self.history.push(&pos, captured.any());
        let limit_reached = self
            .rules
            .move_limit
            .is_some_and(|n| self.moves_played() >= n as usize);
        let status = outcome(&self.rules, &pos, mv.to, verdict, limit_reached, || {
            self.has_legal_move(&pos)
        });
        self.plies.push(PlyOf::Move { mv, captured });
        self.statuses.push(status);
        Ok(captured)
    }

    /// Ends the game by resignation of `role` (either side, at any time while the game is
    /// on).
    pub(crate) fn resign(&mut self, role: Role) -> Result<(), IllegalMoveOf<G>> {
        self.end_by(PlyOf::Resign(role), role, Reason::Resignation)
    }

    /// Ends the game as a loss on time for `role`.
    pub(crate) fn lose_on_time(&mut self, role: Role) -> Result<(), IllegalMoveOf<G>> {
        self.end_by(PlyOf::Timeout(role), role, Reason::Time)
    }

    fn end_by(
        &mut self,
        ply: PlyOf<G>,
        loser: Role,
        reason: Reason,
    ) -> Result<(), IllegalMoveOf<G>> {
        if self.status().is_over() {
            return Err(IllegalMoveOf::GameOver);
        }
        self.plies.push(ply);
        self.statuses.push(Status::won(loser.opponent(), reason));
        Ok(())
    }

    /// Takes back the last ply (a move, a resignation or a time loss). Returns it, or
    /// `None` at the first position.
    pub fn undo(&mut self) -> Option<PlyOf<G>> {
        let ply = self.plies.pop()?;
        self.statuses.pop();
        if matches!(ply, PlyOf::Move { .. }) {
            self.positions.pop();
            self.history.pop();
        }
        Some(ply)
    }
}
