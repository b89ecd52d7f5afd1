//! hnefi: a Copenhagen Hnefatafl engine.
//!
//! - [`core`]: the rules (bitboards, move generation, captures, end-of-game tests, games).
//! - [`search`]: the searcher behind `generate_move` and `analyze`.
//! - [`tools`]: perft and other command-line tools built on the core.

#![warn(missing_docs)]

pub mod core;
pub mod search;
pub mod tools;
