//! A stop request (SIGTERM and the like, [`super::shutdown`]) followed: no new games, the
//! games in progress finished or resigned past a deadline, then a logout.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::Bot;
use super::games::OpenGame;
use super::json::GameId;
use super::message::ClientMessage;
use super::shutdown::Stage;

impl Bot<'_> {
    /// Follows a stop request: the first time, no new games (pending offers withdrawn);
    /// past the deadline or at a second request, every game resigned at our turn; the
    /// loop ends when no game is left, or a grace period after the resignations (an
    /// opponent who never moves in an untimed game keeps it on the server).
    pub(super) fn on_stop_request(&mut self) {
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

    pub(super) fn resign_on_stop(&mut self, id: GameId) {
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
    pub(super) fn log_out(&mut self) {
        if self.conn.is_none() {
            return;
        }
        self.send(&ClientMessage::Logout);
        self.log.info("logged out");
    }
}
