//! The bot's games in play: the opponent's moves and the clocks followed, a game
//! re-read from the server when the board cannot follow it, a search started at our
//! turn and its move sent, refused moves, and the results.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::any_square::AnyMove;
use crate::core::outcome::{Outcome, Status};
use crate::core::role::Role;
use crate::search::Clock;

use super::Bot;
use super::clock::{self, GameClock};
use super::games::{self, OpenGame};
use super::json::{GameId, GameTime, ResumedGame};
use super::message::{self, ClientMessage};
use super::search_thread::{Job, Searched};
use super::summary::Finished;

impl Bot<'_> {
    /// The opponent's move in a game the bot follows; one the board cannot follow makes
    /// the bot re-read the game.
    pub(super) fn on_played(&mut self, id: GameId, role: Role, mv: Option<AnyMove>) {
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
    pub(super) fn on_game_time(&mut self, t: &GameTime) {
        if let Some(g) = self.games.get_mut(&t.id)
            && let GameClock::Fischer(read) = g.clock
        {
            let left_ms = match g.role {
                Role::Attacker => t.attacker_ms,
                Role::Defender => t.defender_ms,
            };
            g.clock = GameClock::Fischer(Clock {
                remaining: clock::millis(left_ms),
                ..read
            });
        }
    }

    pub(super) fn on_generate_move(&mut self, id: GameId, role: Role) {
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

    pub(super) fn on_resumed(&mut self, r: &ResumedGame) {
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
                let mut left = clock::millis(match role {
                    Role::Attacker => c.attacker_ms,
                    Role::Defender => c.defender_ms,
                });
                if g.our_turn()
                    && let Some(at) = clock::unix_ms(&c.last_move)
                {
                    left = left.saturating_sub(clock::millis(clock::now_unix_ms() - at));
                }
                GameClock::Fischer(Clock {
                    remaining: left,
                    increment: clock::millis(c.increment_s.saturating_mul(1000)),
                })
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

    pub(super) fn on_searched(&mut self, s: Searched) {
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

    pub(super) fn on_rejected(&mut self, why: &str) {
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

    pub(super) fn on_drawn(&mut self) {
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

    pub(super) fn finish(&mut self, id: GameId, outcome: Outcome<()>) {
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
