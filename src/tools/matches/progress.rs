//! The progress line: games done, the first engine's score, elapsed and remaining time,
//! drawn on stderr when it is a terminal.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

use super::records::GameResult;

/// A progress line on stderr, drawn only when stderr is a terminal.
pub(crate) struct Progress {
    /// Draw at all (stderr is a terminal).
    pub(crate) enabled: bool,
    /// When the run started.
    pub(crate) start: Instant,
    /// Games in the schedule.
    pub(crate) total: usize,
    /// Games done before the run (resumed).
    pub(crate) resumed: usize,
}

impl Progress {
    /// Draws the line for the results so far.
    pub(crate) fn draw(&self, results: &[GameResult], engines: usize) {
        if !self.enabled {
            return;
        }
        let done = results.len();
        let width = 30;
        let filled = (done * width).checked_div(self.total).unwrap_or(width);
        let bar: String = (0..width)
            .map(|i| if i < filled { '#' } else { '-' })
            .collect();
        let elapsed = self.start.elapsed().as_secs();
        let played_now = done.saturating_sub(self.resumed);
        let eta = if played_now > 0 {
            let per = elapsed as f64 / played_now as f64;
            format!(
                "~{} left",
                clock_text((per * (self.total - done.min(self.total)) as f64) as u64)
            )
        } else {
            "~? left".into()
        };
        let mut score = String::new();
        if engines == 2 {
            let pts: f64 = results.iter().filter_map(|r| r.score_of(0)).sum();
            let _ = write!(score, "  E1 {pts}-{}", done as f64 - pts);
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{bar}] {done}/{}{score}  {} elapsed, {eta}",
            self.total,
            clock_text(elapsed)
        );
        let _ = err.flush();
    }

    /// Ends the line.
    pub(crate) fn finish(&self) {
        if self.enabled {
            let _ = writeln!(std::io::stderr());
        }
    }
}

fn clock_text(secs: u64) -> String {
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}
