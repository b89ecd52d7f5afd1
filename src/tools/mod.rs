//! Command-line tools built on the rules core.

pub mod bench;
pub mod perft;
