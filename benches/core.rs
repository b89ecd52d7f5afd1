//! Benchmarks of the rules core: legal move generation, move counting and make-move, on
//! positions from real games. A plain harness (no extra dependency): each benchmark runs
//! 11 rounds and prints the median, minimum and maximum time per operation.
//!
//! Run with `cargo bench --bench core`.

use std::hint::black_box;
use std::time::Instant;

use hnefi::core::game::Game;

use hnefi::core::repetition::RepetitionMode;

use hnefi::core::geometry::{BoardSize, Geometry};
use hnefi::core::movegen;
use hnefi::core::moves::MoveOf;
use hnefi::core::moves::{Move, MoveList};
use hnefi::core::position::Position;
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::record::GameRecord;
use hnefi::core::rng::SplitMix64;
use hnefi::core::rules::RuleSet;

/// Rounds per benchmark (the median is reported); `HNEFI_BENCH_ROUNDS` overrides it, e.g.
/// `HNEFI_BENCH_ROUNDS=1` to count instructions under `valgrind --tool=callgrind`.
fn rounds() -> usize {
    std::env::var("HNEFI_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11)
}

/// Every 4th position of the first 300 recorded games.
fn positions() -> Vec<Position> {
    let rules = RuleSet {
        repetition: RepetitionMode::Off,
        ..RuleSet::default()
    };
    let mut out = Vec::new();
    for line in include_str!("../tests/data/copenhagen.csv")
        .lines()
        .take(300)
    {
        let mut game = Game::new(rules);
        let Ok(record) = line.parse::<GameRecord>() else {
            continue;
        };
        for (i, m) in record.moves.iter().enumerate() {
            if game.play(m.mv).is_err() || game.status().is_over() {
                break;
            }
            if i % 4 == 0 {
                out.push(*game.position());
            }
        }
    }
    out
}

/// Runs `f` (which performs `ops` operations) for `ROUNDS` rounds; prints ns per op.
fn bench(name: &str, ops: u64, mut f: impl FnMut()) {
    // Command-line words other than cargo's --bench filter benchmarks by name.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|w| name.contains(w.as_str())) {
        return;
    }
    f(); // warm up
    let rounds = rounds().max(1);
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e9 / ops as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{name:<40} median {:>8.1} ns   min {:>8.1}   max {:>8.1}",
        times[rounds / 2],
        times[0],
        times[rounds - 1]
    );
}

/// The 6,788 positions two plies from the start (as in a perft tree: 118.8 moves each on
/// average).
fn opening_tree() -> Vec<Position> {
    let rules = RuleSet::default();
    let start = Position::start();
    let mut out = Vec::new();
    for &a in start.legal_moves(&rules).iter() {
        let mut p1 = start;
        p1.make_move(a, &RuleSet::default());
        for &d in p1.legal_moves(&rules).iter() {
            let mut p2 = p1;
            p2.make_move(d, &RuleSet::default());
            out.push(p2);
        }
    }
    out
}

/// Times legal move generation over a set of positions.
fn bench_movegen(name: &str, positions: &[Position]) {
    let rules = RuleSet::default();
    let total: usize = positions.iter().map(|p| p.legal_moves(&rules).len()).sum();
    println!(
        "{name}: {} positions, {:.1} moves on average",
        positions.len(),
        total as f64 / positions.len() as f64
    );
    let reps = if rounds() == 1 { 1 } else { 20 };
    bench(
        &format!("movegen: legal moves ({name})"),
        (positions.len() * reps) as u64,
        || {
            for _ in 0..reps {
                for p in positions {
                    let mut list = MoveList::new();
                    movegen::generate(black_box(p.board()), p.to_move(), &mut list);
                    black_box(list.len());
                }
            }
        },
    );
}

/// Every fourth position of 60 seeded random games of `family` on `size` (the game's own rules,
/// repetition aside), with each legal move from it.
fn random_pairs<G: Geometry>(
    family: RulePreset,
    size: BoardSize,
) -> Vec<(PositionOf<G>, MoveOf<G>)> {
    let Ok(variant) = family.variant(size) else {
        return Vec::new();
    };
    let rules = variant.rules();
    let Ok(start) = variant.start_position::<G>() else {
        return Vec::new();
    };
    let mut rng = SplitMix64::new(u64::from(size.files()));
    let mut out = Vec::new();
    for _ in 0..60 {
        let mut pos = start;
        for ply in 0..160 {
            let moves = pos.legal_moves(&rules);
            if ply % 4 == 0 {
                out.extend(moves.iter().map(|&mv| (pos, mv)));
            }
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                break;
            };
            if pos.play_unchecked(mv, &rules).win.is_some() {
                break;
            }
        }
    }
    out
}

/// Make-move with the end-of-game tests (`play_unchecked`) on every board size, under the
/// rule family whose game the README's perft table names for that board (the make-move
/// figures last quoted are in docs/HISTORY.md).
fn bench_sizes() {
    for (family, size) in [
        (RulePreset::HnefataflOrg, BoardSize::S7),
        (RulePreset::Brandubh, BoardSize::S7),
        (RulePreset::Tablut, BoardSize::S9),
        (RulePreset::Copenhagen, BoardSize::S11),
        (RulePreset::Copenhagen, BoardSize::S13),
        (RulePreset::Tablut, BoardSize::S15),
    ] {
        let rules = family.variant(size).map(|v| v.rules()).unwrap_or_default();
        hnefi::with_size!(size, G => {
            let pairs = random_pairs::<G>(family, size);
            let name = format!("play_unchecked {size}x{size} {family} (random games)");
            bench(&name, pairs.len() as u64, || {
                for (p, mv) in &pairs {
                    let mut c = *p;
                    black_box(c.play_unchecked(black_box(*mv), black_box(&rules)));
                    black_box(&c);
                }
            });
        });
    }
}

fn main() {
    bench_sizes();
    let rules = RuleSet::default();
    let positions = positions();
    let lists: Vec<MoveList> = positions.iter().map(|p| p.legal_moves(&rules)).collect();
    bench_movegen("real games", &positions);
    bench_movegen("opening tree", &opening_tree());
    let reps = if rounds() == 1 { 1 } else { 20 };
    let n = (positions.len() * reps) as u64;
    bench("movegen: count moves per position", n, || {
        for _ in 0..reps {
            for p in &positions {
                black_box(movegen::count_moves(
                    black_box(p.board()),
                    p.to_move(),
                    &rules,
                ));
            }
        }
    });
    let pairs: Vec<(Position, Move)> = positions
        .iter()
        .zip(&lists)
        .flat_map(|(p, l)| l.iter().map(move |&mv| (*p, mv)))
        .collect();
    let m = pairs.len() as u64;
    let rules = RuleSet::default();
    bench("make_move (move, captures, hash)", m, || {
        for (p, mv) in &pairs {
            let mut c = *p;
            black_box(c.make_move(black_box(*mv), black_box(&rules)));
            black_box(&c);
        }
    });
    bench("play_unchecked (+ end-of-game tests)", m, || {
        for (p, mv) in &pairs {
            let mut c = *p;
            black_box(c.play_unchecked(black_box(*mv), black_box(&rules)));
            black_box(&c);
        }
    });
}
