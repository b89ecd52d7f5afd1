//! Piece placement.

use std::fmt;

use thiserror::Error;

use super::bitboard::{Bitboard, SQUARE_BITS};
use super::role::Role;
use super::square::{NUM_SQUARES, SIZE, Square};

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Piece {
    /// An attacker (`X`).
    Attacker,
    /// A defender soldier (`O`).
    Defender,
    /// The king (`K`).
    King,
}

impl Piece {
    /// The side the piece belongs to.
    pub const fn role(self) -> Role {
        match self {
            Piece::Attacker => Role::Attacker,
            Piece::Defender | Piece::King => Role::Defender,
        }
    }
}

/// The placement of all pieces: attackers, defender soldiers, and the king.
///
/// A valid board has exactly one king and no soldier on the throne or a corner
/// ([`Board::validate`]). The king may stand on a corner only in a finished game.
///
/// ```
/// use hnefi::core::board::Board;
/// let b = Board::start();
/// assert_eq!(b.attackers().count(), 24);
/// assert_eq!(b.defenders().count(), 12);
/// assert_eq!(b.king().to_string(), "f6");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    attackers: Bitboard,
    defenders: Bitboard,
    king: Square,
}

/// Why a board is not a legal Copenhagen set-up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The board has no king or more than one.
    #[error("a position needs exactly one king, found {0}")]
    KingCount(usize),
    /// A soldier stands on the throne or a corner.
    #[error("a soldier stands on restricted square {0}")]
    SoldierOnRestricted(Square),
    /// Not 11 ranks of 11 squares.
    #[error("bad board shape: {0}")]
    Shape(String),
    /// A character that is not a piece or an empty square.
    #[error("unknown piece character '{0}'")]
    UnknownPiece(char),
}

/// The start position, rank 11 first.
pub const START_DIAGRAM: [&str; 11] = [
    "...XXXXX...",
    ".....X.....",
    "...........",
    "X....O....X",
    "X...OOO...X",
    "XX.OOKOO.XX",
    "X...OOO...X",
    "X....O....X",
    "...........",
    ".....X.....",
    "...XXXXX...",
];

impl Board {
    /// The Copenhagen start position.
    pub fn start() -> Board {
        // The diagram is a constant known to be valid.
        Board::from_rows(START_DIAGRAM.iter().copied()).unwrap_or(Board {
            attackers: Bitboard::EMPTY,
            defenders: Bitboard::EMPTY,
            king: Square::THRONE,
        })
    }

    /// Builds a board from its three sets. Errors unless the sets are disjoint and form a
    /// valid set-up.
    pub fn from_parts(
        attackers: Bitboard,
        defenders: Bitboard,
        king: Square,
    ) -> Result<Board, BoardError> {
        let b = Board {
            attackers,
            defenders,
            king,
        };
        if (attackers & defenders).any() || (attackers | defenders).contains(king) {
            return Err(BoardError::Shape("two pieces on one square".into()));
        }
        b.validate()?;
        Ok(b)
    }

    /// Reads 11 rows of 11 cells, rank 11 first; each cell is `X`, `O`, `K` or `.`
    /// (whitespace between cells is ignored).
    pub fn from_rows<'a, I: IntoIterator<Item = &'a str>>(rows: I) -> Result<Board, BoardError> {
        let mut attackers = Bitboard::EMPTY;
        let mut defenders = Bitboard::EMPTY;
        let mut kings = Vec::new();
        let mut n_rows = 0u8;
        for (i, row) in rows.into_iter().enumerate() {
            if i >= SIZE as usize {
                return Err(BoardError::Shape("more than 11 ranks".into()));
            }
            let rank = SIZE - 1 - i as u8;
            let mut file = 0u8;
            for c in row.chars().filter(|c| !c.is_whitespace()) {
                let sq = Square::from_coords(file, rank).ok_or_else(|| {
                    BoardError::Shape(format!("rank {} has more than 11 squares", rank + 1))
                })?;
                match c {
                    'X' | 'x' => attackers.insert(sq),
                    'O' | 'o' => defenders.insert(sq),
                    'K' | 'k' => kings.push(sq),
                    '.' => {}
                    other => return Err(BoardError::UnknownPiece(other)),
                }
                file += 1;
            }
            if file != SIZE {
                return Err(BoardError::Shape(format!(
                    "rank {} has {} squares, expected 11",
                    rank + 1,
                    file
                )));
            }
            n_rows += 1;
        }
        if n_rows != SIZE {
            return Err(BoardError::Shape(format!("{n_rows} ranks, expected 11")));
        }
        match kings.as_slice() {
            [king] => Board::from_parts(attackers, defenders, *king),
            _ => Err(BoardError::KingCount(kings.len())),
        }
    }

    /// Checks the set-up rules: no soldier on a restricted square. (Exactly one king is
    /// guaranteed by the type.)
    pub fn validate(&self) -> Result<(), BoardError> {
        if let Some(sq) = ((self.attackers | self.defenders) & Bitboard::RESTRICTED).first() {
            return Err(BoardError::SoldierOnRestricted(sq));
        }
        Ok(())
    }

    /// The attackers.
    #[inline(always)]
    pub const fn attackers(&self) -> Bitboard {
        self.attackers
    }

    /// The defender soldiers (without the king).
    #[inline(always)]
    pub const fn defenders(&self) -> Bitboard {
        self.defenders
    }

    /// The king's square.
    #[inline(always)]
    pub const fn king(&self) -> Square {
        self.king
    }

    /// The king as a set.
    #[inline(always)]
    pub fn king_bb(&self) -> Bitboard {
        Bitboard::from_square(self.king)
    }

    /// All defender pieces, king included.
    #[inline(always)]
    pub const fn defenders_and_king(&self) -> Bitboard {
        Bitboard(self.defenders.0 | SQUARE_BITS[self.king.index()])
    }

    /// Every occupied square.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.attackers.0 | self.defenders.0 | SQUARE_BITS[self.king.index()])
    }

    /// Every empty square.
    #[inline(always)]
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!self.occupied().0 & Bitboard::FULL.0)
    }

    /// The soldiers of a side (attackers, or defenders without the king).
    #[inline(always)]
    pub const fn soldiers(&self, role: Role) -> Bitboard {
        match role {
            Role::Attacker => self.attackers,
            Role::Defender => self.defenders,
        }
    }

    /// All pieces of a side (the king counts for the defenders).
    #[inline(always)]
    pub const fn pieces(&self, role: Role) -> Bitboard {
        match role {
            Role::Attacker => self.attackers,
            Role::Defender => self.defenders_and_king(),
        }
    }

    /// What stands on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.king == sq {
            Some(Piece::King)
        } else if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else {
            None
        }
    }

    /// Moves a piece of `role` from `from` to `to` (no checks; `from` holds the piece).
    #[inline(always)]
    pub(crate) fn move_piece(&mut self, role: Role, from: Square, to: Square) {
        let m = Bitboard::from_square(from) | Bitboard::from_square(to);
        if self.king == from {
            self.king = to;
        } else {
            match role {
                Role::Attacker => self.attackers ^= m,
                Role::Defender => self.defenders ^= m,
            }
        }
    }

    /// Removes captured soldiers of `role`.
    #[inline(always)]
    pub(crate) fn remove_soldiers(&mut self, role: Role, captured: Bitboard) {
        match role {
            Role::Attacker => self.attackers &= !captured,
            Role::Defender => self.defenders &= !captured,
        }
    }

    /// This board under a symmetry (see [`Square::transform`]).
    pub fn transform(&self, sym: u8) -> Board {
        Board {
            attackers: self.attackers.transform(sym),
            defenders: self.defenders.transform(sym),
            king: self.king.transform(sym),
        }
    }

    /// One character per square: `X`, `O`, `K` or `.`.
    pub fn char_at(&self, sq: Square) -> char {
        match self.piece_at(sq) {
            Some(Piece::Attacker) => 'X',
            Some(Piece::Defender) => 'O',
            Some(Piece::King) => 'K',
            None => '.',
        }
    }

    /// The 11 ranks as strings of 11 characters, rank 11 first (the format of
    /// `perft.txt`, joined with `/`).
    pub fn to_rows(&self) -> Vec<String> {
        (0..SIZE)
            .rev()
            .map(|r| {
                (0..SIZE)
                    .filter_map(|f| Square::from_coords(f, r))
                    .map(|sq| self.char_at(sq))
                    .collect()
            })
            .collect()
    }
}

impl fmt::Display for Board {
    /// A diagram with rank numbers and file letters:
    ///
    /// ```text
    /// 11  . . . X X X X X . . .
    /// ...
    ///  1  . . . X X X X X . . .
    ///     a b c d e f g h i j k
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.to_rows().iter().enumerate() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            writeln!(f, "{:>2}  {}", SIZE as usize - i, cells.join(" "))?;
        }
        write!(f, "    a b c d e f g h i j k")
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        fmt::Display::fmt(self, f)
    }
}

const _: () = assert!(NUM_SQUARES == 121);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let b = Board::start();
        assert_eq!(b.to_rows(), START_DIAGRAM);
        assert_eq!(b.occupied().count(), 37);
    }

    #[test]
    fn rejects_bad_setups() {
        let mut rows: Vec<String> = START_DIAGRAM.iter().map(|s| s.to_string()).collect();
        rows[5] = "XX.OOOOO.XX".into();
        assert_eq!(
            Board::from_rows(rows.iter().map(String::as_str)),
            Err(BoardError::KingCount(0))
        );
        rows[5] = "KX.OOKOO.XX".into();
        assert_eq!(
            Board::from_rows(rows.iter().map(String::as_str)),
            Err(BoardError::KingCount(2))
        );
        rows[5] = "XX.OOKOO.XX".into();
        rows[0] = "X..XXXXX...".into();
        assert!(matches!(
            Board::from_rows(rows.iter().map(String::as_str)),
            Err(BoardError::SoldierOnRestricted(_))
        ));
    }
}
