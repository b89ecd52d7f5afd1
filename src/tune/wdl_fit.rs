//! Fitting the win/draw/loss model ([`WdlModel`]) to the results of games, and measuring how
//! well a model's chances match the results of games it never saw.
//!
//! The fit maximises the likelihood of the results under the ordered logistic model, for
//! each side to move on its own, by Newton's method: in the parameters `β = 1/scale`,
//! `a = −low/scale`, `b = −high/scale` the log-likelihood is concave, so the method needs no
//! starting guess and finds the one maximum. Without a single draw among the results the
//! draw band has no width (`low = high`) and the model has two parameters.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use thiserror::Error;

use super::sample::{SampleGame, SampleOf};
use super::sample_file::{SampleFile, SampleFileError};
use crate::core::geometry::Geometry;
use crate::core::outcome::Outcome;
use crate::core::role::{ByRole, Role};
use crate::search::wdl::{Chances, Thresholds, WdlModel, sigmoid};

/// One position of a finished game: its score and who won the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Observation {
    /// The side to move.
    pub(crate) mover: Role,
    /// The search's score in centi-units, from the attackers' view.
    pub(crate) attackers_score: f64,
    /// How the game ended.
    pub(crate) result: Outcome<()>,
}

impl Observation {
    /// The observation of a sample of a finished game.
    pub(crate) fn of<G: Geometry>(sample: &SampleOf<G>) -> Observation {
        let mover = sample.position.to_move();
        let score = f64::from(sample.score);
        Observation {
            mover,
            attackers_score: match mover {
                Role::Attacker => score,
                Role::Defender => -score,
            },
            result: sample.result,
        }
    }
}

/// Why a model could not be fitted.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub(crate) enum FitError {
    /// Each side must have won some of the games with `mover` to move, or the scale has no
    /// finite best value.
    #[error(
        "too few results to fit the positions with the {mover} to move: {attackers} attacker wins, {defenders} defender wins (at least {MIN_WINS} of each)",
        mover = .mover.plural()
    )]
    TooFewResults {
        /// The side to move of the positions.
        mover: Role,
        /// Attacker wins among them.
        attackers: usize,
        /// Defender wins among them.
        defenders: usize,
    },
    /// The best scale is beyond any score the search gives: the scores do not tell the
    /// results apart.
    #[error(
        "the scores of the positions with the {mover} to move do not tell their results apart (best scale {scale:.0} centi-units, more than {MAX_SCALE})",
        mover = .mover.plural()
    )]
    NoSignal {
        /// The side to move of the positions.
        mover: Role,
        /// The scale the fit went to.
        scale: f64,
    },
}

/// The largest scale a fit may find, in centi-units (the search's heuristic scores stay
/// well within it).
pub(crate) const MAX_SCALE: f64 = 20_000.0;

/// The fewest wins of each side a fit needs.
pub(crate) const MIN_WINS: usize = 5;

/// The model that best explains the results of `observations`.
pub(crate) fn fit(observations: &[Observation]) -> Result<WdlModel, FitError> {
    let attacker = fit_mover(observations, Role::Attacker)?;
    let defender = fit_mover(observations, Role::Defender)?;
    Ok(WdlModel {
        by_mover: ByRole { attacker, defender },
    })
}

/// The parameters `[β, a, b]` of the linear predictors `β·x + a` (the attackers do not
/// lose) and `β·x + b` (the attackers win).
type Params = [f64; 3];

fn fit_mover(observations: &[Observation], mover: Role) -> Result<Thresholds, FitError> {
    let points: Vec<(f64, Option<Role>)> = observations
        .iter()
        .filter(|o| o.mover == mover)
        .map(|o| (o.attackers_score, o.result.winner))
        .collect();
    let wins = |side| points.iter().filter(|(_, w)| *w == Some(side)).count();
    let (attackers, defenders) = (wins(Role::Attacker), wins(Role::Defender));
    if attackers < MIN_WINS || defenders < MIN_WINS {
        return Err(FitError::TooFewResults {
            mover,
            attackers,
            defenders,
        });
    }
    let draws = points.len() - attackers - defenders;
    // Scores in hundreds of centi-units keep the Newton steps well scaled.
    let points: Vec<(f64, Option<Role>)> = points.iter().map(|&(x, w)| (x / 100.0, w)).collect();
    let start: Params = if draws > 0 {
        [0.5, 0.5, -0.5]
    } else {
        [0.5, 0.0, 0.0]
    };
    let [beta, a, b] = newton(&points, start, draws > 0);
    let scale = 100.0 / beta;
    if !(scale.is_finite() && scale <= MAX_SCALE) {
        return Err(FitError::NoSignal { mover, scale });
    }
    Ok(Thresholds {
        low: -a / beta * 100.0,
        high: -b / beta * 100.0,
        scale,
    })
}

/// The log-likelihood of `points` under `p`; minus infinity where `p` is outside the
/// model (a draw band of negative width, a scale that is not positive).
fn log_likelihood(points: &[(f64, Option<Role>)], p: Params) -> f64 {
    let [beta, a, b] = p;
    if beta <= 0.0 || a < b {
        return f64::NEG_INFINITY;
    }
    points
        .iter()
        .map(|&(x, winner)| {
            let not_lose = sigmoid(beta * x + a);
            let win = sigmoid(beta * x + b);
            let p = match winner {
                Some(Role::Attacker) => win,
                Some(Role::Defender) => 1.0 - not_lose,
                None => not_lose - win,
            };
            p.max(1e-300).ln()
        })
        .sum()
}

/// The gradient of the log-likelihood.
fn gradient(points: &[(f64, Option<Role>)], p: Params) -> Params {
    let [beta, a, b] = p;
    let mut g = [0.0; 3];
    for &(x, winner) in points {
        let u = sigmoid(beta * x + a);
        let v = sigmoid(beta * x + b);
        // d ln(P) / d(β·x + a) and d ln(P) / d(β·x + b).
        let (du, dv) = match winner {
            Some(Role::Attacker) => (0.0, 1.0 - v),
            Some(Role::Defender) => (-u, 0.0),
            None => {
                let d = (u - v).max(1e-300);
                (u * (1.0 - u) / d, -v * (1.0 - v) / d)
            }
        };
        g[0] += (du + dv) * x;
        g[1] += du;
        g[2] += dv;
    }
    g
}

/// Newton's method with a numerical Hessian (of the analytic gradient) and a backtracking
/// line search; `with_draws` false ties `b` to `a`.
fn newton(points: &[(f64, Option<Role>)], start: Params, with_draws: bool) -> Params {
    let tie = |p: Params| if with_draws { p } else { [p[0], p[1], p[1]] };
    let grad = |p: Params| {
        let g = gradient(points, p);
        if with_draws {
            g
        } else {
            [g[0], g[1] + g[2], 0.0]
        }
    };
    let n = if with_draws { 3 } else { 2 };
    let mut p = start;
    let mut ll = log_likelihood(points, p);
    for _ in 0..100 {
        let g = grad(p);
        let mut h = [[0.0; 3]; 3];
        for j in 0..n {
            let step = 1e-5 * p[j].abs().max(1.0);
            let mut q = p;
            q[j] += step;
            let gq = grad(tie(q));
            for i in 0..n {
                h[i][j] = (gq[i] - g[i]) / step;
            }
        }
        // A concave likelihood has a negative definite Hessian; the step solves H·d = −g.
        let d = solve(&h, &g, n).map_or(g, |d| d.map(|x| -x));
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..40 {
            let q = tie([p[0] + t * d[0], p[1] + t * d[1], p[2] + t * d[2]]);
            let lq = log_likelihood(points, q);
            if lq > ll {
                improved = lq - ll > 1e-10 * ll.abs().max(1.0);
                p = q;
                ll = lq;
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    p
}

/// The solution of `h · x = g` in the first `n` unknowns (Gaussian elimination with
/// partial pivoting); `None` when `h` is singular.
fn solve(h: &[[f64; 3]; 3], g: &Params, n: usize) -> Option<Params> {
    let mut m = *h;
    let mut r = *g;
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        r.swap(col, pivot);
        let pivot_row = m[col];
        for row in col + 1..n {
            let f = m[row][col] / pivot_row[col];
            for (x, p) in m[row].iter_mut().zip(pivot_row).skip(col).take(n - col) {
                *x -= f * p;
            }
            r[row] -= f * r[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (r[row] - s) / m[row][row];
    }
    Some(x)
}

/// How well predicted chances matched the results.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Calibration {
    /// The positions judged.
    pub(crate) positions: usize,
    /// The mean of −ln(the chance given to what happened).
    pub(crate) log_loss: f64,
    /// The mean over positions of the squared differences between the three chances and
    /// what happened (0 or 1 each).
    pub(crate) brier: f64,
    /// The same measures for the constant predictor (the results' frequencies in the fit's
    /// own games, by side to move).
    pub(crate) constant_log_loss: f64,
    /// See `constant_log_loss`.
    pub(crate) constant_brier: f64,
    /// By tenths of the mover's predicted expected score (a win 1, a draw one half): the
    /// positions in the tenth, their mean predicted score and their mean actual score.
    pub(crate) deciles: [Decile; 10],
}

/// One tenth of a reliability table.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Decile {
    /// Positions whose predicted score falls in this tenth.
    pub(crate) positions: usize,
    /// Their mean predicted score for the mover.
    pub(crate) predicted: f64,
    /// Their mean actual score for the mover.
    pub(crate) actual: f64,
}

/// The result's chances as three numbers, attackers first.
fn triple(c: &Chances) -> [f64; 3] {
    [c.attackers, c.draw, c.defenders]
}

/// Which of the three results happened.
fn index(winner: Option<Role>) -> usize {
    match winner {
        Some(Role::Attacker) => 0,
        None => 1,
        Some(Role::Defender) => 2,
    }
}

/// The frequencies of the three results among `observations`, by side to move (a third
/// each where there are none).
pub(crate) fn frequencies(observations: &[Observation]) -> ByRole<Chances> {
    ByRole::new_with(|mover| {
        let mut counts = [0usize; 3];
        for o in observations.iter().filter(|o| o.mover == mover) {
            counts[index(o.result.winner)] += 1;
        }
        let total = counts.iter().sum::<usize>();
        if total == 0 {
            let third = 1.0 / 3.0;
            return Chances {
                attackers: third,
                draw: third,
                defenders: third,
            };
        }
        let f = |k: usize| counts[k] as f64 / total as f64;
        Chances {
            attackers: f(0),
            draw: f(1),
            defenders: f(2),
        }
    })
}

/// How well `model` predicts the results of `held_out`, against the constant predictor of
/// `baseline` (the frequencies of the fit's games, [`frequencies`]).
pub(crate) fn calibrate(
    model: &WdlModel,
    baseline: &ByRole<Chances>,
    held_out: &[Observation],
) -> Calibration {
    let mut log_loss = 0.0;
    let mut brier = 0.0;
    let mut constant_log_loss = 0.0;
    let mut constant_brier = 0.0;
    let mut sums = [(0usize, 0.0, 0.0); 10];
    for o in held_out {
        let chances = model.by_mover.get(o.mover).chances(o.attackers_score);
        let happened = index(o.result.winner);
        for (c, (ll, br)) in [
            (chances, (&mut log_loss, &mut brier)),
            (
                *baseline.get(o.mover),
                (&mut constant_log_loss, &mut constant_brier),
            ),
        ] {
            let t = triple(&c);
            *ll -= t[happened].max(1e-12).ln();
            *br += (0..3)
                .map(|k| (t[k] - if k == happened { 1.0 } else { 0.0 }).powi(2))
                .sum::<f64>();
        }
        let predicted = chances.expected(o.mover);
        let actual = match o.result.winner {
            Some(w) if w == o.mover => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let tenth = ((predicted * 10.0) as usize).min(9);
        if let Some(bin) = sums.get_mut(tenth) {
            bin.0 += 1;
            bin.1 += predicted;
            bin.2 += actual;
        }
    }
    let n = held_out.len().max(1) as f64;
    Calibration {
        positions: held_out.len(),
        log_loss: log_loss / n,
        brier: brier / n,
        constant_log_loss: constant_log_loss / n,
        constant_brier: constant_brier / n,
        deciles: sums.map(|(positions, predicted, actual)| {
            let k = positions.max(1) as f64;
            Decile {
                positions,
                predicted: predicted / k,
                actual: actual / k,
            }
        }),
    }
}

/// The flags of `hnefi wdl-fit`.
#[derive(Args, Debug, Clone)]
pub struct WdlFitArgs {
    /// Sample files of `hnefi selfplay` (text or binary), one game each; files of the same
    /// game are fitted together, each game on its own.
    #[arg(required = true, num_args = 1..)]
    pub(crate) data: Vec<PathBuf>,
    /// The samples of games whose number is a multiple of this are held out of the fit
    /// and judge it (at least 2).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    pub(crate) holdout_every: u64,
}

/// Why `hnefi wdl-fit` stopped.
#[derive(Debug, Error)]
pub(crate) enum WdlFitError {
    /// A sample file could not be read.
    #[error(transparent)]
    File(#[from] SampleFileError),
    /// A game's samples could not be fitted.
    #[error("{game}: {error}")]
    Fit {
        /// The game.
        game: SampleGame,
        /// Why.
        error: FitError,
    },
}

/// Runs `hnefi wdl-fit`: for each game, the fit and its calibration on the held-out games,
/// then the table of the fitted models as `src/search/wdl.rs` holds it.
pub fn main(args: &WdlFitArgs) -> ExitCode {
    super::exit_code(run(args).map_err(|e| e.to_string()))
}

/// The fitted and held-out observations of one game.
struct GameData {
    game: SampleGame,
    fitted: Vec<Observation>,
    held_out: Vec<Observation>,
}

fn run(args: &WdlFitArgs) -> Result<(), WdlFitError> {
    let mut games: Vec<GameData> = Vec::new();
    for path in &args.data {
        let file = SampleFile::open(path)?;
        let Some(game) = file.game() else {
            continue;
        };
        let index = match games.iter().position(|g| g.game == game) {
            Some(i) => i,
            None => {
                games.push(GameData {
                    game,
                    fitted: Vec::new(),
                    held_out: Vec::new(),
                });
                games.len() - 1
            }
        };
        let Some(data) = games.get_mut(index) else {
            continue;
        };
        crate::with_size!(game.size, G => {
            for sample in file.samples::<G>() {
                let sample = sample?;
                let o = Observation::of(&sample);
                if sample.is_held_out(args.holdout_every) {
                    data.held_out.push(o);
                } else {
                    data.fitted.push(o);
                }
            }
        });
    }
    let mut table = Vec::new();
    let mut failed = None;
    for data in &games {
        let model = match fit(&data.fitted) {
            Ok(model) => model,
            Err(error) => {
                // The other games are still fitted.
                let error = WdlFitError::Fit {
                    game: data.game,
                    error,
                };
                crate::outln!("{error}");
                failed.get_or_insert(error);
                continue;
            }
        };
        let calibration = calibrate(&model, &frequencies(&data.fitted), &data.held_out);
        print_game(data, &model, &calibration, args.holdout_every);
        table.push((data.game, model));
    }
    crate::outln!("table (src/search/wdl.rs FITTED):");
    for (game, model) in table {
        crate::outln!("{}", table_line(game, &model));
    }
    failed.map_or(Ok(()), Err)
}

fn print_game(data: &GameData, model: &WdlModel, c: &Calibration, every: u64) {
    crate::outln!(
        "{}: {} positions fitted, {} held out (games whose number is a multiple of {every})",
        data.game,
        data.fitted.len(),
        data.held_out.len()
    );
    for mover in [Role::Attacker, Role::Defender] {
        let t = model.by_mover.get(mover);
        crate::outln!(
            "  {} to move: low {:.0} high {:.0} scale {:.0}",
            mover.plural(),
            t.low,
            t.high,
            t.scale
        );
    }
    crate::outln!(
        "  held out: log-loss {:.4} (constant {:.4}), Brier {:.4} (constant {:.4})",
        c.log_loss,
        c.constant_log_loss,
        c.brier,
        c.constant_brier
    );
    crate::outln!("  mover's predicted score  positions  predicted  actual");
    for (tenth, d) in c.deciles.iter().enumerate() {
        if d.positions > 0 {
            crate::outln!(
                "  {:.1} to {:.1}  {:>10}  {:>9.3}  {:>6.3}",
                tenth as f64 / 10.0,
                (tenth + 1) as f64 / 10.0,
                d.positions,
                d.predicted,
                d.actual
            );
        }
    }
}

/// The game's model as a line of `src/search/wdl.rs`'s table.
fn table_line(game: SampleGame, model: &WdlModel) -> String {
    let t = |t: &Thresholds| format!("t({:.0}, {:.0}, {:.0})", t.low, t.high, t.scale);
    format!(
        "    (RulePreset::{:?}, BoardSize::{:?}, model({}, {})),",
        game.rules,
        game.size,
        t(&model.by_mover.attacker),
        t(&model.by_mover.defender)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    /// A uniform number in [0, 1).
    fn uniform(rng: &mut SplitMix64) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Results drawn from `truth` at scores spread over ±1500.
    fn sample(truth: &WdlModel, n: usize, seed: u64) -> Vec<Observation> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|i| {
                let mover = if i % 2 == 0 {
                    Role::Attacker
                } else {
                    Role::Defender
                };
                let attackers_score = uniform(&mut rng) * 3000.0 - 1500.0;
                let c = truth.by_mover.get(mover).chances(attackers_score);
                let r = uniform(&mut rng);
                let winner = if r < c.attackers {
                    Some(Role::Attacker)
                } else if r < c.attackers + c.draw {
                    None
                } else {
                    Some(Role::Defender)
                };
                Observation {
                    mover,
                    attackers_score,
                    result: Outcome { winner, reason: () },
                }
            })
            .collect()
    }

    fn truth(draw_width: f64) -> WdlModel {
        WdlModel {
            by_mover: ByRole {
                attacker: Thresholds {
                    low: -100.0 - draw_width,
                    high: -100.0 + draw_width,
                    scale: 180.0,
                },
                defender: Thresholds {
                    low: 250.0 - draw_width,
                    high: 250.0 + draw_width,
                    scale: 120.0,
                },
            },
        }
    }

    fn close(fitted: &Thresholds, true_: &Thresholds) {
        let ok = (fitted.low - true_.low).abs() < 25.0
            && (fitted.high - true_.high).abs() < 25.0
            && (fitted.scale - true_.scale).abs() < 0.12 * true_.scale;
        assert!(ok, "fitted {fitted:?}, true {true_:?}");
    }

    #[test]
    fn the_fit_finds_the_model_the_results_were_drawn_from() {
        for width in [0.0, 150.0] {
            let t = truth(width);
            let fitted = fit(&sample(&t, 40_000, 7)).unwrap();
            close(&fitted.by_mover.attacker, &t.by_mover.attacker);
            close(&fitted.by_mover.defender, &t.by_mover.defender);
        }
    }

    #[test]
    fn the_fitted_model_beats_the_constant_predictor_and_is_reliable() {
        let t = truth(100.0);
        let train = sample(&t, 20_000, 1);
        let test = sample(&t, 20_000, 2);
        let model = fit(&train).unwrap();
        let c = calibrate(&model, &frequencies(&train), &test);
        assert_eq!(c.positions, 20_000);
        assert!(c.log_loss < c.constant_log_loss, "{c:?}");
        assert!(c.brier < c.constant_brier, "{c:?}");
        for d in c.deciles.iter().filter(|d| d.positions > 500) {
            assert!((d.predicted - d.actual).abs() < 0.05, "{d:?}");
        }
    }

    #[test]
    fn one_sided_results_are_refused_by_name() {
        let obs: Vec<Observation> = (0..100)
            .map(|i| Observation {
                mover: Role::Attacker,
                attackers_score: f64::from(i),
                result: Outcome::win(Role::Defender, ()),
            })
            .collect();
        assert_eq!(
            fit(&obs),
            Err(FitError::TooFewResults {
                mover: Role::Attacker,
                attackers: 0,
                defenders: 100
            })
        );
    }
}
