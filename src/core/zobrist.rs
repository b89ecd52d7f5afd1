//! Zobrist keys for hashing positions.
//!
//! A position's hash is the XOR of one key per (piece kind, square) and, when the defenders
//! are to move, [`SIDE`]. The keys come from a fixed-seed [`SplitMix64`] sequence, so hashes
//! are the same in every build.

use super::board::{BoardOf, Piece};
use super::geometry::{Geometry, TABLE};
use super::rng::SplitMix64;
use super::role::Role;
use super::square::SquareOf;

/// The squares whose keys come first in the sequence: the 11x11 board's, so that its
/// hashes stay what they were before the other sizes existed.
const FIRST: usize = 121;

/// The squares whose keys came next, up to 15x15's; the keys of the squares past them
/// (17x17 and 19x19) come last, so that the smaller boards' hashes stay the same.
const SECOND: usize = 256;

const fn keys() -> ([[u64; TABLE]; 3], u64) {
    let mut t = [[0u64; TABLE]; 3];
    let mut rng = SplitMix64::new(0x686E_6566_6900_0001); // "hnefi"
    let mut k = 0;
    while k < 3 {
        let mut s = 0;
        while s < FIRST {
            t[k][s] = rng.next_u64();
            s += 1;
        }
        k += 1;
    }
    let side = rng.next_u64();
    k = 0;
    while k < 3 {
        let mut s = FIRST;
        while s < SECOND {
            t[k][s] = rng.next_u64();
            s += 1;
        }
        k += 1;
    }
    k = 0;
    while k < 3 {
        let mut s = SECOND;
        while s < TABLE {
            t[k][s] = rng.next_u64();
            s += 1;
        }
        k += 1;
    }
    (t, side)
}

const KEYS: ([[u64; TABLE]; 3], u64) = keys();
static PIECE_KEYS: [[u64; TABLE]; 3] = KEYS.0;

/// XORed into the hash when the defenders are to move.
pub(crate) const SIDE: u64 = KEYS.1;

/// The key of a piece on a square.
#[inline(always)]
pub(crate) fn piece_key<G: Geometry>(piece: Piece, sq: SquareOf<G>) -> u64 {
    let k = match piece {
        Piece::Attacker => 0,
        Piece::Defender => 1,
        Piece::King => 2,
    };
    PIECE_KEYS[k][sq.index() & (TABLE - 1)]
}

/// The key of the side to move.
#[inline(always)]
pub(crate) fn side_key(role: Role) -> u64 {
    match role {
        Role::Attacker => 0,
        Role::Defender => SIDE,
    }
}

/// The hash of a board alone (side to move not included), computed from scratch.
pub(crate) fn board_hash<G: Geometry>(board: &BoardOf<G>) -> u64 {
    let mut h = piece_key(Piece::King, board.king());
    for sq in board.attackers() {
        h ^= piece_key(Piece::Attacker, sq);
    }
    for sq in board.defenders() {
        h ^= piece_key(Piece::Defender, sq);
    }
    h
}

/// The hash of a board with a side to move, computed from scratch.
pub fn hash<G: Geometry>(board: &BoardOf<G>, to_move: Role) -> u64 {
    board_hash(board) ^ side_key(to_move)
}

/// Berserk's keys (docs/RULES.md section 17.10), from a sequence of their own so that the
/// ordinary keys above stay what they are: per square, a commander, a knight, a piece
/// that has not moved yet, the berserker (the piece whose turn continues); the king taken;
/// then per square a mercenary and a guard (drawn last so that the keys before them kept
/// their values when they came).
const fn berserk_keys() -> ([[u64; TABLE]; 6], u64) {
    let mut t = [[0u64; TABLE]; 6];
    let mut rng = SplitMix64::new(0x686E_6566_6900_0B5B); // "hnefi", Berserk
    let mut king_taken = 0;
    let mut k = 0;
    while k < 6 {
        if k == 4 {
            king_taken = rng.next_u64();
        }
        let mut s = 0;
        while s < TABLE {
            t[k][s] = rng.next_u64();
            s += 1;
        }
        k += 1;
    }
    (t, king_taken)
}

const BERSERK_KEYS: ([[u64; TABLE]; 6], u64) = berserk_keys();
static BERSERK_SQUARE_KEYS: [[u64; TABLE]; 6] = BERSERK_KEYS.0;

/// What a Berserk key is of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BerserkKey {
    /// A commander on the square.
    Commander,
    /// A knight on the square.
    Knight,
    /// A commander that has not moved yet on the square.
    Fresh,
    /// The piece on the square must move again.
    Berserker,
    /// A mercenary on the square.
    Mercenary,
    /// A guard on the square.
    Guard,
}

/// The key of a Berserk feature on a square.
#[inline]
pub(crate) fn berserk_key<G: Geometry>(what: BerserkKey, sq: SquareOf<G>) -> u64 {
    let k = match what {
        BerserkKey::Commander => 0,
        BerserkKey::Knight => 1,
        BerserkKey::Fresh => 2,
        BerserkKey::Berserker => 3,
        BerserkKey::Mercenary => 4,
        BerserkKey::Guard => 5,
    };
    BERSERK_SQUARE_KEYS[k][sq.index() & (TABLE - 1)]
}

/// XORed into a Berserk hash when the king has been taken (the board keeps his square).
pub(crate) const KING_TAKEN: u64 = BERSERK_KEYS.1;
