//! Zobrist keys for hashing positions.
//!
//! A position's hash is the XOR of one key per (piece kind, square) and, when the defenders
//! are to move, [`SIDE`]. The keys come from a fixed-seed [`SplitMix64`] sequence, so hashes
//! are the same in every build.

use super::board::{Board, Piece};
use super::rng::SplitMix64;
use super::role::Role;
use super::square::{NUM_SQUARES, Square};

const fn keys() -> ([[u64; NUM_SQUARES]; 3], u64) {
    let mut t = [[0u64; NUM_SQUARES]; 3];
    let mut rng = SplitMix64::new(0x686E_6566_6900_0001); // "hnefi"
    let mut k = 0;
    while k < 3 {
        let mut s = 0;
        while s < NUM_SQUARES {
            t[k][s] = rng.next_u64();
            s += 1;
        }
        k += 1;
    }
    (t, rng.next_u64())
}

const KEYS: ([[u64; NUM_SQUARES]; 3], u64) = keys();
static PIECE_KEYS: [[u64; NUM_SQUARES]; 3] = KEYS.0;

/// XORed into the hash when the defenders are to move.
pub const SIDE: u64 = KEYS.1;

/// The key of a piece on a square.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    let k = match piece {
        Piece::Attacker => 0,
        Piece::Defender => 1,
        Piece::King => 2,
    };
    PIECE_KEYS[k][sq.index()]
}

/// The key of the side to move.
#[inline(always)]
pub fn side_key(role: Role) -> u64 {
    match role {
        Role::Attacker => 0,
        Role::Defender => SIDE,
    }
}

/// The hash of a board alone (side to move not included), computed from scratch.
pub fn board_hash(board: &Board) -> u64 {
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
pub fn hash(board: &Board, to_move: Role) -> u64 {
    board_hash(board) ^ side_key(to_move)
}
