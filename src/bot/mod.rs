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
//! Files: [`message`] (the protocol's lines), [`json`] (its JSON payloads),
//! [`connection`] (connect, login, lines, backoff), [`games`] (one game's state),
//! [`clock`] (clock budgets), [`log`] (the log, password-free), [`cli`] (the flags),
//! [`password`] (the password from a flag, a file or the environment), [`shutdown`]
//! (stop requests: SIGTERM and the like).

pub mod cli;
pub mod clock;
pub(crate) mod connection;
pub mod games;
pub(crate) mod json;
pub mod log;
pub mod message;
pub(crate) mod password;
pub mod shutdown;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::core::any_game::AnyGame;
use crate::core::any_size::on_size;
use crate::core::any_square::AnyMove;
use crate::core::geometry::BoardSize;
use crate::core::outcome::{Outcome, Status};
use crate::core::role::Role;
use crate::search::Searcher;
use crate::search::wdl::WdlModel;
use crate::time_control::Fischer;

use clock::{Caps, GameClock};
use connection::{ConnectError, Connection, backoff};
use games::OpenGame;
use json::GameId;
use json::{GameTime, ResumedGame};
use log::Log;
use message::{ClientMessage, ParseError, ServerMessage};
use shutdown::{Shutdown, Stage};

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

/// A finished search.
#[derive(Debug)]
pub(crate) struct Searched {
    id: GameId,
    ply: usize,
    best: Option<AnyMove>,
    note: String,
}

struct Job {
    id: GameId,
    ply: usize,
    game: AnyGame,
    clock: GameClock,
    turn_start: Instant,
    stop: Arc<AtomicBool>,
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
    let worker = {
        let events = events.clone();
        let caps = config.caps;
        let (threads, hash_mb) = (config.threads, config.hash_mb);
        crate::thread::spawn("bot search", move || {
            let mut searcher = Searcher::new(threads, hash_mb);
            for job in job_rx {
                let start = Instant::now();
                let limits = clock::limits(job.clock, job.turn_start, start, &caps);
                // The search of the game's board (11x11 keeps its own fast path).
                let r = on_size!(&job.game, AnyGame, g => {
                    searcher
                        .search(g, &limits, &job.stop, &mut |_| {})
                        .map_moves(AnyMove::from)
                });
                // The mover's chances at the search's score, under the server's rules.
                let wdl = WdlModel::of(games::SERVER_RULES, job.game.size())
                    .wdl(r.score, job.game.to_move());
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
        })?
    };
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

/// How often a refused `join_game_pending` is tried again, and how far apart.
const JOIN_ATTEMPTS: u32 = 30;
const JOIN_RETRY: Duration = Duration::from_secs(2);

impl Bot<'_> {
    fn login_message(&self, first: bool) -> ClientMessage {
        ClientMessage::Login {
            version: self.config.version_id.clone(),
            create: first && self.config.create_account,
            username: self.config.username.clone(),
            password: self.config.password.clone(),
        }
    }

    /// Our offers that no one has joined yet (no game of ours under their id).
    fn unjoined_offers(&self) -> Vec<GameId> {
        self.ours
            .iter()
            .filter(|id| !self.games.contains_key(id))
            .copied()
            .collect()
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

    /// Follows a stop request: the first time, no new games (pending offers withdrawn);
    /// past the deadline or at a second request, every game resigned at our turn; the
    /// loop ends when no game is left, or a grace period after the resignations (an
    /// opponent who never moves in an untimed game keeps it on the server).
    fn on_stop_request(&mut self) {
        let stage = self.shutdown.stage();
        if stage == Stage::Running {
            return;
        }
        let now = Instant::now();
        let grace = self.config.stop_grace;
        let deadline = match self.stop_deadline {
            Some(d) => d,
            None => {
                let d = now.checked_add(grace).unwrap_or(now);
                self.stop_deadline = Some(d);
                self.join = None;
                let pending = self.unjoined_offers();
                self.log.info(&format!(
                    "stop requested: no new games ({} open offer(s) withdrawn); {} game(s) in progress may take {} s, then are resigned; then the bot logs out",
                    pending.len(),
                    self.games.len() + self.declined.len(),
                    grace.as_secs()
                ));
                for id in pending {
                    self.ours.remove(&id);
                    self.send(&ClientMessage::LeaveGame(id));
                }
                d
            }
        };
        if !self.resigning && (stage == Stage::Resign || now >= deadline) {
            self.resigning = true;
            self.log.info(&format!(
                "resigning the {} game(s) still in progress at the bot's turn",
                self.games.len() + self.declined.len()
            ));
            let ids: Vec<GameId> = self.games.keys().copied().collect();
            for id in ids {
                if self.games.get(&id).is_some_and(OpenGame::our_turn) {
                    self.resign_on_stop(id);
                }
            }
        }
        // An offer still on its way is withdrawn when its id comes: wait for it.
        if self.games.is_empty() && self.declined.is_empty() && self.in_flight.is_empty() {
            self.stopped = true;
        } else if self.resigning && now >= deadline.checked_add(grace).unwrap_or(deadline) {
            self.log.info(&format!(
                "{} game(s) left on the server (the opponent has not moved since the resignations began), {} offer(s) unanswered",
                self.games.len() + self.declined.len(),
                self.in_flight.len()
            ));
            self.stopped = true;
        }
    }

    fn resign_on_stop(&mut self, id: GameId) {
        if let Some(stop) = self.stops.remove(&id) {
            stop.store(true, Ordering::Relaxed);
        }
        let Some(g) = self.games.get_mut(&id) else {
            return;
        };
        g.searching = false;
        let role = g.role;
        // Once per connection: the stop and a `generate_move` may both ask for it.
        if !self.resigned.insert(id) {
            return;
        }
        if self.conceded.insert(id) {
            self.summary.resigned_on_stop += 1;
        }
        self.log
            .info(&format!("game {id}: resigning (the bot is stopping)"));
        self.send(&ClientMessage::Resign { id, role });
    }

    /// Logs out (when connected). The server 6.4.1 answers nothing (its writer ends
    /// the connection's output at its `= logout`), so the bot closes the connection
    /// after the line; the server reads the lines before it first.
    fn log_out(&mut self) {
        if self.conn.is_none() {
            return;
        }
        self.send(&ClientMessage::Logout);
        self.log.info("logged out");
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

    /// Offers games until `accept_games` of ours are open (and no more than the games
    /// still to play).
    fn top_up(&mut self) {
        if self.stop_deadline.is_some() {
            return;
        }
        loop {
            let open = self.ours.len() + self.in_flight.len();
            let room = self.config.max_games == 0
                || self.summary.finished.len() + open < self.config.max_games as usize;
            if open >= self.config.accept_games as usize || !room {
                return;
            }
            let Some((size, time)) = self.offer_at(self.next_offer) else {
                return;
            };
            self.next_offer = self.next_offer.wrapping_add(1);
            self.in_flight.push_back((size, time));
            self.send(&ClientMessage::NewGame {
                role: self.config.role,
                size,
                rated: self.config.rated,
                time,
            });
        }
    }

    /// The board and clock of offer number `n`: every board with the first clock, then
    /// with the next, and round again.
    fn offer_at(&self, n: usize) -> Option<(BoardSize, Option<Fischer>)> {
        let (sizes, times) = (&self.config.board_sizes, &self.config.times);
        let cells = sizes.len().checked_mul(times.len()).filter(|&c| c > 0)?;
        let n = n % cells;
        Some((*sizes.get(n % sizes.len())?, *times.get(n / sizes.len())?))
    }

    fn retry_join(&mut self) {
        if let Some((id, _, Some(at))) = self.join
            && Instant::now() >= at
        {
            if let Some(j) = &mut self.join {
                j.2 = None;
            }
            self.send(&ClientMessage::JoinGamePending(id));
        }
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

    /// The id of our oldest offer on its way: kept, or withdrawn when the bot is stopping.
    fn on_offered(&mut self, id: GameId) {
        if self.stop_deadline.is_some() {
            self.in_flight.pop_front();
            self.log.info(&format!(
                "withdrawing the offer of game {id} (the bot is stopping)"
            ));
            self.send(&ClientMessage::LeaveGame(id));
            return;
        }
        let (size, time) = self
            .in_flight
            .pop_front()
            .or_else(|| self.offer_at(0))
            .unwrap_or((BoardSize::S11, None));
        self.ours.insert(id);
        self.log.info(&format!(
            "offered game {id} ({}, {size}x{size}, {}, {})",
            self.config.role,
            message::clock_text(time),
            if self.config.rated {
                "rated"
            } else {
                "unrated"
            }
        ));
    }

    /// Someone asks to join game `id`: accepted when it is an open offer of ours.
    fn on_challenge(&mut self, id: GameId) {
        if self.ours.contains(&id) && !self.games.contains_key(&id) {
            self.log
                .info(&format!("accepting the challenge to game {id}"));
            self.send(&ClientMessage::JoinGame(id));
        } else {
            self.log.info(&format!(
                "declining a challenge to game {id}: not an open offer of this bot"
            ));
            self.send(&ClientMessage::DeclineGame(id));
        }
    }

    /// The server refused to let the bot join the game it was told to join: tried again a
    /// little later, up to a number of attempts.
    fn on_join_refused(&mut self, why: &str) {
        if let Some((id, attempts, at)) = &mut self.join {
            *attempts += 1;
            if *attempts >= JOIN_ATTEMPTS {
                self.log.info(&format!(
                    "cannot join game {id}: {why}; giving up after {attempts} attempts"
                ));
                self.join = None;
            } else {
                self.log
                    .info(&format!("cannot join game {id} yet: {why}; trying again"));
                *at = Some(Instant::now() + JOIN_RETRY);
            }
        }
    }

    /// The opponent's move in a game the bot follows; one the board cannot follow makes
    /// the bot re-read the game.
    fn on_played(&mut self, id: GameId, role: Role, mv: Option<AnyMove>) {
        if let Some(g) = self.games.get_mut(&id)
            && role != g.role
            && g.synced
            && !g.awaiting_resume
            && let Some(mv) = mv
            && g.game.play(mv).is_err()
        {
            self.log.info(&format!(
                "game {id}: cannot follow {role}'s {mv}; the board will be re-read"
            ));
            g.synced = false;
        }
    }

    /// The server's clocks of a game: our time left, in a game with a Fischer clock.
    fn on_game_time(&mut self, t: &GameTime) {
        if let Some(g) = self.games.get_mut(&t.id)
            && let GameClock::Fischer { increment_ms, .. } = g.clock
        {
            let left_ms = match g.role {
                Role::Attacker => t.attacker_ms,
                Role::Defender => t.defender_ms,
            };
            g.clock = GameClock::Fischer {
                left_ms,
                increment_ms,
            };
        }
    }

    fn on_generate_move(&mut self, id: GameId, role: Role) {
        if self.declined.contains(&id) {
            self.log.info(&format!(
                "game {id}: resigning (a board hnefi does not play)"
            ));
            self.send(&ClientMessage::Resign { id, role });
            return;
        }
        enum Next {
            Search,
            Wait,
            Resume,
        }
        let next = match self.games.get_mut(&id) {
            Some(g) if g.role == role && g.awaiting_resume => Next::Wait,
            Some(g)
                if g.role == role && g.synced && g.our_turn() && g.clock != GameClock::Unknown =>
            {
                g.turn_start.get_or_insert_with(Instant::now);
                Next::Search
            }
            _ => Next::Resume,
        };
        match next {
            Next::Search => self.maybe_search(id),
            Next::Wait => {}
            Next::Resume => self.resume(id),
        }
    }

    fn on_resumed(&mut self, r: &ResumedGame) {
        let id = r.id;
        self.resume_asked.remove(&id);
        let name = &self.config.username;
        let to_move = |dim: u64, plies: usize| {
            let first = games::server_first_mover(dim);
            match plies % 2 {
                0 => first,
                _ => first.opponent(),
            }
        };
        let role = match (&r.attackers == name, &r.defenders == name) {
            (true, true) => to_move(r.dim, r.plies),
            (true, false) => Role::Attacker,
            (false, true) => Role::Defender,
            (false, false) => {
                if self.games.contains_key(&id) {
                    // A restarted server gave the id to a game of others.
                    self.drop_lost(id, "the server's game of this id is not ours now");
                } else {
                    self.log
                        .info(&format!("game {id} was resumed but is not ours; ignored"));
                }
                return;
            }
        };
        let opened = match r.size {
            Some(size) => OpenGame::from_moves(role, size, &r.moves).map_err(|e| e.to_string()),
            None => Err(format!("hnefi has no {0}x{0} board", r.dim)),
        };
        let (mut g, problem) = match opened {
            Ok(opened) => opened,
            Err(why) => {
                if self.declined.insert(id) {
                    self.log.info(&format!(
                        "game {id} is played on {0}x{0}, which hnefi cannot play under the server's rules ({why}); it resigns it and stays connected",
                        r.dim
                    ));
                }
                if to_move(r.dim, r.plies) == role {
                    self.send(&ClientMessage::Resign { id, role });
                }
                return;
            }
        };
        if let Some(p) = problem {
            self.log.info(&format!(
                "game {id}: the server's moves do not replay under hnefi's rules ({p}); playing on from the board"
            ));
        }
        if let Some(old) = self.games.get(&id) {
            g.refused = old.refused.clone();
            g.searching = old.searching;
        }
        g.clock = match &r.clock {
            None => GameClock::Untimed,
            Some(c) => {
                let mut left_ms = match role {
                    Role::Attacker => c.attacker_ms,
                    Role::Defender => c.defender_ms,
                };
                if g.our_turn()
                    && let Some(at) = clock::unix_ms(&c.last_move)
                {
                    left_ms -= (clock::now_unix_ms() - at).max(0);
                }
                GameClock::Fischer {
                    left_ms,
                    increment_ms: c.increment_s.saturating_mul(1000),
                }
            }
        };
        if g.our_turn() {
            g.turn_start = Some(Instant::now());
        }
        self.games.insert(id, g);
        self.maybe_search(id);
    }

    /// Starts a search when it is our turn in a game the bot knows exactly.
    fn maybe_search(&mut self, id: GameId) {
        let Some(g) = self.games.get_mut(&id) else {
            return;
        };
        if !g.synced || g.awaiting_resume || g.searching || !g.our_turn() {
            return;
        }
        if self.resigning {
            self.resign_on_stop(id);
            return;
        }
        let Some(g) = self.games.get_mut(&id) else {
            return;
        };
        if g.game.status() != Status::Ongoing || g.game.legal_moves().is_empty() {
            // hnefi's core sees the game as over, the server does not: any move it takes.
            let mv = g.choose(None);
            self.play(id, mv, "no search: hnefi's rules see the game as over");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            id,
            ply: g.ply(),
            game: g.game.clone(),
            clock: g.clock,
            turn_start: g.turn_start.unwrap_or_else(Instant::now),
            stop: Arc::clone(&stop),
        };
        g.searching = true;
        self.stops.insert(id, stop);
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }

    fn on_searched(&mut self, s: Searched) {
        self.stops.remove(&s.id);
        let Some(g) = self.games.get_mut(&s.id) else {
            return;
        };
        g.searching = false;
        if !g.synced || g.awaiting_resume || g.ply() != s.ply || !g.our_turn() {
            self.maybe_search(s.id);
            return;
        }
        let mv = g.choose(s.best);
        self.play(s.id, mv, &s.note);
    }

    fn play(&mut self, id: GameId, mv: Option<AnyMove>, note: &str) {
        let Some(g) = self.games.get_mut(&id) else {
            return;
        };
        let role = g.role;
        g.turn_start = None;
        match mv {
            Some(mv) => {
                let ply = g.ply() + 1;
                if g.game.play(mv).is_err() {
                    // Only a move past hnefi's end of the game: follow the server from here.
                    g.synced = false;
                }
                self.log
                    .info(&format!("game {id}: ply {ply} {role} {mv} ({note})"));
                self.pending_moves.push_back((id, mv));
                self.send(&ClientMessage::Play { id, role, mv });
            }
            None => {
                self.log.info(&format!(
                    "game {id}: no move left for the {role}s; resigning"
                ));
                self.send(&ClientMessage::Resign { id, role });
            }
        }
    }

    fn on_rejected(&mut self, why: &str) {
        let Some((id, mv)) = self.pending_moves.pop_front() else {
            self.log
                .info(&format!("the server refused a command: {why}"));
            return;
        };
        self.summary.refused_moves += 1;
        self.log.info(&format!(
            "game {id}: the server refused {mv} ({why}); re-reading the board to send another move"
        ));
        if let Some(g) = self.games.get_mut(&id) {
            if g.last_move() == Some(mv) {
                g.game.undo();
            }
            g.refuse(mv);
            g.synced = false;
        }
        self.resume(id);
    }

    fn on_drawn(&mut self) {
        let drawn: Vec<GameId> = self
            .games
            .iter()
            .filter(|(_, g)| matches!(g.game.status(), Status::Over(o) if o.winner.is_none()))
            .map(|(&id, _)| id)
            .collect();
        match (drawn.as_slice(), self.games.len()) {
            ([id], _) => self.finish(*id, Outcome::draw(())),
            ([], 1) => {
                if let Some(&id) = self.games.keys().next() {
                    self.finish(id, Outcome::draw(()));
                }
            }
            _ => {
                self.log.info(
                    "a game was drawn (the server does not say which); re-reading every game",
                );
                let ids: Vec<GameId> = self.games.keys().copied().collect();
                for id in ids {
                    self.resume(id);
                }
            }
        }
    }

    fn finish(&mut self, id: GameId, outcome: Outcome<()>) {
        let result = message::result_word(outcome);
        self.pending_moves.retain(|&(g, _)| g != id);
        self.resume_asked.remove(&id);
        self.resigned.remove(&id);
        if let Some(stop) = self.stops.remove(&id) {
            stop.store(true, Ordering::Relaxed);
        }
        let offered = self.ours.remove(&id);
        let declined = self.declined.remove(&id);
        let Some(g) = self.games.remove(&id) else {
            self.log.info(&format!("game {id} over: {result}"));
            if offered || declined {
                self.summary.finished.push(Finished {
                    id,
                    role: self.config.role,
                    result: outcome,
                    record: String::new(),
                });
            }
            self.top_up();
            return;
        };
        let record = g.record();
        let verdict = g.game.status();
        self.log.info(&format!(
            "game {id} over: {result}; hnefi played the {}s; {} plies; hnefi's rules: {verdict}; record: {record}",
            g.role,
            g.ply()
        ));
        if !games::agrees(outcome, verdict) {
            self.log.info(&format!(
                "game {id}: the server's result ({result}) is not the one hnefi's rules give ({verdict})"
            ));
        }
        self.summary.finished.push(Finished {
            id,
            role: g.role,
            result: outcome,
            record,
        });
        self.top_up();
    }
}
