//! The bot's log: one line per event, traffic only with `--debug`.
//!
//! The password never reaches it: login lines are logged through
//! [`super::message::ClientMessage::redacted`].

use std::io::Write;
use std::sync::Mutex;

/// Longest server line logged in full; longer ones (the server's lobby updates can be
/// large) are cut, with their length.
const MAX_LOGGED: usize = 400;

/// Where the bot writes its log lines.
pub struct Log {
    debug: bool,
    out: Mutex<Box<dyn Write + Send>>,
}

impl Log {
    /// A log writing to `out`; traffic lines only when `debug`.
    pub fn new(debug: bool, out: Box<dyn Write + Send>) -> Log {
        Log {
            debug,
            out: Mutex::new(out),
        }
    }

    /// A log on stderr.
    pub(crate) fn stderr(debug: bool) -> Log {
        Log::new(debug, Box::new(std::io::stderr()))
    }

    /// Logs an event.
    pub(crate) fn info(&self, msg: &str) {
        self.write(msg);
    }

    /// Logs a line received from the server (with `--debug` only).
    pub(crate) fn received(&self, line: &str) {
        if self.debug {
            let mut cut = line.len().min(MAX_LOGGED);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            if cut < line.len() {
                self.write(&format!("< {} ... ({} bytes)", &line[..cut], line.len()));
            } else {
                self.write(&format!("< {line}"));
            }
        }
    }

    /// Logs a line sent to the server, already redacted (with `--debug` only).
    pub(crate) fn sent(&self, redacted: &str) {
        if self.debug {
            self.write(&format!("> {redacted}"));
        }
    }

    fn write(&self, msg: &str) {
        // A poisoned lock only means another thread panicked while logging; keep logging.
        let mut out = match self.out.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        // A log that cannot be written must not stop the games.
        let _ = writeln!(out, "{msg}");
        let _ = out.flush();
    }
}
