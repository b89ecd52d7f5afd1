//! A game in play as the referee sees it, of either kind ([`Refereed`]): an ordinary
//! game on any board, or a Berserk game ([`BerserkPlay`]), whose turn may be several
//! moves of one side; what the referee, the dialects and the records ask of it.

use crate::core::any_square::AnyMove;
use crate::core::berserk_game::BerserkGameOf;
use crate::core::game::GameOf;
use crate::core::geometry::{Geometry, S11};
use crate::core::notation::to_opentafl;
use crate::core::outcome::{Reason, Status};
use crate::core::role::Role;

use super::records;

/// A game in play as the referee sees it: the side to move (the same side again while a
/// berserk turn continues), its status, its moves, its board as OpenTafl writes it, and
/// its records line.
pub(crate) trait Refereed {
    /// The side to move.
    fn side_to_move(&self) -> Role;
    /// How the game stands.
    fn game_status(&self) -> Status;
    /// Plays a move of the side to move; why it is illegal (or off the board) otherwise,
    /// for the adjudication's detail, and nothing changes.
    fn play_any(&mut self, mv: AnyMove) -> Result<(), String>;
    /// `role` resigns (nothing happens once the game is over).
    fn resign_as(&mut self, role: Role);
    /// `role` lost on time (nothing happens once the game is over).
    fn time_out(&mut self, role: Role);
    /// The board in OpenTafl's position notation (with a Berserk game's commanders and
    /// knights).
    fn board_otn(&self) -> String;
    /// The moves from the start.
    fn moves(&self) -> Vec<AnyMove>;
    /// The game's records line with the result `winner` (see
    /// [`record_line`](super::records::record_line)).
    fn record_line(&self, winner: Option<Role>) -> String;
}

impl<G: Geometry> Refereed for GameOf<G> {
    fn side_to_move(&self) -> Role {
        self.to_move()
    }

    fn game_status(&self) -> Status {
        self.status()
    }

    fn play_any(&mut self, mv: AnyMove) -> Result<(), String> {
        let Some(m) = mv.on::<G>() else {
            let size = G::SIZE;
            return Err(format!("{mv}: a square is off the {size}x{size} board"));
        };
        self.play(m).map(|_| ()).map_err(|e| format!("{m}: {e}"))
    }

    fn resign_as(&mut self, role: Role) {
        let _ = self.resign(role);
    }

    fn time_out(&mut self, role: Role) {
        let _ = self.lose_on_time(role);
    }

    fn board_otn(&self) -> String {
        to_opentafl(self.position().board())
    }

    fn moves(&self) -> Vec<AnyMove> {
        self.plies()
            .iter()
            .filter_map(|p| p.mv().map(AnyMove::from))
            .collect()
    }

    fn record_line(&self, winner: Option<Role>) -> String {
        records::record_line(self, winner)
    }
}

/// A Berserk game in play, and the side that lost it on time, if one did (the game
/// itself has no such ending: a match's clock is the runner's).
#[derive(Clone, Debug)]
pub(crate) struct BerserkPlay {
    /// The game.
    pub(crate) game: BerserkGameOf<S11>,
    /// The side that lost on time.
    pub(crate) timed_out: Option<Role>,
}

impl Refereed for BerserkPlay {
    fn side_to_move(&self) -> Role {
        self.game.to_move()
    }

    fn game_status(&self) -> Status {
        match self.timed_out {
            Some(loser) => Status::won(loser.opponent(), Reason::Time),
            None => self.game.status(),
        }
    }

    fn play_any(&mut self, mv: AnyMove) -> Result<(), String> {
        if self.timed_out.is_some() {
            return Err(format!("{mv}: the game is over"));
        }
        let Some(m) = mv.on::<S11>() else {
            return Err(format!("{mv}: a square is off the 11x11 board"));
        };
        self.game.play(m).map(|_| ()).map_err(|e| e.to_string())
    }

    fn resign_as(&mut self, role: Role) {
        if self.timed_out.is_none() {
            let _ = self.game.resign(role);
        }
    }

    fn time_out(&mut self, role: Role) {
        if !self.game_status().is_over() {
            self.timed_out = Some(role);
        }
    }

    fn board_otn(&self) -> String {
        crate::core::berserk_notation::to_opentafl(self.game.position())
    }

    fn moves(&self) -> Vec<AnyMove> {
        self.game
            .plies()
            .iter()
            .map(|p| AnyMove::from(p.mv))
            .collect()
    }

    fn record_line(&self, winner: Option<Role>) -> String {
        records::berserk_record_line(&self.game, self.timed_out.is_some(), winner)
    }
}
