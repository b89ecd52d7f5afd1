//! One game the bot plays: its board under the server's rules, our side, our clock, and
//! the moves the server refused.

use std::time::Instant;

use rustc_hash::FxHashSet;

use crate::core::game::{Game, Ply};
use crate::core::moves::Move;
use crate::core::notation::RecordMove;
use crate::core::position::{Position, Status};
use crate::core::preset::RulePreset;
use crate::core::role::Role;

use super::clock::GameClock;
use super::message::GameId;

/// The rules the server plays by.
pub const SERVER_RULES: RulePreset = RulePreset::HnefataflOrg;

/// What the bot knows of a game.
#[derive(Clone, Debug)]
pub struct OpenGame {
    /// The game's id.
    pub id: GameId,
    /// Our side.
    pub role: Role,
    /// The board and history, under the server's rules.
    pub game: Game,
    /// True while the board is known to be the server's (false after a refused move or a
    /// move we could not follow, until the next `resume_game_json`).
    pub synced: bool,
    /// A `resume_game_json` is on its way.
    pub awaiting_resume: bool,
    /// A search for this game is queued or running.
    pub searching: bool,
    /// Our clock.
    pub clock: GameClock,
    /// When our current turn began, as far as the bot knows.
    pub turn_start: Option<Instant>,
    /// Moves the server refused, by the ply at which they were sent.
    pub refused: Vec<(usize, Move)>,
}

impl OpenGame {
    /// A game known from the server's record `moves`, with our side `role`.
    ///
    /// When the moves do not replay under the server's rules in hnefi's core (which would
    /// mean the two disagree on when a game ends), the board is rebuilt by the moves alone
    /// and the history of earlier boards is lost; the server remains the judge.
    pub fn from_moves(id: GameId, role: Role, moves: &[Move]) -> (OpenGame, Option<String>) {
        let mut game = Game::new(SERVER_RULES.rules());
        let mut problem = None;
        for (i, &mv) in moves.iter().enumerate() {
            if let Err(e) = game.play(mv) {
                problem = Some(format!("ply {} ({mv}): {e}", i + 1));
                let mut pos = Position::start();
                for &m in moves {
                    pos.make_move(m, &SERVER_RULES.rules());
                }
                let to_move = match moves.len() % 2 {
                    0 => Role::Attacker,
                    _ => Role::Defender,
                };
                game =
                    Game::from_position(Position::new(*pos.board(), to_move), SERVER_RULES.rules());
                break;
            }
        }
        (
            OpenGame {
                id,
                role,
                game,
                synced: true,
                awaiting_resume: false,
                searching: false,
                clock: GameClock::Unknown,
                turn_start: None,
                refused: Vec::new(),
            },
            problem,
        )
    }

    /// The plies played (resignations not counted).
    pub fn ply(&self) -> usize {
        self.game.moves_played()
    }

    /// True when it is our move on the board the bot knows.
    pub fn our_turn(&self) -> bool {
        self.game.to_move() == self.role
    }

    /// Records that the server refused `mv` at the current ply.
    pub fn refuse(&mut self, mv: Move) {
        let ply = self.ply();
        self.refused.push((ply, mv));
    }

    fn is_refused(&self, mv: Move) -> bool {
        let ply = self.ply();
        self.refused.iter().any(|&(p, m)| p == ply && m == mv)
    }

    /// The move to send: `best` unless the server refused it here; otherwise the first
    /// legal move it has not refused. When hnefi's core sees the game as over but the
    /// server asks for a move, any move by the movement rules that does not recreate an
    /// earlier board (the server's repetition rule) is a candidate.
    pub fn choose(&self, best: Option<Move>) -> Option<Move> {
        if let Some(mv) = best
            && !self.is_refused(mv)
        {
            return Some(mv);
        }
        let legal = self.game.legal_moves();
        if let Some(&mv) = legal.as_slice().iter().find(|&&m| !self.is_refused(m)) {
            return Some(mv);
        }
        let pos = *self.game.position();
        let boards: FxHashSet<u64> = self
            .game
            .positions()
            .iter()
            .map(Position::board_hash)
            .collect();
        pos.legal_moves(&self.game.rules())
            .as_slice()
            .iter()
            .copied()
            .find(|&m| {
                !self.is_refused(m)
                    && (pos.to_move() == Role::Attacker
                        || !boards.contains(&pos.moved_board_hash(m)))
            })
    }

    /// The game's record so far, moves with their captures (`h1-h3 e5-e2 g3-e3xe2`).
    pub fn record(&self) -> String {
        let moves: Vec<String> = self
            .game
            .plies()
            .iter()
            .filter_map(|p| match *p {
                Ply::Move { mv, captured } => Some(
                    RecordMove {
                        mv,
                        captures: captured,
                    }
                    .to_string(),
                ),
                _ => None,
            })
            .collect();
        moves.join(" ")
    }
}

/// True when the server's result (`attacker_wins`, `defender_wins` or `draw`) is the one
/// hnefi's own rules give the game, or when hnefi's rules see it going on (a resignation or
/// a loss on time, which only the server knows of, ended it).
///
/// ```
/// use hnefi::bot::games::agrees;
/// use hnefi::core::position::{Reason, Status};
/// use hnefi::core::role::Role;
/// let won = Status::Won { winner: Role::Attacker, reason: Reason::CannotEscape };
/// assert!(agrees("attacker_wins", won));
/// assert!(!agrees("defender_wins", won));
/// assert!(!agrees("draw", won));
/// assert!(agrees("defender_wins", Status::Ongoing));
/// ```
pub fn agrees(result: &str, status: Status) -> bool {
    match status {
        Status::Ongoing => true,
        Status::Won {
            winner: Role::Attacker,
            ..
        } => result == "attacker_wins",
        Status::Won {
            winner: Role::Defender,
            ..
        } => result == "defender_wins",
        Status::Drawn { .. } => result == "draw",
    }
}
