//! The binary sample format: a 24-byte header and fixed-size little-endian records, one
//! a sample, about a third of a text line's bytes on 11x11 and read without parsing text
//! (docs/selfplay-at-scale.md has the layout and the figures).
//!
//! Header: the magic `HNEFISMP` (8 bytes), the version (1 byte, [`VERSION`]), the board's
//! files (1), the rule family (1, its index in [`RulePreset::ALL`]), the record's length
//! (1), 4 zero bytes, the number of records (8, `u64`).
//!
//! Record, at these offsets: the king's square (1 byte, the low eight bits of its index:
//! rank times files plus file), the flags (1: bit 0 set when the defenders are to move,
//! bits 1 and 2 the result, 0 defenders, 1 attackers, 2 draw, bit 3 the ninth bit of the
//! king's index, set only on 17x17 and 19x19), the search's score (2, `i16`), the game's number
//! (4, `u32`), the occupancy (one bit a square in square order, bit `i % 8` of byte
//! `i / 8`), then one bit for each occupied square in square order, set for an attacker
//! (the king's bit is clear), then zeros up to the record's length ([`Layout`]).
//!
//! Every byte of a file is checked when read: a header or a record that is not one is a
//! [`BinarySampleError`] naming the record, never a panic.

use std::io::{Seek, SeekFrom, Write};

use crate::core::bitboard::BitboardOf;
use crate::core::board::{BoardError, BoardOf, Piece};
use crate::core::geometry::{BoardSize, Geometry};
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::core::square::SquareOf;

use super::sample::{SampleGame, SampleOf};

/// The first bytes of a binary sample file.
pub(crate) const MAGIC: [u8; 8] = *b"HNEFISMP";
/// The format's version.
pub(crate) const VERSION: u8 = 1;
/// The header's length in bytes.
pub(crate) const HEADER_LEN: usize = 24;
/// The offset of the occupancy in a record (after king, flags, score and game).
const FIXED: usize = 8;

/// The sizes of a record on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Bytes of occupancy: one bit a square.
    pub(crate) occupancy: usize,
    /// Bytes of side bits: one bit an occupied square, so at most 8 times this many pieces.
    pub(crate) sides: usize,
    /// The record's length (a multiple of 8).
    pub(crate) len: usize,
}

impl Layout {
    /// The layout of a board of `files` files: 24 bytes on 7x7 and 9x9 (40 pieces at
    /// most), 32 on 11x11 (40), 40 on 13x13 (80), 48 on 15x15 (80), 56 on 17x17 (80), 64
    /// on 19x19 (80). Every start position fits (73 pieces at most, Alea Evangelii
    /// 19x19), and a game never gains a piece.
    pub(crate) const fn of(files: u8) -> Option<Layout> {
        let (occupancy, sides, len) = match files {
            7 => (7, 5, 24),
            9 => (11, 5, 24),
            11 => (16, 5, 32),
            13 => (22, 10, 40),
            15 => (29, 10, 48),
            17 => (37, 10, 56),
            19 => (46, 10, 64),
            _ => return None,
        };
        Some(Layout {
            occupancy,
            sides,
            len,
        })
    }

    /// The layout of board `G`.
    pub(crate) fn of_board<G: Geometry>() -> Layout {
        // Every geometry is one of the seven sizes (src/core/geometry.rs); 19x19's
        // layout is the largest, so a fallback could only be too large, never too small.
        Layout::of(G::SIZE).unwrap_or(Layout {
            occupancy: 46,
            sides: 10,
            len: 64,
        })
    }
}

/// Why bytes are not a binary sample file, or a sample cannot be written as a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BinarySampleError {
    /// Fewer bytes than a header.
    #[error("{0} bytes, shorter than the {HEADER_LEN}-byte header of a binary sample file")]
    ShortHeader(usize),
    /// Not the magic.
    #[error("not a binary sample file (no HNEFISMP magic)")]
    Magic,
    /// A version this build does not read.
    #[error("binary sample format version {0}, this hnefi reads version {VERSION}")]
    Version(u8),
    /// A board size that is none of the five.
    #[error("bad board size {0} in the header")]
    BoardSize(u8),
    /// The file's board is not the one read for.
    #[error("a {file}x{file} file where {board}x{board} samples were read")]
    WrongBoard {
        /// The file's.
        file: u8,
        /// The one read for.
        board: u8,
    },
    /// A sample of another game than the file's.
    #[error("a sample of {sample} for a file of {file}")]
    WrongGame {
        /// The file's.
        file: SampleGame,
        /// The sample's.
        sample: SampleGame,
    },
    /// A rule family index out of range.
    #[error("bad rule family {0} in the header")]
    Rules(u8),
    /// The record length of the header is not the board's.
    #[error("records of {found} bytes in the header, {expected} on this board")]
    RecordLen {
        /// The board's.
        expected: usize,
        /// The header's.
        found: u8,
    },
    /// The header's reserved bytes are not zero.
    #[error("the header's reserved bytes are not zero")]
    Reserved,
    /// The number of records does not match the file's length.
    #[error(
        "the header counts {header} records, the file holds {records} and {trailing} bytes more (truncated, or written by a run that did not finish)"
    )]
    Count {
        /// The header's count.
        header: u64,
        /// Whole records after the header.
        records: u64,
        /// Bytes after the last whole record.
        trailing: usize,
    },
    /// A record that is not a sample.
    #[error("record {index}: {reason}")]
    Record {
        /// The record's number, from 0.
        index: u64,
        /// Why.
        reason: BadRecord,
    },
    /// A sample that a record cannot hold.
    #[error("cannot write the sample as a record: {0}")]
    Unwritable(BadRecord),
}

/// Why a record is not a sample, or a sample not a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadRecord {
    /// Flag bits that mean nothing.
    #[error("bad flags {0:#04x}")]
    Flags(u8),
    /// An occupied square off the board.
    #[error("an occupancy bit beyond the board's squares")]
    OffBoard,
    /// More pieces than the record's side bits.
    #[error("{count} pieces, more than the {capacity} a record holds")]
    TooManyPieces {
        /// The pieces.
        count: usize,
        /// The record's room.
        capacity: usize,
    },
    /// The king's byte is not an occupied square without an attacker.
    #[error("bad king square {0}")]
    King(u16),
    /// Bytes after the side bits that are not zero.
    #[error("the spare bytes are not zero")]
    Spare,
    /// A board that is not a set-up.
    #[error("{0}")]
    Board(BoardError),
    /// A score beyond an `i16` (a search's scores are within ±30,000).
    #[error("score {0} beyond -32768 to 32767")]
    Score(i32),
    /// A game number beyond a `u32`.
    #[error("game number {0} beyond 4294967295")]
    Game(u64),
}

/// A file's header: its game and its number of records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// The game of the samples.
    pub(crate) game: SampleGame,
    /// The number of records.
    pub(crate) count: u64,
}

impl Header {
    /// The header's bytes.
    pub(crate) fn to_bytes(self) -> [u8; HEADER_LEN] {
        let SampleGame {
            rules: family,
            size,
        } = self.game;
        let rules = RulePreset::ALL
            .iter()
            .position(|&r| r == family)
            .unwrap_or(0) as u8;
        let len = Layout::of(size.files()).map_or(0, |l| l.len as u8);
        let mut out = [0u8; HEADER_LEN];
        let (head, count) = out.split_at_mut(16);
        head.copy_from_slice(&[
            MAGIC[0],
            MAGIC[1],
            MAGIC[2],
            MAGIC[3],
            MAGIC[4],
            MAGIC[5],
            MAGIC[6],
            MAGIC[7],
            VERSION,
            size.files(),
            rules,
            len,
            0,
            0,
            0,
            0,
        ]);
        count.copy_from_slice(&self.count.to_le_bytes());
        out
    }

    /// The header of a file's bytes, checked against the file's length.
    pub(crate) fn read(bytes: &[u8]) -> Result<Header, BinarySampleError> {
        let Some((head, body)) = bytes.split_first_chunk::<HEADER_LEN>() else {
            return Err(BinarySampleError::ShortHeader(bytes.len()));
        };
        let [
            m0,
            m1,
            m2,
            m3,
            m4,
            m5,
            m6,
            m7,
            version,
            files,
            rules,
            len,
            r0,
            r1,
            r2,
            r3,
            c @ ..,
        ] = *head;
        if [m0, m1, m2, m3, m4, m5, m6, m7] != MAGIC {
            return Err(BinarySampleError::Magic);
        }
        if version != VERSION {
            return Err(BinarySampleError::Version(version));
        }
        let size = BoardSize::ALL
            .into_iter()
            .find(|s| s.files() == files)
            .ok_or(BinarySampleError::BoardSize(files))?;
        let family = *RulePreset::ALL
            .get(usize::from(rules))
            .ok_or(BinarySampleError::Rules(rules))?;
        let layout = Layout::of(files).ok_or(BinarySampleError::BoardSize(files))?;
        if usize::from(len) != layout.len {
            return Err(BinarySampleError::RecordLen {
                expected: layout.len,
                found: len,
            });
        }
        if [r0, r1, r2, r3] != [0; 4] {
            return Err(BinarySampleError::Reserved);
        }
        let count = u64::from_le_bytes(c);
        let records = (body.len() / layout.len) as u64;
        let trailing = body.len() % layout.len;
        if records != count || trailing != 0 {
            return Err(BinarySampleError::Count {
                header: count,
                records,
                trailing,
            });
        }
        Ok(Header {
            game: SampleGame {
                rules: family,
                size,
            },
            count,
        })
    }
}

/// Whether `bytes` start as a binary sample file does.
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

fn bit(bytes: &[u8], i: usize) -> bool {
    bytes.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1)
}

fn set_bit(bytes: &mut [u8], i: usize) {
    if let Some(b) = bytes.get_mut(i / 8) {
        *b |= 1 << (i % 8);
    }
}

/// Writes `sample` as a record into `out` (of the board's [`Layout::len`], zeroed).
pub(crate) fn encode<G: Geometry>(sample: &SampleOf<G>, out: &mut [u8]) -> Result<(), BadRecord> {
    let layout = Layout::of_board::<G>();
    let board = sample.position.board();
    let count = board.occupied().count() as usize;
    if count > layout.sides * 8 {
        return Err(BadRecord::TooManyPieces {
            count,
            capacity: layout.sides * 8,
        });
    }
    let score = i16::try_from(sample.score).map_err(|_| BadRecord::Score(sample.score))?;
    let game = u32::try_from(sample.game).map_err(|_| BadRecord::Game(sample.game))?;
    let to_move = u8::from(sample.position.to_move() == Role::Defender);
    let result: u8 = match sample.result.winner {
        Some(Role::Defender) => 0,
        Some(Role::Attacker) => 1,
        None => 2,
    };
    let (fixed, rest) = out.split_at_mut(FIXED.min(out.len()));
    let [king, flags, s0, s1, g0, g1, g2, g3] = fixed else {
        return Err(BadRecord::Spare);
    };
    let king_index = board.king().index();
    *king = (king_index & 0xff) as u8;
    *flags = to_move | result << 1 | ((king_index >> 8 & 1) as u8) << 3;
    [*s0, *s1] = score.to_le_bytes();
    [*g0, *g1, *g2, *g3] = game.to_le_bytes();
    let (occupancy, sides) = rest.split_at_mut(layout.occupancy.min(rest.len()));
    let mut n = 0;
    for sq in SquareOf::<G>::all() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        set_bit(occupancy, sq.index());
        if piece == Piece::Attacker {
            set_bit(sides, n);
        }
        n += 1;
    }
    Ok(())
}

/// The sample of a record (of the board's [`Layout::len`]) of a file of the rule family
/// `rules`' game.
pub(crate) fn decode<G: Geometry>(
    record: &[u8],
    rules: RulePreset,
) -> Result<SampleOf<G>, BadRecord> {
    let layout = Layout::of_board::<G>();
    let Some((fixed, rest)) = record.split_first_chunk::<FIXED>() else {
        return Err(BadRecord::Spare);
    };
    let [king, flags, s0, s1, g0, g1, g2, g3] = *fixed;
    let to_move = if flags & 1 == 1 {
        Role::Defender
    } else {
        Role::Attacker
    };
    let king = u16::from(king) | u16::from(flags >> 3 & 1) << 8;
    let result = match (flags & !8) >> 1 {
        0 => Outcome::win(Role::Defender, ()),
        1 => Outcome::win(Role::Attacker, ()),
        2 => Outcome::draw(()),
        _ => return Err(BadRecord::Flags(flags)),
    };
    let (occupancy, rest) = rest.split_at(layout.occupancy.min(rest.len()));
    let (sides, spare) = rest.split_at(layout.sides.min(rest.len()));
    if spare.iter().any(|&b| b != 0) {
        return Err(BadRecord::Spare);
    }
    let squares = usize::from(G::SIZE) * usize::from(G::SIZE);
    let capacity = layout.sides * 8;
    let (mut attackers, mut defenders) = (BitboardOf::<G>::EMPTY, BitboardOf::<G>::EMPTY);
    let mut king_square = None;
    let mut n = 0;
    for (byte_index, &byte) in occupancy.iter().enumerate() {
        let mut bits = byte;
        while bits != 0 {
            let i = byte_index * 8 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let sq = Some(i)
                .filter(|_| i < squares)
                .and_then(SquareOf::<G>::new)
                .ok_or(BadRecord::OffBoard)?;
            if n >= capacity {
                return Err(BadRecord::TooManyPieces {
                    count: n + 1,
                    capacity,
                });
            }
            if bit(sides, n) {
                attackers.insert(sq);
            } else if i == usize::from(king) {
                king_square = Some(sq);
            } else {
                defenders.insert(sq);
            }
            n += 1;
        }
    }
    // Side bits beyond the pieces must be clear, as `encode` leaves them.
    if (n..capacity).any(|j| bit(sides, j)) {
        return Err(BadRecord::Spare);
    }
    let king_square = king_square.ok_or(BadRecord::King(king))?;
    let board = BoardOf::from_parts(attackers, defenders, king_square).map_err(BadRecord::Board)?;
    Ok(SampleOf {
        position: PositionOf::new(board, to_move),
        rules,
        result,
        score: i32::from(i16::from_le_bytes([s0, s1])),
        game: u64::from(u32::from_le_bytes([g0, g1, g2, g3])),
    })
}

/// The samples of a binary file's bytes on board `G`, in order: the header's error, or
/// an iterator whose items are samples or the first bad record's error.
pub(crate) fn records<G: Geometry>(
    bytes: &[u8],
) -> Result<impl Iterator<Item = Result<SampleOf<G>, BinarySampleError>> + '_, BinarySampleError> {
    let header = Header::read(bytes)?;
    let files = header.game.size.files();
    if files != G::SIZE {
        return Err(BinarySampleError::WrongBoard {
            file: files,
            board: G::SIZE,
        });
    }
    let len = Layout::of_board::<G>().len;
    let body = bytes.get(HEADER_LEN..).unwrap_or(&[]);
    let rules = header.game.rules;
    Ok(body
        .chunks_exact(len)
        .enumerate()
        .map(move |(index, record)| {
            decode::<G>(record, rules).map_err(|reason| BinarySampleError::Record {
                index: index as u64,
                reason,
            })
        }))
}

/// Every sample of a binary file's bytes on board `G`, or the first error.
#[cfg(test)]
pub(crate) fn read_all<G: Geometry>(bytes: &[u8]) -> Result<Vec<SampleOf<G>>, BinarySampleError> {
    records::<G>(bytes)?.collect()
}
/// Writes records after a header whose count is filled in by [`BinWriter::finish`].
pub(crate) struct BinWriter<W: Write + Seek> {
    out: W,
    game: SampleGame,
    count: u64,
    record: Vec<u8>,
}

impl<W: Write + Seek> BinWriter<W> {
    /// Starts a file of samples of `game` (its count 0 until finished).
    pub(crate) fn new(mut out: W, game: SampleGame) -> std::io::Result<BinWriter<W>> {
        out.write_all(&Header { game, count: 0 }.to_bytes())?;
        let len = Layout::of(game.size.files()).map_or(0, |l| l.len);
        Ok(BinWriter {
            out,
            game,
            count: 0,
            record: vec![0; len],
        })
    }

    /// Writes one sample; a sample of another game is refused.
    pub(crate) fn write<G: Geometry>(&mut self, sample: &SampleOf<G>) -> Result<(), WriteError> {
        if sample.sample_game() != self.game {
            return Err(WriteError::Record(BinarySampleError::WrongGame {
                file: self.game,
                sample: sample.sample_game(),
            }));
        }
        self.record.fill(0);
        encode(sample, &mut self.record)
            .map_err(|e| WriteError::Record(BinarySampleError::Unwritable(e)))?;
        self.out.write_all(&self.record)?;
        self.count += 1;
        Ok(())
    }

    /// Writes the count into the header and flushes: the count and the writer.
    pub(crate) fn finish(mut self) -> std::io::Result<(u64, W)> {
        self.out.flush()?;
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(
            &Header {
                game: self.game,
                count: self.count,
            }
            .to_bytes(),
        )?;
        self.out.flush()?;
        Ok((self.count, self.out))
    }
}

/// Why a record was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The sample has no record.
    #[error("{0}")]
    Record(BinarySampleError),
    /// The file's error.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S7, S11, S13, S15};
    use crate::core::rng::SplitMix64;

    fn start_sample<G: Geometry>() -> SampleOf<G> {
        SampleOf {
            position: PositionOf::new(BoardOf::start(), Role::Defender),
            rules: RulePreset::Brandubh,
            result: Outcome::win(Role::Attacker, ()),
            score: -1234,
            game: 4_000_000_000,
        }
    }

    fn round_trip<G: Geometry>() {
        let s = start_sample::<G>();
        let mut rec = vec![0; Layout::of_board::<G>().len];
        encode(&s, &mut rec).unwrap();
        assert_eq!(decode::<G>(&rec, RulePreset::Brandubh), Ok(s));
    }

    #[test]
    fn records_round_trip_on_every_board() {
        round_trip::<S7>();
        round_trip::<crate::core::geometry::S9>();
        round_trip::<S11>();
        round_trip::<S13>();
        round_trip::<S15>();
        round_trip::<crate::core::geometry::S17>();
        round_trip::<crate::core::geometry::S19>();
        // A king past square 255 keeps his ninth bit (in the flags).
        use crate::core::geometry::S19;
        let mut s = start_sample::<S19>();
        let mut board = *s.position.board();
        let s19 = SquareOf::<S19>::new(360).unwrap();
        board.move_piece(Role::Defender, board.king(), s19);
        s.position = PositionOf::new(board, Role::Attacker);
        let mut rec = vec![0; Layout::of_board::<S19>().len];
        encode(&s, &mut rec).unwrap();
        assert_eq!(rec[1] & 8, 8);
        assert_eq!(decode::<S19>(&rec, RulePreset::Brandubh), Ok(s));
    }

    #[test]
    fn records_that_cannot_be_written_are_errors() {
        let mut s = start_sample::<S11>();
        let mut rec = vec![0; 32];
        s.score = 40_000;
        assert_eq!(encode(&s, &mut rec), Err(BadRecord::Score(40_000)));
        s.score = 0;
        s.game = 1 << 32;
        assert_eq!(encode(&s, &mut rec), Err(BadRecord::Game(1 << 32)));
    }

    #[test]
    fn random_bytes_are_errors_or_samples_never_panics() {
        let mut rng = SplitMix64::new(7);
        let game = start_sample::<S11>().sample_game();
        let mut w = BinWriter::new(std::io::Cursor::new(Vec::new()), game).unwrap();
        for _ in 0..3 {
            w.write(&start_sample::<S11>()).unwrap();
        }
        // A sample of another game than the file's is refused.
        let other = SampleOf {
            rules: RulePreset::Copenhagen,
            ..start_sample::<S11>()
        };
        assert!(matches!(
            w.write(&other),
            Err(WriteError::Record(BinarySampleError::WrongGame { .. }))
        ));
        let (n, cursor) = w.finish().unwrap();
        assert_eq!(n, 3);
        let fixed = cursor.into_inner();
        assert_eq!(read_all::<S11>(&fixed), Ok(vec![start_sample::<S11>(); 3]));
        // A header whose count was never filled in (a run that died).
        let mut unfinished = fixed.clone();
        if let Some(c) = unfinished.get_mut(16) {
            *c = 0;
        }
        assert!(matches!(
            read_all::<S11>(&unfinished),
            Err(BinarySampleError::Count {
                header: 0,
                records: 3,
                trailing: 0
            })
        ));
        assert!(matches!(
            read_all::<S7>(&fixed),
            Err(BinarySampleError::WrongBoard { file: 11, board: 7 })
        ));
        for round in 0..20_000u64 {
            let mut bytes = fixed.clone();
            match round % 4 {
                // Flip a few bytes anywhere.
                0 | 1 => {
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(bytes.len());
                        if let Some(b) = bytes.get_mut(i) {
                            *b = (rng.next_u64() & 0xFF) as u8;
                        }
                    }
                }
                // Cut the file anywhere.
                2 => bytes.truncate(rng.below(bytes.len())),
                // Random bytes after a good header.
                _ => {
                    for b in bytes.iter_mut().skip(HEADER_LEN) {
                        *b = (rng.next_u64() & 0xFF) as u8;
                    }
                }
            }
            let _ = Header::read(&bytes);
            let _ = read_all::<S11>(&bytes);
            let _ = read_all::<S7>(&bytes);
        }
    }
}
