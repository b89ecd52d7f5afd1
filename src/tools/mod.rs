//! Command-line tools built on the rules core and the search.

pub mod annotate;
pub mod bench;
pub(crate) mod game_args;
pub(crate) mod interrupt;
pub mod matches;
pub mod perft;
pub mod picture;
pub(crate) mod stdout;
pub(crate) mod ttd;
