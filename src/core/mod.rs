//! The rules core: squares, bitboards, boards, move generation, captures, the end-of-game
//! tests, positions with Zobrist hashes, games with their history, notation and game records.
//!
//! No I/O, and no allocation in the hot path (move generation and make-move).

pub mod adjudication;
pub mod any_game;
pub mod any_size;
pub mod any_square;
pub mod bitboard;
pub mod board;
pub mod capture;
pub mod encirclement;
pub mod fort;
pub mod game;
pub mod geometry;
pub mod king;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod org_fort;
pub mod oriented;
pub mod perft;
pub mod position;
pub mod preset;
pub mod record;
pub mod referee;
pub mod repetition;
pub mod rng;
pub mod role;
pub mod rules;
pub mod rules_source;
pub mod rules_string;
pub mod square;
pub mod start;
pub mod variant;
pub mod wide;
pub mod zobrist;
