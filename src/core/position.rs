//! A position: board, side to move and Zobrist hash, and the effect of one move on it (its
//! captures). What a move decides (a win, the end of the game) is the
//! [judge](super::judge)'s: [`PositionOf::win_after_move`] and
//! [`PositionOf::play_unchecked`] are written there.

use std::fmt;

use thiserror::Error;

use super::bitboard::BitboardOf;
use super::board::{BoardOf, Piece};
use super::capture;
use super::geometry::{Geometry, S11};
use super::movegen;
use super::moves::{MoveListOf, MoveOf};
use super::outcome::Reason;
use super::role::Role;
use super::rules::RuleSet;
use super::speed::SpeedLimits;
use super::square::SquareOf;
use super::zobrist;

/// Why a move is not legal in a position of the 11x11 board.
pub(crate) type IllegalMove = IllegalMoveOf<S11>;

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMoveOf<G: Geometry> {
    /// The start square holds no piece of the side to move.
    #[error("no {role} piece on {square}")]
    NoPiece {
        /// The side to move.
        role: Role,
        /// The start square.
        square: SquareOf<G>,
    },
    /// The squares are not on one rank or file, or are the same.
    #[error("{0} is not a straight move")]
    NotStraight(MoveOf<G>),
    /// A piece stands on the way or on the destination.
    #[error("{0} is blocked")]
    Blocked(MoveOf<G>),
    /// A soldier may not stop on the throne or a corner.
    #[error("only the king may stop on {0}")]
    Restricted(SquareOf<G>),
    /// The move is longer than the piece's speed limit.
    #[error("{mv} slides farther than the {limit} square(s) the piece may move")]
    TooFar {
        /// The move.
        mv: MoveOf<G>,
        /// The piece's speed limit.
        limit: u8,
    },
    /// The repetition rule forbids the move.
    #[error("{0} repeats a position, which the repetition rule forbids")]
    Repetition(MoveOf<G>),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// What a move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveEffect<G: Geometry = S11> {
    /// The soldiers the move captured.
    pub captured: BitboardOf<G>,
    /// The win the move itself produced (king captured or escaped, edge fort,
    /// encirclement), before the history-dependent rules.
    pub win: Option<Reason>,
}

/// A board, the side to move and the hash of both.
///
/// ```
/// use hnefi::core::position::Position;
/// let mut pos = Position::start();
/// let mv = "h1-h3".parse().unwrap();
/// let effect = pos.play_unchecked(mv, &Default::default());
/// assert!(effect.captured.is_empty());
/// assert_eq!(pos.hash(), hnefi::core::zobrist::hash(pos.board(), pos.to_move()));
/// ```
pub type Position = PositionOf<S11>;

/// A board of geometry `G`, the side to move and the hash of both.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PositionOf<G: Geometry> {
    board: BoardOf<G>,
    to_move: Role,
    hash: u64,
}

impl<G: Geometry> PositionOf<G> {
    /// The size's usual start position, attackers to move.
    pub fn start() -> PositionOf<G> {
        PositionOf::new(BoardOf::start(), Role::Attacker)
    }

    /// A position from a board and the side to move.
    pub fn new(board: BoardOf<G>, to_move: Role) -> PositionOf<G> {
        PositionOf {
            board,
            to_move,
            hash: zobrist::hash(&board, to_move),
        }
    }

    /// The board.
    #[inline(always)]
    pub fn board(&self) -> &BoardOf<G> {
        &self.board
    }

    /// The side to move.
    #[inline(always)]
    pub fn to_move(&self) -> Role {
        self.to_move
    }

    /// The Zobrist hash of board and side to move, kept incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the board alone, the side to move left out.
    #[inline(always)]
    pub(crate) fn board_hash(&self) -> u64 {
        self.hash ^ zobrist::side_key(self.to_move)
    }

    /// The hash of the board right after `mv` moves its piece, before any capture is
    /// removed, side to move left out: what the `defender-any-repeat-illegal` rule
    /// compares with earlier boards.
    #[inline]
    pub(crate) fn moved_board_hash(&self, mv: MoveOf<G>) -> u64 {
        let piece = if mv.from == self.board.king() {
            Piece::King
        } else if self.to_move == Role::Attacker {
            Piece::Attacker
        } else {
            Piece::Defender
        };
        self.board_hash() ^ zobrist::piece_key(piece, mv.from) ^ zobrist::piece_key(piece, mv.to)
    }

    /// Every move of the side to move under `rules` (the repetition rule is the game's
    /// business).
    pub fn legal_moves(&self, rules: &RuleSet) -> MoveListOf<G> {
        movegen::legal_moves(&self.board, self.to_move, rules)
    }

    /// Checks a move against the board under `rules`: a piece of the side to move, a
    /// straight unblocked path, no soldier stopping on a restricted square, and no king
    /// returning to a throne he may not return to.
    pub(crate) fn check_move(
        &self,
        mv: MoveOf<G>,
        rules: &RuleSet,
    ) -> Result<(), IllegalMoveOf<G>> {
        let piece = self.board.piece_at(mv.from);
        if piece.is_none_or(|p| p.role() != self.to_move) {
            return Err(IllegalMoveOf::NoPiece {
                role: self.to_move,
                square: mv.from,
            });
        }
        if MoveOf::new(mv.from, mv.to).is_none() {
            return Err(IllegalMoveOf::NotStraight(mv));
        }
        // A wall (a fort, a throne nobody passes) stops a piece as a piece does.
        let occ =
            self.board.occupied() | rules.walls(self.to_move, piece == Some(Piece::King), mv.from);
        if occ.contains(mv.to) || (movegen::between(mv.from, mv.to) & occ).any() {
            return Err(IllegalMoveOf::Blocked(mv));
        }
        let barred = if piece == Some(Piece::King) {
            rules.king_barred::<G>()
        } else {
            rules.restricted::<G>()
        };
        if barred.contains(mv.to) {
            return Err(IllegalMoveOf::Restricted(mv.to));
        }
        let limit = rules.speed.of(self.to_move, piece == Some(Piece::King));
        if let Some(limit) = limit
            && !SpeedLimits::allows(Some(limit), mv.from, mv.to)
        {
            return Err(IllegalMoveOf::TooFar { mv, limit });
        }
        Ok(())
    }

    /// Moves the piece and removes the soldiers it captures under `rules`, without any
    /// check and without the end-of-game tests. Returns the captures. For the search and
    /// perft.
    #[inline(always)]
    pub fn make_move(&mut self, mv: MoveOf<G>, rules: &RuleSet) -> BitboardOf<G> {
        let role = self.to_move;
        let piece = if mv.from == self.board.king() {
            Piece::King
        } else if role == Role::Attacker {
            Piece::Attacker
        } else {
            Piece::Defender
        };
        self.board.move_piece(role, mv.from, mv.to);
        let mut h = self.hash
            ^ zobrist::piece_key(piece, mv.from)
            ^ zobrist::piece_key(piece, mv.to)
            ^ zobrist::SIDE;
        let captured = capture::captures(&self.board, role, mv.to, rules);
        if captured.any() {
            let victim = if role == Role::Attacker {
                Piece::Defender
            } else {
                Piece::Attacker
            };
            for sq in captured {
                h ^= zobrist::piece_key(victim, sq);
            }
            self.board.remove_soldiers(role.opponent(), captured);
        }
        self.hash = h;
        self.to_move = role.opponent();
        captured
    }

    /// This position under a board symmetry.
    pub fn transform(&self, sym: u8) -> PositionOf<G> {
        PositionOf::new(self.board.transform(sym), self.to_move)
    }
}

impl<G: Geometry> fmt::Debug for PositionOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}\n{} to move", self.board, self.to_move)
    }
}
