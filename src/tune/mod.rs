//! The data path of the evaluation: self-play games that write sampled positions with
//! the game's result ([`selfplay`]), the format of those samples ([`sample`]), and the
//! Texel tuner that fits the evaluation's weights to them ([`texel`]).

pub mod jobs;
pub mod label;
pub mod sample;
pub mod selfplay;
pub mod texel;
