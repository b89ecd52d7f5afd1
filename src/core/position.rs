//! A position: board, side to move and Zobrist hash, and the effect of one move on it.

use std::fmt;

use thiserror::Error;

use super::bitboard::BitboardOf;
use super::board::{BoardOf, Piece};
use super::capture;
use super::encirclement::is_encircled;
use super::fort::is_edge_fort;
use super::geometry::{Geometry, S11};
use super::movegen;
use super::moves::{MoveListOf, MoveOf};
use super::referee::Referee;
use super::role::Role;
use super::rules::RuleSet;
use super::square::SquareOf;
use super::zobrist;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    /// The attackers closed the king in (docs/RULES.md section 5).
    KingCaptured,
    /// The king reached a corner.
    KingEscaped,
    /// The king stands in an unbreakable edge fort (section 6).
    EdgeFort,
    /// The attackers enclosed every defender (section 7).
    Encirclement,
    /// The side to move had no legal move (section 9).
    NoMoves,
    /// The repetition rule decided (mode `third-occurrence-mover-loses`).
    Repetition,
    /// A side resigned.
    Resignation,
    /// A side ran out of time.
    Time,
    /// The move limit was reached (a draw).
    MoveLimit,
    /// The hnefatafl.org server judged that the king can no longer escape (its early
    /// adjudication, `hnefatafl-org` rules only).
    CannotEscape,
    /// No defender, the king included, has an empty square beside him (OpenTafl's
    /// referee, docs/RULES.md section 17.8).
    DefendersBlocked,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 11] = [
        Reason::KingCaptured,
        Reason::KingEscaped,
        Reason::EdgeFort,
        Reason::Encirclement,
        Reason::NoMoves,
        Reason::Repetition,
        Reason::Resignation,
        Reason::Time,
        Reason::MoveLimit,
        Reason::CannotEscape,
        Reason::DefendersBlocked,
    ];

    /// The protocol name (`king_captured`, `edge_fort`, ...).
    pub const fn protocol_name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::EdgeFort => "edge_fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no_moves",
            Reason::Repetition => "repetition",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::MoveLimit => "move_limit",
            Reason::CannotEscape => "cannot_escape",
            Reason::DefendersBlocked => "defenders_blocked",
        }
    }

    /// The name used in `tests/data/cases.txt` (`king-captured`, `edge-fort`, ...).
    pub const fn rules_name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king-captured",
            Reason::KingEscaped => "king-escaped",
            Reason::EdgeFort => "edge-fort",
            Reason::Encirclement => "encirclement",
            Reason::NoMoves => "no-moves",
            Reason::Repetition => "repetition",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::MoveLimit => "move-limit",
            Reason::CannotEscape => "cannot-escape",
            Reason::DefendersBlocked => "defenders-blocked",
        }
    }
}

/// The state of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// One side has won.
    Won {
        /// The winner.
        winner: Role,
        /// How.
        reason: Reason,
    },
    /// A draw.
    Drawn {
        /// Why.
        reason: Reason,
    },
}

impl Status {
    /// True unless ongoing.
    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }
}

impl fmt::Display for Status {
    /// The notation of `tests/data/cases.txt`: `ongoing`, `attackers-win king-captured`,
    /// `draw move-limit`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Won { winner, reason } => {
                write!(f, "{}-win {}", winner.plural(), reason.rules_name())
            }
            Status::Drawn { reason } => write!(f, "draw {}", reason.rules_name()),
        }
    }
}

/// Why a move is not legal in a position of the 11x11 board.
pub type IllegalMove = IllegalMoveOf<S11>;

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
    pub fn board_hash(&self) -> u64 {
        self.hash ^ zobrist::side_key(self.to_move)
    }

    /// The hash of the board right after `mv` moves its piece, before any capture is
    /// removed, side to move left out: what the `defender-any-repeat-illegal` rule
    /// compares with earlier boards.
    #[inline]
    pub fn moved_board_hash(&self, mv: MoveOf<G>) -> u64 {
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
    pub fn check_move(&self, mv: MoveOf<G>, rules: &RuleSet) -> Result<(), IllegalMoveOf<G>> {
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
        let occ = self.board.occupied();
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

    /// The win that the move just played to `to` produced under `rules`, by the side that
    /// is no longer to move (docs/RULES.md section 10, step 3).
    #[inline]
    pub fn win_after_move(&self, to: SquareOf<G>, rules: &RuleSet) -> Option<Reason> {
        match self.to_move.opponent() {
            Role::Defender => {
                if rules.escaped(self.board.king()) {
                    Some(Reason::KingEscaped)
                } else if rules.edge_fort
                    && self.board.king().is_edge()
                    && is_edge_fort(&self.board)
                {
                    Some(Reason::EdgeFort)
                } else {
                    None
                }
            }
            Role::Attacker => {
                if capture::king_captured(&self.board, to, rules) {
                    Some(Reason::KingCaptured)
                } else if rules.encirclement_wins && is_encircled(&self.board, rules.encirclement) {
                    Some(Reason::Encirclement)
                } else {
                    None
                }
            }
        }
    }

    /// Plays a move known to be legal: moves, captures, and tests for the wins that the
    /// move itself produces under the rule set's referee (perft's leaves).
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: MoveOf<G>, rules: &RuleSet) -> MoveEffect<G> {
        let captured = self.make_move(mv, rules);
        let win = match rules.referee {
            // Copenhagen's wins are the mover's own, tested here without the referee's
            // other arms (perft's hot path).
            Referee::Copenhagen => self.win_after_move(mv.to, rules),
            referee => referee.after_move(self, mv.to, rules).map(|w| w.reason),
        };
        MoveEffect { captured, win }
    }

    /// The static status of docs/RULES.md section 10: the board judged as if the other side
    /// had just moved, with no history (no king-capture test, which needs the move). A king
    /// where he escapes has escaped whichever side is to move: only his escape puts him
    /// there.
    pub fn static_status(&self, rules: &RuleSet) -> Status {
        if rules.escaped(self.board.king()) {
            return Status::Won {
                winner: Role::Defender,
                reason: Reason::KingEscaped,
            };
        }
        let last = self.to_move.opponent();
        let win = match last {
            Role::Defender if rules.edge_fort && is_edge_fort(&self.board) => {
                Some(Reason::EdgeFort)
            }
            Role::Attacker
                if rules.encirclement_wins && is_encircled(&self.board, rules.encirclement) =>
            {
                Some(Reason::Encirclement)
            }
            _ => None,
        };
        if let Some(reason) = win {
            return Status::Won {
                winner: last,
                reason,
            };
        }
        if !movegen::has_move_under(&self.board, self.to_move, rules) {
            return Status::Won {
                winner: last,
                reason: Reason::NoMoves,
            };
        }
        Status::Ongoing
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
