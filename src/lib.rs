//! hnefi: a Copenhagen Hnefatafl engine.
//!
//! - [`core`]: the rules (bitboards, move generation, captures, end-of-game tests, games).
//! - [`tools`]: perft and other command-line tools built on the core.

#![warn(missing_docs)]

pub mod core;
pub mod tools;
