//! Time budgets at any thread count (issue: 256 threads on 2 cores took seconds for a
//! 100 ms move). The timed check is `#[ignore]`d, as every timing check is (the machine
//! is shared); run it with `cargo test --release --test protocol_budget -- --ignored`.

mod common;

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

/// Not timed: the thread count a search runs is within what the machine can run.
#[test]
fn a_search_runs_no_more_threads_than_the_machine_has() {
    let s = hnefi::search::Searcher::new(256, 1);
    assert!(s.threads() >= 1);
    assert!(s.threads() <= hnefi::search::hardware_threads());
}
