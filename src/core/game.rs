//! A game: positions played, the rule set, the repetition history and the status.

use std::fmt;
use std::str::FromStr;

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::bitboard::Bitboard;
use super::encirclement::EncirclementMode;
use super::movegen;
use super::moves::{Move, MoveList};
use super::position::{IllegalMove, Position, Reason, Status};
use super::role::Role;

/// The repetition rule (RULES.md section 8).
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
}

impl RepetitionMode {
    /// All modes, default first.
    pub const ALL: [RepetitionMode; 4] = [
        RepetitionMode::DefenderThirdIllegal,
        RepetitionMode::Off,
        RepetitionMode::DefenderAnyRepeatIllegal,
        RepetitionMode::ThirdOccurrenceMoverLoses,
    ];

    /// The name used by the protocol and the rules text.
    pub const fn name(self) -> &'static str {
        match self {
            RepetitionMode::DefenderThirdIllegal => "defender-third-illegal",
            RepetitionMode::Off => "off",
            RepetitionMode::DefenderAnyRepeatIllegal => "defender-any-repeat-illegal",
            RepetitionMode::ThirdOccurrenceMoverLoses => "third-occurrence-mover-loses",
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
#[error(
    "invalid repetition mode '{0}': expected defender-third-illegal, off, defender-any-repeat-illegal or third-occurrence-mover-loses"
)]
pub struct RepetitionModeError(pub String);

impl FromStr for RepetitionMode {
    type Err = RepetitionModeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RepetitionMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| RepetitionModeError(s.chars().take(40).collect()))
    }
}

/// The rules that can vary: everything else is Copenhagen.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct RuleSet {
    /// The repetition rule.
    pub repetition: RepetitionMode,
    /// How encirclement is judged.
    pub encirclement: EncirclementMode,
    /// A draw once this many plies have been played (counted from the game's first
    /// position); `None` for no limit.
    pub move_limit: Option<u32>,
}

/// One entry of the game record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ply {
    /// A move and the soldiers it captured.
    Move {
        /// The move.
        mv: Move,
        /// Its captures.
        captured: Bitboard,
    },
    /// A side resigned.
    Resign(Role),
    /// A side lost on time.
    Timeout(Role),
}

/// Why a move was refused by a game.
pub type PlayError = IllegalMove;

/// A game in progress or finished.
///
/// ```
/// use hnefi::core::game::{Game, RuleSet};
/// use hnefi::core::position::Status;
/// let mut game = Game::new(RuleSet::default());
/// let effect = game.play("h1-h3".parse().unwrap()).unwrap();
/// assert!(effect.is_empty());
/// assert_eq!(game.status(), Status::Ongoing);
/// assert!(game.play("h3-h4".parse().unwrap()).is_err()); // the defenders are to move
/// game.undo().unwrap();
/// assert_eq!(game.position(), &hnefi::core::position::Position::start());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    /// The first position (also `positions[0]`).
    first: Position,
    /// `positions[0]` is the first position; one more after each move.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    /// The status after each ply (`statuses[0]` for the first position).
    statuses: Vec<Status>,
    /// Occurrences of each position (board and side to move) in `positions`.
    counts: FxHashMap<u64, u32>,
    /// Occurrences of each board (side ignored) in `positions`.
    boards: FxHashMap<u64, u32>,
}

impl Game {
    /// A new game from the start position, attackers first.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(Position::start(), rules)
    }

    /// A new game from any valid position. Its status is evaluated at once as if the
    /// other side had just moved (the static status of RULES.md section 10).
    pub fn from_position(pos: Position, rules: RuleSet) -> Game {
        let mut g = Game {
            rules,
            first: pos,
            positions: Vec::with_capacity(256),
            plies: Vec::with_capacity(256),
            statuses: vec![pos.static_status(rules.encirclement)],
            counts: FxHashMap::default(),
            boards: FxHashMap::default(),
        };
        g.push_position(pos);
        g
    }

    fn push_position(&mut self, pos: Position) {
        *self.counts.entry(pos.hash()).or_insert(0) += 1;
        *self.boards.entry(pos.board_hash()).or_insert(0) += 1;
        self.positions.push(pos);
    }

    fn pop_position(&mut self) {
        if let Some(pos) = self.positions.pop() {
            for (map, key) in [
                (&mut self.counts, pos.hash()),
                (&mut self.boards, pos.board_hash()),
            ] {
                if let Some(c) = map.get_mut(&key) {
                    *c -= 1;
                    if *c == 0 {
                        map.remove(&key);
                    }
                }
            }
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
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.first)
    }

    /// The first position of the game.
    pub fn first_position(&self) -> &Position {
        &self.first
    }

    /// Every position so far, the first one included.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The record: moves, resignations and time losses.
    pub fn plies(&self) -> &[Ply] {
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

    /// How often a position (by hash) has occurred in this game.
    pub fn occurrences(&self, hash: u64) -> u32 {
        self.counts.get(&hash).copied().unwrap_or(0)
    }

    /// True when the repetition rule forbids this (otherwise legal) move, whose captures
    /// are `captured` and which leads to `after`.
    fn banned(&self, before: &Position, mv: Move, captured: Bitboard, after: &Position) -> bool {
        if before.to_move() != Role::Defender {
            return false;
        }
        match self.rules.repetition {
            RepetitionMode::DefenderThirdIllegal => {
                captured.is_empty() && self.occurrences(after.hash()) >= 2
            }
            RepetitionMode::DefenderAnyRepeatIllegal => {
                self.boards.contains_key(&before.moved_board_hash(mv))
            }
            RepetitionMode::Off | RepetitionMode::ThirdOccurrenceMoverLoses => false,
        }
    }

    /// True when the repetition mode can forbid moves of `role`.
    fn restricts(&self, role: Role) -> bool {
        role == Role::Defender
            && matches!(
                self.rules.repetition,
                RepetitionMode::DefenderThirdIllegal | RepetitionMode::DefenderAnyRepeatIllegal
            )
    }

    /// True when a pseudo-legal move of the current position is allowed by the repetition
    /// rule.
    fn allowed(&self, pos: &Position, mv: Move) -> bool {
        if !self.restricts(pos.to_move()) {
            return true;
        }
        let mut after = *pos;
        let captured = after.make_move(mv);
        !self.banned(pos, mv, captured, &after)
    }

    /// Every legal move of the side to move, repetition rule included; empty once the game
    /// is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.status().is_over() {
            return MoveList::new();
        }
        let pos = *self.position();
        let mut list = pos.legal_moves();
        if self.restricts(pos.to_move()) {
            list.retain(|mv| self.allowed(&pos, mv));
        }
        list
    }

    /// True when the side to move in `pos` (reached after this game's history) has a legal
    /// move, the repetition rule included.
    fn has_legal_move(&self, pos: &Position) -> bool {
        if !movegen::has_move(pos.board(), pos.to_move()) {
            return false;
        }
        if !self.restricts(pos.to_move()) {
            return true;
        }
        pos.legal_moves().iter().any(|&mv| self.allowed(pos, mv))
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        if self.status().is_over() {
            return Err(IllegalMove::GameOver);
        }
        let pos = self.position();
        pos.check_move(mv)?;
        if !self.allowed(pos, mv) {
            return Err(IllegalMove::Repetition(mv));
        }
        Ok(())
    }

    /// Plays a move under the rules of RULES.md section 10 and returns its captures.
    /// An illegal move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<Bitboard, PlayError> {
        self.check(mv)?;
        let before = *self.position();
        let mover = before.to_move();
        let mut pos = before;
        let effect = pos.play_unchecked(mv, self.rules.encirclement);
        self.push_position(pos);
        let mut status = match effect.win {
            Some(reason) => Status::Won {
                winner: mover,
                reason,
            },
            None => Status::Ongoing,
        };
        if status == Status::Ongoing
            && self.rules.repetition == RepetitionMode::ThirdOccurrenceMoverLoses
            && self.occurrences(pos.hash()) >= 3
        {
            status = Status::Won {
                winner: mover.opponent(),
                reason: Reason::Repetition,
            };
        }
        if status == Status::Ongoing && !self.has_legal_move(&pos) {
            status = Status::Won {
                winner: mover,
                reason: Reason::NoMoves,
            };
        }
        if status == Status::Ongoing
            && self
                .rules
                .move_limit
                .is_some_and(|n| self.moves_played() >= n as usize)
        {
            status = Status::Drawn {
                reason: Reason::MoveLimit,
            };
        }
        self.plies.push(Ply::Move {
            mv,
            captured: effect.captured,
        });
        self.statuses.push(status);
        Ok(effect.captured)
    }

    /// Ends the game by resignation of `role` (either side, at any time while the game is
    /// on).
    pub fn resign(&mut self, role: Role) -> Result<(), PlayError> {
        self.end_by(Ply::Resign(role), role, Reason::Resignation)
    }

    /// Ends the game as a loss on time for `role`.
    pub fn lose_on_time(&mut self, role: Role) -> Result<(), PlayError> {
        self.end_by(Ply::Timeout(role), role, Reason::Time)
    }

    fn end_by(&mut self, ply: Ply, loser: Role, reason: Reason) -> Result<(), PlayError> {
        if self.status().is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.plies.push(ply);
        self.statuses.push(Status::Won {
            winner: loser.opponent(),
            reason,
        });
        Ok(())
    }

    /// Takes back the last ply (a move, a resignation or a time loss). Returns it, or
    /// `None` at the first position.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        self.statuses.pop();
        if matches!(ply, Ply::Move { .. }) {
            self.pop_position();
        }
        Some(ply)
    }
}
