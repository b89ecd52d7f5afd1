//! `hnefi bench`: a fixed set of positions searched to fixed depths at one thread.
//!
//! The total node count is a signature of the search: it changes only when the search or
//! the evaluation changes. The positions are the start, openings, middlegames and
//! endgames from recorded games (`games/copenhagen.csv` of the shared archive; the line
//! and ply are noted with each one).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::core::game::{Game, RuleSet};
use crate::core::notation::parse_opentafl;
use crate::core::position::Position;
use crate::core::role::Role;
use crate::outln;
use crate::search::{Limits, MAX_DEPTH, Searcher};

/// The bench positions: OpenTafl board, side to move, depth, and where it comes from.
pub const POSITIONS: &[(&str, Role, u32, &str)] = &[
    (
        "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        Role::Attacker,
        6,
        "start",
    ),
    (
        "/3ttt2t2/5t5/6T1t2/t7T1t/t3T3T1t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        Role::Attacker,
        6,
        "line 4 ply 6",
    ),
    (
        "/3t2t4/4t3tT1/5tTt3/t7T1t/t3TT4t/tt1TTK1T1tt/t3TT4t/t4T2t2/11/5t5/3ttttt3/",
        Role::Attacker,
        6,
        "line 28 ply 10",
    ),
    (
        "/4tttt3/5t5/3t7/t4T4t/t3TTT3t/tt1TTKTT1tt/t1T3T3t/t7T1t/3t7/1T6t2/2t2ttt3/",
        Role::Attacker,
        6,
        "line 33 ply 8",
    ),
    (
        "/4tt1t3/3t1t5/6t4/3t1T4t/t3TTT3t/tt2T1T2tt/t5T3t/1tT7t/3t1K1T3/4Tt5/4tt1t3/",
        Role::Attacker,
        6,
        "line 54 ply 12",
    ),
    (
        "/2t2tt4/5t5/t2T2tt3/2T7t/t4T4t/t2t2TT2t/5T4t/t2t7/1tK6t1/1t9/3T1tt4/",
        Role::Attacker,
        6,
        "line 27 ply 30",
    ),
    (
        "/3t1t1t3/2t8/1t2T1t4/t4T4t/5TT3t/1T5T1tt/2T2TT3t/1t3T4t/t3T2t3/1tK2tt4/2Tttt5/",
        Role::Defender,
        6,
        "line 48 ply 25",
    ),
    (
        "/3t1tt4/3T1t5/2T1t1T3t/2t2T2t2/2t2T2t2/Tt6Tt1/4t2KT1t/10t/t4T3t1/1t3T1tt2/2t2t3t1/",
        Role::Attacker,
        6,
        "line 57 ply 40",
    ),
    (
        "/2t2ttt3/1tT5t2/t5T3t/4KT3t1/2T8/8t1t/t1tTt6/2t8/Ttt2T1t1t1/11/1t3tt4/",
        Role::Attacker,
        6,
        "line 95 ply 50",
    ),
    (
        "/3tT2Tt2/3tK1T1tt1/2t2T4T/4t6/3t7/4t4tt/5t5/4tTT1t2/1t9/2t8/3ttt5/",
        Role::Attacker,
        6,
        "line 28 ply 70",
    ),
    (
        "/3t3t3/3t7/4t3t2/1t7t1/t5TT2t/T10/1K2T5T/T10/t9t/1tt2t3t1/4t3t2/",
        Role::Attacker,
        6,
        "line 940 ply 120",
    ),
    (
        "/8t2/Tt2t6/11/4T6/3t7/KttT7/11/11/t10/3t7/2t5t2/",
        Role::Attacker,
        6,
        "line 991 ply 200",
    ),
    (
        "/2t2t2t2/1t2T4t1/1t8t/10T/7T3/1K9/1t4T1t1T/t1t8/3t6t/9t1/3t4t2/",
        Role::Attacker,
        6,
        "line 211 ply 180",
    ),
    (
        "/2t2t2tt1/3t1t5/t5T1K2/1t9/t9t/t5T3t/t4T3T1/8t2/Ttt8/2t8/2T1tttt3/",
        Role::Defender,
        6,
        "line 46 ply 55",
    ),
    (
        "/5t1t1t1/1tt2t5/t5t4/1T9/t9t/1tt7t/t10/t4t5/2t7t/3K5t1/2tTt1t1t2/",
        Role::Attacker,
        6,
        "line 62 ply 58",
    ),
];

/// The totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Why the bench cannot run as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    /// `--extra-depth` takes a position beyond the search's deepest search.
    #[error(
        "--extra-depth {extra}: the bench would search to depth {depth}, deeper than the search's limit of {max}"
    )]
    TooDeep {
        /// The extra depth asked for.
        extra: u32,
        /// The deepest bench search it gives.
        depth: u32,
        /// [`MAX_DEPTH`].
        max: u32,
    },
}

/// The bench's searches: each position of [`POSITIONS`] as a game, its search limits at
/// its depth plus `extra_depth`, and where it comes from.
pub(crate) fn searches(extra_depth: u32) -> impl Iterator<Item = (Game, Limits, &'static str)> {
    POSITIONS
        .iter()
        .filter_map(move |(otn, role, depth, origin)| {
            let board = parse_opentafl(otn).ok()?;
            let game = Game::from_position(Position::new(board, *role), RuleSet::default());
            let limits = Limits {
                depth: Some(depth + extra_depth),
                ..Limits::default()
            };
            Some((game, limits, *origin))
        })
}

/// Runs the bench: every position with a fresh searcher (16 MiB table) at `threads`
/// threads to its depth plus `extra_depth`. `verbose` prints one line per position to
/// stdout. Only one thread gives a signature; with more (Lazy SMP), the node count varies
/// from run to run, and the wall time to the same depths measures what the threads gain.
pub fn run_threads(extra_depth: u32, threads: usize, verbose: bool) -> BenchResult {
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    let start = Instant::now();
    for (game, limits, origin) in searches(extra_depth) {
        let mut searcher = Searcher::new(threads, 16);
        let t = Instant::now();
        let r = searcher.search(&game, &limits, &stop, &mut |_| {});
        total += r.nodes;
        if verbose {
            let best = r.best.map_or("none".to_string(), |m| m.to_string());
            outln!(
                "{:<18} depth {:>2} nodes {:>10} time {:>6} ms best {:<7} score {}",
                origin,
                r.depth,
                r.nodes,
                t.elapsed().as_millis(),
                best,
                r.score
            );
        }
    }
    BenchResult {
        nodes: total,
        millis: start.elapsed().as_millis() as u64,
    }
}

/// The `hnefi bench` command: runs the bench at `threads` threads and prints the node
/// count (the signature at one thread), the time and the speed; with `ttd`, compares the
/// time to depth of 1 and `threads` threads over that many repetitions
/// ([`ttd`](super::ttd)).
pub fn main(extra_depth: u32, threads: usize, ttd: Option<usize>) -> Result<(), BenchError> {
    let deepest = POSITIONS.iter().map(|p| p.2).max().unwrap_or(0);
    let depth = deepest.saturating_add(extra_depth);
    if depth > MAX_DEPTH {
        return Err(BenchError::TooDeep {
            extra: extra_depth,
            depth,
            max: MAX_DEPTH,
        });
    }
    if let Some(reps) = ttd {
        super::ttd::main(extra_depth, threads, reps);
        return Ok(());
    }
    let r = run_threads(extra_depth, threads, true);
    if threads > 1 {
        outln!("threads {threads} (the node count is not a signature)");
    }
    outln!("nodes {}", r.nodes);
    outln!("time {} ms", r.millis);
    outln!("nps {}", r.nps());
    Ok(())
}
