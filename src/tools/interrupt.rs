//! SIGINT (Ctrl-C) for the long-running tools (`hnefi perft`, `hnefi match`): the first
//! one only records that it came, so that the tool stops its work and prints what it has
//! (the leaves counted so far, the table of the games played); a second one ends the
//! process at once (exit status 130), for a tool that does not stop soon enough.
//!
//! The handler comes from the `ctrlc` crate: a signal handler needs `unsafe` code (and
//! care about what may run inside one), which this crate keeps out of the project; its
//! handler runs on an ordinary thread, where setting a flag or exiting is safe. The crate
//! is built with its `termination` feature, for `hnefi bot`'s SIGTERM
//! ([`crate::bot::shutdown`]): its handler then also takes SIGTERM and SIGHUP, which stop
//! these tools as a first Ctrl-C does.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first SIGINT. A signal is process-wide, so its flag is too.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status of a process ended by SIGINT (128 + 2, as shells report it).
pub(crate) const EXIT_STATUS: u8 = 130;

/// Installs the handler (once per process; a second call fails with the crate's error).
pub(crate) fn install() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_STATUS));
        }
    })
}

/// True once a SIGINT came.
pub(crate) fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// The flag itself, for work that takes a stop flag (as [`crate::core::perft::perft_until`]
/// does).
pub(crate) fn flag() -> &'static AtomicBool {
    &REQUESTED
}
