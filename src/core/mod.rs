//! The rules core: squares, bitboards, boards, move generation, captures, the end-of-game
//! tests, positions with Zobrist hashes, games with their history, notation and game records.
//!
//! No I/O, and no allocation in the hot path (move generation and make-move).
//!
//! # Layers
//!
//! A file imports only from its own layer and the ones before it in this list, and no two
//! files import each other, even through others: each layer can be read, tested and
//! changed knowing only what comes before it.
//!
//! 1. **The board's geometry**: [`geometry`] (sizes, bit widths, line tables), [`wide`],
//!    [`square`], [`bitboard`] (and the line attacks), [`rng`], and [`excerpt`] (how a
//!    message quotes outside text).
//! 2. **Pieces, moves, hashing**: [`role`], [`moves`], [`start`], [`board`],
//!    [`special_pieces`] (Berserk's commanders and knights), [`zobrist`].
//! 3. **The rules as data**: [`rules`] (the [`RuleSet`](rules::RuleSet)) and its kinds
//!    ([`king`], [`encirclement_mode`], [`repetition`]'s modes, [`referee`], [`speed`],
//!    [`attacker_forts`], [`berserk`]'s jumps and berserk turn), and
//!    [`outcome`] (how a game ends: status, reason, win). Data only, so that every
//!    mechanic can take a rule set.
//! 4. **The mechanics**: [`movegen`], [`capture`], [`fort`], [`org_fort`],
//!    [`encirclement`], [`adjudication`], [`oriented`], [`opentafl_wall`], [`jumps`],
//!    [`berserk_capture`]: functions of a board and a rule set.
//! 5. **The position**: [`position`] (board, side to move, hash, make-move), and
//!    [`berserk_position`] (Berserk's, with its commanders, knights and continuing turn).
//! 6. **The one judge**: [`judge`] (what a move decides, the order of the end-of-game
//!    tests, static status, Berserk's included) and [`history`] (the positions the repetition rule compares).
//!    One owner each, so the game, perft, the search and the bot cannot disagree.
//! 7. **Games and what names them**: [`game`], [`notation`], [`record`], [`perft`],
//!    [`variant`], [`berserk_variant`], [`berserk_game`], [`berserk_notation`], [`preset`],
//!    [`rules_string`], [`rules_source`], the any-size wrappers [`any_size`],
//!    [`any_square`], [`any_game`], and [`variant_game`] (the game of either kind, ordinary
//!    or Berserk).

// 1. The board's geometry.
pub mod bitboard;
pub(crate) mod excerpt;
pub mod geometry;
pub mod rng;
pub mod square;
pub(crate) mod wide;

// 2. Pieces, moves, hashing.
pub mod board;
pub mod moves;
pub mod role;
pub(crate) mod special_pieces;
pub(crate) mod start;
pub mod zobrist;

// 3. The rules as data.
pub mod attacker_forts;
pub(crate) mod berserk;
pub mod corners;
pub mod encirclement_mode;
pub mod king;
pub mod outcome;
pub mod referee;
pub mod repetition;
pub mod rules;
pub mod shield_walls;
pub mod speed;

// 4. The mechanics.
pub(crate) mod adjudication;
pub(crate) mod berserk_capture;
pub(crate) mod berserk_slides;
pub mod capture;
pub mod encirclement;
pub(crate) mod fort;
pub(crate) mod jumps;
pub mod movegen;
pub(crate) mod opentafl_wall;
pub(crate) mod org_fort;
pub mod oriented;

// 5. The position.
pub mod berserk_position;
pub mod position;

// 6. The one judge.
pub(crate) mod history;
pub mod judge;

// 7. Games, records, presets, variants, rules strings, any size.
pub mod any_game;
pub(crate) mod any_size;
pub mod any_square;
pub mod berserk_game;
pub(crate) mod berserk_notation;
pub mod berserk_variant;
pub mod game;
pub mod notation;
pub mod perft;
pub mod preset;
#[cfg(test)]
pub(crate) mod random_games;
pub mod record;
pub mod rules_source;
pub mod rules_string;
pub mod variant;
pub mod variant_game;
