//! Why a session refused a command: one error for every command, so that the protocol
//! answers each refusal the same way.

use crate::core::any_game::AnyGameError;
use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::geometry::BoardSize;
use crate::core::role::Role;
use crate::core::rules_source::RulesSourceError;
use crate::core::variant_game::VariantMoveError;
use crate::options::OptionError;
use crate::search::network::NetworkError;
use crate::search::terms::WeightError;

/// Why a session refused a command; the session is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The other side is to move.
    #[error("not {0}'s turn")]
    NotYourTurn(Role),
    /// The square holds no piece of that side.
    #[error("no {role} piece on {square}")]
    NoPiece {
        /// The side named.
        role: Role,
        /// The square named.
        square: AnySquare,
    },
    /// `undo` at the first position.
    #[error("no move to take back: the game is at its first position")]
    NothingToUndo,
    /// The game refused a position or a record, or its rule family has no game of that
    /// board size.
    #[error(transparent)]
    Game(#[from] AnyGameError),
    /// The game refused a move, a resignation or a record.
    #[error(transparent)]
    Move(#[from] VariantMoveError),
    /// The rule family or rules string has no game of that board size.
    #[error(transparent)]
    Rules(#[from] RulesSourceError),
    /// The scripted players play only the 11x11 board.
    #[error("the scripted players play 11x11 only, and this game is on {0}x{0}")]
    PlayerBoard(BoardSize),
    /// The scripted players and the 0.3.1 dialect play only the ordinary rule sets.
    #[error("the scripted players and the 0.3.1 dialect play the ordinary rule sets, not Berserk")]
    OrdinaryOnly,
    /// An invalid search option.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// An invalid evaluation weight.
    #[error(transparent)]
    Weight(#[from] WeightError),
    /// A network file that cannot be used.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// The search chose a move the game refused (a bug; the game is unchanged).
    #[error("the search chose {mv}: {source}")]
    SearchMove {
        /// The move.
        mv: AnyMove,
        /// Why the game refused it (boxed: the error stays small).
        source: Box<VariantMoveError>,
    },
    /// `analyze` with no legal move.
    #[error("no legal move to analyze")]
    NothingToAnalyze,
    /// `stop` ended a count before it was complete.
    #[error("stopped before the count was complete")]
    Stopped,
}

/// A game's error as the session's.
pub(super) fn game_error(e: impl Into<AnyGameError>) -> SessionError {
    SessionError::Game(e.into())
}
