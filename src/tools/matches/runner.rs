//! Running a match: the check that every engine starts, the games in parallel (each
//! worker with its own engine processes), and their results taken in schedule order
//! ([`InOrder`]), so that `--resume` can skip the first lines' games.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::tools::interrupt;

use super::config::MatchConfig;
use super::error::MatchError;
use super::in_order::InOrder;
use super::pairs::sprt_units;
use super::play::{self, Entrant, Forfeit};
use super::progress::Progress;
use super::records::{self, GameResult};
use super::stats::SprtState;

/// What a run produced.
#[derive(Debug)]
pub(crate) struct Played {
    /// Every game's result in schedule order (the resumed ones first).
    pub(crate) results: Vec<GameResult>,
    /// Why writing the records stopped the match, if it did.
    pub(crate) write_error: Option<io::Error>,
    /// A SIGINT stopped the match: the games in progress were abandoned, not recorded.
    pub(crate) interrupted: bool,
}

fn players(config: &MatchConfig) -> Vec<Entrant> {
    config
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| Entrant::new(format!("E{}", i + 1), e.dialect, e.words.clone(), e.time))
        .collect()
}

/// Starts every engine once and checks its first reply, so that an engine that cannot
/// play stops the match before the first game, with its stderr.
fn check_engines(config: &MatchConfig) -> Result<(), MatchError> {
    for (mut p, spec) in players(config).into_iter().zip(&config.engines) {
        // The board and rules are told as before each game, so that an engine that
        // cannot play them stops the match here.
        let board = |p: &mut Entrant| {
            p.board_commands(&config.settings).map_err(|f| Forfeit {
                detail: format!(
                    "cannot play the {} game: {}",
                    config.settings.game, f.detail
                ),
                ..f
            })
        };
        match p.start(&config.settings).and_then(|()| board(&mut p)) {
            Ok(()) => p.stop(),
            Err(f) => {
                let stderr = p.failure_stderr();
                return Err(MatchError::EngineStart {
                    label: p.label.clone(),
                    spec: spec.label.clone(),
                    why: format!("failed its start ({}): {}", f.reason.name(), f.detail),
                    stderr,
                });
            }
        }
    }
    Ok(())
}

/// Plays the match (the games not yet in the records file when resuming) and returns
/// every game's result in schedule order.
pub(crate) fn run(config: &MatchConfig) -> Result<Played, MatchError> {
    let done = resumed(config)?;
    let first = done.len();
    if first < config.schedule.len() {
        match check_engines(config) {
            // An engine cut short by the interrupt has not failed.
            Err(_) if interrupt::requested() => {
                return Ok(Played {
                    results: done,
                    write_error: None,
                    interrupted: true,
                });
            }
            r => r?,
        }
    }
    let writer = match &config.out {
        Some(out) => Some(
            records::Writer::open(out, &config.header).map_err(|source| MatchError::Open {
                path: out.clone(),
                source,
            })?,
        ),
        None => None,
    };
    let mut games = InOrder::new(done, writer);
    let progress = Progress {
        enabled: io::stderr().is_terminal(),
        start: Instant::now(),
        total: config.schedule.len(),
        resumed: first,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let decided = |results: &[GameResult]| {
        config
            .sprt
            .is_some_and(|t| t.state(&sprt_units(config, results).0) != SprtState::Continue)
    };
    if decided(games.results()) {
        stop.store(true, Ordering::SeqCst);
    }
    let next = Arc::new(AtomicUsize::new(first));
    // Each result comes with its worker's acknowledgement channel: a worker starts its next
    // game only once its last result was handled here, so that a stop (a write failure, a
    // decided SPRT) is seen before it, however slow this thread is on a loaded machine.
    let (tx, rx) = mpsc::channel::<(GameResult, mpsc::Sender<()>)>();
    let mut interrupted = false;
    thread::scope(|scope| {
        for _ in 0..config
            .concurrency
            .min(config.schedule.len().saturating_sub(first))
        {
            let tx = tx.clone();
            let (next, stop) = (Arc::clone(&next), Arc::clone(&stop));
            scope.spawn(move || worker(config, &next, &stop, &tx));
        }
        drop(tx);
        progress.draw(games.results(), config.engines.len());
        loop {
            let received = rx.recv_timeout(Duration::from_millis(200));
            if interrupt::requested() && !interrupted {
                // The games still playing were cut by the interrupt: none is recorded
                // (nor any result that arrives from now on), so that the file stays
                // the games played out, and --resume plays the rest.
                interrupted = true;
                stop.store(true, Ordering::SeqCst);
                games.drop_pending();
            }
            match received {
                Ok((_, ack)) if interrupted => {
                    let _ = ack.send(());
                }
                Ok((r, ack)) => {
                    if games.take(r) || decided(games.results()) {
                        stop.store(true, Ordering::SeqCst);
                    }
                    let _ = ack.send(());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress.draw(games.results(), config.engines.len());
        }
    });
    progress.finish();
    let (results, write_error) = games.finish();
    Ok(Played {
        results,
        write_error,
        interrupted,
    })
}

/// The games of the records file when resuming (with its warnings on stderr); none
/// otherwise, and then the file must not hold games already.
fn resumed(config: &MatchConfig) -> Result<Vec<GameResult>, MatchError> {
    let Some(out) = &config.out else {
        return Ok(Vec::new());
    };
    if config.resume {
        let resumed = records::read_done(
            out,
            &config.schedule,
            &config.settings.game,
            config.settings.rules,
            &config.header,
        )?;
        for w in &resumed.warnings {
            eprintln!("warning: {w}");
        }
        Ok(resumed.done)
    } else if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        Err(MatchError::OutExists(out.clone()))
    } else {
        Ok(Vec::new())
    }
}

fn worker(
    config: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &mpsc::Sender<(GameResult, mpsc::Sender<()>)>,
) {
    let mut players = players(config);
    let (ack_tx, ack_rx) = mpsc::channel::<()>();
    while !stop.load(Ordering::SeqCst) && !interrupt::requested() {
        let index = next.fetch_add(1, Ordering::SeqCst);
        let Some(game) = config.schedule.get(index) else {
            break;
        };
        let (a, d) = (game.attacker, game.defender);
        let Some([pa, pd]) = two_mut(&mut players, a, d) else {
            break;
        };
        let played = play::play_game([pa, pd], &game.opening, &config.settings);
        let result = GameResult {
            index,
            attacker: a,
            defender: d,
            outcome: played.outcome,
            detail: played.detail,
            record: played.record,
        };
        if tx.send((result, ack_tx.clone())).is_err() {
            break;
        }
        // The runner has handled the result (or is gone) before the stop flag is read.
        let _ = ack_rx.recv();
    }
    for p in &mut players {
        p.stop();
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> Option<[&mut T; 2]> {
    if a == b {
        return None;
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = v.split_at_mut(hi);
    let (x, y) = (left.get_mut(lo)?, right.first_mut()?);
    Some(if a < b { [x, y] } else { [y, x] })
}
