//! Streaming analysis (docs/PROTOCOL.md, "Streaming analysis"), after KataGo's
//! `kata-analyze`: `analyze` with no limit in force, or `analyze interval MS`, answers
//! `=` at once, then writes one `info` line per completed iteration (per line of a
//! multi-PV search), or every MS milliseconds, until the next command line arrives; then
//! the empty line ends the reply and that command runs.
//!
//! The search runs on a thread of its own while this thread writes the lines, so that
//! the interval does not depend on when iterations end.

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::commands::{arity_in, number_arg};
use super::reader::InputState;
use crate::core::any_square::AnyMove;
use crate::options::MAX_MOVETIME_MS;
use crate::search::Info;
use crate::session::Session;

/// When a streaming analysis writes its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cadence {
    /// After each completed iteration.
    PerIteration,
    /// Every this long: the latest iteration's lines with the nodes and time of now.
    Every(Duration),
}

/// The cadence if `analyze ARGS` streams, `None` if it is the bounded analysis of the
/// command table, or the message of invalid arguments.
pub(crate) fn cadence(args: &[&str], session: &Session) -> Option<Result<Cadence, String>> {
    match args.first() {
        None if session.unbounded() => Some(Ok(Cadence::PerIteration)),
        Some(&"interval") => Some(interval(args)),
        _ => None,
    }
}

fn interval(args: &[&str]) -> Result<Cadence, String> {
    let usage = super::commands::find("analyze").map_or("", |c| c.usage);
    arity_in(args, 2, 2, usage)?;
    let ms = number_arg(args, 1, "MILLISECONDS", 1, MAX_MOVETIME_MS)?;
    Ok(Cadence::Every(Duration::from_millis(ms)))
}

/// Runs a streaming analysis of command line `line_no` whose reply starts with `head`
/// (`=` and the id): writes `head` and the lines, and returns once the search is over;
/// the caller writes the empty line when the next command line arrives. An error to write
/// stops the search and is returned once it is over.
pub(crate) fn run(
    session: &mut Session,
    head: &str,
    cadence: Cadence,
    input: &InputState,
    line_no: u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(head.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    let stop = session.stop_flag();
    let nodes = session.node_counter();
    let started = Instant::now();
    input.begin_stream(line_no);
    let (tx, rx) = mpsc::channel::<Info<AnyMove>>();
    let mut failed: Option<io::Error> = None;
    std::thread::scope(|scope| {
        let analysis = crate::thread::spawn_scoped(scope, "analysis", move || {
            // The search result is the first line already written; a position that cannot
            // be analyzed was refused before the `=`.
            let _ = session.analyze_until_stopped(&mut |info| {
                let _ = tx.send(info.clone());
            });
        });
        if let Err(e) = analysis {
            failed = Some(e.into());
            return;
        }
        // The latest report of each line (several with multi-PV), for the interval.
        let mut latest: Vec<Info<AnyMove>> = Vec::new();
        let mut next_tick = match cadence {
            Cadence::Every(d) => Some(started + d),
            Cadence::PerIteration => None,
        };
        loop {
            let received = match next_tick {
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(t) => rx.recv_timeout(t.saturating_duration_since(Instant::now())),
            };
            let written = match (received, cadence) {
                (Ok(info), Cadence::PerIteration) => write_line(out, &info),
                (Ok(info), Cadence::Every(_)) => {
                    latest.retain(|l| l.multipv != info.multipv);
                    latest.push(info);
                    latest.sort_by_key(|l| l.multipv);
                    Ok(())
                }
                (Err(RecvTimeoutError::Timeout), Cadence::Every(d)) => {
                    next_tick = next_tick.map(|t| t + d);
                    let n = nodes.load(Ordering::Relaxed);
                    let time = started.elapsed();
                    latest.iter().try_for_each(|l| {
                        let now = Info {
                            nodes: n,
                            nps: per_second(n, time),
                            time,
                            ..l.clone()
                        };
                        write_line(out, &now)
                    })
                }
                (Err(_), _) => break,
            };
            if let Err(e) = written {
                stop.store(true, Ordering::SeqCst);
                failed.get_or_insert(e);
            }
        }
    });
    input.end_stream();
    failed.map_or(Ok(()), Err)
}

fn write_line(out: &mut dyn Write, info: &Info<AnyMove>) -> io::Result<()> {
    writeln!(out, "info {info}")?;
    out.flush()
}

fn per_second(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / us).unwrap_or(u64::MAX)
}
