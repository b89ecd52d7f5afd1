//! `hnefi train`: fits the evaluation's learned correction ([`Network`]) to samples.
//!
//! The model is the tuner's ([`super::texel`]) with the network added: the defenders'
//! expected score of a sample is `sigmoid(K · (hand + offset + net))`, where `hand` is
//! the hand-written evaluation with the weights of the search that scored the sample (the
//! side to move's, [`Weights::for_side`], changed by `--attacker-weight`), `net` the output
//! of the side to move's head, and `K` and one constant `offset` per side to move are
//! fitted first with `hand` alone and then held. Data whose two sides searched with the
//! same weights (`hnefi selfplay --attacker-weight corner_fight=0 --attacker-weight
//! defender_space=6`) has every score on one scale. The
//! targets are the results (with `--lambda` below 1, mixed with the search's scores as
//! expected scores). The network is fitted by minibatch Adam on the mean squared error,
//! in floating point; then its weights are rounded to the integers of the engine's
//! inference and the held-out loss is measured again with the engine's own arithmetic.
//! Its output weights start at zero, so the fit starts from the hand-written evaluation
//! and learns only what that misses.
//!
//! The network is for the board of the samples' game (each sample names its rule family
//! and board, [`SampleOf`](super::sample::SampleOf)), fitted against the hand-written
//! evaluation of that board and the family's rules, and the network written is that
//! board's. Every sample of a fit must be of one game. Binary sample files
//! ([`record`](super::record)) are read as well, their game in their header.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::sample_file::{SampleFile, one_game};
use super::texel::{golden, sigmoid as sigmoid64};
use crate::core::geometry::Geometry;
use crate::core::outcome::Outcome;
use crate::core::position::PositionOf;
use crate::core::rng::SplitMix64;
use crate::core::role::{ByRole, Role};
use crate::outln;
use crate::search::eval::terms;
use crate::search::network::{self, HIDDEN, MAX_BIAS, NetworkOf, QA, QB, inputs_of, max_w1_of};
use crate::search::terms::{Weights, weigh};
use crate::search::threats::Threats;

/// The flags of `hnefi train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// The samples written by `hnefi selfplay`, `hnefi label` or `hnefi merge`, text or
    /// binary (told apart by the binary magic); several files are fitted together.
    #[arg(required = true, num_args = 1..)]
    pub(crate) data: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Passes over the training samples.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(crate) epochs: u32,
    /// Adam's step size at the start (it falls linearly by nine tenths of it over the
    /// passes: the last pass steps at a tenth plus one pass's fall).
    #[arg(long, default_value_t = 0.002)]
    pub(crate) rate: f64,
    /// Samples per step.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) batch: u64,
    /// The share of the game's result in each sample's target, from 0 to 1; the rest goes
    /// to the sample's search score as an expected score (as `hnefi tune --lambda`).
    #[arg(long, default_value_t = 1.0)]
    pub(crate) lambda: f64,
    /// Samples of games whose number is a multiple of this are held out (0: none).
    #[arg(long, default_value_t = 10)]
    pub(crate) holdout_every: u64,
    /// An evaluation weight of the attackers' searches that scored the samples
    /// (`NAME=VALUE`, as given to `hnefi selfplay --attacker-weight`), so that each
    /// sample is fitted against the evaluation that scored it. May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    pub(crate) attacker_weight: Vec<String>,
    /// Seed of the starting weights and of the order of the samples.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Show each training sample, at each pass, under one of the board's 8 symmetries
    /// (mirrors and rotations) drawn from the seed: the rules and the hand-written
    /// evaluation are symmetric, so the data counts eight times over.
    #[arg(long)]
    pub(crate) symmetries: bool,
}

/// Output weights count in units of this many centi-units, so that every parameter has
/// the same scale for Adam.
const OUTPUT_UNIT: f32 = 100.0;
/// The first layer's weights stay within this (in activations) on 11x11: multiplied by
/// `QA`, within the integer network's bound (`network::MAX_W1`).
const MAX_W1: f32 = 6.0;

/// The first layer's bound in activations on board `G`: [`MAX_W1`], or less where the
/// integer network's bound ([`max_w1_of`]) is smaller.
fn max_w1<G: Geometry>() -> f32 {
    MAX_W1.min(f32::from(max_w1_of::<G>()) / QA as f32)
}
/// The output weights stay within this (in [`OUTPUT_UNIT`]s), so that they fit an `i16`
/// once multiplied by `OUTPUT_UNIT · QB`.
const MAX_W2: f32 = 10.0;

/// The training set of board `G`: each sample's active inputs, head, hand-written
/// evaluation and target.
#[derive(Clone, Debug, Default)]
pub(crate) struct Set<G: Geometry> {
    inputs: Vec<u16>,
    /// Where each sample's inputs end in `inputs`.
    ends: Vec<u32>,
    head: Vec<u8>,
    /// The hand-written evaluation plus the offset, defenders' point of view.
    base: Vec<f32>,
    target: Vec<f32>,
    /// The positions (kept for the held-out set only, to measure the integer network).
    positions: Vec<PositionOf<G>>,
}

impl<G: Geometry> Set<G> {
    /// The number of samples.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// True without samples.
    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Adds a sample of `pos` whose hand-written evaluation (with the offset) is `base`.
    pub(crate) fn push(
        &mut self,
        pos: &PositionOf<G>,
        base: f32,
        target: f32,
        keep_position: bool,
    ) {
        self.inputs
            .extend(network::inputs(pos.board()).map(|i| i as u16));
        self.ends.push(self.inputs.len() as u32);
        self.head.push(network::head(pos.to_move()) as u8);
        self.base.push(base);
        self.target.push(target);
        if keep_position {
            self.positions.push(*pos);
        }
    }

    fn sample_inputs(&self, i: usize) -> &[u16] {
        let start = match i.checked_sub(1) {
            Some(p) => self.ends.get(p).copied().unwrap_or(0),
            None => 0,
        } as usize;
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        self.inputs.get(start..end).unwrap_or(&[])
    }
}

/// The network's parameters in floating point: the first layer in activations (1 is a
/// full unit), the output in [`OUTPUT_UNIT`]s.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Params {
    /// First layer, `inputs · HIDDEN`, input by input.
    pub(crate) w1: Vec<f32>,
    /// First layer's biases.
    pub(crate) b1: Vec<f32>,
    /// Output weights, `2 · HIDDEN`, head by head.
    pub(crate) w2: Vec<f32>,
    /// Output biases, one per head.
    pub(crate) b2: Vec<f32>,
}

impl Params {
    /// Small random first-layer weights, half-open units, zero output: the network's
    /// output is zero until the fit moves it. An 11x11 network's.
    #[cfg(test)]
    pub(crate) fn new(seed: u64) -> Params {
        Params::with_inputs(seed, crate::search::network::INPUTS)
    }

    /// [`Params::new`] for a network of `inputs` inputs (see [`inputs_of`]).
    pub(crate) fn with_inputs(seed: u64, inputs: usize) -> Params {
        let mut rng = SplitMix64::new(seed);
        let scale = 1.0 / (40f32).sqrt();
        let w1 = (0..inputs * HIDDEN)
            .map(|_| (unit(&mut rng) * 2.0 - 1.0) * scale)
            .collect();
        Params {
            w1,
            b1: vec![0.5; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: vec![0.0; 2],
        }
    }

    /// Parameters of the same shape, all zero (a gradient's).
    fn zeroed(&self) -> Params {
        Params {
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.b2.len()],
        }
    }

    fn len(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    fn slices_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    /// The hidden layer of a sample's inputs (before clipping).
    fn hidden(&self, inputs: &[u16], acc: &mut [f32; HIDDEN]) {
        for (a, b) in acc.iter_mut().zip(&self.b1) {
            *a = *b;
        }
        for &i in inputs {
            let start = i as usize * HIDDEN;
            if let Some(row) = self.w1.get(start..start + HIDDEN) {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += *w;
                }
            }
        }
    }

    /// The network's output in centi-units for a sample.
    fn output(&self, inputs: &[u16], head: usize, acc: &mut [f32; HIDDEN]) -> f32 {
        self.hidden(inputs, acc);
        let w2 = self
            .w2
            .get(head * HIDDEN..(head + 1) * HIDDEN)
            .unwrap_or(&[]);
        let sum: f32 = acc.iter().zip(w2).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum();
        OUTPUT_UNIT * (sum + self.b2.get(head).copied().unwrap_or(0.0))
    }

    /// The integer network of these parameters, for board `G`.
    pub(crate) fn quantize<G: Geometry>(&self) -> NetworkOf<G> {
        let q16 = |x: f32, scale: f32| (x * scale).round().clamp(-32767.0, 32767.0) as i16;
        let w1: Vec<[i16; HIDDEN]> = self
            .w1
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|j| q16(row.get(j).copied().unwrap_or(0.0), QA as f32)))
            .collect();
        let b1 = std::array::from_fn(|j| q16(self.b1.get(j).copied().unwrap_or(0.0), QA as f32));
        let out_scale = OUTPUT_UNIT * QB as f32;
        let w2 = std::array::from_fn(|h| {
            std::array::from_fn(|j| {
                q16(
                    self.w2.get(h * HIDDEN + j).copied().unwrap_or(0.0),
                    out_scale,
                )
            })
        });
        let b2 = std::array::from_fn(|h| {
            (self.b2.get(h).copied().unwrap_or(0.0) * OUTPUT_UNIT)
                .round()
                .clamp(-(MAX_BIAS as f32), MAX_BIAS as f32) as i32
        });
        NetworkOf::new(&w1, b1, w2, b2)
    }
}

/// A uniform number in [0, 1).
fn unit(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of the network `p` on `set` with scale `k` (the hand-written
/// evaluation alone when `p` is `None`).
pub(crate) fn loss<G: Geometry>(set: &Set<G>, p: Option<&Params>, k: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let mut acc = [0f32; HIDDEN];
    let mut sum = 0f64;
    for i in 0..set.len() {
        let net = match p {
            Some(p) => p.output(
                set.sample_inputs(i),
                usize::from(set.head.get(i).copied().unwrap_or(0)),
                &mut acc,
            ),
            None => 0.0,
        };
        let base = set.base.get(i).copied().unwrap_or(0.0);
        let t = set.target.get(i).copied().unwrap_or(0.5);
        let e = sigmoid(k * (base + net)) - t;
        sum += f64::from(e * e);
    }
    sum / set.len() as f64
}

/// The mean squared error of the integer network on the positions kept in `set`.
pub(crate) fn integer_loss<G: Geometry>(set: &Set<G>, net: &NetworkOf<G>, k: f32) -> f64 {
    if set.positions.is_empty() {
        return 0.0;
    }
    let mut sum = 0f64;
    for ((pos, base), t) in set.positions.iter().zip(&set.base).zip(&set.target) {
        let out = net.evaluate(pos.board(), pos.to_move()) as f32;
        let e = sigmoid(k * (base + out)) - t;
        sum += f64::from(e * e);
    }
    sum / set.positions.len() as f64
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

/// How [`fit`] steps: `epochs` passes in batches of `batch` samples (in an order
/// shuffled by `seed`), a pass after `n` others stepping at `rate · (1 − 0.9 · n / epochs)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Schedule {
    /// Passes over the samples.
    pub(crate) epochs: u32,
    /// Adam's first step size.
    pub(crate) rate: f32,
    /// Samples per step.
    pub(crate) batch: usize,
    /// Seed of the samples' order.
    pub(crate) seed: u64,
    /// Show each sample, at each pass, under one of the board's 8 symmetries drawn from
    /// `seed` (`hnefi train --symmetries`).
    pub(crate) symmetries: bool,
}

/// Fits `p` to `set` with scale `k` as `schedule` says; calls `report` after each pass
/// with its number.
pub(crate) fn fit<G: Geometry>(
    set: &Set<G>,
    p: &mut Params,
    k: f32,
    schedule: Schedule,
    mut report: impl FnMut(u32, &Params),
) {
    let Schedule {
        epochs,
        rate,
        batch,
        seed,
        symmetries,
    } = schedule;
    let n = p.len();
    let mut adam = Adam {
        m: vec![0.0; n],
        v: vec![0.0; n],
        t: 0,
    };
    let mut grad = p.zeroed();
    let mut order: Vec<usize> = (0..set.len()).collect();
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut acc = [0f32; HIDDEN];
    let batch = batch.max(1);
    // Each input's image under each symmetry (0 is the identity), and a sample's image.
    let images: Vec<Vec<u16>> = (0..8u8)
        .map(|sym| {
            (0..inputs_of::<G>())
                .map(|i| network::transform_input_of::<G>(i, sym) as u16)
                .collect()
        })
        .collect();
    let mut moved: Vec<u16> = Vec::new();
    for epoch in 1..=epochs {
        rng.shuffle(&mut order);
        let progress = (epoch - 1) as f32 / epochs.max(1) as f32;
        let step = rate * (1.0 - 0.9 * progress);
        for chunk in order.chunks(batch) {
            for g in grad.slices_mut() {
                g.iter_mut().for_each(|x| *x = 0.0);
            }
            for &i in chunk {
                let sym = if symmetries { rng.next_u64() % 8 } else { 0 };
                let mut inputs = set.sample_inputs(i);
                if let Some(image) = images.get(sym as usize).filter(|_| sym != 0) {
                    moved.clear();
                    moved.extend(
                        inputs
                            .iter()
                            .map(|&x| image.get(usize::from(x)).copied().unwrap_or(x)),
                    );
                    inputs = &moved;
                }
                accumulate(set, p, i, inputs, k, &mut acc, &mut grad);
            }
            adam_step(p, &grad, &mut adam, step, chunk.len() as f32, max_w1::<G>());
        }
        report(epoch, p);
    }
}

/// Adds the gradient of sample `i`'s squared error to `grad`, the sample shown by
/// `inputs` (its own or an image of them under a symmetry).
fn accumulate<G: Geometry>(
    set: &Set<G>,
    p: &Params,
    i: usize,
    inputs: &[u16],
    k: f32,
    acc: &mut [f32; HIDDEN],
    grad: &mut Params,
) {
    let head = usize::from(set.head.get(i).copied().unwrap_or(0));
    let net = p.output(inputs, head, acc);
    let base = set.base.get(i).copied().unwrap_or(0.0);
    let t = set.target.get(i).copied().unwrap_or(0.5);
    let s = sigmoid(k * (base + net));
    // d(error²)/d(net / OUTPUT_UNIT).
    let g = 2.0 * (s - t) * s * (1.0 - s) * k * OUTPUT_UNIT;
    let range = head * HIDDEN..(head + 1) * HIDDEN;
    if let Some(b) = grad.b2.get_mut(head) {
        *b += g;
    }
    let (Some(gw2), Some(w2)) = (grad.w2.get_mut(range.clone()), p.w2.get(range)) else {
        return;
    };
    let mut dacc = [0f32; HIDDEN];
    for (((d, gw), w), a) in dacc.iter_mut().zip(gw2).zip(w2).zip(acc.iter()) {
        *gw += g * a.clamp(0.0, 1.0);
        if *a > 0.0 && *a < 1.0 {
            *d = g * w;
        }
    }
    for (gb, d) in grad.b1.iter_mut().zip(&dacc) {
        *gb += d;
    }
    for &inp in inputs {
        let start = inp as usize * HIDDEN;
        if let Some(row) = grad.w1.get_mut(start..start + HIDDEN) {
            for (gw, d) in row.iter_mut().zip(&dacc) {
                *gw += d;
            }
        }
    }
}

/// One step of Adam with the mean of the batch's gradients, then the weights clipped to
/// what the integer network holds (the first layer's to `max_w1`).
fn adam_step(p: &mut Params, grad: &Params, adam: &mut Adam, rate: f32, count: f32, max_w1: f32) {
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    adam.t = adam.t.saturating_add(1);
    let t = adam.t.min(10_000);
    let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
    let limits = [max_w1, max_w1, MAX_W2, MAX_BIAS as f32 / OUTPUT_UNIT];
    let grads = [&grad.w1, &grad.b1, &grad.w2, &grad.b2];
    let mut at = 0usize;
    for ((params, g), limit) in p.slices_mut().into_iter().zip(grads).zip(limits) {
        for (x, gi) in params.iter_mut().zip(g.iter()) {
            let gi = gi / count;
            if let (Some(m), Some(v)) = (adam.m.get_mut(at), adam.v.get_mut(at)) {
                *m = b1 * *m + (1.0 - b1) * gi;
                *v = b2 * *v + (1.0 - b2) * gi * gi;
                *x -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
                *x = x.clamp(-limit, limit);
            }
            at += 1;
        }
    }
}

/// The summed squared error of `sigmoid(k · (hand + offset))` against `pairs` of the
/// hand-written evaluation and the target.
fn pair_loss(pairs: &[(f64, f64)], k: f64, offset: f64) -> f64 {
    pairs
        .iter()
        .map(|(h, r)| {
            let e = sigmoid64(k * (h + offset)) - r;
            e * e
        })
        .sum()
}

/// `K` and the offset that fit `sigmoid(K · (hand + offset))` best to the results
/// (`pairs` of the hand-written evaluation and the defenders' score), as `hnefi tune`.
pub(crate) fn fit_k(pairs: &[(f64, f64)]) -> (f64, f64) {
    let k = golden(1e-5f64.ln(), 1f64.ln(), 40, |lk| {
        let k = lk.exp();
        pair_loss(pairs, k, fit_offset(pairs, k))
    })
    .exp();
    (k, fit_offset(pairs, k))
}

/// The offset (within ±2000) that fits `sigmoid(k · (hand + offset))` best to `pairs`
/// (0 for none).
pub(crate) fn fit_offset(pairs: &[(f64, f64)], k: f64) -> f64 {
    if pairs.is_empty() {
        return 0.0;
    }
    golden(-2000.0, 2000.0, 40, |o| pair_loss(pairs, k, o))
}

/// Runs `hnefi train`.
pub fn main(args: &TrainArgs) -> ExitCode {
    super::exit_code(run(args))
}

/// A sample with its hand-written evaluation (defenders' point of view) and whether it
/// is held out.
struct Row<G: Geometry> {
    position: PositionOf<G>,
    result: Outcome<()>,
    defenders_score: i32,
    hand: f64,
    held: bool,
}

fn run(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda must be from 0 to 1, got {}", args.lambda));
    }
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(format!("--rate must be positive, got {}", args.rate));
    }
    let clock = Instant::now();
    // Each sample's score came from a search for its side to move, with that side's
    // weights: the base it is fitted against.
    let mut weights = ByRole::new_with(Weights::for_side);
    for a in &args.attacker_weight {
        weights
            .get_mut(Role::Attacker)
            .set(a)
            .map_err(|e| e.to_string())?;
    }
    let files = args
        .data
        .iter()
        .map(|p| SampleFile::open(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let game = one_game(&files).map_err(|e| e.to_string())?;
    let rules = game
        .rules
        .variant(game.size)
        .map_err(|e| e.to_string())?
        .rules();
    crate::with_size!(game.size, G => {
        let threats = Threats::<G>::new(&rules);
        let hand = |pos: &PositionOf<G>, side: Role| weigh(&terms(pos, &threats), weights.get(side));
        let rows = rows_of::<G>(&files, args.holdout_every, &hand)?;
        drop(files);
        train::<G>(args, rows, clock)
    })
}

/// The samples of `files` on board `G` as rows, with `hand` (a position's hand-written
/// evaluation with the weights of a side's search) and the games whose number is a
/// multiple of `holdout_every` held out.
fn rows_of<G: Geometry>(
    files: &[SampleFile],
    holdout_every: u64,
    hand: &dyn Fn(&PositionOf<G>, Role) -> i32,
) -> Result<Vec<Row<G>>, String> {
    let mut rows = Vec::new();
    for f in files {
        for sample in f.samples::<G>() {
            let sample = sample.map_err(|e| e.to_string())?;
            let side = sample.position.to_move();
            rows.push(Row {
                position: sample.position,
                result: sample.result,
                defenders_score: sample.defenders_score(),
                hand: f64::from(hand(&sample.position, side)),
                held: sample.is_held_out(holdout_every),
            });
        }
    }
    Ok(rows)
}

/// Fits a network for board `G` to `rows` and writes it.
fn train<G: Geometry>(args: &TrainArgs, rows: Vec<Row<G>>, clock: Instant) -> Result<(), String> {
    // The training rows' hand-written evaluations against `target`, of one side to move
    // or of both.
    let training = |target: &dyn Fn(usize, &Row<G>) -> f64, side: Option<Role>| {
        rows.iter()
            .enumerate()
            .filter(|(_, r)| !r.held && side.is_none_or(|side| r.position.to_move() == side))
            .map(|(i, r)| (r.hand, target(i, r)))
            .collect::<Vec<(f64, f64)>>()
    };
    let results = training(&|_, r| r.result.score(Role::Defender), None);
    if results.is_empty() {
        return Err(
            "no training sample (every sample is held out, or the files are empty)".to_string(),
        );
    }
    // K fitted to the results turns the search's scores into expected scores; K and the
    // offset are then fitted again to the mixed targets (as `hnefi tune` does), so that
    // the network need not learn the difference between the two (a constant).
    let (k0, _) = fit_k(&results);
    let targets: Vec<f64> = rows
        .iter()
        .map(|r| {
            let searched = sigmoid64(k0 * f64::from(r.defenders_score));
            args.lambda * r.result.score(Role::Defender) + (1.0 - args.lambda) * searched
        })
        .collect();
    let mixed = |i: usize, _: &Row<G>| targets.get(i).copied().unwrap_or(0.5);
    let (k, _) = fit_k(&training(&mixed, None));
    // One offset per side: the two sides' weights differ by more than a constant
    // (`Weights::for_side`), and a head's constant would enter every evaluation.
    let offsets = ByRole::new_with(|side: Role| fit_offset(&training(&mixed, Some(side)), k));
    let (mut train, mut held) = (Set::<G>::default(), Set::<G>::default());
    for (r, target) in rows.iter().zip(&targets) {
        let set = if r.held { &mut held } else { &mut train };
        let offset = *offsets.get(r.position.to_move());
        set.push(
            &r.position,
            (r.hand + offset) as f32,
            *target as f32,
            r.held,
        );
    }
    drop(rows);
    eprintln!(
        "train: {} training and {} held-out samples read in {:.1} s",
        train.len(),
        held.len(),
        clock.elapsed().as_secs_f64()
    );
    let kf = k as f32;
    outln!(
        "K = {k:.6}, offsets {:.1} with the attackers to move, {:.1} with the defenders \
         (fitted to the targets with the hand-written evaluation)",
        offsets.get(Role::Attacker),
        offsets.get(Role::Defender)
    );
    outln!(
        "loss without the network: training {:.6}, held out {:.6}",
        loss(&train, None, kf),
        loss(&held, None, kf)
    );
    let mut params = Params::with_inputs(args.seed, inputs_of::<G>());
    let clock = Instant::now();
    fit(
        &train,
        &mut params,
        kf,
        Schedule {
            epochs: args.epochs,
            rate: args.rate as f32,
            batch: usize::try_from(args.batch).unwrap_or(1),
            seed: args.seed,
            symmetries: args.symmetries,
        },
        |epoch, p| {
            outln!(
                "epoch {epoch}: training {:.6}, held out {:.6} ({:.0} s)",
                loss(&train, Some(p), kf),
                loss(&held, Some(p), kf),
                clock.elapsed().as_secs_f64()
            );
        },
    );
    let net = params.quantize::<G>();
    outln!(
        "held out with the integer network: {:.6}",
        integer_loss(&held, &net, kf)
    );
    std::fs::write(&args.out, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    outln!("network written to {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::BoardSize;
    use crate::core::geometry::S11;
    use crate::core::position::Position;
    use crate::core::preset::RulePreset;
    use crate::tune::texel::tests::random_positions;

    /// A truth that no weight of the hand-written terms holds (the board is symmetric to
    /// them): the defenders do better with their soldiers on the left half of the board,
    /// and the side to move has a tempo.
    fn truth(pos: &Position) -> f32 {
        let b = pos.board();
        let left = b.defenders().into_iter().filter(|s| s.file() < 5).count() as f32;
        let right = b.defenders().into_iter().filter(|s| s.file() > 5).count() as f32;
        let tempo = if pos.to_move() == Role::Attacker {
            -40.0
        } else {
            40.0
        };
        60.0 * (left - right) + tempo
    }

    fn set_of(positions: &[Position], k: f32, keep: bool) -> Set<S11> {
        let mut set = Set::<S11>::default();
        for pos in positions {
            set.push(pos, 0.0, sigmoid(k * truth(pos)), keep);
        }
        set
    }

    #[test]
    fn the_fit_learns_what_the_base_misses_and_the_integers_keep_it() {
        let k = 0.01;
        let train = set_of(&random_positions(4000, 1), k, false);
        let held = set_of(&random_positions(1000, 2), k, true);
        let mut p = Params::new(3);
        let before = loss(&held, Some(&p), k);
        assert_eq!(before, loss(&held, None, k), "a new network outputs zero");
        let schedule = Schedule {
            epochs: 30,
            rate: 0.01,
            batch: 64,
            seed: 4,
            symmetries: false,
        };
        fit(&train, &mut p, k, schedule, |_, _| {});
        let after = loss(&held, Some(&p), k);
        assert!(after < before * 0.3, "held-out loss {before} -> {after}");
        let net = p.quantize::<S11>();
        let integer = integer_loss(&held, &net, k);
        assert!(
            (integer - after).abs() < 0.1 * after + 1e-4,
            "float {after}, integer {integer}"
        );
        // The file round-trips to the same network.
        assert_eq!(NetworkOf::<S11>::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn symmetries_teach_the_images_of_the_samples() {
        let k = 0.01;
        // Two positions that differ by one move from the same position, with the same
        // pieces and side to move: only where those pieces stand tells them apart.
        let base = random_positions(1, 11)
            .first()
            .copied()
            .unwrap_or_else(Position::start);
        let quiet: Vec<Position> = base
            .legal_moves(&crate::core::rules::RuleSet::COPENHAGEN)
            .as_slice()
            .iter()
            .filter_map(|&mv| {
                let mut next = base;
                next.make_move(mv, &Default::default())
                    .is_empty()
                    .then_some(next)
            })
            .collect();
        let (Some(&first), Some(&last)) = (quiet.first(), quiet.last()) else {
            panic!("no quiet move from {base:?}");
        };
        assert_ne!(first, last);
        let positions = [first, last];
        let targets = [0.9f32, 0.1];
        let mut train = Set::<S11>::default();
        for _ in 0..50 {
            for (pos, t) in positions.iter().zip(targets) {
                train.push(pos, 0.0, t, false);
            }
        }
        // The other seven images of each position, never trained on as they are.
        let mut images = Set::<S11>::default();
        for (pos, t) in positions.iter().zip(targets) {
            for sym in 1..8 {
                images.push(&pos.transform(sym), 0.0, t, true);
            }
        }
        let fitted = |symmetries| {
            let mut p = Params::new(5);
            let schedule = Schedule {
                epochs: 60,
                rate: 0.01,
                batch: 10,
                seed: 6,
                symmetries,
            };
            fit(&train, &mut p, k, schedule, |_, _| {});
            (loss(&train, Some(&p), k), loss(&images, Some(&p), k))
        };
        let (own, seen) = fitted(true);
        let (own_plain, unseen) = fitted(false);
        assert!(own < 0.01 && own_plain < 0.01, "{own} {own_plain}");
        assert!(seen < 0.01, "the images' loss with symmetries: {seen}");
        assert!(
            unseen > 2.0 * seen,
            "without them {unseen}, with them {seen}"
        );
    }

    #[test]
    fn fit_k_finds_the_scale_and_offset_of_its_data() {
        let (k, o) = (0.004, 150.0);
        let pairs: Vec<(f64, f64)> = (-300..300)
            .map(|h| {
                let h = f64::from(h) * 3.0;
                (h, 1.0 / (1.0 + (-k * (h + o)).exp()))
            })
            .collect();
        let (fk, fo) = fit_k(&pairs);
        assert!((fk - k).abs() < k * 0.02, "K {fk}");
        assert!((fo - o).abs() < 5.0, "offset {fo}");
    }

    /// The trainer's float forward pass and the engine's integer one agree within the
    /// rounding of the weights on a board other than 11x11 (hnefatafl.org's game of board
    /// `G`, positions of a random game).
    fn float_and_integer_networks_agree_on<G: crate::core::geometry::Geometry>(size: BoardSize) {
        use crate::core::game::GameOf;
        let variant = RulePreset::HnefataflOrg.variant(size).unwrap();
        let start = variant.start_position::<G>().unwrap();
        let mut game = GameOf::<G>::from_position(start, variant.rules());
        let mut p = Params::with_inputs(7, inputs_of::<G>());
        let mut rng = SplitMix64::new(8);
        for w in p.w2.iter_mut() {
            *w = unit(&mut rng) * 2.0 - 1.0;
        }
        p.b2 = vec![0.3, -0.2];
        let net = p.quantize::<G>();
        let mut acc = [0f32; HIDDEN];
        let mut compared = 0;
        for _ in 0..60 {
            let pos = *game.position();
            let inputs: Vec<u16> = network::inputs(pos.board()).map(|i| i as u16).collect();
            let head = network::head(pos.to_move());
            let float = p.output(&inputs, head, &mut acc);
            let int = net.evaluate(pos.board(), pos.to_move()) as f32;
            // Each hidden unit is off by at most half a step per input and its bias; each
            // output weight by half a step; the division truncates; the bias rounds.
            let per_unit = (inputs.len() + 1) as f32 * 0.5 / QA as f32;
            let w2 = &p.w2[head * HIDDEN..(head + 1) * HIDDEN];
            let bound: f32 = w2
                .iter()
                .map(|w| (w.abs() * OUTPUT_UNIT + 0.5 / QB as f32) * per_unit)
                .sum::<f32>()
                + HIDDEN as f32 * 0.5 / QB as f32
                + 1.5;
            assert!((float - int).abs() <= bound, "{float} {int} {bound}");
            compared += 1;
            let legal = game.legal_moves();
            let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                break;
            };
            if game.status().is_over() || game.play(mv).is_err() {
                break;
            }
        }
        assert!(compared > 5);
    }

    #[test]
    fn float_and_integer_networks_agree_on_seven_by_seven() {
        float_and_integer_networks_agree_on::<crate::core::geometry::S7>(BoardSize::S7);
    }

    #[test]
    fn float_and_integer_networks_agree_on_thirteen_by_thirteen() {
        float_and_integer_networks_agree_on::<crate::core::geometry::S13>(BoardSize::S13);
    }
}
