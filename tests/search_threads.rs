//! The searcher's helper threads (a persistent pool, parked between searches) never hang
//! a search or the program: a search stopped before it starts or in the middle, ended by
//! its node limit or its time, a new search after an aborted one, the thread count changed
//! between searches, a searcher dropped after a stopped search, and a search on another
//! board size all return, with a legal move. With one thread again, the search is the
//! deterministic one of a searcher that never had helpers.
//!
//! No time is asserted (the machine may be loaded): each test runs under a watchdog whose
//! only purpose is to fail instead of hanging, with a bound far beyond what any of these
//! searches takes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use hnefi::core::game::{Game, GameOf};

use hnefi::core::geometry::{BoardSize, S7};
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::rules::RuleSet;
use hnefi::search::{Limits, Searcher, hardware_threads};

/// Runs `test` on its own thread and fails if it has not returned within ten minutes.
fn watched(test: impl FnOnce() + Send + 'static) {
    let (done, finished) = mpsc::channel();
    let runner = std::thread::spawn(move || {
        test();
        let _ = done.send(());
    });
    match finished.recv_timeout(Duration::from_secs(600)) {
        Ok(()) => {
            runner.join().unwrap();
        }
        // The test panicked: its panic is the failure.
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = runner.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("the test hung"),
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Searches the start of Copenhagen within `limits`, with `stop`, and checks the move.
fn legal_search(s: &mut Searcher, limits: &Limits, stop: &AtomicBool) -> u32 {
    let game = Game::new(RuleSet::default());
    let r = s.search(&game, limits, stop, &mut |_| {});
    let best = r.best.expect("a move");
    assert!(game.legal_moves().contains(&best), "{best} is not legal");
    r.depth
}

/// The threads the tests ask for: two, which this machine runs at once if it can.
fn two() -> usize {
    2.min(hardware_threads())
}

#[test]
fn a_search_stopped_before_it_starts_returns_and_the_next_one_runs() {
    watched(|| {
        let mut s = Searcher::new(2, 8);
        assert_eq!(s.threads(), two());
        legal_search(&mut s, &depth(60), &AtomicBool::new(true));
        assert_eq!(legal_search(&mut s, &depth(4), &AtomicBool::new(false)), 4);
    });
}

#[test]
fn a_deep_search_stopped_midway_returns_and_the_next_one_runs() {
    watched(|| {
        let mut s = Searcher::new(2, 8);
        let game = Game::new(RuleSet::default());
        let stop = AtomicBool::new(false);
        // The main thread reports each finished iteration; the stop set there is what a
        // controller's `stop` does, at a point that needs no clock.
        let r = s.search(&game, &depth(60), &stop, &mut |info| {
            if info.depth >= 4 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert!(r.depth >= 4 && r.depth < 60, "depth {}", r.depth);
        assert!(game.legal_moves().contains(&r.best.unwrap()));
        assert_eq!(legal_search(&mut s, &depth(3), &AtomicBool::new(false)), 3);
    });
}

#[test]
fn node_and_time_limits_end_a_two_thread_search() {
    watched(|| {
        let mut s = Searcher::new(2, 8);
        let nodes = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        legal_search(&mut s, &nodes, &AtomicBool::new(false));
        let time = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        legal_search(&mut s, &time, &AtomicBool::new(false));
    });
}

#[test]
fn the_thread_count_may_change_between_searches() {
    watched(|| {
        let mut s = Searcher::new(1, 8);
        let stop = AtomicBool::new(false);
        for threads in [2, 1, 2, 256, 1, 3, 2] {
            s.set_threads(threads);
            assert_eq!(s.threads(), threads.min(hardware_threads()));
            assert_eq!(legal_search(&mut s, &depth(3), &stop), 3);
        }
        // Changed after an aborted search too.
        legal_search(&mut s, &depth(60), &AtomicBool::new(true));
        s.set_threads(1);
        s.set_threads(2);
        assert_eq!(legal_search(&mut s, &depth(3), &stop), 3);
    });
}

#[test]
fn a_searcher_dropped_after_a_stopped_search_ends_its_threads() {
    watched(|| {
        for _ in 0..20 {
            let mut s = Searcher::new(2, 1);
            legal_search(&mut s, &depth(60), &AtomicBool::new(true));
            drop(s);
        }
        // Many searchers at once, each with its own helpers, dropped mid-game.
        let mut searchers: Vec<Searcher> = (0..8).map(|_| Searcher::new(2, 1)).collect();
        for s in &mut searchers {
            legal_search(s, &depth(2), &AtomicBool::new(false));
        }
        drop(searchers);
    });
}

#[test]
fn one_thread_after_helpers_searches_as_a_searcher_that_never_had_them() {
    watched(|| {
        let game = Game::new(RuleSet::default());
        let stop = AtomicBool::new(false);
        let mut fresh = Searcher::new(1, 8);
        let alone = fresh.search(&game, &depth(5), &stop, &mut |_| {});
        let mut s = Searcher::new(2, 8);
        legal_search(&mut s, &depth(5), &stop);
        s.set_threads(1);
        s.clear();
        let again = s.search(&game, &depth(5), &stop, &mut |_| {});
        assert_eq!(again, alone);
    });
}

#[test]
fn helpers_search_other_board_sizes_too() {
    watched(|| {
        let size = BoardSize::ALL.into_iter().find(|s| s.files() == 7).unwrap();
        let variant = RulePreset::ALL
            .into_iter()
            .find_map(|p| p.variant(size).ok())
            .unwrap();
        let start = variant.start_board::<S7>().unwrap();
        let game =
            GameOf::<S7>::from_position(PositionOf::new(start, variant.first()), variant.rules());
        let mut s = Searcher::new(2, 8);
        let r = s.search(&game, &depth(5), &AtomicBool::new(false), &mut |_| {});
        assert!(game.legal_moves().contains(&r.best.unwrap()));
    });
}

/// With helpers the result is the deepest iteration any thread completed (a helper a ply
/// ahead may finish a depth first): the depths reported still rise, the search still ends
/// at the depth asked, and the move played is the last report's.
#[test]
fn a_two_thread_search_reports_rising_depths_and_plays_the_deepest() {
    watched(|| {
        let game = Game::new(RuleSet::default());
        let mut s = Searcher::new(two(), 16);
        for _ in 0..3 {
            let mut depths = Vec::new();
            let mut last_pv = Vec::new();
            let r = s.search(&game, &depth(6), &AtomicBool::new(false), &mut |info| {
                depths.push(info.depth);
                last_pv = info.pv.clone();
            });
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "depths {depths:?}");
            assert_eq!(depths.last().copied(), Some(6), "depths {depths:?}");
            assert_eq!(r.depth, 6);
            let best = r.best.expect("a move");
            assert!(game.legal_moves().contains(&best));
            assert_eq!(last_pv.first().copied(), Some(best));
        }
    });
}
