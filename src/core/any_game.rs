//! A game on a board of any size ([`AnyGame`]): one [`GameOf`] per size behind one type,
//! for what reads a size at run time (the protocol's session, `board_size N`). Each
//! method dispatches once ([`on_size!`]) to the sized game.

use std::sync::atomic::AtomicBool;

use thiserror::Error;

use super::any_size::{on_size, size_enum};
use super::any_square::{AnyMove, AnySquare};
use super::game::GameOf;
use super::geometry::{BoardSize, Geometry, S11};
use super::moves::MoveOf;
use super::notation::{PositionError, parse_opentafl_with, to_opentafl};
use super::outcome::Status;
use super::perft;
use super::position::{IllegalMoveOf, PositionOf};
use super::record::{self, GameRecordError, GameRecordOf, ReplayErrorOf};
use super::role::Role;
use super::rules::RuleSet;
use super::variant::{Variant, VariantError};

size_enum! {
    /// A game on a board of any size.
    ///
    /// ```
    /// use hnefi::core::any_game::AnyGame;
    /// use hnefi::core::geometry::BoardSize;
    /// use hnefi::core::preset::RulePreset;
    /// use hnefi::core::role::Role;
    /// let variant = RulePreset::Copenhagen.variant(BoardSize::S13).unwrap();
    /// let game = AnyGame::start(&variant, Role::Attacker, variant.rules()).unwrap();
    /// assert_eq!(game.size(), BoardSize::S13);
    /// assert_eq!(game.legal_moves().len(), 180);
    /// ```
    #[derive(Clone, Debug)]
    pub enum AnyGame of GameOf
}

size_enum! {
    /// Why a game on a board of some size refused a move.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AnyIllegalMove of IllegalMoveOf
}

size_enum! {
    /// Why a record does not replay on a board of some size.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum AnyReplayError of ReplayErrorOf
}

impl std::fmt::Display for AnyIllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        on_size!(self, AnyIllegalMove, e => e.fmt(f))
    }
}

impl std::error::Error for AnyIllegalMove {}

impl std::fmt::Display for AnyReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        on_size!(self, AnyReplayError, e => e.fmt(f))
    }
}

impl std::error::Error for AnyReplayError {}

impl From<AnyReplayError> for AnyGameError {
    fn from(e: AnyReplayError) -> AnyGameError {
        AnyGameError::Replay(Box::new(e))
    }
}

/// Why a game on any board could not be made or could not take a move; the game is then
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnyGameError {
    /// A square that is not on the game's board.
    #[error("{square} is off the {size}x{size} board")]
    OffBoard {
        /// The square.
        square: AnySquare,
        /// The board's size.
        size: BoardSize,
    },
    /// The rules refuse the move.
    #[error(transparent)]
    Illegal(#[from] AnyIllegalMove),
    /// An OpenTafl position of another size than the board's.
    #[error(
        "the position is {position}x{position}, but the game is on {board}x{board} (board_size {position} first)"
    )]
    PositionSize {
        /// The position's size.
        position: BoardSize,
        /// The board's.
        board: BoardSize,
    },
    /// An invalid OpenTafl position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// An unreadable record.
    #[error(transparent)]
    Record(#[from] GameRecordError),
    /// A record that does not replay (boxed: it holds two bitboards, 96 bytes on the
    /// largest boards, and every result of a game on any board carries this error).
    #[error(transparent)]
    Replay(Box<AnyReplayError>),
    /// The variant cannot be played here.
    #[error(transparent)]
    Variant(#[from] VariantError),
}

impl AnyGame {
    /// A new game of `variant` from its start position, `first` to move, under `rules`.
    pub fn start(variant: &Variant, first: Role, rules: RuleSet) -> Result<AnyGame, VariantError> {
        crate::with_size!(variant.size(), G => {
            let start = variant.start_board::<G>()?;
            Ok(GameOf::<G>::from_position(PositionOf::new(start, first), rules).into())
        })
    }

    /// A new game on a board of `size` from an OpenTafl position, `to_move` to move; no
    /// soldier may stand on a square the rules restrict. A position with as many rows as
    /// another board has is refused naming both sizes.
    pub(crate) fn from_opentafl(
        size: BoardSize,
        otn: &str,
        to_move: Role,
        rules: RuleSet,
    ) -> Result<AnyGame, AnyGameError> {
        let trimmed = otn.trim();
        let inner = trimmed.strip_prefix('/').unwrap_or(trimmed);
        let inner = inner.strip_suffix('/').unwrap_or(inner);
        let rows = inner.split('/').count();
        if let Some(other) = BoardSize::ALL
            .into_iter()
            .find(|s| s != &size && usize::from(s.files()) == rows)
        {
            return Err(AnyGameError::PositionSize {
                position: other,
                board: size,
            });
        }
        crate::with_size!(size, G => {
            let board = parse_opentafl_with::<G>(otn, rules.restricted())?;
            Ok(GameOf::<G>::from_position(PositionOf::new(board, to_move), rules).into())
        })
    }

    /// A new game of `variant` from its start position, its first mover to move, with the
    /// moves of a record's moves field (`h1-h3 f8-i8 ...`, optionally a final `timeout`)
    /// played under `rules`; listed captures must be the moves'.
    pub fn from_record(
        variant: &Variant,
        field: &str,
        rules: RuleSet,
    ) -> Result<AnyGame, AnyGameError> {
        crate::with_size!(variant.size(), G => {
            let record = GameRecordOf::<G>::from_moves(field)?;
            let start = variant.start_position::<G>()?;
            let game = record
                .replay_from(start, rules)
                .map_err(AnyReplayError::from)?;
            Ok(game.into())
        })
    }

    /// The 11x11 game, if the board is 11x11 (what the search plays).
    pub(crate) fn s11(&self) -> Option<&GameOf<S11>> {
        match self {
            AnyGame::S11(g) => Some(g),
            _ => None,
        }
    }

    /// The rule set.
    pub(crate) fn rules(&self) -> RuleSet {
        on_size!(self, AnyGame, g => g.rules())
    }

    /// Changes the rules for the rest of the game ([`GameOf::set_rules`]).
    pub(crate) fn set_rules(&mut self, rules: RuleSet) {
        on_size!(self, AnyGame, g => g.set_rules(rules))
    }

    /// The status.
    pub fn status(&self) -> Status {
        on_size!(self, AnyGame, g => g.status())
    }

    /// The side to move.
    pub fn to_move(&self) -> Role {
        on_size!(self, AnyGame, g => g.to_move())
    }

    /// The number of moves played.
    pub fn moves_played(&self) -> usize {
        on_size!(self, AnyGame, g => g.moves_played())
    }

    /// The king's square.
    pub fn king(&self) -> AnySquare {
        on_size!(self, AnyGame, g => g.position().board().king().into())
    }

    /// The side whose piece stands on `sq` (`None`: empty, or off the board).
    pub fn role_at(&self, sq: AnySquare) -> Option<Role> {
        on_size!(self, AnyGame, g: G => {
            let sq = sq.on::<G>()?;
            g.position().board().piece_at(sq).map(|p| p.role())
        })
    }

    /// Every legal move of the side to move, sorted by from then to.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        let mut moves: Vec<AnyMove> =
            on_size!(self, AnyGame, g => g.legal_moves().iter().map(|&m| m.into()).collect());
        moves.sort_unstable();
        moves
    }

    /// Checks a move without playing it ([`GameOf::check`]).
    pub fn check(&self, mv: AnyMove) -> Result<(), AnyGameError> {
        let size = self.size();
        on_size!(self, AnyGame, g: G => {
            let mv = sized::<G>(mv, size)?;
            g.check(mv).map_err(|e| AnyIllegalMove::from(e).into())
        })
    }

    /// Plays a move ([`GameOf::play`]) and returns the squares of the soldiers it captured,
    /// sorted; an illegal move, or one off the board, changes nothing.
    pub fn play(&mut self, mv: AnyMove) -> Result<Vec<AnySquare>, AnyGameError> {
        let size = self.size();
        on_size!(self, AnyGame, g: G => {
            let mv = sized::<G>(mv, size)?;
            let captured = g.play(mv).map_err(AnyIllegalMove::from)?;
            Ok(captured.into_iter().map(AnySquare::from).collect())
        })
    }

    /// `role` resigns ([`GameOf::resign`]).
    pub(crate) fn resign(&mut self, role: Role) -> Result<(), AnyIllegalMove> {
        on_size!(self, AnyGame, g => g.resign(role).map_err(AnyIllegalMove::from))
    }

    /// Takes back the last ply; false at the first position.
    pub(crate) fn undo(&mut self) -> bool {
        on_size!(self, AnyGame, g => g.undo().is_some())
    }

    /// The board as a diagram: ranks from the last down, right-aligned numbers, files
    /// `a`.. below (see [`BoardOf`](super::board::BoardOf)'s `Display`).
    pub fn diagram(&self) -> String {
        on_size!(self, AnyGame, g => g.position().board().to_string())
    }

    /// The board in OpenTafl notation.
    pub fn to_opentafl(&self) -> String {
        on_size!(self, AnyGame, g => to_opentafl(g.position().board()))
    }

    /// The moves so far in record notation ([`GameRecordOf::moves_field`]).
    pub(crate) fn moves_field(&self) -> String {
        on_size!(self, AnyGame, g => {
            GameRecordOf::from_game(g, record::result_of(g.status())).moves_field()
        })
    }

    /// The perft count `depth` plies below the current position under the game's rules,
    /// or `None` when `stop` ended it ([`perft::perft_until`]).
    pub(crate) fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        on_size!(self, AnyGame, g => perft::perft_until(g.position(), depth, &g.rules(), stop))
    }
}

/// The move on a board of geometry `G` (of `size`), or the square that is not on it. (A
/// move that is not straight is the game's to refuse.)
fn sized<G: Geometry>(mv: AnyMove, size: BoardSize) -> Result<MoveOf<G>, AnyGameError> {
    let off = |square| AnyGameError::OffBoard { square, size };
    let from = mv.from.on::<G>().ok_or_else(|| off(mv.from))?;
    let to = mv.to.on::<G>().ok_or_else(|| off(mv.to))?;
    Ok(MoveOf { from, to })
}
