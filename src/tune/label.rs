//! `hnefi label`: the positions of recorded games (e.g. `tests/data/copenhagen.csv`, games
//! between people) as samples for the tuner, each with the recorded result and a search's
//! score.
//!
//! Self-play teaches the evaluation what hnefi's own games lead to; recorded games add
//! what the players of those games could do with a position, the attackers' winning plans
//! above all (the aagenielsen.dk games end in an attackers' win far more often than
//! self-play games do; docs/training.md). Every position from `--skip-plies` on is
//! searched at `--nodes` (one thread, a table cleared for each game, so the file does not
//! depend on the machine or the concurrency); a position is a sample when it is quiet by the same test as in
//! self-play (`sample::is_quiet` on the search's best move), and the game goes on with the
//! recorded move. A sample's game number is its line's (from 0), so that the tuner's
//! held-out split keeps games apart. Unfinished records (`Ongoing`) and lines that are no
//! game or do not replay under the rules are skipped and counted.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::jobs::{Jobs, Played, search_sample};
use super::sample::{Sample, SampleGame, is_quiet};
use super::sample_file::Format;
use crate::core::game::Game;
use crate::core::geometry::S11;
use crate::core::outcome::Outcome;
use crate::core::record::GameRecord;
use crate::core::rules::RuleSet;
use crate::search::threats::Threats;
use crate::search::{Limits, Searcher};

/// The flags of `hnefi label`.
#[derive(Args, Debug, Clone)]
pub struct LabelArgs {
    /// The records file (one game per line: `moves,attacker_captures,defender_captures,result`).
    #[arg(value_name = "RECORDS")]
    pub(crate) records: PathBuf,
    /// Nodes of the search of each position.
    #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) nodes: u64,
    /// Plies of each game not sampled (the opening).
    #[arg(long, default_value_t = 8)]
    pub(crate) skip_plies: usize,
    /// Games searched at once (threads).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) concurrency: u16,
    /// Transposition table per game, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub(crate) hash_mb: u64,
    /// Output file for the samples (one line each; see src/tune/sample.rs). Overwritten.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
}

/// A finished recorded game: its line's number, its moves and its result.
struct Recorded {
    line: u64,
    record: GameRecord,
    result: Outcome<()>,
}

/// Reads the finished games of a records file; also returns the number of lines skipped
/// (no game, unfinished, or not replaying under `rules`).
fn finished_games(text: &str, rules: RuleSet) -> (Vec<Recorded>, usize) {
    let mut games = Vec::new();
    let mut skipped = 0;
    for (line, text) in (0u64..).zip(text.lines()) {
        let Ok(record) = text.parse::<GameRecord>() else {
            skipped += 1;
            continue;
        };
        let Some(result) = record.result else {
            skipped += 1;
            continue;
        };
        if record.replay(rules).is_err() {
            skipped += 1;
            continue;
        }
        games.push(Recorded {
            line,
            record,
            result,
        });
    }
    (games, skipped)
}

/// The samples of one recorded game.
fn label(
    game_rec: &Recorded,
    rules: RuleSet,
    limits: &Limits,
    skip: usize,
    searcher: &mut Searcher,
) -> Played<S11> {
    searcher.clear();
    let mut game = Game::new(rules);
    let threats = Threats::<S11>::new(&rules);
    let quiet = |pos: &_, best| is_quiet(pos, best, &threats);
    let mut samples = Vec::new();
    for (ply, m) in game_rec.record.moves.iter().enumerate() {
        if game.status().is_over() {
            break;
        }
        if ply >= skip {
            let (_, sample) = search_sample(
                &game,
                SampleGame::COPENHAGEN.rules,
                searcher,
                limits,
                game_rec.line,
                &quiet,
            );
            samples.extend(sample.map(|s| Sample {
                result: game_rec.result,
                ..s
            }));
        }
        if game.play(m.mv).is_err() {
            break;
        }
    }
    Played {
        samples,
        result: game_rec.result,
    }
}

/// Runs `hnefi label`.
pub fn main(args: &LabelArgs) -> ExitCode {
    super::exit_code(run(args))
}

fn run(args: &LabelArgs) -> Result<(), String> {
    let rules = RuleSet::default();
    let text = std::fs::read_to_string(&args.records)
        .map_err(|e| format!("cannot read {}: {e}", args.records.display()))?;
    let (games, skipped) = finished_games(&text, rules);
    if games.is_empty() {
        return Err(format!(
            "{}: no finished game that replays under the rules",
            args.records.display()
        ));
    }
    eprintln!(
        "label: {} finished games, {skipped} lines skipped (no game, unfinished, or not replaying)",
        games.len()
    );
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let jobs = Jobs {
        name: "label",
        count: games.len() as u64,
        concurrency: args.concurrency,
        hash_mb: args.hash_mb,
        out: &args.out,
        format: Format::Text,
        game: SampleGame::COPENHAGEN,
    };
    jobs.run(
        |i, searcher| match usize::try_from(i).ok().and_then(|i| games.get(i)) {
            Some(g) => label(g, rules, &limits, args.skip_plies, searcher),
            None => Played {
                samples: Vec::new(),
                result: Outcome::draw(()),
            },
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::role::Role;

    #[test]
    fn finished_games_only_with_their_line_numbers() {
        let text = "h1-h3 f8-i8,0,0,Ongoing\n\
                    not a game\n\
                    h1-h3 f8-i8 a4-a2,0,0,Black\n\
                    h1-h3 h1-h2,0,0,White\n\
                    d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,White\n";
        let (games, skipped) = finished_games(text, RuleSet::default());
        // The unfinished game, the line that is no game and the illegal second move.
        assert_eq!(skipped, 3);
        let lines: Vec<(u64, Option<Role>)> =
            games.iter().map(|g| (g.line, g.result.winner)).collect();
        assert_eq!(
            lines,
            [(2, Some(Role::Attacker)), (4, Some(Role::Defender))]
        );
    }

    #[test]
    fn samples_carry_the_record_and_not_the_search() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let (records, out) = (
            dir.join(format!("hnefi-label-{id}.csv")),
            dir.join(format!("hnefi-label-{id}.txt")),
        );
        let data = std::fs::read_to_string("tests/data/copenhagen.csv").unwrap();
        let text: String = data.lines().take(12).map(|l| format!("{l}\n")).collect();
        std::fs::write(&records, &text).unwrap();
        let args = |concurrency| LabelArgs {
            records: records.clone(),
            nodes: 300,
            skip_plies: 4,
            concurrency,
            hash_mb: 1,
            out: out.clone(),
        };
        run(&args(2)).unwrap();
        let two = std::fs::read_to_string(&out).unwrap();
        run(&args(1)).unwrap();
        let one = std::fs::read_to_string(&out).unwrap();
        let _ = (std::fs::remove_file(&records), std::fs::remove_file(&out));
        assert_eq!(one, two);
        let (games, _) = finished_games(&text, RuleSet::default());
        let samples: Vec<Sample> = one.lines().map(|l| l.parse().unwrap()).collect();
        assert!(!samples.is_empty());
        for s in &samples {
            let g = games.iter().find(|g| g.line == s.game).unwrap();
            assert_eq!(s.result, g.result);
            // The position is one of the recorded game's, after the skipped plies.
            let mut game = Game::new(RuleSet::default());
            let mut seen = false;
            for (ply, m) in g.record.moves.iter().enumerate() {
                seen |= ply >= 4 && game.position() == &s.position;
                game.play(m.mv).unwrap();
            }
            assert!(seen, "{s}");
        }
    }

    #[test]
    fn no_finished_game_is_an_error_and_writes_nothing() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let out = dir.join(format!("hnefi-label-{id}-none.txt"));
        let args = LabelArgs {
            records: PathBuf::from("tests/data/cases.txt"),
            nodes: 100,
            skip_plies: 0,
            concurrency: 1,
            hash_mb: 1,
            out: out.clone(),
        };
        assert!(run(&args).unwrap_err().contains("no finished game"));
        assert!(!out.exists());
        let args = LabelArgs {
            records: PathBuf::from("tests/data/no-such-file.csv"),
            ..args
        };
        assert!(run(&args).unwrap_err().contains("no-such-file.csv"));
    }
}
