//! Stopping the bot as a service is stopped: SIGTERM (what systemd and other service
//! managers send), SIGINT (Ctrl-C) and SIGHUP ask it to stop taking games, finish the
//! games in progress (resigning them past a deadline), log out and exit 0; a second
//! signal resigns at once.
//!
//! The handler comes from the `ctrlc` crate with its `termination` feature (SIGTERM and
//! SIGHUP besides SIGINT): a signal handler needs `unsafe` code, which this crate keeps
//! out of the project, and the crate's handler runs on an ordinary thread, where counting
//! the signals is safe. The bot's loop reads the count at each of its turns.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many stop requests came; shared with the signal handler.
#[derive(Clone, Debug, Default)]
pub struct Shutdown {
    requests: Arc<AtomicU32>,
}

/// How far the bot has been asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Play on.
    Running,
    /// Take no new games; finish the ones in progress, resign them past the deadline.
    Finish,
    /// Resign every game in progress at once (a second request).
    Resign,
}

impl Shutdown {
    /// A stop that only [`Shutdown::request`] triggers (for a bot run in process).
    pub fn new() -> Shutdown {
        Shutdown::default()
    }

    /// A stop triggered by SIGTERM, SIGINT or SIGHUP (once per process; a second call
    /// fails with the crate's error).
    pub(crate) fn on_signals() -> Result<Shutdown, ctrlc::Error> {
        let shutdown = Shutdown::new();
        let requests = Arc::clone(&shutdown.requests);
        ctrlc::set_handler(move || {
            requests.fetch_add(1, Ordering::SeqCst);
        })?;
        Ok(shutdown)
    }

    /// Asks the bot to stop (as a signal does).
    pub fn request(&self) {
        self.requests.fetch_add(1, Ordering::SeqCst);
    }

    /// How far the bot is asked to stop.
    pub(crate) fn stage(&self) -> Stage {
        match self.requests.load(Ordering::SeqCst) {
            0 => Stage::Running,
            1 => Stage::Finish,
            _ => Stage::Resign,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_escalate() {
        let s = Shutdown::new();
        assert_eq!(s.stage(), Stage::Running);
        let shared = s.clone();
        shared.request();
        assert_eq!(s.stage(), Stage::Finish);
        shared.request();
        shared.request();
        assert_eq!(s.stage(), Stage::Resign);
    }
}
