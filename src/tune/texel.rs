//! `hnefi tune`: Texel tuning of the evaluation's weights.
//!
//! The evaluation is linear in its weights ([`crate::search::eval::terms`] computes the
//! terms once, for the search and for this tuner), so from the defenders' point of view
//! a position is worth `E = w · t`. The tuner models the defenders' expected score of the
//! game as `sigmoid(K · E)` and minimises the mean squared error against the game results
//! of the samples (with `--lambda`, a mix of them and the search's scores): first `K`
//! with the starting weights (golden-section search on
//! `log K`), then the weights by full-batch gradient descent (Adam) with `K` fixed, then
//! whole weights one at a time ([`round_weights`]).
//! Samples of every tenth game (by game number) are held out to report the loss on data
//! the fit has not seen.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::sample::{Sample, SampleGame};
use super::sample_file::SampleFile;
use crate::core::geometry::S11;
use crate::core::position::Position;
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::outln;
use crate::search::eval;
use crate::search::terms::{TERM_NAMES, TERMS, Terms, Weights, term_index};
use crate::search::threats::Threats;

/// The Copenhagen 11x11 samples of a file, text or binary, the game this tuner fits; or
/// the file's first error.
fn read_samples(path: &std::path::Path) -> Result<Vec<Sample>, String> {
    let file = SampleFile::open(path).map_err(|e| e.to_string())?;
    if let Some(game) = file.game().filter(|&g| g != SampleGame::COPENHAGEN) {
        return Err(format!(
            "{}: samples of {game}, where Copenhagen 11x11 ones were expected",
            path.display()
        ));
    }
    file.samples::<S11>()
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

/// The terms of a Copenhagen 11x11 position, the game this tuner fits.
fn terms(pos: &Position) -> Terms {
    eval::terms(pos, &Threats::<S11>::new(&RuleSet::COPENHAGEN))
}

/// The flags of `hnefi tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The samples written by `hnefi selfplay` or `hnefi label` (one line each); several
    /// files are fitted together.
    #[arg(required = true, num_args = 1..)]
    pub(crate) data: Vec<PathBuf>,
    /// Passes of gradient descent over the training samples (watch the held-out loss:
    /// more passes can fit the training games better and the others worse).
    #[arg(long, default_value_t = 200)]
    pub(crate) epochs: u32,
    /// Step size of the descent, in centi-units per step.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) rate: f64,
    /// Samples of games whose number is a multiple of this are held out (0: none).
    #[arg(long, default_value_t = 10)]
    pub(crate) holdout_every: u64,
    /// Keep this weight at its starting value. May be repeated.
    #[arg(long, value_name = "NAME")]
    pub(crate) fix: Vec<String>,
    /// Start from this weight instead of the default (`NAME=VALUE`). May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    pub(crate) weight: Vec<String>,
    /// The share of the game's result in each sample's target, from 0 to 1; the rest goes
    /// to the sample's search score, as the expected score `sigmoid(K · score)`: 1 fits the
    /// evaluation to the results alone (Texel tuning), 0 to what the self-play search saw
    /// alone (deeper than the evaluation, and free of what merely accompanies a result).
    /// One value for every file, or one per file in their order (`--lambda 0,1`).
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub(crate) lambda: Vec<f64>,
}

/// A sample reduced to what the fit needs: its terms and the defenders' game score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Point {
    /// The terms of the position ([`terms`]).
    pub(crate) terms: [f64; TERMS],
    /// The target: the defenders' score of the game, 1, 0.5 or 0, unless
    /// [`Point::mix`] mixed in the search's score.
    pub(crate) target: f64,
    /// The search's score of the sample from the defenders' point of view.
    pub(crate) score: f64,
}

impl Point {
    /// The point of a sample.
    pub(crate) fn of(sample: &Sample) -> Point {
        Point {
            terms: terms(&sample.position).map(f64::from),
            target: sample.result.score(Role::Defender),
            score: f64::from(sample.defenders_score()),
        }
    }

    /// Makes the target `lambda` parts the game's result and the rest the search's
    /// expected score, `sigmoid(k · score)`.
    pub(crate) fn mix(&mut self, lambda: f64, k: f64) {
        self.target = lambda * self.target + (1.0 - lambda) * sigmoid(k * self.score);
    }
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(t: &[f64; TERMS], w: &[f64; TERMS]) -> f64 {
    t.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// The model of the fit: the weights, an offset and the scale `K`. The defenders'
/// expected score is `sigmoid(K · (w · t + offset))`. The offset stands for what the
/// evaluation cannot see and need not: that Copenhagen favours the defenders in every
/// position alike (a constant changes no move choice, so it is fitted and reported but
/// never enters the evaluation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Model {
    /// The weights.
    pub(crate) w: [f64; TERMS],
    /// The defenders' constant advantage, in centi-units.
    pub(crate) offset: f64,
    /// The scale of the sigmoid.
    pub(crate) k: f64,
}

/// The mean squared error of the model against the targets (0 for no points).
pub(crate) fn loss(points: &[Point], m: &Model) -> f64 {
    if points.is_empty() {
        return 0.0;
    }
    let sum: f64 = points
        .iter()
        .map(|p| {
            let e = sigmoid(m.k * (dot(&p.terms, &m.w) + m.offset)) - p.target;
            e * e
        })
        .sum();
    sum / points.len() as f64
}

/// The minimum of `f` on `[a, b]` by golden-section search (`f` unimodal there).
pub(crate) fn golden(mut a: f64, mut b: f64, iterations: u32, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..iterations {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// `K` and the offset that minimise the loss with the weights of `m`: golden-section
/// search on `log K` over `1e-5` to `1`, the best offset (within ±2000) for each `K`.
pub(crate) fn fit_k(points: &[Point], m: &Model) -> Model {
    let best_offset = |k: f64| {
        golden(-2000.0, 2000.0, 40, |o| {
            loss(points, &Model { offset: o, k, ..*m })
        })
    };
    let lk = golden(1e-5f64.ln(), 1f64.ln(), 40, |lk| {
        let k = lk.exp();
        loss(
            points,
            &Model {
                offset: best_offset(k),
                k,
                ..*m
            },
        )
    });
    let k = lk.exp();
    Model {
        offset: best_offset(k),
        k,
        ..*m
    }
}

/// Fits the weights not in `fixed`, and the offset, by `epochs` steps of Adam on the
/// loss with `K` fixed, starting from `start`, the step size falling linearly from `rate`.
pub(crate) fn fit_weights(
    points: &[Point],
    start: &Model,
    fixed: &[bool; TERMS],
    epochs: u32,
    rate: f64,
) -> Model {
    let mut model = *start;
    let k = model.k;
    // The parameters: the weights, then the offset.
    let mut x = [0.0f64; TERMS + 1];
    x[..TERMS].copy_from_slice(&model.w);
    x[TERMS] = model.offset;
    let (mut m, mut v) = ([0.0f64; TERMS + 1], [0.0f64; TERMS + 1]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let n = points.len().max(1) as f64;
    for step in 1..=epochs {
        let w: [f64; TERMS] = std::array::from_fn(|i| x[i]);
        let mut grad = [0.0f64; TERMS + 1];
        for p in points {
            let s = sigmoid(k * (dot(&p.terms, &w) + x[TERMS]));
            let g = 2.0 * (s - p.target) * s * (1.0 - s) * k;
            for (gi, ti) in grad.iter_mut().zip(&p.terms) {
                *gi += g * ti;
            }
            grad[TERMS] += g;
        }
        let t = step.min(10_000) as i32;
        // The step shrinks linearly to nothing over the passes: at a constant step Adam
        // keeps moving each weight by about `rate`, which for a term counted in tens
        // (mobility, the defenders' space) moves the evaluation by hundreds and keeps
        // the loss from settling.
        let step_rate = rate * f64::from(epochs - step + 1) / f64::from(epochs);
        for i in 0..=TERMS {
            if fixed.get(i).copied().unwrap_or(false) {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            x[i] -= step_rate * mh / (vh.sqrt() + eps);
        }
    }
    model.w = std::array::from_fn(|i| x[i]);
    model.offset = x[TERMS];
    model
}

/// Passes of the descent after each weight is rounded, over the weights still free.
const ROUNDING_EPOCHS: u32 = 40;

/// The weights of `m` made whole numbers (the evaluation's weights are integers), one at a
/// time: the weight whose term varies most across `points` first (rounding it moves the
/// evaluation most), then the free weights and the offset fitted again to make up for
/// it, and so on. Rounding all at once loses much of a fit whose terms count in tens
/// (mobility, the defenders' space) beside terms of 0 or 1.
pub(crate) fn round_weights(
    points: &[Point],
    m: &Model,
    fixed: &[bool; TERMS],
    rate: f64,
) -> Model {
    let n = points.len().max(1) as f64;
    let spread: [f64; TERMS] = std::array::from_fn(|i| {
        let mean = points.iter().map(|p| p.terms[i]).sum::<f64>() / n;
        points
            .iter()
            .map(|p| (p.terms[i] - mean).powi(2))
            .sum::<f64>()
            / n
    });
    let mut order: Vec<usize> = (0..TERMS).collect();
    order.sort_by(|a, b| spread[*b].total_cmp(&spread[*a]));
    let mut model = *m;
    let mut frozen = *fixed;
    for i in order {
        if let Some(w) = model.w.get_mut(i) {
            *w = w.round().clamp(-10_000.0, 10_000.0);
        }
        if let Some(f) = frozen.get_mut(i) {
            *f = true;
        }
        if frozen.iter().any(|f| !f) {
            model = fit_weights(points, &model, &frozen, ROUNDING_EPOCHS, rate / 10.0);
        }
    }
    model
}

/// Runs `hnefi tune`.
pub fn main(args: &TuneArgs) -> ExitCode {
    super::exit_code(run(args))
}

fn run(args: &TuneArgs) -> Result<(), String> {
    let mut start = Weights::default();
    for a in &args.weight {
        start.set(a).map_err(|e| e.to_string())?;
    }
    let mut fixed = [false; TERMS];
    for name in &args.fix {
        let i = term_index(name).ok_or_else(|| {
            format!(
                "unknown weight {name:?} for --fix (expected one of {})",
                TERM_NAMES.join(", ")
            )
        })?;
        fixed[i] = true;
    }
    if let Some(l) = args.lambda.iter().find(|l| !(0.0..=1.0).contains(*l)) {
        return Err(format!("--lambda must be from 0 to 1, got {l}"));
    }
    let lambdas: Vec<f64> = match args.lambda[..] {
        [l] => vec![l; args.data.len()],
        _ if args.lambda.len() == args.data.len() => args.lambda.clone(),
        _ => {
            return Err(format!(
                "--lambda has {} values for {} files (give one, or one per file)",
                args.lambda.len(),
                args.data.len()
            ));
        }
    };
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(format!("--rate must be positive, got {}", args.rate));
    }
    let clock = Instant::now();
    // Each point keeps the lambda of its file until K is known.
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (path, &lambda) in args.data.iter().zip(&lambdas) {
        for sample in read_samples(path)? {
            let point = (Point::of(&sample), lambda);
            if sample.is_held_out(args.holdout_every) {
                held.push(point);
            } else {
                train.push(point);
            }
        }
    }
    if train.is_empty() {
        return Err(
            "no training sample (every sample is held out, or the files are empty)".to_string(),
        );
    }
    eprintln!(
        "tune: {} training and {} held-out samples read in {:.1} s",
        train.len(),
        held.len(),
        clock.elapsed().as_secs_f64()
    );
    let points = |v: &[(Point, f64)]| v.iter().map(|(p, _)| *p).collect::<Vec<_>>();
    let mut m0 = fit_k(
        &points(&train),
        &Model {
            w: start.0.map(f64::from),
            offset: 0.0,
            k: 1.0,
        },
    );
    // K fitted to the results turns centi-units into an expected score, which also
    // turns the search's scores into targets. The offset (the defenders' advantage that
    // the results show and the search's scores do not) and K are then fitted again to
    // the mixed targets, so that the weights need not absorb the difference.
    let mix = lambdas.iter().any(|&l| l < 1.0);
    if mix {
        for (p, lambda) in train.iter_mut().chain(held.iter_mut()) {
            p.mix(*lambda, m0.k);
        }
    }
    let (train, held) = (points(&train), points(&held));
    if mix {
        m0 = fit_k(&train, &m0);
    }
    let before = (loss(&train, &m0), loss(&held, &m0));
    let clock = Instant::now();
    let m1 = fit_weights(&train, &m0, &fixed, args.epochs, args.rate);
    let unrounded = (loss(&train, &m1), loss(&held, &m1));
    let rounded = round_weights(&train, &m1, &fixed, args.rate);
    let tuned = Weights(rounded.w.map(|x| x as i32));
    let after = (loss(&train, &rounded), loss(&held, &rounded));
    outln!(
        "K = {:.6}, offset {:.1} (fitted with the starting weights)",
        m0.k,
        m0.offset
    );
    outln!(
        "loss (mean squared error) before: training {:.6}, held out {:.6}",
        before.0,
        before.1
    );
    outln!(
        "loss after {} epochs, offset {:.1}: training {:.6}, held out {:.6}",
        args.epochs,
        m1.offset,
        unrounded.0,
        unrounded.1
    );
    outln!(
        "loss with whole weights ({:.1} s), offset {:.1}: training {:.6}, held out {:.6}",
        clock.elapsed().as_secs_f64(),
        rounded.offset,
        after.0,
        after.1
    );
    outln!("weight changes:");
    for ((name, a), b) in TERM_NAMES.iter().zip(start.0).zip(tuned.0) {
        outln!("  {name:<26} {a:>6} -> {b:>6}");
    }
    outln!("tuned weights (Weights::default):");
    crate::tools::stdout::text(&tuned.to_rust());
    let flags: Vec<String> = TERM_NAMES
        .iter()
        .zip(tuned.0)
        .zip(start.0)
        .filter(|((_, b), a)| a != b)
        .map(|((n, b), _)| format!("--weight {n}={b}"))
        .collect();
    outln!("as engine flags: {}", flags.join(" "));
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::game::Game;
    use crate::core::outcome::Outcome;
    use crate::core::rng::SplitMix64;
    use crate::search::terms::weigh;

    /// Positions of random games (real feature vectors, with their correlations).
    pub(crate) fn random_positions(n: usize, seed: u64) -> Vec<crate::core::position::Position> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut game = Game::new(RuleSet::default());
            for _ in 0..(20 + rng.below(60)) {
                let legal = game.legal_moves();
                let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                    break;
                };
                if game.status().is_over() || game.play(mv).is_err() {
                    break;
                }
                if !game.status().is_over() {
                    out.push(*game.position());
                }
            }
        }
        out
    }

    /// `n` positions of random games (seed `seed`) with targets drawn from the model
    /// `truth` (soft results, so that its weights are the exact optimum).
    fn points_of(truth: &Model, n: usize, seed: u64) -> Vec<Point> {
        random_positions(n, seed)
            .iter()
            .map(|pos| {
                let t = terms(pos).map(f64::from);
                Point {
                    terms: t,
                    target: sigmoid(truth.k * (dot(&t, &truth.w) + truth.offset)),
                    score: 0.0,
                }
            })
            .collect()
    }

    #[test]
    fn terms_weighed_are_the_evaluation() {
        // The default weights, and weights with every piece-square term in play.
        let mut rng = SplitMix64::new(7);
        let random = Weights(std::array::from_fn(|_| rng.below(201) as i32 - 100));
        for (w, pos) in [Weights::default(), random]
            .into_iter()
            .flat_map(|w| random_positions(1000, 1).into_iter().map(move |p| (w, p)))
        {
            let evaluator = eval::Evaluator::new(&Threats::<S11>::new(&RuleSet::COPENHAGEN), &w);
            let e = weigh(&terms(&pos), &w);
            let signed = match pos.to_move() {
                crate::core::role::Role::Defender => e,
                crate::core::role::Role::Attacker => -e,
            };
            assert_eq!(evaluator.evaluate(&pos), signed);
            // The f64 dot product of the tuner agrees with the integer one.
            let p = Point::of(&Sample {
                position: pos,
                rules: SampleGame::COPENHAGEN.rules,
                result: Outcome::draw(()),
                score: 0,
                game: 0,
            });
            assert_eq!(dot(&p.terms, &w.0.map(f64::from)), f64::from(e));
        }
    }

    #[test]
    fn mixed_targets_weigh_result_and_search_score() {
        let point = |target: f64, score: f64| Point {
            terms: [0.0; TERMS],
            target,
            score,
        };
        let k = 0.004;
        let mut p = point(1.0, -300.0);
        p.mix(1.0, k);
        assert_eq!(p.target, 1.0);
        let mut p = point(1.0, -300.0);
        p.mix(0.0, k);
        assert!((p.target - sigmoid(-1.2)).abs() < 1e-12, "{p:?}");
        let mut p = point(0.0, 500.0);
        p.mix(0.25, k);
        assert!((p.target - 0.75 * sigmoid(2.0)).abs() < 1e-12, "{p:?}");
        // The score is read from the defenders' point of view whoever is to move.
        let line = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let a: Sample = format!("{line} attacker draw 40 3").parse().unwrap();
        let d: Sample = format!("{line} defender draw 40 3").parse().unwrap();
        assert_eq!(Point::of(&a).score, -40.0);
        assert_eq!(Point::of(&d).score, 40.0);
    }

    #[test]
    fn lambda_outside_zero_to_one_is_refused() {
        for lambda in [-0.1, 1.5, f64::NAN] {
            let args = TuneArgs {
                data: vec![PathBuf::from("/nonexistent")],
                epochs: 1,
                rate: 1.0,
                holdout_every: 10,
                fix: Vec::new(),
                weight: Vec::new(),
                lambda: vec![lambda],
            };
            let e = run(&args).unwrap_err();
            assert!(e.contains("--lambda"), "{e}");
        }
    }

    #[test]
    fn one_lambda_or_one_per_file() {
        let args = TuneArgs {
            data: vec![
                PathBuf::from("/nonexistent-a"),
                PathBuf::from("/nonexistent-b"),
            ],
            epochs: 1,
            rate: 1.0,
            holdout_every: 10,
            fix: Vec::new(),
            weight: Vec::new(),
            lambda: vec![0.0, 0.5, 1.0],
        };
        let e = run(&args).unwrap_err();
        assert!(e.contains("3 values for 2 files"), "{e}");
        // Two values for two files pass the check and fail at the first file.
        let args = TuneArgs {
            lambda: vec![0.0, 1.0],
            ..args
        };
        let e = run(&args).unwrap_err();
        assert!(e.contains("/nonexistent-a"), "{e}");
    }

    #[test]
    fn recovers_known_weights_and_k() {
        // Results drawn from a known model: the tuner, started elsewhere, must find the
        // model's weights again (soft results, so that the optimum is exact).
        let truth = Model {
            w: Weights::default().0.map(f64::from),
            offset: 150.0,
            k: 0.004,
        };
        let points = points_of(&truth, 6000, 2);
        let fitted = fit_k(
            &points,
            &Model {
                offset: 0.0,
                k: 1.0,
                ..truth
            },
        );
        assert!((fitted.k - truth.k).abs() < 1e-5, "{fitted:?}");
        assert!((fitted.offset - truth.offset).abs() < 1.0, "{fitted:?}");
        // Start from the known weights moved away, the material weights held fixed
        // (random games rarely vary them independently).
        let mut start = truth;
        for (i, s) in start.w.iter_mut().enumerate().skip(2) {
            *s += if i % 2 == 0 { 8.0 } else { -8.0 };
        }
        start.offset += 20.0;
        let mut fixed = [false; TERMS];
        fixed[0] = true;
        fixed[1] = true;
        // Nor do three more, each nearly a sum of others in random games (the descent
        // would need many more epochs to tell them apart): the
        // defenders' region (nearly the whole board) and its edge squares (all but the
        // attackers on the edge, piece-square terms), and the pressure on the king (the
        // attackers next to him, a king-relative term, unless he stands next to the
        // empty throne). They keep their true weights.
        for name in ["defender_space", "defender_edge", "king_pressure"] {
            if let Some(i) = term_index(name) {
                fixed[i] = true;
                start.w[i] = truth.w[i];
            }
        }
        let before = loss(&points, &start);
        let m = fit_weights(&points, &start, &fixed, 15000, 0.5);
        let after = loss(&points, &m);
        assert!(after < before / 100.0, "{before} -> {after}");
        // The predictions must agree, and every weight be found again.
        for p in &points {
            let e = |m: &Model| dot(&p.terms, &m.w) + m.offset;
            assert!(
                (e(&m) - e(&truth)).abs() < 5.0,
                "{} vs {}",
                e(&m),
                e(&truth)
            );
        }
        let w = m.w;
        let mut missed = Vec::new();
        for i in 0..TERMS {
            // A term that is zero in every point (random games never enclose the king,
            // for one) has no gradient: its weight must stay where it started. One that
            // is not zero in few points (the king on one class, say) is not determined
            // closely by them.
            let want = match points.iter().filter(|p| p.terms[i] != 0.0).count() {
                0 => start.w[i],
                n if n < points.len() / 20 => continue,
                _ => truth.w[i],
            };
            if (w[i] - want).abs() >= 0.5 {
                missed.push(format!("{}: {} instead of {want}", TERM_NAMES[i], w[i]));
            }
        }
        assert!(missed.is_empty(), "{missed:#?}");
    }

    #[test]
    fn whole_weights_lose_less_one_at_a_time_than_all_at_once() {
        // A true model with fractions where they matter most: on the terms counted in
        // tens (mobility, the defenders' space), a fraction of a centi-unit moves the
        // evaluation by tens.
        let mut truth = Model {
            w: Weights::default().0.map(f64::from),
            offset: 40.0,
            k: 0.004,
        };
        for name in ["mobility", "defender_space", "corner_open", "king_mobility"] {
            if let Some(i) = term_index(name) {
                truth.w[i] += 0.45;
            }
        }
        let points = points_of(&truth, 3000, 3);
        let mut fixed = [false; TERMS];
        fixed[0] = true;
        let all_at_once = Model {
            w: truth.w.map(f64::round),
            ..truth
        };
        let one_at_a_time = round_weights(&points, &truth, &fixed, 1.0);
        assert!(one_at_a_time.w.iter().all(|w| w.fract() == 0.0));
        assert_eq!(one_at_a_time.w[0], truth.w[0]);
        let (a, b) = (loss(&points, &all_at_once), loss(&points, &one_at_a_time));
        assert!(b < a / 2.0, "{a} all at once, {b} one at a time");
    }
}
