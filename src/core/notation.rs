//! Text notations: record moves with capture suffixes, game records, and OpenTafl
//! position strings.

use thiserror::Error;

use super::bitboard::BitboardOf;
use super::board::{BoardError, BoardOf};
use super::geometry::{Geometry, S11};
use super::moves::{MoveError, MoveOf};
use super::position::PositionOf;
use super::role::Role;
use super::square::{SquareError, SquareOf};

/// A record move of the 11x11 board.
pub type RecordMove = RecordMoveOf<S11>;

/// A move as written in a record: `from-to` and the squares it captured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecordMoveOf<G: Geometry> {
    /// The move.
    pub mv: MoveOf<G>,
    /// The squares listed after `x` (as a set: the records may list one twice).
    pub captures: BitboardOf<G>,
}

/// A record token of the 11x11 board.
pub type RecordToken = RecordTokenOf<S11>;

/// One token of a game record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecordTokenOf<G: Geometry> {
    /// A move with its listed captures.
    Move(RecordMoveOf<G>),
    /// The final `timeout`: the side to move lost on time.
    Timeout,
}

/// Why a record token could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The move part is invalid.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A capture square is invalid.
    #[error(transparent)]
    Square(#[from] SquareError),
}

impl<G: Geometry> RecordMoveOf<G> {
    /// Reads `g3-e3xe2` (captures optional, duplicates allowed).
    ///
    /// ```
    /// use hnefi::core::notation::RecordMove;
    /// let m = RecordMove::parse("e7-k7xk6xk6").unwrap();
    /// assert_eq!(m.mv.to_string(), "e7-k7");
    /// assert_eq!(m.captures.count(), 1);
    /// assert_eq!(m.to_string(), "e7-k7xk6");
    /// ```
    pub fn parse(s: &str) -> Result<RecordMoveOf<G>, RecordError> {
        let mut parts = s.split(['x', 'X']);
        let mv: MoveOf<G> = parts.next().unwrap_or("").parse()?;
        let mut captures = BitboardOf::EMPTY;
        for p in parts {
            captures.insert(p.parse::<SquareOf<G>>()?);
        }
        Ok(RecordMoveOf { mv, captures })
    }
}

impl<G: Geometry> std::fmt::Display for RecordMoveOf<G> {
    /// `from-to` then one `x<square>` per capture, in square order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.mv)?;
        for sq in self.captures {
            write!(f, "x{sq}")?;
        }
        Ok(())
    }
}

impl<G: Geometry> RecordTokenOf<G> {
    /// Reads a move with optional captures, or `timeout`.
    pub fn parse(s: &str) -> Result<RecordTokenOf<G>, RecordError> {
        if s.eq_ignore_ascii_case("timeout") {
            Ok(RecordTokenOf::Timeout)
        } else {
            RecordMoveOf::parse(s).map(RecordTokenOf::Move)
        }
    }
}

/// Why an OpenTafl position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The string does not have 11 rows of 11 squares, or has an unknown character.
    #[error("invalid position: {0}")]
    Syntax(String),
    /// The rows read, but the set-up breaks the rules.
    #[error("invalid position: {0}")]
    Board(#[from] BoardError),
}

/// Reads an OpenTafl position string such as
/// `/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/`: `t` attacker,
/// `T` defender, `K` king, digits count empty squares. The first row is rank 1 and each
/// row runs from file a to the last; there are as many rows as the board `G` has. The
/// outer slashes are optional.
///
/// ```
/// use hnefi::core::notation::{parse_opentafl, to_opentafl};
/// use hnefi::core::board::Board;
/// let start = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
/// let board = parse_opentafl(start).unwrap();
/// assert_eq!(board, Board::start());
/// assert_eq!(to_opentafl(&board), start);
/// ```
pub fn parse_opentafl<G: Geometry>(s: &str) -> Result<BoardOf<G>, PositionError> {
    parse_opentafl_with(s, BitboardOf::restricted())
}

/// [`parse_opentafl`] with the squares no soldier may stand on given (a rule set's
/// [`restricted`](super::rules::RuleSet::restricted) squares).
pub fn parse_opentafl_with<G: Geometry>(
    s: &str,
    restricted: BitboardOf<G>,
) -> Result<BoardOf<G>, PositionError> {
    let size = G::SIZE;
    let syntax = |m: String| PositionError::Syntax(m);
    let trimmed = s.trim();
    let inner = trimmed.strip_prefix('/').unwrap_or(trimmed);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    let rows: Vec<&str> = inner.split('/').collect();
    if rows.len() != usize::from(size) {
        return Err(syntax(format!(
            "{} rows, expected {size}",
            rows.len().min(9999)
        )));
    }
    let mut attackers = BitboardOf::EMPTY;
    let mut defenders = BitboardOf::EMPTY;
    let mut kings = 0usize;
    let mut king = SquareOf::THRONE;
    for (r, row) in rows.iter().enumerate() {
        let rank = r as u8;
        let mut file: u32 = 0;
        let mut run: u32 = 0;
        let bytes = row.as_bytes();
        for (i, &c) in bytes.iter().enumerate() {
            if c.is_ascii_digit() {
                run = run.saturating_mul(10).saturating_add(u32::from(c - b'0'));
                let next_is_digit = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
                if !next_is_digit {
                    if run == 0 {
                        return Err(syntax(format!("row {}: a run of 0 squares", r + 1)));
                    }
                    file = file.saturating_add(run);
                    run = 0;
                }
                continue;
            }
            let sq = u8::try_from(file)
                .ok()
                .and_then(|f| SquareOf::from_coords(f, rank))
                .ok_or_else(|| syntax(format!("row {} has more than {size} squares", r + 1)))?;
            match c {
                b't' => attackers.insert(sq),
                b'T' => defenders.insert(sq),
                b'K' | b'k' => {
                    kings += 1;
                    king = sq;
                }
                _ => {
                    let ch = row.get(i..).and_then(|t| t.chars().next()).unwrap_or('?');
                    return Err(PositionError::Board(BoardError::UnknownPiece(ch)));
                }
            }
            file += 1;
        }
        if file != u32::from(size) {
            return Err(syntax(format!(
                "row {} has {} squares, expected {size}",
                r + 1,
                file.min(9999)
            )));
        }
    }
    if kings != 1 {
        return Err(PositionError::Board(BoardError::KingCount(kings)));
    }
    Ok(BoardOf::from_parts_with(
        attackers, defenders, king, restricted,
    )?)
}

/// Writes a board in OpenTafl notation (rank 1 first, with outer slashes).
pub fn to_opentafl<G: Geometry>(board: &BoardOf<G>) -> String {
    opentafl_with::<G>(|sq| {
        board.piece_at(sq).map(|piece| match piece {
            super::board::Piece::Attacker => 't',
            super::board::Piece::Defender => 'T',
            super::board::Piece::King => 'K',
        })
    })
}

/// OpenTafl notation of a board of `G` whose square `sq` shows `letter(sq)` (`None`:
/// empty), rank 1 first, runs of empty squares counted, with outer slashes.
pub(crate) fn opentafl_with<G: Geometry>(letter: impl Fn(SquareOf<G>) -> Option<char>) -> String {
    let mut out = String::from("/");
    for rank in 0..G::SIZE {
        let mut run = 0;
        for file in 0..G::SIZE {
            let Some(sq) = SquareOf::from_coords(file, rank) else {
                continue;
            };
            let Some(c) = letter(sq) else {
                run += 1;
                continue;
            };
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(c);
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        out.push('/');
    }
    out
}

/// Reads the board format of `perft.txt`: the ranks as rows of `X`, `O`, `K` and `.`
/// separated by `/`, the last rank first.
pub fn parse_rows<G: Geometry>(s: &str) -> Result<BoardOf<G>, PositionError> {
    Ok(BoardOf::from_rows(s.trim().split('/'))?)
}

/// A position from an OpenTafl string and the side to move.
pub fn position_from_opentafl<G: Geometry>(
    s: &str,
    to_move: Role,
) -> Result<PositionOf<G>, PositionError> {
    Ok(PositionOf::new(parse_opentafl(s)?, to_move))
}
