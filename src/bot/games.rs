//! One game the bot plays: its board (7x7, 11x11 or 13x13) under the server's rules for
//! that size, our side, our clock, and the moves the server refused.

use std::time::Instant;

use rustc_hash::FxHashSet;

use crate::core::any_game::AnyGame;
use crate::core::any_size::on_size;
use crate::core::any_square::AnyMove;
use crate::core::game::{GameOf, PlyOf};
use crate::core::geometry::BoardSize;
use crate::core::notation::RecordMoveOf;
use crate::core::outcome::{Outcome, Status};
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::core::variant::{Variant, VariantError};

use super::clock::GameClock;

/// The rules the server plays by: this family's game of each size is the server's game
/// on that board (docs/RULES.md sections 13 and 16).
pub(crate) const SERVER_RULES: RulePreset = RulePreset::HnefataflOrg;

/// The board sizes the server offers games on (its `BoardSize`: 7, 11 and 13).
pub(crate) const SERVER_SIZES: [BoardSize; 3] = [BoardSize::S7, BoardSize::S11, BoardSize::S13];

/// The server's game on a board of `size`: its start, first mover and rules; an error
/// (the reason) for a board the server does not offer or hnefi cannot play.
pub(crate) fn server_game(size: BoardSize) -> Result<Variant, VariantError> {
    SERVER_RULES.variant(size)
}

/// Who moves first in the server's games on a board of `dim` files (the server's own
/// rule, `join_game`: the defenders on 7x7, the attackers otherwise), for any size it
/// may name, also one hnefi does not play.
pub(crate) fn server_first_mover(dim: u64) -> Role {
    if dim == 7 {
        Role::Defender
    } else {
        Role::Attacker
    }
}

/// What the bot knows of a game.
#[derive(Clone, Debug)]
pub(crate) struct OpenGame {
    /// Our side.
    pub(crate) role: Role,
    /// The board and history, under the server's rules for its size.
    pub(crate) game: AnyGame,
    /// True while the board is known to be the server's (false after a refused move or a
    /// move we could not follow, until the next `resume_game_json`).
    pub(crate) synced: bool,
    /// A `resume_game_json` is on its way.
    pub(crate) awaiting_resume: bool,
    /// A search for this game is queued or running.
    pub(crate) searching: bool,
    /// Our clock.
    pub(crate) clock: GameClock,
    /// When our current turn began, as far as the bot knows.
    pub(crate) turn_start: Option<Instant>,
    /// Moves the server refused, by the ply at which they were sent.
    pub(crate) refused: Vec<(usize, AnyMove)>,
}

/// The game of `variant` with `moves` played, or, when they do not replay under its
/// rules, the board the moves alone make (earlier boards lost) and the reason.
fn replay<G: crate::core::geometry::Geometry>(
    variant: &Variant,
    moves: &[AnyMove],
) -> Result<(GameOf<G>, Option<String>), VariantError> {
    let rules = variant.rules();
    let start = variant.start_position::<G>()?;
    let mut game = GameOf::<G>::from_position(start, rules);
    for (i, &mv) in moves.iter().enumerate() {
        let played = match mv.on::<G>() {
            Some(m) => game.play(m).map(|_| ()).map_err(|e| e.to_string()),
            None => Err(format!("off the {0}x{0} board", variant.size())),
        };
        if let Err(e) = played {
            let mut pos = start;
            for m in moves.iter().filter_map(|m| m.on::<G>()) {
                pos.make_move(m, &rules);
            }
            let to_move = match moves.len() % 2 {
                0 => variant.first(),
                _ => variant.first().opponent(),
            };
            let game = GameOf::from_position(PositionOf::new(*pos.board(), to_move), rules);
            return Ok((game, Some(format!("ply {} ({mv}): {e}", i + 1))));
        }
    }
    Ok((game, None))
}

impl OpenGame {
    /// A game on the server's board of `size`, known from the server's record `moves`,
    /// with our side `role`; an error for a board hnefi cannot play.
    ///
    /// When the moves do not replay under the server's rules in hnefi's core (which would
    /// mean the two disagree on when a game ends), the board is rebuilt by the moves alone
    /// and the history of earlier boards is lost; the server remains the judge.
    pub(crate) fn from_moves(
        role: Role,
        size: BoardSize,
        moves: &[AnyMove],
    ) -> Result<(OpenGame, Option<String>), VariantError> {
        let variant = server_game(size)?;
        let (game, problem): (AnyGame, Option<String>) = crate::with_size!(size, G => {
            let (game, problem) = replay::<G>(&variant, moves)?;
            (game.into(), problem)
        });
        Ok((
            OpenGame {
                role,
                game,
                synced: true,
                awaiting_resume: false,
                searching: false,
                clock: GameClock::Unknown,
                turn_start: None,
                refused: Vec::new(),
            },
            problem,
        ))
    }

    /// The plies played (resignations not counted).
    pub(crate) fn ply(&self) -> usize {
        self.game.moves_played()
    }

    /// True when it is our move on the board the bot knows.
    pub(crate) fn our_turn(&self) -> bool {
        self.game.to_move() == self.role
    }

    /// The last move played, if the last ply is a move.
    pub(crate) fn last_move(&self) -> Option<AnyMove> {
        on_size!(&self.game, AnyGame, g => g.plies().last().and_then(|p| p.mv()).map(AnyMove::from))
    }

    /// Records that the server refused `mv` at the current ply.
    pub(crate) fn refuse(&mut self, mv: AnyMove) {
        let ply = self.ply();
        self.refused.push((ply, mv));
    }

    fn is_refused(&self, mv: AnyMove) -> bool {
        let ply = self.ply();
        self.refused.iter().any(|&(p, m)| p == ply && m == mv)
    }

    /// The move to send: `best` unless the server refused it here; otherwise the first
    /// legal move it has not refused. When hnefi's core sees the game as over but the
    /// server asks for a move, any move by the movement rules that does not recreate an
    /// earlier board (the server's repetition rule) is a candidate.
    pub(crate) fn choose(&self, best: Option<AnyMove>) -> Option<AnyMove> {
        if let Some(mv) = best
            && !self.is_refused(mv)
        {
            return Some(mv);
        }
        on_size!(&self.game, AnyGame, g => {
            let legal = g.legal_moves();
            if let Some(&mv) = legal
                .as_slice()
                .iter()
                .find(|&&m| !self.is_refused(m.into()))
            {
                return Some(mv.into());
            }
            let pos = *g.position();
            let boards: FxHashSet<u64> = g.positions().iter().map(PositionOf::board_hash).collect();
            pos.legal_moves(&g.rules())
                .as_slice()
                .iter()
                .copied()
                .find(|&m| {
                    !self.is_refused(m.into())
                        && (pos.to_move() == Role::Attacker
                            || !boards.contains(&pos.moved_board_hash(m)))
                })
                .map(AnyMove::from)
        })
    }

    /// The game's record so far, moves with their captures (`h1-h3 e5-e2 g3-e3xe2`).
    pub(crate) fn record(&self) -> String {
        on_size!(&self.game, AnyGame, g => {
            let moves: Vec<String> = g
                .plies()
                .iter()
                .filter_map(|p| match *p {
                    PlyOf::Move { mv, captured } => Some(
                        RecordMoveOf {
                            mv,
                            captures: captured,
                        }
                        .to_string(),
                    ),
                    _ => None,
                })
                .collect();
            moves.join(" ")
        })
    }
}

/// True when the server's result (its winner or a draw) is the one hnefi's own rules give
/// the game, or when hnefi's rules see it going on (a resignation or a loss on time, which
/// only the server knows of, ended it).
///
/// ```
/// use hnefi::bot::games::agrees;
/// use hnefi::core::outcome::{Outcome, Reason, Status};
/// use hnefi::core::role::Role;
/// let won = Status::won(Role::Attacker, Reason::CannotEscape);
/// assert!(agrees(Outcome::win(Role::Attacker, ()), won));
/// assert!(!agrees(Outcome::win(Role::Defender, ()), won));
/// assert!(!agrees(Outcome::draw(()), won));
/// assert!(agrees(Outcome::win(Role::Defender, ()), Status::Ongoing));
/// ```
pub fn agrees(result: Outcome<()>, status: Status) -> bool {
    !status.is_over() || status.winner() == result.winner
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn server_game() {
        use crate::bot::games::server_game;
        use crate::core::geometry::BoardSize;
        use crate::core::role::Role;
        assert_eq!(server_game(BoardSize::S7).unwrap().first(), Role::Defender);
        assert_eq!(server_game(BoardSize::S13).unwrap().first(), Role::Attacker);
        assert!(server_game(BoardSize::S9).is_err());
    }
}
