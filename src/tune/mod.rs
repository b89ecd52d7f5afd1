//! The data path of the evaluation: self-play games ([`selfplay`]) and recorded games
//! ([`label`]) that write sampled positions with the game's result, through one ordered
//! parallel writer ([`jobs`]), on any game's board too ([`selfplay_any`]); the format of
//! those samples ([`sample`], [`sized_sample`] for any game); and the Texel
//! tuner that fits the evaluation's weights to them ([`texel`]); the trainer of the
//! evaluation's learned correction ([`net`]).

pub mod jobs;
pub mod label;
pub mod net;
pub mod sample;
pub mod selfplay;
pub mod selfplay_any;
pub mod sized_sample;
pub mod texel;

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
