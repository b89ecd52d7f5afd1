//! `hnefi selfplay`: games of hnefi against itself at a node limit, in-process, writing
//! sampled positions with the game's result for the tuner ([`super::texel`]).
//!
//! Each game starts from the first `--opening-plies` plies of a recorded game (shuffled
//! by `--seed`) or from the start, then `--random-plies` random legal plies drawn from
//! the seed and the game's number, so the same flags always give the same file whatever
//! the concurrency. Each game has its own searcher state (a cleared table and history),
//! one thread, a node limit per move: the games are the same on a loaded machine.
//!
//! Sampling: positions before the end of the opening and the random plies are skipped,
//! and so are the noisy ones a static evaluation cannot judge: a score that is a forced
//! win or loss, a best move that captures or wins, a king that sees a corner (the
//! attackers must block) or that can be captured right now.
//!
//! One loop plays every game, generic over the board (`play`): `--rules NAME
//! --board-size N` picks a family's game on its board, with the search of that board and
//! rules, Copenhagen 11x11 without them. Every sample names its game (src/tune/sample.rs).
//! `--format bin` writes the binary records of [`record`](super::record) instead of
//! lines.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::jobs::{Jobs, Played, search_sample};
use super::sample::{SampleGame, is_quiet};
use super::sample_file::Format;
use crate::core::game::GameOf;
use crate::core::geometry::{BoardSize, Geometry};
use crate::core::moves::MoveOf;
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::repetition::RepetitionMode;
use crate::core::rng::SplitMix64;
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::core::variant::Variant;
use crate::search::network::NetworkError;
use crate::search::terms::Weights;
use crate::search::threats::Threats;
use crate::search::{Limits, Networks, SearchGeometry, Searcher};
use crate::tools::matches::openings;

/// The flags of `hnefi selfplay`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub(crate) games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) nodes: u64,
    /// Records file whose game prefixes are the openings (e.g. tests/data/copenhagen.csv);
    /// without it, games start from the start position.
    #[arg(long, value_name = "FILE")]
    pub(crate) openings: Option<PathBuf>,
    /// Plies of each recorded game used as the opening.
    #[arg(long, default_value_t = 8)]
    pub(crate) opening_plies: usize,
    /// Records file of openings kept for measurement (e.g.
    /// tests/data/copenhagen-held-out.csv): an opening of `--openings` that ends in the
    /// position one of these ends in (after `--opening-plies` plies) is never played.
    #[arg(long, value_name = "FILE", requires = "openings")]
    pub(crate) hold_out: Option<PathBuf>,
    /// Random legal plies played after the opening.
    #[arg(long, default_value_t = 2)]
    pub(crate) random_plies: usize,
    /// Seed of the openings' order and of the random plies.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// A game is a draw after this many plies.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) move_limit: u32,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) concurrency: u16,
    /// Transposition table per game, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub(crate) hash_mb: u64,
    /// Set an evaluation weight in the attackers' searches (`NAME=VALUE`, as the engine's
    /// flag; `corner_fight=0` and `defender_space=6` give them the defenders' weights, so
    /// that every score of the data is on one scale). May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    pub(crate) attacker_weight: Vec<String>,
    /// The learned correction the games are played with, as the engine's `--net`: a
    /// network file of the games' board, `none`, or without the flag the engine's own.
    #[arg(long, value_name = "FILE|none")]
    pub(crate) net: Option<PathBuf>,
    /// The rule family whose game is played (copenhagen, hnefatafl-org, fetlar, brandubh,
    /// tablut, sea-battle or tawlbwrdd; docs/RULES.md section 17.13). Every game but
    /// Copenhagen 11x11 starts from the game's start position.
    #[arg(long, value_name = "NAME", default_value = "copenhagen")]
    pub(crate) rules: RulePreset,
    /// The board, 7 to 15 files: the family's game of that size [default: the family's
    /// usual size].
    #[arg(long, value_name = "N")]
    pub(crate) board_size: Option<BoardSize>,
    /// The repetition rule of the games [default: the family's]: data for a network that
    /// plays under another rule (`third-occurrence-mover-loses`, OpenTafl's and
    /// libhnefatafl's, makes the attackers' shuttling blocks a loss that Copenhagen's
    /// default rule makes safe).
    #[arg(long, value_name = "MODE")]
    pub(crate) repetition: Option<RepetitionMode>,
    /// Output file for the samples. Overwritten.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// The samples' format: `text`, one line each (src/tune/sample.rs), or `bin`, fixed
    /// binary records (src/tune/record.rs); `hnefi train` and `hnefi merge` read both.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// Whether a position of board `G`, whose search chose a move, is a sample.
type Quiet<'a, G> = dyn Fn(&PositionOf<G>, MoveOf<G>) -> bool + Sync + 'a;

/// The setup shared by the games of board `G`.
struct Plan<'a, G: SearchGeometry> {
    start: PositionOf<G>,
    /// Move lists from `start`, the openings in the seed's order (none: from the start).
    openings: Vec<Vec<MoveOf<G>>>,
    rules: RuleSet,
    /// The rule family whose game it is.
    family: RulePreset,
    quiet: &'a Quiet<'a, G>,
    nodes: u64,
    random_plies: usize,
    seed: u64,
}

impl<'a, G: SearchGeometry> Plan<'a, G> {
    /// The games of `args` from `start` (then from each of `openings` in turn, if any)
    /// under `rules`, sampled where `quiet` says.
    fn new(
        args: &SelfplayArgs,
        start: PositionOf<G>,
        openings: Vec<Vec<MoveOf<G>>>,
        rules: RuleSet,
        quiet: &'a Quiet<'a, G>,
    ) -> Self {
        Plan {
            start,
            openings,
            rules,
            family: args.rules,
            quiet,
            nodes: args.nodes,
            random_plies: args.random_plies,
            seed: args.seed,
        }
    }

    /// Plays game number `index` with `searcher` (cleared first).
    fn play(&self, index: u64, searcher: &mut Searcher) -> Played<G> {
        searcher.clear();
        let mut rng = SplitMix64::new(self.seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        let mut game = GameOf::<G>::from_position(self.start, self.rules);
        if !self.openings.is_empty() {
            let i = (index % self.openings.len() as u64) as usize;
            for &mv in self.openings.get(i).map(Vec::as_slice).unwrap_or(&[]) {
                if game.play(mv).is_err() {
                    break;
                }
            }
        }
        for _ in 0..self.random_plies {
            let legal = game.legal_moves();
            let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                break;
            };
            if game.status().is_over() || game.play(mv).is_err() {
                break;
            }
        }
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut samples = Vec::new();
        while !game.status().is_over() {
            let (best, sample) =
                search_sample(&game, self.family, searcher, &limits, index, self.quiet);
            samples.extend(sample);
            let Some(best) = best else {
                break;
            };
            if game.play(best).is_err() {
                break;
            }
        }
        // A game that did not finish (no move) counts as a draw.
        let result = game
            .status()
            .outcome()
            .map_or(Outcome::draw(()), Outcome::without_reason);
        for s in &mut samples {
            s.result = result;
        }
        Played { samples, result }
    }
}

/// Runs `hnefi selfplay`.
pub fn main(args: &SelfplayArgs) -> ExitCode {
    super::exit_code(run(args))
}

fn run(args: &SelfplayArgs) -> Result<(), String> {
    let size = args.board_size.unwrap_or_else(|| args.rules.usual_size());
    let variant = args.rules.variant(size).map_err(|e| e.to_string())?;
    let attacker = attacker_weights(args)?;
    let game = SampleGame {
        rules: args.rules,
        size,
    };
    crate::with_size!(size, G => play::<G>(args, game, &variant, attacker))
}

/// Plays the games of `args`, of `game` (`variant`, on board `G`): from the variant's
/// start position or the recorded openings, with the search of that board and rules and
/// the attackers' searches weighing with `attacker`.
fn play<G: SearchGeometry>(
    args: &SelfplayArgs,
    game: SampleGame,
    variant: &Variant,
    attacker: Weights,
) -> Result<(), String> {
    let start = variant
        .start_position::<G>()
        .map_err(|e| format!("{variant}: {e}"))?;
    let rules = game_rules(args, variant.rules());
    let openings = recorded_openings(args, game, start, rules)?;
    let nets = networks::<G>(args)?;
    let threats = Threats::<G>::new(&rules);
    let quiet = |pos: &_, best| is_quiet(pos, best, &threats);
    let plan = Plan::<G>::new(args, start, openings, rules, &quiet);
    jobs(args, game).run(|i, searcher| {
        searcher.set_networks(nets.clone());
        searcher.set_weights(Role::Attacker, attacker);
        plan.play(i, searcher)
    })
}

/// The networks the games of board `G` are played with, as the engine's `--net` picks
/// them: the engine's own, none, or a file's in place of its board's own, which must be
/// a network of board `G` (a file of another board would change nothing in the games).
fn networks<G: Geometry>(args: &SelfplayArgs) -> Result<Networks, String> {
    let Some(path) = args.net.as_deref().filter(|p| p.as_os_str() != "none") else {
        return Networks::chosen(args.net.as_deref()).map_err(|e| e.to_string());
    };
    let mut nets = Networks::embedded();
    let size = nets.install_file(path).map_err(|e| e.to_string())?;
    if size != G::SIZE {
        return Err(NetworkError::File {
            path: path.display().to_string(),
            source: Box::new(NetworkError::Size {
                file: u32::from(size),
                board: G::SIZE,
            }),
        }
        .to_string());
    }
    Ok(nets)
}

/// The rules of the games: the family's `rules` with `--move-limit`, and `--repetition`'s
/// mode if given.
fn game_rules(args: &SelfplayArgs, rules: RuleSet) -> RuleSet {
    RuleSet {
        move_limit: Some(args.move_limit),
        repetition: args.repetition.unwrap_or(rules.repetition),
        ..rules
    }
}

/// The recorded openings of `--openings` (Copenhagen 11x11 games, so for `game` only if
/// it is Copenhagen 11x11) from `start` under `rules`, in the seed's order, less those
/// `--hold-out` holds out (none without `--openings`: the games start from the start
/// position).
fn recorded_openings<G: Geometry>(
    args: &SelfplayArgs,
    game: SampleGame,
    start: PositionOf<G>,
    rules: RuleSet,
) -> Result<Vec<Vec<MoveOf<G>>>, String> {
    let Some(path) = &args.openings else {
        return Ok(Vec::new());
    };
    if game != SampleGame::COPENHAGEN {
        return Err(format!(
            "--openings: the recorded games are Copenhagen 11x11 games, not {game}"
        ));
    }
    let read = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        openings::from_records_on(&text, args.opening_plies, start, rules)
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut o = read(path)?;
    if let Some(held) = &args.hold_out {
        o = openings::without(o, &read(held)?, start, rules);
        if o.is_empty() {
            return Err(format!(
                "every opening of {} is held out by {}",
                path.display(),
                held.display()
            ));
        }
    }
    SplitMix64::new(args.seed).shuffle(&mut o);
    Ok(o)
}

/// The evaluation weights of the attackers' searches: their own, changed by
/// `--attacker-weight`.
fn attacker_weights(args: &SelfplayArgs) -> Result<Weights, String> {
    let mut attacker = Weights::for_side(Role::Attacker);
    for a in &args.attacker_weight {
        attacker.set(a).map_err(|e| e.to_string())?;
    }
    Ok(attacker)
}

/// The writer of the games of `args`, whose samples are of `game`.
fn jobs(args: &SelfplayArgs, game: SampleGame) -> Jobs<'_> {
    Jobs {
        name: "selfplay",
        count: args.games,
        concurrency: args.concurrency,
        hash_mb: args.hash_mb,
        out: &args.out,
        format: args.format,
        game,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::tune::sample::{Sample, SampleOf};

    /// The position each opening ends in.
    fn ends(openings: &[Vec<MoveOf<S11>>], rules: RuleSet) -> Vec<u64> {
        openings
            .iter()
            .map(|o| {
                let mut game = GameOf::from_position(PositionOf::start(), rules);
                for &mv in o {
                    game.play(mv).unwrap();
                }
                game.position().hash()
            })
            .collect()
    }

    #[test]
    fn held_out_openings_are_never_played() {
        let rules = RuleSet::default();
        let mut a = args(PathBuf::from("unused"), 1);
        a.opening_plies = 8;
        let recorded = |a: &SelfplayArgs| {
            recorded_openings(a, SampleGame::COPENHAGEN, PositionOf::<S11>::start(), rules)
        };
        let all = recorded(&a).unwrap();
        a.hold_out = Some(PathBuf::from("tests/data/copenhagen-held-out.csv"));
        let kept = recorded(&a).unwrap();
        let text = std::fs::read_to_string("tests/data/copenhagen-held-out.csv").unwrap();
        let held = openings::from_records_on::<S11>(&text, 8, PositionOf::start(), rules).unwrap();
        assert!(held.len() >= 100, "{} held out", held.len());
        assert!(kept.len() + held.len() <= all.len());
        assert!(
            kept.len() >= all.len() - held.len() - 5,
            "{} of {}",
            kept.len(),
            all.len()
        );
        let held_ends = ends(&held, rules);
        for end in ends(&kept, rules) {
            assert!(!held_ends.contains(&end));
        }
        // The held-out file alone holds out every one of its own openings.
        a.openings = a.hold_out.clone();
        assert!(recorded(&a).unwrap_err().contains("every opening"));
    }

    fn args(out: PathBuf, concurrency: u16) -> SelfplayArgs {
        SelfplayArgs {
            games: 4,
            nodes: 400,
            openings: Some(PathBuf::from("tests/data/copenhagen.csv")),
            opening_plies: 6,
            hold_out: None,
            random_plies: 2,
            seed: 5,
            move_limit: 120,
            concurrency,
            hash_mb: 1,
            net: None,
            attacker_weight: Vec::new(),
            rules: RulePreset::Copenhagen,
            board_size: None,
            repetition: None,
            out,
            format: Format::Text,
        }
    }

    #[test]
    fn same_seed_same_file_at_any_concurrency() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let (a, b) = (
            dir.join(format!("hnefi-selfplay-{id}-a.txt")),
            dir.join(format!("hnefi-selfplay-{id}-b.txt")),
        );
        run(&args(a.clone(), 1)).unwrap();
        run(&args(b.clone(), 2)).unwrap();
        let (ta, tb) = (
            std::fs::read_to_string(&a).unwrap(),
            std::fs::read_to_string(&b).unwrap(),
        );
        let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
        assert_eq!(ta, tb);
        let samples: Vec<Sample> = ta.lines().map(|l| l.parse().unwrap()).collect();
        assert!(!samples.is_empty());
        // Games come in order, and the opening and random plies are not sampled.
        assert!(samples.windows(2).all(|w| w[0].game <= w[1].game));
        assert!(
            samples
                .iter()
                .all(|s| s.position != crate::core::position::Position::start())
        );
    }

    /// `--repetition` replaces the family's rule and keeps the rest of the set.
    #[test]
    fn repetition_flag_overrides_the_family_rule() {
        let mut a = args(PathBuf::from("unused"), 1);
        a.move_limit = 90;
        let base = RuleSet {
            move_limit: Some(90),
            ..RuleSet::default()
        };
        assert_eq!(game_rules(&a, base), base);
        a.repetition = Some(RepetitionMode::ThirdOccurrenceMoverLoses);
        let r = game_rules(&a, base);
        assert_eq!(r.repetition, RepetitionMode::ThirdOccurrenceMoverLoses);
        assert_eq!(
            RuleSet {
                repetition: base.repetition,
                ..r
            },
            base
        );
    }

    #[test]
    fn bad_input_is_an_error_and_writes_nothing() {
        let out = std::env::temp_dir().join(format!("hnefi-selfplay-{}-c.txt", std::process::id()));
        let mut a = args(out.clone(), 1);
        a.openings = Some(PathBuf::from("tests/data/no-such-file.csv"));
        let e = run(&a).unwrap_err();
        assert!(e.contains("no-such-file.csv"), "{e}");
        a.openings = Some(PathBuf::from("tests/data/cases.txt"));
        assert!(run(&a).unwrap_err().contains("no usable opening"));
        assert!(!out.exists());
    }

    #[test]
    fn other_games_write_samples_that_name_their_game() {
        use crate::core::geometry::S7;
        let out = std::env::temp_dir().join(format!("hnefi-selfplay-{}-d.txt", std::process::id()));
        let mut a = args(out.clone(), 2);
        a.openings = None;
        a.rules = RulePreset::HnefataflOrg;
        a.board_size = Some(BoardSize::S7);
        a.move_limit = 60;
        run(&a).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        let samples: Vec<SampleOf<S7>> = text.lines().map(|l| l.parse().unwrap()).collect();
        assert!(!samples.is_empty());
        assert!(samples.iter().all(|s| s.rules == RulePreset::HnefataflOrg));
        assert!(samples.iter().all(|s| s.game < 4));
        // A size the family has not, openings of another game and a network file that
        // cannot be read are refused.
        a.board_size = Some(BoardSize::S9);
        assert!(run(&a).unwrap_err().contains("9x9"));
        a.board_size = Some(BoardSize::S7);
        a.openings = Some(PathBuf::from("tests/data/copenhagen.csv"));
        assert!(run(&a).unwrap_err().contains("--openings"));
        a.openings = None;
        a.net = Some(PathBuf::from("/no/such/network.nnue"));
        assert!(run(&a).unwrap_err().contains("cannot read the network"));
        // A network of another board than the games'.
        a.net = Some(PathBuf::from(crate::search::network::EMBEDDED_FILE));
        let e = run(&a).unwrap_err();
        assert!(e.contains("is for a 11x11 board, not 7x7"), "{e}");
        assert!(!out.exists());
    }
}
