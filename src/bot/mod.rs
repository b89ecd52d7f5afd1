//! `hnefi bot`: hnefi plays on a hnefatafl.org server (`hnefatafl-copenhagen` 6.4.1's
//! `hnefatafl-server`), as its reference bot does.
//!
//! One connection carries every game; a reader thread turns the server's lines into
//! events, a search thread plays one move at a time, and this file's loop keeps the games:
//! it offers and accepts games, answers `generate_move`, follows the clocks, re-reads a
//! game after a refused move, and reconnects with backoff, resuming every open game.
//!
//! Files: [`message`] (the protocol's lines), [`json`] (its JSON payloads),
//! [`connection`] (connect, login, lines, backoff), [`games`] (one game's state),
//! [`clock`] (clock budgets), [`log`] (the log, password-free), [`cli`] (the flags),
//! [`password`] (the password from a flag, a file or the environment).

pub mod cli;
pub mod clock;
pub mod connection;
pub mod games;
pub mod json;
pub mod log;
pub mod message;
pub mod password;

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
use crate::core::outcome::Status;
use crate::core::role::Role;
use crate::search::Searcher;

use clock::{Caps, GameClock};
use connection::{ConnectError, Connection, backoff};
use games::OpenGame;
use json::ResumedGame;
use log::Log;
use message::{ClientMessage, GameId, ServerMessage, TimeSettings};

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
    /// The board of the games we offer (one the server offers: 7x7, 11x11 or 13x13).
    pub board_size: BoardSize,
    /// How many offered games to keep open (pending or playing).
    pub accept_games: u32,
    /// Join this game of someone else.
    pub join_game: Option<GameId>,
    /// Offer rated games.
    pub rated: bool,
    /// The clock of the games we offer.
    pub time: TimeSettings,
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
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Its id.
    pub id: GameId,
    /// Our side.
    pub role: Role,
    /// `attacker_wins`, `defender_wins` or `draw`.
    pub result: String,
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
pub enum Event {
    /// A line from the server, on connection number `.0`.
    Line(u64, String),
    /// Connection number `.0` ended (why).
    Closed(u64, String),
    /// A search finished.
    Searched(Searched),
}

/// A finished search.
#[derive(Debug)]
pub struct Searched {
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
                let note = format!(
                    "depth {} score {} nodes {} in {} ms",
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
        in_flight: 0,
        pending_moves: VecDeque::new(),
        declined: BTreeSet::new(),
        stops: BTreeMap::new(),
        join: config.join_game.map(|id| (id, 0, None)),
        summary: Summary::default(),
    };
    let result = bot.run_loop(&rx);
    for stop in bot.stops.values() {
        stop.store(true, Ordering::Relaxed);
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
    /// Offers sent, not yet answered with their id.
    in_flight: u32,
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
}

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
        self.after_login();
        while !self.done() {
            let event = match rx.recv_timeout(Duration::from_millis(500)) {
                Ok(e) => e,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.retry_join();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            match event {
                Event::Line(g, line) if g == self.generation => self.on_line(&line),
                Event::Closed(g, why) if g == self.generation => self.reconnect(&why)?,
                Event::Line(..) | Event::Closed(..) => {}
                Event::Searched(s) => self.on_searched(s),
            }
        }
        Ok(())
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
        }
        self.send(&ClientMessage::ResumeGameJson(id));
    }

    /// Offers games until `accept_games` of ours are open (and no more than the games
    /// still to play).
    fn top_up(&mut self) {
        loop {
            let open = self.ours.len() + self.in_flight as usize;
            let room = self.config.max_games == 0
                || self.summary.finished.len() + open < self.config.max_games as usize;
            if open >= self.config.accept_games as usize || !room {
                return;
            }
            self.in_flight += 1;
            self.send(&ClientMessage::NewGame {
                role: self.config.role,
                size: self.config.board_size,
                rated: self.config.rated,
                time: self.config.time,
            });
        }
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
        for g in self.games.values_mut() {
            g.synced = false;
        }
        for stop in self.stops.values() {
            stop.store(true, Ordering::Relaxed);
        }
        // The server withdraws our pending timed offers when we log out; untimed ones stay.
        self.in_flight = 0;
        if self.config.time != TimeSettings::Untimed {
            let games = &self.games;
            self.ours.retain(|id| games.contains_key(id));
        }
        let mut attempt = 0;
        loop {
            thread::sleep(backoff(attempt));
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
        self.log.info(&format!(
            "reconnected; resuming {} open game(s)",
            self.games.len()
        ));
        self.after_login();
        Ok(())
    }

    fn on_line(&mut self, line: &str) {
        self.log.received(line);
        let msg = match ServerMessage::parse(line) {
            Ok(m) => m,
            Err(e) => {
                self.summary.bad_lines += 1;
                let shown: String = line.chars().take(120).collect();
                self.log.info(&format!(
                    "ignored a line the bot cannot read ({e}): {shown}"
                ));
                return;
            }
        };
        match msg {
            ServerMessage::Offered(id) => {
                self.in_flight = self.in_flight.saturating_sub(1);
                self.ours.insert(id);
                self.log.info(&format!(
                    "offered game {id} ({}, {}x{}, {}, {})",
                    self.config.role,
                    self.config.board_size,
                    self.config.board_size,
                    match self.config.time {
                        TimeSettings::Untimed => "untimed".to_string(),
                        TimeSettings::Fischer {
                            main_ms,
                            increment_s,
                        } => format!("{main_ms} ms + {increment_s} s"),
                    },
                    if self.config.rated {
                        "rated"
                    } else {
                        "unrated"
                    }
                ));
            }
            ServerMessage::ChallengeRequested(id) => {
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
            ServerMessage::JoinPending(id) => {
                self.log
                    .info(&format!("asked to join game {id}; waiting for its owner"));
                if self.join.is_some_and(|j| j.0 == id) {
                    self.join = None;
                }
            }
            ServerMessage::JoinRefused(why) => {
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
            ServerMessage::GenerateMove { id, role } => self.on_generate_move(id, role),
            ServerMessage::Resumed(r) => self.on_resumed(&r),
            ServerMessage::Played { id, role, mv } => {
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
            ServerMessage::GameTime(t) => {
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
            ServerMessage::MoveAccepted => {
                self.pending_moves.pop_front();
            }
            ServerMessage::MoveRejected(why) => self.on_rejected(&why),
            ServerMessage::GameOver { id, outcome } => self.finish(id, &outcome.to_string()),
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
                self.log
                    .info(&format!("game {id} was resumed but is not ours; ignored"));
                return;
            }
        };
        let opened = match r.size {
            Some(size) => OpenGame::from_moves(id, role, size, &r.moves).map_err(|e| e.to_string()),
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
            .filter(|(_, g)| matches!(g.game.status(), Status::Drawn { .. }))
            .map(|(&id, _)| id)
            .collect();
        match (drawn.as_slice(), self.games.len()) {
            ([id], _) => self.finish(*id, "draw"),
            ([], 1) => {
                if let Some(&id) = self.games.keys().next() {
                    self.finish(id, "draw");
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

    fn finish(&mut self, id: GameId, result: &str) {
        self.pending_moves.retain(|&(g, _)| g != id);
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
                    result: result.to_string(),
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
        if !games::agrees(result, verdict) {
            self.log.info(&format!(
                "game {id}: the server's result ({result}) is not the one hnefi's rules give ({verdict})"
            ));
        }
        self.summary.finished.push(Finished {
            id,
            role: g.role,
            result: result.to_string(),
            record,
        });
        self.top_up();
    }
}
