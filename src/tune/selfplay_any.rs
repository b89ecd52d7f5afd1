//! `hnefi selfplay --rules NAME --board-size N`: the self-play of [`super::selfplay`] on
//! any family's game other than Copenhagen 11x11, with the search of that board and
//! rules, writing [`SizedSample`]s (which carry the game).
//!
//! As on 11x11, each game starts from the variant's start, then `--random-plies` random
//! legal plies drawn from the seed and the game's number; the positions are sampled when
//! quiet: the score not a forced win or loss, the best move neither capturing nor
//! winning, no open line from the king to an escape square and, with the attackers to
//! move, no capture of the king.

use std::sync::atomic::AtomicBool;

use super::jobs::{Jobs, Played};
use super::sample::Outcome;
use super::selfplay::SelfplayArgs;
use super::sized_sample::SizedSample;
use crate::core::game::{GameOf, RuleSet};
use crate::core::moves::MoveOf;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::rng::SplitMix64;
use crate::core::role::Role;
use crate::core::variant::Variant;
use crate::search::eval::Weights;
use crate::search::threats::Threats;
use crate::search::{Limits, Score, SearchGeometry, Searcher};

/// The setup shared by the games of one variant.
struct Plan<G: SearchGeometry> {
    start: PositionOf<G>,
    rules: RuleSet,
    family: RulePreset,
    nodes: u64,
    random_plies: usize,
    seed: u64,
}

/// Whether `pos`, whose search chose `best`, is quiet enough for a static evaluation to
/// judge (as [`is_quiet`](super::sample::is_quiet) on 11x11, with the rules' escape
/// squares).
fn is_quiet<G: SearchGeometry>(pos: &PositionOf<G>, best: MoveOf<G>, t: &Threats<G>) -> bool {
    let board = pos.board();
    let mut child = *pos;
    let captured = child.make_move(best, &t.rules);
    captured.is_empty()
        && child.win_after_move(best.to, &t.rules).is_none()
        && t.escape_lines(board) == 0
        && !(pos.to_move() == Role::Attacker && t.king_capture(board).is_some())
}

impl<G: SearchGeometry> Plan<G> {
    /// Plays game number `index` with `searcher` (cleared first).
    fn play(&self, index: u64, searcher: &mut Searcher) -> Played<SizedSample<G>> {
        searcher.clear();
        let mut rng = SplitMix64::new(self.seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        let mut game = GameOf::<G>::from_position(self.start, self.rules);
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
        let threats = Threats::<G>::new(&self.rules);
        let stop = AtomicBool::new(false);
        let mut samples = Vec::new();
        while !game.status().is_over() {
            let result = searcher.search(&game, &limits, &stop, &mut |_| {});
            let Some(best) = result.best else {
                break;
            };
            if let Score::Cp(score) = result.score
                && is_quiet(game.position(), best, &threats)
            {
                samples.push(SizedSample {
                    position: *game.position(),
                    outcome: Outcome::Draw,
                    score,
                    game: index,
                    rules: self.family,
                });
            }
            if game.play(best).is_err() {
                break;
            }
        }
        let outcome = Outcome::of(game.status());
        for s in &mut samples {
            s.outcome = outcome;
        }
        Played { samples, outcome }
    }
}

/// Plays the self-play games of `args` on `variant` (of the family `family`), board `G`.
pub fn run<G: SearchGeometry>(
    args: &SelfplayArgs,
    family: RulePreset,
    variant: &Variant,
    attacker: Weights,
) -> Result<(), String> {
    if args.openings.is_some() {
        return Err(format!(
            "--openings: the recorded games are Copenhagen 11x11 games, not {variant}"
        ));
    }
    let start = variant
        .start_position::<G>()
        .map_err(|e| format!("{variant}: {e}"))?;
    let plan = Plan {
        start,
        rules: RuleSet {
            move_limit: Some(args.move_limit),
            ..variant.rules()
        },
        family,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
    };
    let jobs = Jobs {
        name: "selfplay",
        count: args.games,
        concurrency: args.concurrency,
        hash_mb: args.hash_mb,
        out: &args.out,
    };
    jobs.run(|i, searcher| {
        searcher.set_weights(Role::Attacker, attacker);
        plan.play(i, searcher)
    })
}
