//! Match statistics: wins, draws and losses, the score with an Elo difference and its 95%
//! interval, and the sequential probability ratio test (SPRT).
//!
//! - Elo: from the score fraction `p` over `n` games, `Elo = -400 log10(1/p - 1)`. The 95%
//!   interval is `p ± 1.96 s/√n`, with `s` the standard deviation of the per-game scores
//!   (1, ½, 0), each bound turned into Elo. `p` and the bounds are clamped to
//!   `[1/(2n), 1 - 1/(2n)]`, so that 0 or n points still give a finite (large) value.
//!   With fewer than two scores, or all alike, there is no interval (its width would be
//!   0, a certainty the games do not give).
//! - SPRT: the generalised SPRT of fishtest and cutechess in its normal approximation
//!   with logistic Elo (Michel Van den Bergh's formula, fishtest's `LLR_logistic`): with
//!   `s0`, `s1` the expected scores at `elo0`, `elo1` and the sample mean `m` and variance
//!   `v` of the `n` units, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`. The test accepts H1
//!   (`elo >= elo1`) when `LLR >= ln((1-β)/α)` and H0 (`elo <= elo0`) when
//!   `LLR <= ln(β/(1-α))`. The units are what the caller passes: per-game scores (1, ½,
//!   0: the trinomial model) or the mean scores of game pairs (0, ¼, ½, ¾, 1: the
//!   pentanomial model, which `hnefi match` uses whenever the engines meet in game pairs,
//!   see `pairs.rs`). When every unit so far has the same score, the variance is taken
//!   with one virtual draw added (otherwise it is 0 and the test could never stop on a
//!   one-sided match); only draws give an LLR of 0. Fishtest instead puts 0.001 of a unit
//!   in every empty cell, which moves the LLR by about 1e-4 on typical counts.

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wdl {
    /// Games won.
    pub(crate) wins: u32,
    /// Games drawn.
    pub(crate) draws: u32,
    /// Games lost.
    pub(crate) losses: u32,
}

impl Wdl {
    /// Games counted.
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub(crate) fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Adds one game with this score (1, ½ or 0).
    pub(crate) fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// The Elo difference of a score fraction (unclamped: infinite at 0 and 1).
pub(crate) fn elo_of_score(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10() + 0.0
}

/// The expected score of an Elo difference.
pub(crate) fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EloEstimate {
    /// The score fraction.
    pub(crate) score: f64,
    /// The Elo difference.
    pub(crate) elo: f64,
    /// The lower and upper ends of the 95% interval; `None` when the scores cannot give
    /// one (fewer than two, or all the same: their variance is 0, and an interval of
    /// zero width would claim a certainty the games do not have).
    pub(crate) interval: Option<(f64, f64)>,
}

fn mean_var(scores: &[f64]) -> Option<(f64, f64)> {
    if scores.is_empty() {
        return None;
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    Some((mean, var))
}

/// The Elo estimate of per-game scores (1, ½, 0); `None` without games.
pub(crate) fn elo_estimate(scores: &[f64]) -> Option<EloEstimate> {
    let (mean, var) = mean_var(scores)?;
    let n = scores.len() as f64;
    let eps = 1.0 / (2.0 * n);
    let clamp = |p: f64| p.clamp(eps, 1.0 - eps).clamp(1e-6, 1.0 - 1e-6);
    let half = 1.959_964 * (var / n).sqrt();
    let low = elo_of_score(clamp(mean - half));
    let high = elo_of_score(clamp(mean + half));
    Some(EloEstimate {
        score: mean,
        elo: elo_of_score(clamp(mean)),
        interval: (scores.len() >= 2 && high - low > 1e-9).then_some((low, high)),
    })
}

/// The pentanomial counts of game pairs (the two games of one opening, sides swapped),
/// given as the first engine's mean score of each pair (0, ¼, ½, ¾ or 1): how many pairs
/// it scored 0, ½, 1, 1½ and 2 points in.
///
/// Pairs are the unit of the pentanomial model (as in fishtest): with one side much
/// stronger in the game, most pairs are one win each, and counting the games as if they
/// were independent overstates the noise. [`elo_estimate`] and [`Sprt::llr`] take pair
/// means as they take game scores.
pub(crate) fn pentanomial(pair_means: &[f64]) -> [u32; 5] {
    let mut counts = [0u32; 5];
    for &m in pair_means {
        let k = (m.clamp(0.0, 1.0) * 4.0).round() as usize;
        if let Some(c) = counts.get_mut(k) {
            *c += 1;
        }
    }
    counts
}

/// The parameters of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sprt {
    /// Elo of the null hypothesis.
    pub(crate) elo0: f64,
    /// Elo of the alternative.
    pub(crate) elo1: f64,
    /// False positive rate.
    pub(crate) alpha: f64,
    /// False negative rate.
    pub(crate) beta: f64,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SprtState {
    /// Not decided yet.
    Continue,
    /// H1 accepted: the first engine is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: the first engine is at most `elo0` stronger.
    AcceptH0,
}

/// A `--sprt` that is not `elo0,elo1,alpha,beta` with `elo0 < elo1` and rates in (0, ½).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid --sprt '{0}': expected elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5"
)]
pub(crate) struct SprtError(pub String);

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let err = || SprtError(super::dialect::shown(s));
        let [a, b, c, d] = parts.as_slice() else {
            return Err(err());
        };
        let mut v = [0.0; 4];
        for (slot, text) in v.iter_mut().zip([a, b, c, d]) {
            *slot = text.parse::<f64>().map_err(|_| err())?;
            if !slot.is_finite() {
                return Err(err());
            }
        }
        let [elo0, elo1, alpha, beta] = v;
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        if elo0 >= elo1 || !rate_ok(alpha) || !rate_ok(beta) || elo1.abs() > 2000.0 {
            return Err(err());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub(crate) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of per-game scores (0 without games, or with only draws).
    pub(crate) fn llr(&self, scores: &[f64]) -> f64 {
        let Some((mean, mut var)) = mean_var(scores) else {
            return 0.0;
        };
        if var <= 1e-12 {
            // Every game had the same score: take the variance with one virtual draw
            // added, so that a one-sided match can still stop.
            let mut padded = scores.to_vec();
            padded.push(0.5);
            var = mean_var(&padded).map_or(0.0, |(_, v)| v);
            if var <= 1e-12 {
                return 0.0;
            }
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        scores.len() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision after these scores.
    pub(crate) fn state(&self, scores: &[f64]) -> SprtState {
        let llr = self.llr(scores);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units of a count vector: `counts[i]` units scoring `i / (len - 1)`.
    fn units(counts: &[u32]) -> Vec<f64> {
        let top = (counts.len() - 1) as f64;
        counts
            .iter()
            .enumerate()
            .flat_map(|(i, &c)| std::iter::repeat_n(i as f64 / top, c as usize))
            .collect()
    }

    /// Reference values computed independently with fishtest's formulas (its
    /// `server/fishtest/stats/stat_util.py`: `LLR_logistic`, `results_to_pdf`, `stats`,
    /// and the bounds of `sprt`), in a separate script, not with this code.
    #[test]
    fn llr_equals_fishtest_reference_values() {
        let cases: [(f64, f64, &[u32], f64); 4] = [
            // Trinomial: losses, draws, wins.
            (0.0, 10.0, &[30, 40, 50], 0.8230061899809726),
            (0.0, 50.0, &[12, 7, 3], -2.9371279688447527),
            // Pentanomial: pairs scoring 0, ½, 1, 1½, 2.
            (0.0, 5.0, &[5, 20, 50, 30, 10], 0.5700016801668283),
            (-5.0, 5.0, &[3, 10, 80, 12, 6], 0.890122138560121),
        ];
        for (elo0, elo1, counts, want) in cases {
            let t = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let got = t.llr(&units(counts));
            assert!((got - want).abs() < 1e-9, "{counts:?}: {got} vs {want}");
        }
        // With empty cells fishtest adds 0.001 to each (3.6907619086008494 here); without
        // that regularisation the LLR is 3.6908876591473403.
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let got = t.llr(&units(&[1, 0, 180, 0, 12]));
        assert!((got - 3.6908876591473403).abs() < 1e-9, "{got}");
        assert!((got - 3.6907619086008494).abs() < 1e-3, "{got}");
        assert_eq!(t.state(&units(&[1, 0, 180, 0, 12])), SprtState::AcceptH1);
        let (low, high) = t.bounds();
        assert!((low - -2.9444389791664403).abs() < 1e-12);
        assert!((high - 2.9444389791664403).abs() < 1e-12);
        let t = Sprt { elo1: 50.0, ..t };
        assert_eq!(t.state(&units(&[12, 7, 3])), SprtState::Continue);
        assert_eq!(t.state(&units(&[24, 14, 6])), SprtState::AcceptH0);
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn elo_of_score() {
        use crate::tools::matches::stats::elo_of_score;
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
    }

    #[test]
    fn elo_estimate() {
        use crate::tools::matches::stats::elo_estimate;
        let e = elo_estimate(&[1.0, 0.5, 0.0, 1.0]).unwrap();
        assert!((e.score - 0.625).abs() < 1e-9);
        let (low, high) = e.interval.unwrap();
        assert!(low < e.elo && e.elo < high);
        let all = elo_estimate(&[1.0, 1.0]).unwrap();
        assert!(all.elo.is_finite() && all.elo > 0.0);
        assert_eq!(all.interval, None);
        assert_eq!(elo_estimate(&[0.5]).unwrap().interval, None);
    }

    #[test]
    fn pentanomial() {
        use crate::tools::matches::stats::pentanomial;
        assert_eq!(pentanomial(&[0.5, 0.5, 1.0, 0.75, 0.0]), [1, 0, 2, 1, 1]);
    }

    #[test]
    fn sprt_llr() {
        use crate::tools::matches::stats::Sprt;
        let t: Sprt = "0,50,0.05,0.05".parse().unwrap();
        let good = [1.0, 1.0, 0.5, 1.0, 0.0, 1.0, 1.0, 0.5];
        assert!(t.llr(&good) > 0.0);
        let bad = [0.0, 0.0, 0.5, 0.0, 1.0, 0.0];
        assert!(t.llr(&bad) < 0.0);
        assert_eq!(
            t.state(&[1.0; 10]),
            crate::tools::matches::stats::SprtState::AcceptH1
        );
        assert_eq!(t.llr(&[0.5; 10]), 0.0);
    }
}
