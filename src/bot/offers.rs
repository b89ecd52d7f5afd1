//! The games the bot offers and joins: its open offers kept at `accept_games`, every
//! board with every clock in turn, challenges to them answered, and `--join-game` tried
//! again while the server refuses it.

use std::time::{Duration, Instant};

use crate::core::geometry::BoardSize;
use crate::time_control::Fischer;

use super::Bot;
use super::json::GameId;
use super::message::{self, ClientMessage};

/// How often a refused `join_game_pending` is tried again, and how far apart.
const JOIN_ATTEMPTS: u32 = 30;
const JOIN_RETRY: Duration = Duration::from_secs(2);

impl Bot<'_> {
    /// Our offers that no one has joined yet (no game of ours under their id).
    pub(super) fn unjoined_offers(&self) -> Vec<GameId> {
        self.ours
            .iter()
            .filter(|id| !self.games.contains_key(id))
            .copied()
            .collect()
    }

    /// Offers games until `accept_games` of ours are open (and no more than the games
    /// still to play).
    pub(super) fn top_up(&mut self) {
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

    pub(super) fn retry_join(&mut self) {
        if let Some((id, _, Some(at))) = self.join
            && Instant::now() >= at
        {
            if let Some(j) = &mut self.join {
                j.2 = None;
            }
            self.send(&ClientMessage::JoinGamePending(id));
        }
    }

    /// The id of our oldest offer on its way: kept, or withdrawn when the bot is stopping.
    pub(super) fn on_offered(&mut self, id: GameId) {
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
    pub(super) fn on_challenge(&mut self, id: GameId) {
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
    pub(super) fn on_join_refused(&mut self, why: &str) {
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
}
