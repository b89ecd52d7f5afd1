//! The data path of the evaluation: self-play games ([`selfplay`], on any game's board)
//! and recorded games ([`label`]) that write sampled positions with the game's result,
//! through one ordered parallel writer ([`jobs`]); the format of those samples, one type
//! for every game ([`sample`] in text, [`record`] in binary) and the files of either
//! format ([`sample_file`]); the merge of a run's shards ([`merge`]); the Texel
//! tuner that fits the evaluation's weights to them ([`texel`]); the trainer of the
//! evaluation's learned correction ([`net`]).

pub(crate) mod jobs;
pub mod label;
pub mod merge;
pub mod net;
pub(crate) mod record;
pub mod sample;
pub mod sample_file;
pub mod selfplay;
pub mod texel;
pub mod wdl_fit;

/// The exit code of a data-path command, its error (if any) on stderr: 0, or 2 for bad
/// input or a file that cannot be read or written.
pub(crate) fn exit_code(result: Result<(), String>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
