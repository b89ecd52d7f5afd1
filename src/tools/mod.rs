//! Command-line tools built on the rules core.

pub mod bench;
pub mod matches;
pub mod perft;
