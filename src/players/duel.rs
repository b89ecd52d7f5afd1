//! One game between two scripted players, in process: what the tests and the study's
//! tables play.

use crate::core::game::Game;

use crate::core::rules::RuleSet;

use super::Player;

/// Plays `attacker` against `defender` from the start position under `rules` until the
/// game ends or `max_moves` moves have been played; returns the game.
pub(crate) fn play(attacker: Player, defender: Player, rules: RuleSet, max_moves: usize) -> Game {
    let mut game = Game::new(rules);
    while !game.status().is_over() && game.moves_played() < max_moves {
        let player = if game.to_move() == crate::core::role::Role::Attacker {
            attacker
        } else {
            defender
        };
        let Some(mv) = player.choose(&game) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}
