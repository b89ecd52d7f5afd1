//! Piece placement.

use std::fmt;

use thiserror::Error;

use super::bitboard::BitboardOf;
use super::geometry::{Geometry, S11};
use super::role::Role;
use super::square::SquareOf;
use super::start::start_rows;

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

/// The placement of all pieces on the 11x11 board.
///
/// ```
/// use hnefi::core::board::Board;
/// let b = Board::start();
/// assert_eq!(b.attackers().count(), 24);
/// assert_eq!(b.defenders().count(), 12);
/// assert_eq!(b.king().to_string(), "f6");
/// ```
pub type Board = BoardOf<S11>;

/// The placement of all pieces on a board of geometry `G`: attackers, defender soldiers,
/// and the king.
///
/// A valid board has exactly one king and no soldier on the throne or a corner
/// ([`BoardOf::validate`]). The king may stand on a corner only in a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardOf<G: Geometry> {
    attackers: BitboardOf<G>,
    defenders: BitboardOf<G>,
    king: SquareOf<G>,
}

/// Why a board is not a legal set-up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The board has no king or more than one.
    #[error("a position needs exactly one king, found {0}")]
    KingCount(usize),
    /// A soldier stands on the throne or a corner (the square's name).
    #[error("a soldier stands on restricted square {0}")]
    SoldierOnRestricted(String),
    /// Not as many ranks and files as the board has.
    #[error("bad board shape: {0}")]
    Shape(String),
    /// A character that is not a piece or an empty square.
    #[error("unknown piece character '{0}'")]
    UnknownPiece(char),
}

impl<G: Geometry> BoardOf<G> {
    /// The board size's usual start position ([`start_rows`]: Copenhagen on 11x11).
    pub fn start() -> BoardOf<G> {
        // The diagrams are constants known to be valid (a test reads each).
        BoardOf::from_rows(start_rows(G::SIZE).iter().copied()).unwrap_or(BoardOf {
            attackers: BitboardOf::EMPTY,
            defenders: BitboardOf::EMPTY,
            king: SquareOf::THRONE,
        })
    }

    /// Builds a board from its three sets. Errors unless the sets are disjoint and no
    /// soldier stands on the throne or a corner.
    pub(crate) fn from_parts(
        attackers: BitboardOf<G>,
        defenders: BitboardOf<G>,
        king: SquareOf<G>,
    ) -> Result<BoardOf<G>, BoardError> {
        BoardOf::from_parts_with(attackers, defenders, king, BitboardOf::restricted())
    }

    /// [`BoardOf::from_parts`] with the squares no soldier may stand on given (a rule
    /// set's [`restricted`](super::rules::RuleSet::restricted) squares).
    pub fn from_parts_with(
        attackers: BitboardOf<G>,
        defenders: BitboardOf<G>,
        king: SquareOf<G>,
        restricted: BitboardOf<G>,
    ) -> Result<BoardOf<G>, BoardError> {
        let b = BoardOf {
            attackers,
            defenders,
            king,
        };
        if (attackers & defenders).any() || (attackers | defenders).contains(king) {
            return Err(BoardError::Shape("two pieces on one square".into()));
        }
        b.validate_with(restricted)?;
        Ok(b)
    }

    /// Reads `SIZE` rows of `SIZE` cells, the last rank first; each cell is `X`, `O`, `K`
    /// or `.` (whitespace between cells is ignored). No soldier may stand on the throne
    /// or a corner.
    pub fn from_rows<'a, I: IntoIterator<Item = &'a str>>(
        rows: I,
    ) -> Result<BoardOf<G>, BoardError> {
        BoardOf::from_rows_with(rows, BitboardOf::restricted())
    }

    /// [`BoardOf::from_rows`] with the squares no soldier may stand on given.
    pub fn from_rows_with<'a, I: IntoIterator<Item = &'a str>>(
        rows: I,
        restricted: BitboardOf<G>,
    ) -> Result<BoardOf<G>, BoardError> {
        let size = G::SIZE;
        let mut attackers = BitboardOf::EMPTY;
        let mut defenders = BitboardOf::EMPTY;
        let mut kings = Vec::new();
        let mut n_rows = 0u8;
        for (i, row) in rows.into_iter().enumerate() {
            if i >= usize::from(size) {
                return Err(BoardError::Shape(format!("more than {size} ranks")));
            }
            let rank = size - 1 - i as u8;
            let mut file = 0u8;
            for c in row.chars().filter(|c| !c.is_whitespace()) {
                let sq = SquareOf::from_coords(file, rank).ok_or_else(|| {
                    BoardError::Shape(format!("rank {} has more than {size} squares", rank + 1))
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
            if file != size {
                return Err(BoardError::Shape(format!(
                    "rank {} has {} squares, expected {size}",
                    rank + 1,
                    file
                )));
            }
            n_rows += 1;
        }
        if n_rows != size {
            return Err(BoardError::Shape(format!(
                "{n_rows} ranks, expected {size}"
            )));
        }
        match kings.as_slice() {
            [king] => BoardOf::from_parts_with(attackers, defenders, *king, restricted),
            _ => Err(BoardError::KingCount(kings.len())),
        }
    }

    /// [`BoardOf::validate`] with the squares no soldier may stand on given.
    pub(crate) fn validate_with(&self, restricted: BitboardOf<G>) -> Result<(), BoardError> {
        if let Some(sq) = ((self.attackers | self.defenders) & restricted).first() {
            return Err(BoardError::SoldierOnRestricted(sq.to_string()));
        }
        Ok(())
    }

    /// The attackers.
    #[inline(always)]
    pub const fn attackers(&self) -> BitboardOf<G> {
        self.attackers
    }

    /// The defender soldiers (without the king).
    #[inline(always)]
    pub const fn defenders(&self) -> BitboardOf<G> {
        self.defenders
    }

    /// The king's square.
    #[inline(always)]
    pub const fn king(&self) -> SquareOf<G> {
        self.king
    }

    /// The king as a set.
    #[inline(always)]
    pub fn king_bb(&self) -> BitboardOf<G> {
        BitboardOf::from_square(self.king)
    }

    /// All defender pieces, king included.
    #[inline(always)]
    pub fn defenders_and_king(&self) -> BitboardOf<G> {
        BitboardOf(self.defenders.0 | self.king.bit())
    }

    /// Every occupied square.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> BitboardOf<G> {
        BitboardOf(self.attackers.0 | self.defenders.0 | self.king.bit())
    }

    /// Every empty square.
    #[inline(always)]
    pub fn empty(&self) -> BitboardOf<G> {
        BitboardOf(!self.occupied().0 & G::FULL)
    }

    /// The soldiers of a side (attackers, or defenders without the king).
    #[inline(always)]
    pub const fn soldiers(&self, role: Role) -> BitboardOf<G> {
        match role {
            Role::Attacker => self.attackers,
            Role::Defender => self.defenders,
        }
    }

    /// All pieces of a side (the king counts for the defenders).
    #[inline(always)]
    pub fn pieces(&self, role: Role) -> BitboardOf<G> {
        match role {
            Role::Attacker => self.attackers,
            Role::Defender => self.defenders_and_king(),
        }
    }

    /// What stands on a square.
    #[inline]
    pub fn piece_at(&self, sq: SquareOf<G>) -> Option<Piece> {
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
    pub(crate) fn move_piece(&mut self, role: Role, from: SquareOf<G>, to: SquareOf<G>) {
        let m = BitboardOf::from_square(from) | BitboardOf::from_square(to);
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
    pub(crate) fn remove_soldiers(&mut self, role: Role, captured: BitboardOf<G>) {
        match role {
            Role::Attacker => self.attackers &= !captured,
            Role::Defender => self.defenders &= !captured,
        }
    }

    /// Adds soldiers of `role` on empty squares (a captured mercenary changing sides).
    #[inline(always)]
    pub(crate) fn add_soldiers(&mut self, role: Role, squares: BitboardOf<G>) {
        match role {
            Role::Attacker => self.attackers |= squares,
            Role::Defender => self.defenders |= squares,
        }
    }

    /// This board under a symmetry (see [`Square::transform`]).
    pub fn transform(&self, sym: u8) -> BoardOf<G> {
        BoardOf {
            attackers: self.attackers.transform(sym),
            defenders: self.defenders.transform(sym),
            king: self.king.transform(sym),
        }
    }

    /// One character per square: `X`, `O`, `K` or `.`.
    pub(crate) fn char_at(&self, sq: SquareOf<G>) -> char {
        match self.piece_at(sq) {
            Some(Piece::Attacker) => 'X',
            Some(Piece::Defender) => 'O',
            Some(Piece::King) => 'K',
            None => '.',
        }
    }

    /// The ranks as strings of `SIZE` characters, the last rank first (the format of
    /// `perft.txt`, joined with `/`).
    pub fn to_rows(&self) -> Vec<String> {
        (0..G::SIZE)
            .rev()
            .map(|r| {
                (0..G::SIZE)
                    .filter_map(|f| SquareOf::from_coords(f, r))
                    .map(|sq| self.char_at(sq))
                    .collect()
            })
            .collect()
    }
}

impl<G: Geometry> fmt::Display for BoardOf<G> {
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
            writeln!(f, "{:>2}  {}", usize::from(G::SIZE) - i, cells.join(" "))?;
        }
        let files: Vec<String> = (0..G::SIZE)
            .map(|file| super::square::file_letter(file).to_string())
            .collect();
        write!(f, "    {}", files.join(" "))
    }
}

impl<G: Geometry> fmt::Debug for BoardOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::start::START_DIAGRAM;

    #[test]
    fn start_round_trips() {
        let b = Board::start();
        assert_eq!(b.to_rows(), START_DIAGRAM);
        assert_eq!(b.occupied().count(), 37);
    }

    #[test]
    fn every_size_starts_from_a_valid_board() {
        use crate::core::geometry::{S7, S9, S13, S15};
        fn check<G: Geometry>(attackers: u32, defenders: u32) {
            let rows = start_rows(G::SIZE);
            let b = BoardOf::<G>::from_rows(rows.iter().copied()).unwrap();
            assert_eq!(b.to_rows(), rows);
            assert_eq!(b.king(), SquareOf::THRONE);
            assert_eq!(
                (b.attackers().count(), b.defenders().count()),
                (attackers, defenders)
            );
            assert_eq!(BoardOf::<G>::start(), b);
        }
        check::<S7>(8, 4);
        check::<S9>(16, 8);
        check::<S11>(24, 12);
        check::<S13>(32, 16);
        check::<S15>(40, 20);
        check::<crate::core::geometry::S17>(40, 20);
        check::<crate::core::geometry::S19>(48, 24);
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
