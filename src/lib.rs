//! hnefi: a Hnefatafl engine for every board from 7x7 to 19x19 and many rule sets.
//!
//! - [`bot`]: `hnefi bot`, a client of the hnefatafl.org server that plays with the search.
//! - [`core`]: the rules (bitboards, move generation, captures, end-of-game tests, games).
//! - [`players`]: scripted players, the strategies of the Fetlar study (`hnefi --player`).
//! - [`search`]: the searcher behind `generate_move` and `analyze`.
//! - [`options`]: the table of the engine's options, read by every front end.
//! - [`session`]: the engine session (game, rules, options, clock) behind the protocol.
//! - [`protocol`]: the text protocol: framing, replies and the command table.
//! - [`tools`]: the bench and the match runner, command-line tools built on the core.
//! - [`tune`]: the evaluation's data path: self-play samples and the Texel tuner.
//! - [`thread`]: named threads whose refusal by the system is an error, not a panic.
//! - [`time_control`]: a Fischer time control, as every tool that plays on a clock has it.

#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![warn(missing_docs)]

pub mod bot;
pub mod core;
pub mod options;
pub mod players;
pub mod protocol;
pub mod search;
pub mod session;
pub(crate) mod thread;
pub mod time_control;
pub mod tools;
pub mod tune;
