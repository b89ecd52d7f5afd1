//! Games played on several threads, each with its own searcher, whose samples are written
//! in the games' order whatever order they finish in: the one writer of `hnefi selfplay`
//! and `hnefi label`, so that a file depends on the flags and not on the concurrency.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::sample::{SampleGame, SampleOf};
use super::sample_file::{Format, SampleWriter};
use crate::core::game::GameOf;
use crate::core::geometry::Geometry;
use crate::core::moves::MoveOf;
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::search::{Limits, Score, SearchGeometry, Searcher};

/// What one game on board `G` produced: its samples (with the game's result) and the
/// result.
pub(crate) struct Played<G: Geometry> {
    /// The samples, in the game's order.
    pub(crate) samples: Vec<SampleOf<G>>,
    /// How it ended (a draw also when it did not finish).
    pub(crate) result: Outcome<()>,
}

/// Searches the position of `game` (of the rule family `rules`) within `limits`: the best
/// move, and the position as a sample of game number `number` when `quiet` says a static
/// evaluation can judge it (`sample::is_quiet`) and the score is no forced win or loss
/// (its result a draw until the caller knows the game's).
pub(crate) fn search_sample<G: SearchGeometry>(
    game: &GameOf<G>,
    rules: RulePreset,
    searcher: &mut Searcher,
    limits: &Limits,
    number: u64,
    quiet: &dyn Fn(&PositionOf<G>, MoveOf<G>) -> bool,
) -> (Option<MoveOf<G>>, Option<SampleOf<G>>) {
    let stop = AtomicBool::new(false);
    let result = searcher.search(game, limits, &stop, &mut |_| {});
    let sample = match (result.best, result.score) {
        (Some(best), Score::Cp(score)) if quiet(game.position(), best) => Some(SampleOf {
            position: *game.position(),
            rules,
            result: Outcome::draw(()),
            score,
            game: number,
        }),
        _ => None,
    };
    (result.best, sample)
}

/// Games `0..count` to play on `concurrency` threads, their samples to `out`.
pub(crate) struct Jobs<'a> {
    /// The command's name, for the progress lines (`selfplay: 100/2000 games ...`).
    pub(crate) name: &'a str,
    /// The number of games.
    pub(crate) count: u64,
    /// Threads, each with its own one-thread searcher.
    pub(crate) concurrency: u16,
    /// Each searcher's transposition table, in MiB.
    pub(crate) hash_mb: u64,
    /// The samples' file (overwritten).
    pub(crate) out: &'a Path,
    /// Its format.
    pub(crate) format: Format,
    /// The samples' game (for a binary file's header).
    pub(crate) game: SampleGame,
}

impl Jobs<'_> {
    /// Plays every game with `play(number, searcher)` and writes the samples in the
    /// games' order, with a progress line on stderr (at each game on a terminal, every
    /// hundredth otherwise).
    pub(crate) fn run<F, G>(&self, play: F) -> Result<(), String>
    where
        F: Fn(u64, &mut Searcher) -> Played<G> + Sync,
        G: Geometry,
    {
        let mut out = SampleWriter::create(self.out, self.format, self.game)
            .map_err(|e| format!("cannot create {}: {e}", self.out.display()))?;
        let next = AtomicU64::new(0);
        let failed = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(u64, Played<G>)>();
        let start = Instant::now();
        let tty = io::stderr().is_terminal();
        let (name, count) = (self.name, self.count);
        let written = std::thread::scope(|scope| -> Result<(u64, [u64; 3]), String> {
            for _ in 0..self.concurrency {
                let tx = tx.clone();
                let (play, next, failed) = (&play, &next, &failed);
                let hash = self.hash_mb as usize;
                let worker = crate::thread::spawn_scoped(scope, "selfplay worker", move || {
                    let mut searcher = Searcher::new(1, hash);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count || failed.load(Ordering::Relaxed) {
                            break;
                        }
                        if tx.send((i, play(i, &mut searcher))).is_err() {
                            break;
                        }
                    }
                });
                if let Err(e) = worker {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e.to_string());
                }
            }
            drop(tx);
            let mut pending = BTreeMap::new();
            let (mut done, mut positions, mut tally) = (0u64, 0u64, [0u64; 3]);
            for (i, played) in rx {
                pending.insert(i, played);
                while let Some(played) = pending.remove(&done) {
                    for s in &played.samples {
                        if let Err(e) = out.write(s) {
                            failed.store(true, Ordering::Relaxed);
                            return Err(format!("cannot write {}: {e}", self.out.display()));
                        }
                    }
                    positions += played.samples.len() as u64;
                    tally[match played.result.winner {
                        Some(Role::Defender) => 0,
                        Some(Role::Attacker) => 1,
                        None => 2,
                    }] += 1;
                    done += 1;
                    let secs = start.elapsed().as_secs_f64();
                    let line = format!(
                        "{name}: {done}/{count} games (defenders {}, attackers {}, draws {}), {positions} positions, {:.2} games/s",
                        tally[0],
                        tally[1],
                        tally[2],
                        done as f64 / secs.max(1e-9)
                    );
                    if tty {
                        eprint!("\r{line}");
                    } else if done.is_multiple_of(100) || done == count {
                        eprintln!("{line}");
                    }
                }
            }
            Ok((positions, tally))
        })?;
        if tty {
            eprintln!();
        }
        out.finish()
            .map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
        let (positions, tally) = written;
        eprintln!(
            "{name}: {count} games in {:.1} s: defenders {}, attackers {}, draws {}; {positions} positions written to {}",
            start.elapsed().as_secs_f64(),
            tally[0],
            tally[1],
            tally[2],
            self.out.display()
        );
        Ok(())
    }
}
