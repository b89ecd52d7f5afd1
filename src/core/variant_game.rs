//! The game in progress, of whichever kind hnefi plays ([`VariantGame`]): a game under an
//! ordinary rule set on a board of any size ([`AnyGame`]), or OpenTafl's Berserk
//! ([`BerserkGameOf`]), whose turns and pieces the ordinary position does not model. What
//! reads a game without caring which kind it is (the protocol's session) holds this one
//! type; each method dispatches once.

use std::sync::atomic::AtomicBool;

use thiserror::Error;

use super::any_game::{AnyGame, AnyGameError};
use super::any_size::on_size;
use super::any_square::{AnyMove, AnySquare};
use super::berserk_game::{BerserkGameOf, BerserkMoveError};
use super::berserk_notation;
use super::berserk_variant::parse_start;
use super::geometry::{BoardSize, S11};
use super::notation::parse_opentafl_with;
use super::outcome::{Outcome, Reason, Status};
use super::perft::berserk_perft;
use super::role::Role;
use super::rules::RuleSet;

/// The game in progress: an ordinary rule set's on any board, or Berserk's.
#[derive(Clone, Debug)]
pub enum VariantGame {
    /// A game under an ordinary rule set.
    Ordinary(AnyGame),
    /// A game of OpenTafl's Berserk 11x11 (docs/RULES.md section 17.10).
    Berserk(BerserkGameOf<S11>),
}

/// Why the game refused a move, a resignation or a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantMoveError {
    /// The ordinary game refused it.
    #[error(transparent)]
    Ordinary(#[from] AnyGameError),
    /// The Berserk game refused it.
    #[error(transparent)]
    Berserk(#[from] BerserkMoveError),
    /// A move off the Berserk game's board.
    #[error("{0} is off the 11x11 board")]
    OffBerserkBoard(AnyMove),
    /// What only a Berserk game does (its move records).
    #[error("not in a Berserk game: {0}")]
    NotBerserk(&'static str),
}

impl From<AnyGame> for VariantGame {
    fn from(game: AnyGame) -> Self {
        VariantGame::Ordinary(game)
    }
}

impl From<BerserkGameOf<S11>> for VariantGame {
    fn from(game: BerserkGameOf<S11>) -> Self {
        VariantGame::Berserk(game)
    }
}

impl VariantGame {
    /// The ordinary game, if it is one.
    pub fn ordinary(&self) -> Option<&AnyGame> {
        match self {
            VariantGame::Ordinary(g) => Some(g),
            VariantGame::Berserk(_) => None,
        }
    }

    /// The Berserk game, if it is one.
    pub fn berserk(&self) -> Option<&BerserkGameOf<S11>> {
        match self {
            VariantGame::Ordinary(_) => None,
            VariantGame::Berserk(b) => Some(b),
        }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        match self {
            VariantGame::Ordinary(g) => g.size(),
            VariantGame::Berserk(_) => BoardSize::S11,
        }
    }

    /// The rule set: a Berserk game's squares, king and wins are one.
    pub fn rules(&self) -> RuleSet {
        match self {
            VariantGame::Ordinary(g) => g.rules(),
            VariantGame::Berserk(b) => b.rules().rules,
        }
    }

    /// Changes the rules for the rest of an ordinary game; a Berserk game keeps its rules
    /// string's.
    pub(crate) fn set_rules(&mut self, rules: RuleSet) {
        if let VariantGame::Ordinary(g) = self {
            g.set_rules(rules);
        }
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        match self {
            VariantGame::Ordinary(g) => g.status(),
            VariantGame::Berserk(b) => b.status(),
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Role {
        match self {
            VariantGame::Ordinary(g) => g.to_move(),
            VariantGame::Berserk(b) => b.to_move(),
        }
    }

    /// The number of moves played (a berserk turn's moves each count).
    pub fn moves_played(&self) -> usize {
        match self {
            VariantGame::Ordinary(g) => g.moves_played(),
            VariantGame::Berserk(b) => b.plies().len(),
        }
    }

    /// The side whose piece stands on `sq` (`None`: empty, or off the board).
    pub fn role_at(&self, sq: AnySquare) -> Option<Role> {
        match self {
            VariantGame::Ordinary(g) => g.role_at(sq),
            VariantGame::Berserk(b) => {
                let sq = sq.on::<S11>()?;
                b.position().board().piece_at(sq).map(|p| p.role())
            }
        }
    }

    /// Every legal move of the side to move, sorted by from then to.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            VariantGame::Ordinary(g) => g.legal_moves(),
            VariantGame::Berserk(b) => {
                let mut moves: Vec<AnyMove> = b
                    .legal_moves()
                    .as_slice()
                    .iter()
                    .map(|&m| AnyMove::from(m))
                    .collect();
                moves.sort_unstable();
                moves
            }
        }
    }

    /// Plays a move and returns the squares it captured sorted by rank then file, the
    /// king's among them when it captured him; an illegal move, or one off the board,
    /// changes nothing.
    pub fn play(&mut self, mv: AnyMove) -> Result<Vec<AnySquare>, VariantMoveError> {
        match self {
            VariantGame::Ordinary(g) => {
                let mut captured = g.play(mv)?;
                if let Status::Over(Outcome {
                    winner: Some(_),
                    reason: Reason::KingCaptured,
                }) = g.status()
                {
                    captured.push(g.king());
                    captured.sort_unstable();
                }
                Ok(captured)
            }
            VariantGame::Berserk(b) => {
                let m = mv
                    .on::<S11>()
                    .ok_or(VariantMoveError::OffBerserkBoard(mv))?;
                let king = b.position().board().king();
                let ply = b.play(m)?;
                let mut taken: Vec<AnySquare> = ply
                    .effect
                    .taken
                    .soldiers
                    .into_iter()
                    .map(AnySquare::from)
                    .collect();
                if ply.effect.taken.king {
                    taken.push(AnySquare::from(king));
                }
                taken.sort_unstable();
                Ok(taken)
            }
        }
    }

    /// Plays a move record of OpenTafl's notation in a Berserk game (its captures, if
    /// listed, checked); an error, and nothing changes, when it is not legal or the game
    /// is not Berserk's.
    pub fn play_berserk_record(&mut self, word: &str) -> Result<(), VariantMoveError> {
        match self {
            VariantGame::Ordinary(_) => Err(VariantMoveError::NotBerserk("a Berserk move record")),
            VariantGame::Berserk(b) => {
                b.play_record(word)?;
                Ok(())
            }
        }
    }

    /// `role` resigns.
    pub fn resign(&mut self, role: Role) -> Result<(), VariantMoveError> {
        match self {
            VariantGame::Ordinary(g) => Ok(g.resign(role).map_err(AnyGameError::from)?),
            VariantGame::Berserk(b) => Ok(b.resign(role)?),
        }
    }

    /// Takes back the last ply; false at the first position.
    pub fn undo(&mut self) -> bool {
        match self {
            VariantGame::Ordinary(g) => g.undo(),
            VariantGame::Berserk(b) => b.undo(),
        }
    }

    /// The board as a diagram (a Berserk game's commanders and knights with their
    /// letters).
    pub fn diagram(&self) -> String {
        match self {
            VariantGame::Ordinary(g) => g.diagram(),
            VariantGame::Berserk(b) => berserk_notation::diagram(b.position()),
        }
    }

    /// The board in OpenTafl's notation.
    pub fn to_opentafl(&self) -> String {
        match self {
            VariantGame::Ordinary(g) => g.to_opentafl(),
            VariantGame::Berserk(b) => berserk_notation::to_opentafl(b.position()),
        }
    }

    /// True when `otn`, read in OpenTafl's notation with the game's own restricted
    /// squares (in a game without corner squares a soldier may stand on a corner), is
    /// the board of the game: its size, its pieces, a Berserk game's commanders and
    /// knights.
    pub fn shows(&self, otn: &str) -> bool {
        match self {
            VariantGame::Ordinary(g) => on_size!(g, AnyGame, game: G => {
                parse_opentafl_with::<G>(otn, game.rules().restricted())
                    .is_ok_and(|b| &b == game.position().board())
            }),
            VariantGame::Berserk(b) => {
                let now = b.position();
                parse_start::<S11>(otn, b.rules().rules.restricted()).is_ok_and(
                    |(board, specials)| {
                        &board == now.board()
                            && specials.commanders() == now.specials().commanders()
                            && specials.knights() == now.specials().knights()
                    },
                )
            }
        }
    }

    /// The moves so far in the game's record notation (OpenTafl's for Berserk).
    pub fn moves_field(&self) -> String {
        match self {
            VariantGame::Ordinary(g) => g.moves_field(),
            VariantGame::Berserk(b) => b.moves_field(),
        }
    }

    /// The perft count `depth` plies below the current position under the game's rules,
    /// or `None` when `stop` ended it (a Berserk count runs to its end).
    pub(crate) fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        match self {
            VariantGame::Ordinary(g) => g.perft_until(depth, stop),
            VariantGame::Berserk(b) => Some(berserk_perft(b.position(), depth, b.rules())),
        }
    }
}
