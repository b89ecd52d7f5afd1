//! What a run of the bot did: its finished games and the trouble it met.

use crate::core::outcome::Outcome;
use crate::core::role::Role;

use super::json::GameId;

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Its id.
    pub id: GameId,
    /// Our side.
    pub(crate) role: Role,
    /// The result the server gave (a winner or a draw; the server names no reason).
    pub result: Outcome<()>,
    /// The moves as the bot saw them, with captures.
    pub record: String,
}

/// What a run of the bot did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The finished games, in order.
    pub finished: Vec<Finished>,
    /// Moves the server refused.
    pub refused_moves: u32,
    /// Reconnections made.
    pub reconnects: u32,
    /// Server lines the bot could not read.
    pub bad_lines: u32,
    /// Games the bot knew that the server no longer had (after a restart), dropped.
    pub lost_games: u32,
    /// Games resigned because the bot was asked to stop.
    pub resigned_on_stop: u32,
}
