//! `hnefi bench --ttd REPS`: the time to depth of Lazy SMP, one thread against several.
//!
//! Each repetition searches every bench position to its depth with a fresh searcher at one
//! thread and at `threads` threads, the two side by side (position by position, the order
//! alternating between repetitions) so that a change in the machine's load falls on both.
//! Per depth it sums over the positions the nodes and the wall time at which the main
//! thread completed that depth, and prints the medians over the repetitions: the speed-up
//! in wall time, and the work overhead (the several threads' total nodes to reach a depth
//! against one thread's), which load does not distort. Where the system reports it
//! (`/proc/self/task/*/schedstat` on Linux), it also prints the CPU time the searches got
//! and the time their threads waited for a core: on a loaded machine, the wall-clock
//! speed-up is pessimistic, and the node rate per CPU second is the per-thread speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::core::game::Game;
use crate::outln;
use crate::search::{Limits, Searcher};

/// One thread count's figures in one repetition, summed over the positions.
#[derive(Clone, Debug, Default)]
struct Run {
    /// Per depth (index 0 is depth 1): nodes when the main thread completed it.
    nodes: Vec<u64>,
    /// Per depth: wall milliseconds when the main thread completed it.
    millis: Vec<f64>,
    /// CPU nanoseconds the search's threads ran, and waited for a core.
    cpu_ns: Option<u64>,
    wait_ns: Option<u64>,
}

impl Run {
    fn add(&mut self, depth: usize, nodes: u64, millis: f64) {
        if self.nodes.len() < depth {
            self.nodes.resize(depth, 0);
            self.millis.resize(depth, 0.0);
        }
        if let (Some(n), Some(m)) = (
            self.nodes.get_mut(depth.wrapping_sub(1)),
            self.millis.get_mut(depth.wrapping_sub(1)),
        ) {
            *n += nodes;
            *m += millis;
        }
    }
}

/// The run and run-queue wait nanoseconds of every thread of the process (Linux's
/// schedstat), or `None` where the system does not say.
fn schedstat() -> Option<(u64, u64)> {
    let mut total = (0u64, 0u64);
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path().join("schedstat");
        let text = std::fs::read_to_string(path).ok()?;
        let mut words = text.split_whitespace();
        let run: u64 = words.next()?.parse().ok()?;
        let wait: u64 = words.next()?.parse().ok()?;
        total = (total.0.saturating_add(run), total.1.saturating_add(wait));
    }
    Some(total)
}

/// Runs every one of `searches` at `threads` threads.
fn run(threads: usize, searches: &[(Game, Limits)]) -> Run {
    let stop = AtomicBool::new(false);
    let mut out = Run {
        cpu_ns: Some(0),
        wait_ns: Some(0),
        ..Run::default()
    };
    for (game, limits) in searches {
        // Created before the clock starts: its threads are parked until the search.
        let mut searcher = Searcher::new(threads, 16);
        let before = schedstat();
        let start = Instant::now();
        let mut reached: Vec<(usize, u64, f64)> = Vec::new();
        searcher.search(game, limits, &stop, &mut |info| {
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            // A depth another thread completed deeper than the next is reached with it:
            // the depths between count as reached then too.
            let from = reached.last().map_or(1, |r| r.0 + 1);
            for d in from..=info.depth as usize {
                reached.push((d, info.nodes, ms));
            }
        });
        let after = schedstat();
        for (d, n, ms) in reached {
            out.add(d, n, ms);
        }
        match (before, after) {
            (Some(b), Some(a)) => {
                out.cpu_ns = out.cpu_ns.map(|c| c + a.0.saturating_sub(b.0));
                out.wait_ns = out.wait_ns.map(|w| w + a.1.saturating_sub(b.1));
            }
            _ => {
                out.cpu_ns = None;
                out.wait_ns = None;
            }
        }
    }
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    match (xs.get(n / 2), n % 2) {
        (Some(&m), 1) => m,
        (Some(&m), _) => xs.get(n / 2 - 1).map_or(m, |&l| (l + m) / 2.0),
        (None, _) => 0.0,
    }
}

/// The `hnefi bench --ttd REPS --threads N` command (N at least 2) over the bench's
/// `searches`, each position at its bench depth plus `extra_depth` (checked by the bench).
pub(crate) fn main(searches: &[(Game, Limits)], extra_depth: u32, threads: usize, reps: usize) {
    let reps = reps.max(1);
    let got = Searcher::new(threads, 1).threads();
    outln!(
        "ttd: 1 thread against {got} (asked {threads}), {} positions at bench depth +{extra_depth}, {reps} repetitions interleaved",
        searches.len()
    );
    let mut ones = Vec::new();
    let mut manys = Vec::new();
    for rep in 0..reps {
        let (one, many) = if rep % 2 == 0 {
            let one = run(1, searches);
            (one, run(got, searches))
        } else {
            let many = run(got, searches);
            (run(1, searches), many)
        };
        let (t1, t2) = (
            one.millis.last().copied().unwrap_or(0.0),
            many.millis.last().copied().unwrap_or(0.0),
        );
        let (n1, n2) = (
            one.nodes.last().copied().unwrap_or(0),
            many.nodes.last().copied().unwrap_or(0),
        );
        outln!(
            "rep {}: 1 thread {t1:.0} ms {n1} nodes cpu {} | {got} threads {t2:.0} ms {n2} nodes cpu {} | speed-up {:.2}",
            rep + 1,
            cpu_text(&one),
            cpu_text(&many),
            t1 / t2.max(1e-9)
        );
        ones.push(one);
        manys.push(many);
    }
    let depths = ones
        .iter()
        .chain(manys.iter())
        .map(|r| r.nodes.len())
        .min()
        .unwrap_or(0);
    outln!(
        "depth  nodes@1  nodes@{got}  work  ms@1  ms@{got}  speed-up (medians over repetitions)"
    );
    for d in 0..depths {
        let at = |runs: &[Run], f: &dyn Fn(&Run) -> f64| median(runs.iter().map(f).collect());
        let n1 = at(&ones, &|r| r.nodes.get(d).copied().unwrap_or(0) as f64);
        let n2 = at(&manys, &|r| r.nodes.get(d).copied().unwrap_or(0) as f64);
        let t1 = at(&ones, &|r| r.millis.get(d).copied().unwrap_or(0.0));
        let t2 = at(&manys, &|r| r.millis.get(d).copied().unwrap_or(0.0));
        outln!(
            "{:>5}  {n1:>7.0}  {n2:>7.0}  {:>4.2}  {t1:>4.0}  {t2:>4.0}  {:>4.2}",
            d + 1,
            n2 / n1.max(1.0),
            t1 / t2.max(1e-9)
        );
    }
    let last = |r: &Run| {
        (
            r.nodes.last().copied().unwrap_or(0) as f64,
            r.millis.last().copied().unwrap_or(0.0),
        )
    };
    let ratios: Vec<f64> = ones
        .iter()
        .zip(&manys)
        .map(|(a, b)| last(a).1 / last(b).1.max(1e-9))
        .collect();
    let work = median(manys.iter().map(|r| last(r).0).collect())
        / median(ones.iter().map(|r| last(r).0).collect()).max(1.0);
    outln!(
        "time to depth: speed-up {:.2} (median of the repetitions' ratios), work {work:.2}x the nodes of 1 thread",
        median(ratios)
    );
    let rate = |runs: &[Run]| {
        median(
            runs.iter()
                .filter_map(|r| Some(last(r).0 / (r.cpu_ns? as f64 / 1e9).max(1e-9)))
                .collect(),
        )
    };
    if ones.iter().chain(&manys).all(|r| r.cpu_ns.is_some()) {
        let (r1, r2) = (rate(&ones), rate(&manys));
        outln!(
            "node rate per CPU second (per thread): 1 thread {r1:.0}, {got} threads {r2:.0} ({:.2}); \
             on {got} idle cores the speed-up would be about {got} x {:.2} / {work:.2} = {:.2}",
            r2 / r1.max(1.0),
            r2 / r1.max(1.0),
            got as f64 * r2 / r1.max(1.0) / work.max(1e-9)
        );
    }
}

/// `1234 ms (wait 56 ms)`, or `n/a`.
fn cpu_text(r: &Run) -> String {
    match (r.cpu_ns, r.wait_ns) {
        (Some(c), Some(w)) => format!("{} ms (waited {} ms)", c / 1_000_000, w / 1_000_000),
        _ => "n/a".to_string(),
    }
}
