//! `hnefi bot`: hnefi plays on a hnefatafl.org server (`hnefatafl-copenhagen` 6.4.1's
//! `hnefatafl-server`), as its reference bot does.
//!
//! One connection carries every game; a reader thread turns the server's lines into
//! events, a search thread plays one move at a time, and this file's loop keeps the games:
//! it offers and accepts games, answers `generate_move`, follows the clocks, re-reads a
//! game after a refused move, and reconnects with backoff, resuming every open game.
//!
//! A bot is a service that runs for weeks: a heartbeat (`ping`) notices a server that
//! stopped answering without closing the connection; after every reconnection the
//! offers are made again (a restarted server has lost them) and a game the server no
//! longer has is dropped; a stop request ([`shutdown`]) finishes the games in progress,
//! resigns them past a deadline, and logs out.
//!
//! Files: this one the loop, its connection's life (heartbeat, reconnection) and the
//! dispatch of the server's lines; `offers` (the games offered and joined), `playing`
//! (the games in play: moves, clocks, searches, results), `stopping` (a stop request
//! followed), `search_thread` (the searcher's thread); `config` (what the bot is told),
//! `summary` (what a run did); [`message`] (the protocol's lines), [`json`] (its JSON
//! payloads), [`connection`] (connect, login, lines, backoff), [`games`] (one game's
//! state), [`clock`] (clock budgets), [`log`] (the log, password-free), [`cli`] (the
//! flags), [`password`] (the password from a flag, a file or the environment),
//! [`shutdown`] (stop requests: SIGTERM and the like).

pub mod cli;
pub mod clock;
mod config;
pub(crate) mod connection;
pub mod games;
pub(crate) mod json;
pub mod log;
pub mod message;
mod offers;
pub(crate) mod password;
mod playing;
mod search_thread;
pub mod shutdown;
mod stopping;
mod summary;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::core::any_square::AnyMove;
use crate::core::geometry::BoardSize;
use crate::core::outcome::Outcome;
use crate::time_control::Fischer;

pub use config::Config;
pub use summary::{Finished, Summary};

use connection::{ConnectError, Connection, backoff};
use games::OpenGame;
use json::GameId;
use log::Log;
use message::{ClientMessage, ParseError, ServerMessage};
use search_thread::{Job, Searched};
use shutdown::{Shutdown, Stage};

/// Why the bot stopped before its work was done.
#[derive(Debug, Error)]
pub enum BotError {
    /// The first connection or login failed, or the server speaks another version.
    #[error(transparent)]
    Connect(#[from] ConnectError),
    /// Reconnecting failed too often in a row.
    #[error("gave up after {attempts} failed reconnection attempts; the last: {last}")]
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// The last error.
        last: String,
    },
    /// The system refused the search thread.
    #[error(transparent)]
    Thread(#[from] crate::thread::SpawnError),
}

/// What the bot's loop waits for.
#[derive(Debug)]
pub(crate) enum Event {
    /// A line from the server, on connection number `.0`.
    Line(u64, String),
    /// Connection number `.0` ended (why).
    Closed(u64, String),
    /// A search finished.
    Searched(Searched),
}

/// Runs the bot until `config.max_games` games are over (forever when 0).
pub fn run(config: &Config, log: &Log) -> Result<Summary, BotError> {
    run_until(config, log, &Shutdown::new())
}

/// [`run`], until `shutdown` also asks it to stop: then it takes no new game, finishes
/// the games in progress (resigning them once `config.stop_grace` has passed, or at a
/// second request), logs out and returns.
pub fn run_until(config: &Config, log: &Log, shutdown: &Shutdown) -> Result<Summary, BotError> {
    let (events, rx) = mpsc::channel();
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let worker = search_thread::spawn(job_rx, events.clone(), config)?;
    let mut bot = Bot {
        config,
        log,
        events,
        jobs: Some(jobs),
        conn: None,
        generation: 0,
        games: BTreeMap::new(),
        ours: BTreeSet::new(),
        in_flight: VecDeque::new(),
        next_offer: 0,
        pending_moves: VecDeque::new(),
        declined: BTreeSet::new(),
        stops: BTreeMap::new(),
        join: config.join_game.map(|id| (id, 0, None)),
        summary: Summary::default(),
        shutdown,
        last_heard: Instant::now(),
        last_ping: None,
        resume_asked: BTreeMap::new(),
        stop_deadline: None,
        resigning: false,
        resigned: BTreeSet::new(),
        conceded: BTreeSet::new(),
        stopped: false,
        withdraw: Vec::new(),
    };
    let result = bot.run_loop(&rx);
    for stop in bot.stops.values() {
        stop.store(true, Ordering::Relaxed);
    }
    if result.is_ok() {
        bot.log_out();
    }
    if let Some(conn) = &bot.conn {
        conn.close();
    }
    bot.jobs = None;
    let _ = worker.join();
    result.map(|()| bot.summary)
}

struct Bot<'a> {
    config: &'a Config,
    log: &'a Log,
    events: mpsc::Sender<Event>,
    jobs: Option<mpsc::Sender<Job>>,
    conn: Option<Connection>,
    generation: u64,
    games: BTreeMap<GameId, OpenGame>,
    /// Our offers, pending or playing, until they are over.
    ours: BTreeSet<GameId>,
    /// Offers sent, not yet answered with their id, oldest first.
    in_flight: VecDeque<(BoardSize, Option<Fischer>)>,
    /// How many offers were made: the next one's place in the cycle of boards and clocks.
    next_offer: usize,
    /// Our moves the server has not answered yet, oldest first.
    pending_moves: VecDeque<(GameId, AnyMove)>,
    /// Games on boards hnefi does not play (joined, or made for it by the server): resigned
    /// at each of our turns, the connection kept.
    declined: BTreeSet<GameId>,
    /// The stop flag of each game's queued or running search.
    stops: BTreeMap<GameId, Arc<AtomicBool>>,
    /// The game to join, the attempts made and when to try again.
    join: Option<(GameId, u32, Option<Instant>)>,
    summary: Summary,
    shutdown: &'a Shutdown,
    /// When the current connection last brought a line.
    last_heard: Instant,
    /// When the last `ping` went out, if one went out since that line.
    last_ping: Option<Instant>,
    /// The games whose `resume_game_json` is unanswered, and when it was sent.
    resume_asked: BTreeMap<GameId, Instant>,
    /// Set by a stop request: when the games still in progress are resigned.
    stop_deadline: Option<Instant>,
    /// Past the deadline: every game is resigned at our turn.
    resigning: bool,
    /// Games resigned on this connection, waiting for the server's `game_over` (a new
    /// connection resigns them again, the resignation perhaps lost with the old one).
    resigned: BTreeSet<GameId>,
    /// Games resigned on stopping, on any connection (counted once).
    conceded: BTreeSet<GameId>,
    /// Nothing is left to do after a stop request.
    stopped: bool,
    /// Offers of an earlier connection to withdraw after the login.
    withdraw: Vec<GameId>,
}

/// Unreadable lines logged one by one before only every thousandth is.
const BAD_LINES_LOGGED: u32 = 20;

/// How often the loop looks at the clocks, the heartbeat and stop requests when no
/// event comes.
const TICK: Duration = Duration::from_millis(500);

impl Bot<'_> {
    fn login_message(&self, first: bool) -> ClientMessage {
        ClientMessage::Login {
            version: self.config.version_id.clone(),
            create: first && self.config.create_account,
            username: self.config.username.clone(),
            password: self.config.password.clone(),
        }
    }

    fn done(&self) -> bool {
        self.config.max_games > 0 && self.summary.finished.len() >= self.config.max_games as usize
    }

    fn run_loop(&mut self, rx: &mpsc::Receiver<Event>) -> Result<(), BotError> {
        self.generation += 1;
        let conn = Connection::open(
            &self.config.host,
            self.config.port,
            &self.login_message(true),
            self.generation,
            self.events.clone(),
            self.log,
        )?;
        self.log.info(&format!(
            "logged in to {}:{} as {}",
            self.config.host, self.config.port, self.config.username
        ));
        self.conn = Some(conn);
        self.heard();
        self.after_login();
        while !self.done() {
            self.tick()?;
            if self.stopped {
                break;
            }
            let event = match rx.recv_timeout(TICK) {
                Ok(e) => e,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.retry_join();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            match event {
                Event::Line(g, line) if g == self.generation => {
                    self.heard();
                    self.on_line(&line);
                }
                Event::Closed(g, why) if g == self.generation => self.reconnect(&why)?,
                Event::Line(..) | Event::Closed(..) => {}
                Event::Searched(s) => self.on_searched(s),
            }
        }
        Ok(())
    }

    fn heard(&mut self) {
        self.last_heard = Instant::now();
        self.last_ping = None;
    }

    /// What the clocks decide between events: a stop request's stages, the heartbeat,
    /// and the resumes the server left unanswered.
    fn tick(&mut self) -> Result<(), BotError> {
        self.on_stop_request();
        if self.stopped {
            return Ok(());
        }
        let now = Instant::now();
        let hb = self.config.heartbeat;
        let silent = now.saturating_duration_since(self.last_heard);
        if silent >= hb.saturating_mul(3) {
            return self.reconnect(&format!(
                "no line from the server for {} s (it stopped answering)",
                silent.as_secs()
            ));
        }
        let ping_due = self
            .last_ping
            .is_none_or(|at| now.saturating_duration_since(at) >= hb);
        if silent >= hb && ping_due {
            self.last_ping = Some(now);
            self.send(&ClientMessage::Ping);
        }
        // A resume is answered at once; one unanswered while the server still speaks
        // is of a game the server does not have (it answers nothing then).
        let lost: Vec<GameId> = self
            .resume_asked
            .iter()
            .filter(|&(_, &at)| {
                now.saturating_duration_since(at) >= hb.saturating_mul(2) && self.last_heard > at
            })
            .map(|(&id, _)| id)
            .collect();
        for id in lost {
            self.drop_lost(
                id,
                "the server did not resume it (a game it lost, as a restarted server does)",
            );
        }
        Ok(())
    }

    /// Forgets a game the server no longer has.
    fn drop_lost(&mut self, id: GameId, why: &str) {
        self.resume_asked.remove(&id);
        self.pending_moves.retain(|&(g, _)| g != id);
        if let Some(stop) = self.stops.remove(&id) {
            stop.store(true, Ordering::Relaxed);
        }
        self.ours.remove(&id);
        self.declined.remove(&id);
        self.resigned.remove(&id);
        if self.games.remove(&id).is_some() {
            self.summary.lost_games += 1;
            self.log.info(&format!("game {id}: {why}; dropped"));
        }
        self.top_up();
    }

    fn send(&mut self, msg: &ClientMessage) {
        if let Some(conn) = &mut self.conn
            && let Err(e) = conn.send(msg, self.log)
        {
            self.log.info(&format!("cannot write to the server: {e}"));
            // The reader then reports the connection closed, which reconnects.
            conn.close();
        }
    }

    /// After every login: identify, resume every open game, keep the offers up, join.
    fn after_login(&mut self) {
        self.send(&ClientMessage::SoftwareId);
        for id in std::mem::take(&mut self.withdraw) {
            self.send(&ClientMessage::LeaveGame(id));
        }
        if self.config.join_tournament && self.stop_deadline.is_none() {
            self.send(&ClientMessage::JoinTournament);
        }
        let ids: Vec<GameId> = self.games.keys().copied().collect();
        for id in ids {
            self.resume(id);
        }
        if let Some((id, _, at)) = &mut self.join {
            *at = None;
            let id = *id;
            self.send(&ClientMessage::JoinGamePending(id));
        }
        self.top_up();
    }

    fn resume(&mut self, id: GameId) {
        if let Some(g) = self.games.get_mut(&id) {
            g.awaiting_resume = true;
            self.resume_asked.entry(id).or_insert_with(Instant::now);
        }
        self.send(&ClientMessage::ResumeGameJson(id));
    }

    fn reconnect(&mut self, why: &str) -> Result<(), BotError> {
        self.log
            .info(&format!("connection lost: {why}; reconnecting"));
        if let Some(conn) = self.conn.take() {
            conn.close();
        }
        self.pending_moves.clear();
        self.resigned.clear();
        for g in self.games.values_mut() {
            g.synced = false;
        }
        for stop in self.stops.values() {
            stop.store(true, Ordering::Relaxed);
        }
        // The offers no one has joined are made again after the login: the server
        // withdraws the timed ones at a logout, a restarted server has lost them all, and
        // one that survived (untimed, a cut link) is withdrawn then, so that exactly
        // `accept_games` stay open.
        self.in_flight.clear();
        let stale = self.unjoined_offers();
        for id in &stale {
            self.ours.remove(id);
        }
        let mut attempt = 0;
        loop {
            if self.sleep_unless_stopped(backoff(attempt)) {
                self.log
                    .info("stop requested while disconnected: the bot ends without its games");
                self.stopped = true;
                return Ok(());
            }
            self.generation += 1;
            match Connection::open(
                &self.config.host,
                self.config.port,
                &self.login_message(false),
                self.generation,
                self.events.clone(),
                self.log,
            ) {
                Ok(conn) => {
                    self.conn = Some(conn);
                    break;
                }
                Err(e) if e.is_permanent() => return Err(e.into()),
                Err(e) => {
                    attempt += 1;
                    self.log
                        .info(&format!("reconnection attempt {attempt} failed: {e}"));
                    if attempt >= self.config.max_reconnects {
                        return Err(BotError::GaveUp {
                            attempts: attempt,
                            last: e.to_string(),
                        });
                    }
                }
            }
        }
        self.summary.reconnects += 1;
        self.heard();
        self.log.info(&format!(
            "reconnected; resuming {} open game(s), offering again in place of {} offer(s) no one had joined",
            self.games.len(),
            stale.len()
        ));
        self.withdraw = stale;
        self.after_login();
        Ok(())
    }

    /// Sleeps `wait`, or less when a stop request comes (true then).
    fn sleep_unless_stopped(&self, wait: Duration) -> bool {
        let now = Instant::now();
        let end = now.checked_add(wait).unwrap_or(now);
        loop {
            if self.shutdown.stage() != Stage::Running {
                return true;
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            thread::sleep(left.min(TICK));
        }
    }

    fn on_line(&mut self, line: &str) {
        self.log.received(line);
        let msg = match ServerMessage::parse(line) {
            Ok(m) => m,
            Err(e) => {
                self.on_bad_line(line, &e);
                return;
            }
        };
        match msg {
            ServerMessage::Offered(id) => self.on_offered(id),
            ServerMessage::ChallengeRequested(id) => self.on_challenge(id),
            ServerMessage::JoinPending(id) => {
                self.log
                    .info(&format!("asked to join game {id}; waiting for its owner"));
                if self.join.is_some_and(|j| j.0 == id) {
                    self.join = None;
                }
            }
            ServerMessage::JoinRefused(why) => self.on_join_refused(&why),
            ServerMessage::GenerateMove { id, role } => self.on_generate_move(id, role),
            ServerMessage::Resumed(r) => self.on_resumed(&r),
            ServerMessage::Played { id, role, mv } => self.on_played(id, role, mv),
            ServerMessage::GameTime(t) => self.on_game_time(&t),
            ServerMessage::MoveAccepted => {
                self.pending_moves.pop_front();
            }
            ServerMessage::MoveRejected(why) => self.on_rejected(&why),
            ServerMessage::GameOver { id, winner } => self.finish(id, Outcome::win(winner, ())),
            ServerMessage::Drawn => self.on_drawn(),
            ServerMessage::DrawOffered(id) => {
                self.log.info(&format!(
                    "game {id}: the opponent offers a draw; hnefi plays on"
                ));
            }
            ServerMessage::LoginOk
            | ServerMessage::WrongVersion
            | ServerMessage::LoginRefused(_)
            | ServerMessage::Other => {}
            ServerMessage::LoggedOut => self.log.info("the server logged the bot out"),
            // The server makes a tournament's games without telling their players; asked,
            // it names each of our games, and the bot resumes the new ones.
            ServerMessage::TournamentStatus
                if self.config.join_tournament && self.stop_deadline.is_none() =>
            {
                self.send(&ClientMessage::ResumeGames);
            }
            ServerMessage::TournamentStatus => {}
        }
    }

    /// Counts a line the bot cannot read. A flood of them must not flood the log: the
    /// first few are logged, then one in a thousand with the count.
    fn on_bad_line(&mut self, line: &str, e: &ParseError) {
        self.summary.bad_lines += 1;
        let n = self.summary.bad_lines;
        if n <= BAD_LINES_LOGGED || n.is_multiple_of(1000) {
            let shown: String = line.chars().take(120).collect();
            self.log.info(&format!(
                "ignored a line the bot cannot read ({e}; {n} so far): {shown}"
            ));
        }
    }
}
