//! `hnefi match`: engine-vs-engine matches in several protocols, refereed by the rules
//! core.
//!
//! - [`args`]: the flags; [`config`]: the checked configuration; [`schedule`]: who plays
//!   which game from which opening; [`openings`]: opening lines.
//! - [`engine`]: engine processes with deadline-bounded reads, killed on drop.
//! - [`dialect`]: hnefi's framing, the reference engine's, and its TCP relay mode
//!   ([`relay`]); [`uci`]: UCI-style tafl engines; [`otep`]: OpenTafl engines.
//! - [`match_game`]: the match's game, of either kind (ordinary or Berserk);
//!   [`refereed`]: a game in play as the referee sees it; [`play`]: one game;
//!   [`reason`]: why a game ended; [`runner`]: the games in
//!   parallel, in schedule order; [`records`]: the CSV output and `--resume`.
//! - [`stats`]: score, Elo, SPRT; [`pairs`]: game pairs; [`rating`]: the rating list of
//!   a tournament (maximum-likelihood Elo of every engine); [`progress`]: the progress
//!   line; [`report`]: the final table.
//!
//! Exit status: 0 for a match played; 2 when it could not start (bad flags or files, an
//! engine that does not start or answers its first command with garbage); 1 when it was
//! played but writing the records failed, or an engine lost every game by `crash`; 130
//! when a SIGINT (Ctrl-C) stopped it (the table of the games played out is printed).

pub(crate) mod args;
pub(crate) mod clocks;
pub(crate) mod config;
pub(crate) mod dialect;
pub(crate) mod engine;
pub(crate) mod error;
pub(crate) mod in_order;
pub(crate) mod match_game;
pub(crate) mod openings;
pub(crate) mod otep;
pub(crate) mod pairs;
pub(crate) mod play;
pub(crate) mod progress;
pub(crate) mod rating;
pub(crate) mod reason;
pub(crate) mod records;
pub(crate) mod refereed;
pub(crate) mod relay;
pub(crate) mod report;
pub(crate) mod runner;
pub(crate) mod schedule;
pub(crate) mod stats;
pub(crate) mod uci;

use std::process::ExitCode;

pub use args::MatchArgs;
use config::MatchConfig;
use reason::{Adjudication, MatchReason};
use records::GameResult;

/// The `hnefi match` command: runs the match and prints the table (see the exit status
/// above).
pub fn main(args: &MatchArgs) -> ExitCode {
    let config = match MatchConfig::from_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Without the handler a Ctrl-C would end the runner before its table; the match can
    // still be played.
    if let Err(e) = crate::tools::interrupt::install() {
        eprintln!(
            "warning: cannot handle Ctrl-C ({e}): an interrupt will end the match without its table"
        );
    }
    let played = match runner::run(&config) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    crate::tools::stdout::text(&report::report(&config, &played.results));
    let mut failed = false;
    if let Some(e) = &played.write_error {
        eprintln!("error: writing the records failed, the match stopped: {e}");
        failed = true;
    }
    for (i, e) in config.engines.iter().enumerate() {
        if let Some(detail) = lost_all_by_crash(&played.results, i) {
            eprintln!(
                "error: E{} ({}) lost every one of its games by crash (first: {detail})",
                i + 1,
                e.label
            );
            failed = true;
        }
    }
    if played.interrupted {
        eprintln!(
            "interrupted: {} of {} games played out; the games in progress were abandoned, not scored{}",
            played.results.len(),
            config.schedule.len(),
            if config.out.is_some() {
                " (continue with the same flags and --resume)"
            } else {
                ""
            }
        );
        ExitCode::from(crate::tools::interrupt::EXIT_STATUS)
    } else if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// If engine `i` played games and lost every one by `crash`, the first game's detail.
fn lost_all_by_crash(results: &[GameResult], i: usize) -> Option<String> {
    let mut played = results
        .iter()
        .filter(|r| r.score_of(i).is_some())
        .peekable();
    played.peek()?;
    let mut first = None;
    for r in played {
        if r.score_of(i) != Some(0.0)
            || r.outcome.reason != MatchReason::Adjudicated(Adjudication::Crash)
        {
            return None;
        }
        first.get_or_insert_with(|| r.detail.clone());
    }
    first
}
