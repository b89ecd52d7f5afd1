//! `hnefi bench`: fixed positions of the games hnefi plays most, searched to fixed depths
//! at one thread.
//!
//! The positions come in suites, one a board and rule set: Copenhagen 11x11 (with the
//! 11x11 network), Fetlar 11x11 (the same board and network under other end-of-game
//! rules), and the hnefatafl.org server's 7x7 and 13x13 games (those boards' searches,
//! each monomorphised for its size, and their networks). The other boards have no suite;
//! perft and the search tests cover them. Each suite's node count is a signature of its
//! path: it changes only when the search or the
//! evaluation changes, and `.ci/bench-signature` pins every one. The Copenhagen positions
//! are the start, openings, middlegames and endgames from recorded games
//! (`games/copenhagen.csv` of the shared archive; the line and ply are noted with each
//! one); the others are starts and positions of hnefi's own games against itself (the
//! seed of its first two random moves and the ply are noted).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::core::any_game::AnyGame;
use crate::core::game::Game;
use crate::core::geometry::BoardSize;
use crate::core::notation::parse_opentafl;
use crate::core::position::Position;
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::outln;
use crate::search::{Limits, MAX_DEPTH, Searcher};

/// A bench position: OpenTafl board, side to move, depth, and where it comes from.
pub(crate) type BenchPosition = (&'static str, Role, u32, &'static str);

/// One suite: the game of a rule family on a board, and its positions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Suite {
    /// The suite's name in the output and in `.ci/bench-signature`.
    pub(crate) name: &'static str,
    /// The rule family whose game the positions are searched under.
    pub(crate) family: RulePreset,
    /// The board.
    pub(crate) size: BoardSize,
    /// The positions.
    pub(crate) positions: &'static [BenchPosition],
}

/// Every suite, in the order `hnefi bench` runs them.
pub(crate) const SUITES: &[Suite] = &[
    Suite {
        name: "copenhagen-11x11",
        family: RulePreset::Copenhagen,
        size: BoardSize::S11,
        positions: POSITIONS,
    },
    Suite {
        name: "fetlar-11x11",
        family: RulePreset::Fetlar,
        size: BoardSize::S11,
        positions: FETLAR,
    },
    Suite {
        name: "hnefatafl-org-7x7",
        family: RulePreset::HnefataflOrg,
        size: BoardSize::S7,
        positions: HNEFATAFL_ORG_7,
    },
    Suite {
        name: "hnefatafl-org-13x13",
        family: RulePreset::HnefataflOrg,
        size: BoardSize::S13,
        positions: HNEFATAFL_ORG_13,
    },
];

/// The Copenhagen 11x11 positions (also those of `hnefi bench --ttd`).
pub(crate) const POSITIONS: &[BenchPosition] = &[
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

/// Fetlar 11x11 (`--rules fetlar`).
const FETLAR: &[BenchPosition] = &[
    (
        "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        Role::Attacker,
        6,
        "start",
    ),
    (
        "/3ttt2t2/2t2T5/1t9/t6T2t/t3T1T3t/t2TTKTT2t/t5T3t/t4T4t/4T4t1/2T2t5/3ttttt3/",
        Role::Attacker,
        6,
        "seed 1 ply 10",
    ),
    (
        "/3ttt5/2t2T5/1t6t2/t6T2t/4T1T3t/3TT1TT2t/6T3t/t4T4t/t8t1/1KT5t2/1t1ttttt3/",
        Role::Attacker,
        6,
        "seed 1 ply 30",
    ),
    (
        "/3ttttt3/5T2t2/9t1/t9t/t3T1T1T2/tt1TTK2T1t/t3TTTt2t/t4T2t2/11/5t5/3tttt4/",
        Role::Attacker,
        6,
        "seed 2 ply 10",
    ),
    (
        "/5t1t3/4t1t1t2/3t5t1/3t6t/2t1T1T1T2/tt1TT4t1/t3TTT1t1t/t4T5/9K1/1t9/3tttt4/",
        Role::Attacker,
        6,
        "seed 2 ply 30",
    ),
    (
        "/3ttttt3/tT3t5/11/5T4t/t4TT3t/t2TTK3tt/t3TT1T2t/t4T1Tt2/1t4T4/2t8/3ttttt3/",
        Role::Attacker,
        6,
        "seed 3 ply 10",
    ),
    (
        "/3tttt4/t1t2T5/t7Kt1/10t/6TT3/t2TT5t/t3T2T3/t4T1T1T1/1t8t/2t6t1/3tt3t2/",
        Role::Attacker,
        6,
        "seed 3 ply 30",
    ),
    (
        "/4t2ttT1/1tt1t4T1/3t4Ktt/7Tt2/t5T2tT/3T7/6T4/t2T5T1/1t8t/2t6t1/3t4t2/",
        Role::Attacker,
        6,
        "seed 3 ply 60",
    ),
];

/// The hnefatafl.org server's 7x7 game (`--rules hnefatafl-org --board-size 7`).
const HNEFATAFL_ORG_7: &[BenchPosition] = &[
    (
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        Role::Defender,
        8,
        "start",
    ),
    (
        "/3t3/3t3/1t3T1/t1TK2t/5T1/2t1T2/4t2/",
        Role::Defender,
        8,
        "seed 1 ply 6",
    ),
    (
        "/3t3/3t3/5T1/t1T4/1t1K2t/2t1T2/3tT2/",
        Role::Defender,
        8,
        "seed 1 ply 12",
    ),
    (
        "/7/7/3t3/6T/tt1K1T1/2t3T/3tT2/",
        Role::Defender,
        8,
        "seed 1 ply 20",
    ),
    (
        "/2Tt3/1t1Kt2/7/t3Ttt/3T3/3t3/3t3/",
        Role::Defender,
        8,
        "seed 2 ply 6",
    ),
    (
        "/1t1t3/4t2/3K1t1/t5t/5T1/2t4/3tT2/",
        Role::Defender,
        8,
        "seed 2 ply 12",
    ),
    (
        "/3t3/4t2/2t2t1/t2K2t/1t3T1/7/3tT2/",
        Role::Defender,
        8,
        "seed 2 ply 20",
    ),
    (
        "/3t3/1t1t3/3T3/t2K2t/3T3/5t1/3T3/",
        Role::Defender,
        8,
        "seed 3 ply 6",
    ),
    (
        "/3t3/1t2t2/3T3/t1K1t2/6T/3T3/5t1/",
        Role::Defender,
        8,
        "seed 3 ply 12",
    ),
];

/// The hnefatafl.org server's 13x13 game (`--rules hnefatafl-org --board-size 13`).
const HNEFATAFL_ORG_13: &[BenchPosition] = &[
    (
        "/3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3/",
        Role::Attacker,
        4,
        "start",
    ),
    (
        "/3ttttttt3/2t10/1t11/t5T5t/t5T4Tt/5TTTT3t/t2TTT2KT1tt/t4TTT4t/t5T5t/t5T5t/1t11/2t10/3ttttttt3/",
        Role::Attacker,
        4,
        "seed 1 ply 10",
    ),
    (
        "/3tttttt4/2t10/1t11/t5T6/t5T5t/5TTT2T1t/t2TTT6t/t4TT5t/t5T6/t5TT5/1t6K1Ttt/2t6tt2/3tttttt4/",
        Role::Attacker,
        4,
        "seed 1 ply 30",
    ),
    (
        "/3tt5t2/2t6tKt1/1t3t4T1t/t12/t5TT5/5TT5T/t2TT3T4/1t3TT5t/t5T6/t5TT5/1t3t5tt/2t6tt2/3tt1ttt4/",
        Role::Attacker,
        4,
        "seed 1 ply 60",
    ),
    (
        "/3ttTtttt3/10t2/11t1/t3T1T5t/t5TT4t/t5KT4t/t2T1T1TTT2t/t4TTT4t/t5T5t/t5T5t/1t11/2t10/3ttttttt3/",
        Role::Attacker,
        4,
        "seed 2 ply 10",
    ),
    (
        "/2t2Ttttt3/10t2/2t8t1/t2K2T5t/2t3TT4t/2t1T2T4t/t3TT1TTT2t/t4TTT4t/t5T5t/t5T5t/1t1t9/2t1t8/5ttttt3/",
        Role::Attacker,
        4,
        "seed 2 ply 30",
    ),
    (
        "/2t2TT2t3/2t7t2/1t2TT1T1T1t1/2tK8t/2t3TT4t/2tT3T4t/3tT7t/2t2TTT4t/1t4T5t/2t3T5t/1t1t9/2t1t8/5ttttt3/",
        Role::Attacker,
        4,
        "seed 2 ply 60",
    ),
    (
        "/3ttttttt3/10t2/11t1/t5T5t/6T5t/t3T1TT4t/t2TTK1TT3t/t3T1TT4t/t4TT5t/t5T5t/1t7T3/2t3t6/3ttttttt3/",
        Role::Attacker,
        4,
        "seed 3 ply 10",
    ),
    (
        "/5Ttttt3/1tt7t2/t1KT7t1/3t2T5t/6T5t/6TT3t1/t2TT2TT3t/t3T1TT4t/t5T5t/t1T9t/1t7T3/2t7t2/3ttttttt3/",
        Role::Attacker,
        4,
        "seed 3 ply 30",
    ),
    (
        "/2tT1Ttt5/1t3T2t1t2/tK6tt1t1/6T3t2/6T4t1/1T2T7t/t3T2TTT3/1t2T1TT4t/2t3TT4t/2t9t/1t9t1/2t5ttt2/3tt1tt5/",
        Role::Attacker,
        4,
        "seed 3 ply 60",
    ),
];

/// The totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BenchResult {
    /// Nodes searched over all positions.
    pub(crate) nodes: u64,
    /// Wall time in milliseconds.
    pub(crate) millis: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub(crate) fn nps(&self) -> u64 {
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
    /// `--suite` names no suite.
    #[error("--suite {name}: no such suite (the suites: {known})")]
    UnknownSuite {
        /// The name asked for.
        name: String,
        /// The suites' names.
        known: String,
    },
}

/// The suite named `name`.
pub(crate) fn suite(name: &str) -> Result<Suite, BenchError> {
    SUITES
        .iter()
        .find(|s| s.name == name)
        .copied()
        .ok_or_else(|| BenchError::UnknownSuite {
            name: name.to_string(),
            known: SUITES.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        })
}

/// The Copenhagen suite's searches (those of `hnefi bench --ttd`): each position of
/// [`POSITIONS`] as a game, its search limits at its depth plus `extra_depth`, and where
/// it comes from.
pub(crate) fn searches(extra_depth: u32) -> impl Iterator<Item = (Game, Limits, &'static str)> {
    POSITIONS
        .iter()
        .filter_map(move |(otn, role, depth, origin)| {
            let board = parse_opentafl(otn).ok()?;
            let game = Game::from_position(Position::new(board, *role), RuleSet::default());
            Some((game, depth_limit(depth + extra_depth), *origin))
        })
}

fn depth_limit(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// A suite's searches: each position as a game of the suite's rules on its board, its
/// search limits at its depth plus `extra_depth`, and where it comes from. A position that
/// does not parse is left out (a test checks that none is).
pub(crate) fn suite_searches(
    suite: &Suite,
    extra_depth: u32,
) -> impl Iterator<Item = (AnyGame, Limits, &'static str)> {
    let rules = suite.family.variant(suite.size).ok().map(|v| v.rules());
    let size = suite.size;
    suite
        .positions
        .iter()
        .filter_map(move |(otn, role, depth, origin)| {
            let game = AnyGame::from_opentafl(size, otn, *role, rules?).ok()?;
            Some((game, depth_limit(depth + extra_depth), *origin))
        })
}

/// Runs one suite: every position with a fresh searcher (16 MiB table) at `threads`
/// threads to its depth plus `extra_depth`. `verbose` prints one line per position to
/// stdout. Only one thread gives a signature; with more (Lazy SMP), the node count varies
/// from run to run, and the wall time to the same depths measures what the threads gain.
pub(crate) fn run_suite(
    suite: &Suite,
    extra_depth: u32,
    threads: usize,
    verbose: bool,
) -> BenchResult {
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    let start = Instant::now();
    for (game, limits, origin) in suite_searches(suite, extra_depth) {
        let mut searcher = Searcher::new(threads, 16);
        let t = Instant::now();
        let (nodes, depth, best, score) = crate::core::any_size::on_size!(&game, AnyGame, g => {
            let r = searcher.search(g, &limits, &stop, &mut |_| {});
            (r.nodes, r.depth, r.best.map(|m| m.to_string()), r.score)
        });
        total += nodes;
        if verbose {
            outln!(
                "{:<19} {:<18} depth {:>2} nodes {:>10} time {:>6} ms best {:<7} score {}",
                suite.name,
                origin,
                depth,
                nodes,
                t.elapsed().as_millis(),
                best.as_deref().unwrap_or("none"),
                score
            );
        }
    }
    BenchResult {
        nodes: total,
        millis: start.elapsed().as_millis() as u64,
    }
}

/// The `hnefi bench` command: runs every suite (or the one named `only`) at `threads`
/// threads and prints, per suite, its node count (its signature at one thread), time and
/// speed, then the totals; with `ttd`, compares the time to depth of 1 and `threads`
/// threads on the Copenhagen suite over that many repetitions ([`ttd`](super::ttd)).
pub fn main(
    extra_depth: u32,
    threads: usize,
    ttd: Option<usize>,
    only: Option<&str>,
) -> Result<(), BenchError> {
    let suites = match only {
        Some(name) => vec![suite(name)?],
        None => SUITES.to_vec(),
    };
    let deepest = suites
        .iter()
        .flat_map(|s| s.positions.iter().map(|p| p.2))
        .max()
        .unwrap_or(0);
    let depth = deepest.saturating_add(extra_depth);
    if depth > MAX_DEPTH {
        return Err(BenchError::TooDeep {
            extra: extra_depth,
            depth,
            max: MAX_DEPTH,
        });
    }
    if let Some(reps) = ttd {
        let positions: Vec<(Game, Limits)> =
            searches(extra_depth).map(|(g, l, _)| (g, l)).collect();
        super::ttd::main(&positions, extra_depth, threads, reps);
        return Ok(());
    }
    let mut results = Vec::new();
    for s in &suites {
        results.push((s.name, run_suite(s, extra_depth, threads, true)));
    }
    if threads > 1 {
        outln!("threads {threads} (the node counts are not signatures)");
    }
    for (name, r) in &results {
        outln!(
            "suite {name} nodes {} time {} ms nps {}",
            r.nodes,
            r.millis,
            r.nps()
        );
    }
    let nodes: u64 = results.iter().map(|(_, r)| r.nodes).sum();
    let millis: u64 = results.iter().map(|(_, r)| r.millis).sum();
    let total = BenchResult { nodes, millis };
    outln!("nodes {}", total.nodes);
    outln!("time {} ms", total.millis);
    outln!("nps {}", total.nps());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_of_every_suite_is_searched() {
        for s in SUITES {
            assert_eq!(
                suite_searches(s, 0).count(),
                s.positions.len(),
                "{}: a position does not parse",
                s.name
            );
        }
        assert_eq!(searches(0).count(), POSITIONS.len());
    }

    #[test]
    fn suites_are_found_by_name_and_an_unknown_one_is_refused() {
        assert_eq!(suite("fetlar-11x11").map(|s| s.size), Ok(BoardSize::S11));
        assert!(matches!(
            suite("chess"),
            Err(BenchError::UnknownSuite { .. })
        ));
    }
}
