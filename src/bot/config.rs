//! Everything `hnefi bot` is told: the server, the account, the games to offer or join,
//! the search's resources and bounds, and the service's timings.

use std::time::Duration;

use crate::core::geometry::BoardSize;
use crate::core::role::Role;
use crate::time_control::Fischer;

use super::clock::Caps;
use super::json::GameId;

/// Everything the bot is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Server host name or address.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Account name.
    pub username: String,
    /// Account password (never logged).
    pub password: String,
    /// Create the account at the first login.
    pub create_account: bool,
    /// The protocol version id sent at login.
    pub version_id: String,
    /// Our side in the games we offer.
    pub role: Role,
    /// The boards of the games we offer (ones the server offers: 7x7, 11x11 or 13x13);
    /// the offers cycle through every board with every clock of `times`.
    pub board_sizes: Vec<BoardSize>,
    /// How many offered games to keep open (pending or playing).
    pub accept_games: u32,
    /// Join this game of someone else.
    pub join_game: Option<GameId>,
    /// Offer rated games.
    pub rated: bool,
    /// The clocks of the games we offer (`None`: untimed).
    pub times: Vec<Option<Fischer>>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table in MiB.
    pub hash_mb: usize,
    /// Bounds of every move.
    pub caps: Caps,
    /// Stop after this many finished games (0: never).
    pub max_games: u32,
    /// Give up after this many failed reconnection attempts in a row.
    pub max_reconnects: u32,
    /// Enter the server's tournament and play the games it makes.
    pub join_tournament: bool,
    /// Silence from the server after which the bot sends `ping`; after three times
    /// as long without a line it reconnects. A resume the server does not answer in
    /// twice as long is a game it lost.
    pub heartbeat: Duration,
    /// After a stop request, how long the games in progress may take before the bot
    /// resigns them.
    pub stop_grace: Duration,
}
