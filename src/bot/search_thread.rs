//! The bot's search thread: one searcher for every game, a move at a time, its budget
//! from the game's clock.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::core::any_game::AnyGame;
use crate::core::any_size::on_size;
use crate::core::any_square::AnyMove;
use crate::search::Searcher;
use crate::search::wdl::WdlModel;
use crate::thread::SpawnError;

use super::Event;
use super::clock::{self, GameClock};
use super::config::Config;
use super::games;
use super::json::GameId;

/// A finished search.
#[derive(Debug)]
pub(crate) struct Searched {
    /// The game.
    pub(super) id: GameId,
    /// The ply searched: a search of a position the game has left is not played.
    pub(super) ply: usize,
    /// The move found, if there is one.
    pub(super) best: Option<AnyMove>,
    /// What the search found, for the log.
    pub(super) note: String,
}

/// A search to make: a game's position at our turn.
pub(super) struct Job {
    pub(super) id: GameId,
    pub(super) ply: usize,
    pub(super) game: AnyGame,
    pub(super) clock: GameClock,
    /// When our turn began, from which the clock runs.
    pub(super) turn_start: Instant,
    /// Set to end the search at once (the game is over, or the bot resigns it).
    pub(super) stop: Arc<AtomicBool>,
}

/// Starts the search thread: one searcher for every game, searching the jobs of `jobs` in
/// turn within each game's clock and `config`'s bounds, each move sent back as an
/// [`Event::Searched`]; it ends when `jobs` closes or the loop stops listening.
pub(super) fn spawn(
    jobs: mpsc::Receiver<Job>,
    events: mpsc::Sender<Event>,
    config: &Config,
) -> Result<JoinHandle<()>, SpawnError> {
    let caps = config.caps;
    let (threads, hash_mb) = (config.threads, config.hash_mb);
    crate::thread::spawn("bot search", move || {
        let mut searcher = Searcher::new(threads, hash_mb);
        for job in jobs {
            let start = Instant::now();
            let limits = clock::limits(job.clock, job.turn_start, start, &caps);
            // The search of the game's board (11x11 keeps its own fast path).
            let r = on_size!(&job.game, AnyGame, g => {
                searcher
                    .search(g, &limits, &job.stop, &mut |_| {})
                    .map_moves(AnyMove::from)
            });
            // The mover's chances at the search's score, under the server's rules.
            let wdl =
                WdlModel::of(games::SERVER_RULES, job.game.size()).wdl(r.score, job.game.to_move());
            let note = format!(
                "depth {} score {} {wdl} nodes {} in {} ms",
                r.depth,
                r.score,
                r.nodes,
                start.elapsed().as_millis()
            );
            let done = Searched {
                id: job.id,
                ply: job.ply,
                best: r.best,
                note,
            };
            if events.send(Event::Searched(done)).is_err() {
                return;
            }
        }
    })
}
