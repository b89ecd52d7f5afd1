//! `hnefi perft N` on the command line: the count one root move at a time, so that a long
//! one shows its progress and can be stopped.
//!
//! - Progress: when stderr is a terminal, one line there, redrawn after each root move
//!   (moves done of all, leaves so far, elapsed time). A line of our own, as the match
//!   runner draws, rather than a progress-bar crate: one redraw per root move needs no
//!   more, and the crate would bring its terminal dependencies for it.
//! - SIGINT (Ctrl-C): the count stops within a node or so, and the leaves of the root
//!   moves counted so far are printed, labelled partial (exit status 130).

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::core::geometry::Geometry;
use crate::core::notation::parse_opentafl_with;
use crate::core::perft;
use crate::core::position::PositionOf;
use crate::core::role::Role;
use crate::core::variant::Variant;
use crate::outln;
use crate::tools::interrupt;

/// The progress line after `done` of `total` root moves, `leaves` counted in `elapsed`.
pub(crate) fn progress_line(
    depth: u32,
    done: usize,
    total: usize,
    leaves: u64,
    elapsed: Duration,
) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "perft {depth}: {done}/{total} root moves, {leaves} leaves, {:.1} s",
        elapsed.as_secs_f64()
    );
    s
}

/// What `hnefi perft` counts.
pub struct PerftJob<'a> {
    /// Plies.
    pub depth: u32,
    /// An OpenTafl position of the board's size instead of its start position.
    pub position: Option<&'a str>,
    /// The side to move in `position`.
    pub to_move: Role,
    /// Print each root move's count too.
    pub divide: bool,
    /// The game whose moves and captures are counted, on its board.
    pub variant: Variant,
}

/// Runs `hnefi perft`: the leaves `depth` plies below the variant's start position (or
/// `position` on its board, with `to_move` to move) under its rules, each root move's
/// count too with `divide`. Exit status 0, 2 for a bad position, 130 when interrupted.
pub fn main(job: PerftJob<'_>) -> ExitCode {
    crate::with_size!(job.variant.size(), G => main_on::<G>(job))
}

fn main_on<G: Geometry>(job: PerftJob<'_>) -> ExitCode {
    let PerftJob {
        depth,
        position,
        to_move,
        divide,
        variant,
    } = job;
    let rules = variant.rules();
    let pos = match position {
        None => match variant.start_position::<G>() {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        Some(s) => match parse_opentafl_with::<G>(s, rules.restricted()) {
            Ok(board) => PositionOf::new(board, to_move),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    if let Err(e) = interrupt::install() {
        eprintln!(
            "warning: cannot handle Ctrl-C ({e}): an interrupt will end perft without a count"
        );
    }
    let progress = io::stderr().is_terminal();
    let total = if depth == 0 {
        0
    } else {
        pos.legal_moves(&rules).len()
    };
    let start = Instant::now();
    let draw = |done: usize, nodes: u64| {
        if progress {
            let line = progress_line(depth, done, total, nodes, start.elapsed());
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K{line}");
            let _ = err.flush();
        }
    };
    if total > 0 {
        draw(0, 0);
    }
    let (mut nodes, mut done) = (0u64, 0usize);
    let complete = if depth == 0 && !divide {
        nodes = 1;
        true
    } else {
        perft::divide_until(&pos, depth, &rules, interrupt::flag(), |mv, n| {
            if divide {
                outln!("{mv}: {n}");
            }
            nodes += n;
            done += 1;
            draw(done, nodes);
        })
    };
    if progress && total > 0 {
        let _ = write!(io::stderr(), "\r\x1b[2K");
    }
    let secs = start.elapsed().as_secs_f64();
    if complete {
        outln!("perft {depth}: {nodes}");
    } else {
        outln!(
            "perft {depth}: {nodes} (partial: interrupted after {done} of {total} root moves; the leaves below those moves only)"
        );
    }
    outln!(
        "time {:.3} s, {:.1} M leaves/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(interrupt::EXIT_STATUS)
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn progress_line() {
        use crate::tools::perft::progress_line;
        use std::time::Duration;
        assert_eq!(
            progress_line(7, 12, 104, 1_234_567, Duration::from_millis(3_400)),
            "perft 7: 12/104 root moves, 1234567 leaves, 3.4 s"
        );
    }
}
