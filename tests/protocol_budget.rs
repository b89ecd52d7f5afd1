//! Time budgets at any thread count (issue: 256 threads on 2 cores took seconds for a
//! 100 ms move), and on a machine whose cores are all busy (issue "Strength, next level":
//! the hard deadline counts from the command's arrival). The timed checks are
//! `#[ignore]`d, as every timing check is (the machine is shared); run them with
//! `cargo test --release --test integration -- protocol_budget:: --ignored --nocapture`.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::Engine;

/// The most a reply may come after the move's time: the 50 ms.
const SLACK: Duration = Duration::from_millis(50);

fn worst_of(threads: u32, searches: usize, movetime: Duration) -> Duration {
    let mut engine = Engine::start(&[]);
    engine.ok(&format!("set_option threads {threads}"));
    engine.ok(&format!("set_option movetime_ms {}", movetime.as_millis()));
    let mut worst = Duration::ZERO;
    for _ in 0..searches {
        let asked = Instant::now();
        let reply = engine.ok("generate_move");
        worst = worst.max(asked.elapsed());
        assert!(reply.starts_with("play "), "{reply}");
        if engine.ok("final_status") != "ongoing" {
            engine.ok("clear_board");
        }
    }
    engine.quit();
    worst
}

#[test]
#[ignore = "timed: run by hand on an idle machine"]
fn many_threads_keep_a_100_ms_budget_over_50_searches() {
    let movetime = Duration::from_millis(100);
    for threads in [64, 256] {
        let worst = worst_of(threads, 50, movetime);
        eprintln!("threads {threads}: the slowest of 50 replies took {worst:?}");
        assert!(
            worst <= movetime + SLACK,
            "threads {threads}: {worst:?} for a {movetime:?} move"
        );
    }
}

/// Keeps every core of the machine busy (one spinning thread per hardware thread) until
/// dropped.
struct BusyCores {
    done: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyCores {
    fn start() -> BusyCores {
        let done = Arc::new(AtomicBool::new(false));
        let threads = (0..hnefi::search::hardware_threads())
            .map(|_| {
                let done = Arc::clone(&done);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !done.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        BusyCores { done, threads }
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Every reply's time, from the write of `generate_move` to the read of its reply's end,
/// at `threads` search threads and `movetime` a move, sorted.
fn reply_times(threads: u32, searches: usize, movetime: Duration) -> Vec<Duration> {
    let mut engine = Engine::start(&[]);
    engine.ok(&format!("set_option threads {threads}"));
    engine.ok(&format!("set_option movetime_ms {}", movetime.as_millis()));
    let mut times = Vec::new();
    for _ in 0..searches {
        let asked = Instant::now();
        let reply = engine.ok("generate_move");
        times.push(asked.elapsed());
        assert!(reply.starts_with("play "), "{reply}");
        if engine.ok("final_status") != "ongoing" {
            engine.ok("clear_board");
        }
    }
    engine.quit();
    times.sort();
    times
}

/// The check: with every core kept busy by other threads, every reply comes
/// within the move's time and 50 ms. Prints the distribution (docs/experiments.md,
/// "time discipline under load": on a machine already loaded by other jobs it does not
/// hold at 2 search threads).
#[test]
#[ignore = "timed: run by hand on a machine otherwise idle"]
fn replies_keep_the_budget_with_every_core_busy() {
    let movetime = Duration::from_millis(100);
    let busy = BusyCores::start();
    let mut worst = Vec::new();
    for threads in [1, 2] {
        let times = reply_times(threads, 40, movetime);
        let at = |q: usize| {
            times
                .get(q * (times.len() - 1) / 100)
                .copied()
                .unwrap_or_default()
        };
        eprintln!(
            "threads {threads}, {} busy threads, 40 replies to a {movetime:?} move: min {:?} median {:?} p90 {:?} max {:?}",
            hnefi::search::hardware_threads(),
            at(0),
            at(50),
            at(90),
            at(100)
        );
        worst.push((threads, at(100)));
    }
    drop(busy);
    for (threads, w) in worst {
        assert!(
            w <= movetime + SLACK,
            "threads {threads}: {w:?} for a {movetime:?} move"
        );
    }
}

/// Not timed: the thread count a search runs is within what the machine can run.
#[test]
fn a_search_runs_no_more_threads_than_the_machine_has() {
    let s = hnefi::search::Searcher::new(256, 1);
    assert!(s.threads() >= 1);
    assert!(s.threads() <= hnefi::search::hardware_threads());
}
