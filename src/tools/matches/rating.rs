//! The rating list of a tournament: every engine's Elo from every game at once, by maximum
//! likelihood, as ordo and bayeselo compute it.
//!
//! - Model: engine `i` scores `p_ij = 1 / (1 + 10^((r_j - r_i) / 400))` against `j` (the
//!   logistic Elo curve); a draw counts as half a win and half a loss, so the
//!   log-likelihood is `Σ s_ij ln p_ij` over ordered pairs, `s_ij` the points `i` scored
//!   against `j`. Its maximum is where every engine's expected score equals its points
//!   (`Σ_j n_ij p_ij = Σ_j s_ij`); with two engines that is `r_1 - r_2 = 400 log10(s / (1 -
//!   s))`, the Elo of the score fraction, and in a gauntlet (a star: no cycle of
//!   opponents) each opponent's rating is its own match's Elo against the first engine.
//! - Solved by Newton's method (the log-likelihood is concave in the ratings) with a
//!   backtracking line search, the anchor held at 0.
//! - Error bars: the 95% interval `± 1.96 σ`, with σ² the diagonal of the inverse of the
//!   negated Hessian of the log-likelihood at the maximum (the anchor removed: the errors
//!   are relative to the anchor, whose own error is 0 by definition). A draw has a smaller
//!   variance than this binomial model gives it, so with many draws the bars are somewhat
//!   wide rather than narrow.
//! - No finite maximum: when some group of engines scored every point against the rest
//!   (an engine that won or lost every game, say), the likelihood grows without bound as
//!   their ratings part. The engines then fall into groups (within a group each engine
//!   reaches each other by points scored, directly or through others), and a pair of
//!   engines of two groups that met scored one way only. The list adds one virtual draw to
//!   each such pair (a prior in the manner of bayeselo's virtual draws, there added to
//!   every pair), which makes every rating finite and keeps the exact maximum within each
//!   group, and says so in a note: the distance between the groups is set by the prior
//!   as much as by the games. With two engines, `n` wins of `n` games give the Elo of
//!   `n + ½` points of `n + 1`.
//! - Engines with no games linking them to the anchor (through opponents) are not rated.

use std::f64::consts::LN_10;

/// Elo per natural-log unit of the odds: `p = 1 / (1 + e^(-C (r_i - r_j)))`.
const C: f64 = LN_10 / 400.0;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// One game as the rating list counts it: the two engines and the first one's score (1,
/// ½ or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scored {
    /// One engine.
    pub(crate) engine: usize,
    /// Its opponent.
    pub(crate) opponent: usize,
    /// The first engine's score.
    pub(crate) score: f64,
}

/// One engine's line of the list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rating {
    /// Its Elo relative to the anchor.
    pub(crate) elo: f64,
    /// Half the width of its 95% interval (0 for the anchor).
    pub(crate) error: f64,
}

/// Every engine's line: `None` for an engine no game links to the anchor.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RatingList {
    /// The ratings, in engine order.
    pub(crate) ratings: Vec<Option<Rating>>,
    /// Points per engine.
    pub(crate) points: Vec<f64>,
    /// Games per engine.
    pub(crate) games: Vec<u32>,
    /// The engine held at 0.
    pub(crate) anchor: usize,
    /// Set when the games give no finite maximum and the prior (virtual draws) was
    /// added: the engines that won or lost every game, and the pairs it was added to.
    pub(crate) prior: Option<Unbounded>,
}

/// Why the maximum-likelihood ratings were not finite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unbounded {
    /// Engines that won every game they played.
    pub(crate) won_all: Vec<usize>,
    /// Engines that lost every game they played.
    pub(crate) lost_all: Vec<usize>,
    /// The pairs (lower engine first) that got one virtual draw each.
    pub(crate) pairs: Vec<(usize, usize)>,
}

/// A small dense matrix (the engines of a tournament: a few dozen at most).
struct Matrix {
    n: usize,
    cells: Vec<f64>,
}

impl Matrix {
    fn zero(n: usize) -> Matrix {
        Matrix {
            n,
            cells: vec![0.0; n.saturating_mul(n)],
        }
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        if i < self.n && j < self.n {
            self.cells.get(i * self.n + j).copied().unwrap_or(0.0)
        } else {
            0.0
        }
    }

    fn set(&mut self, i: usize, j: usize, v: f64) {
        if i < self.n
            && j < self.n
            && let Some(c) = self.cells.get_mut(i * self.n + j)
        {
            *c = v;
        }
    }

    fn add(&mut self, i: usize, j: usize, v: f64) {
        let old = self.at(i, j);
        self.set(i, j, old + v);
    }

    /// The inverse (Gauss-Jordan with partial pivoting); `None` when singular.
    fn inverse(&self) -> Option<Matrix> {
        let n = self.n;
        let mut a = Matrix {
            n,
            cells: self.cells.clone(),
        };
        let mut inv = Matrix::zero(n);
        for i in 0..n {
            inv.set(i, i, 1.0);
        }
        for col in 0..n {
            let pivot =
                (col..n).max_by(|&x, &y| a.at(x, col).abs().total_cmp(&a.at(y, col).abs()))?;
            let p = a.at(pivot, col);
            if p.abs() < 1e-300 || !p.is_finite() {
                return None;
            }
            for m in [&mut a, &mut inv] {
                for k in 0..n {
                    let (x, y) = (m.at(col, k), m.at(pivot, k));
                    m.set(pivot, k, x);
                    m.set(col, k, y / p);
                }
            }
            for row in 0..n {
                let f = a.at(row, col);
                if row == col || f == 0.0 {
                    continue;
                }
                for k in 0..n {
                    a.add(row, k, -f * a.at(col, k));
                    inv.add(row, k, -f * inv.at(col, k));
                }
            }
        }
        Some(inv)
    }
}

/// `ln(1 / (1 + e^-x))`, without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// The games between each pair and the points of each against each.
struct Tally {
    games: Matrix,
    points: Matrix,
}

impl Tally {
    fn new(n: usize, results: &[Scored]) -> Tally {
        let mut t = Tally {
            games: Matrix::zero(n),
            points: Matrix::zero(n),
        };
        for g in results {
            let (i, j) = (g.engine, g.opponent);
            if i == j || i >= n || j >= n {
                continue;
            }
            let s = g.score.clamp(0.0, 1.0);
            t.games.add(i, j, 1.0);
            t.games.add(j, i, 1.0);
            t.points.add(i, j, s);
            t.points.add(j, i, 1.0 - s);
        }
        t
    }

    /// The log-likelihood of ratings `r` over the engines `set`.
    fn log_likelihood(&self, set: &[usize], r: &[f64]) -> f64 {
        let mut l = 0.0;
        for (a, &i) in set.iter().enumerate() {
            for (b, &j) in set.iter().enumerate() {
                let s = self.points.at(i, j);
                if a != b && s > 0.0 {
                    let d = r.get(a).copied().unwrap_or(0.0) - r.get(b).copied().unwrap_or(0.0);
                    l += s * ln_sigmoid(C * d);
                }
            }
        }
        l
    }

    /// The gradient of the log-likelihood and its negated Hessian at `r` over `set`.
    fn derivatives(&self, set: &[usize], r: &[f64]) -> (Vec<f64>, Matrix) {
        let m = set.len();
        let mut grad = vec![0.0; m];
        let mut hess = Matrix::zero(m);
        for (a, &i) in set.iter().enumerate() {
            for (b, &j) in set.iter().enumerate() {
                let n = self.games.at(i, j);
                if a == b || n == 0.0 {
                    continue;
                }
                let d = r.get(a).copied().unwrap_or(0.0) - r.get(b).copied().unwrap_or(0.0);
                let p = 1.0 / (1.0 + (-C * d).exp());
                if let Some(g) = grad.get_mut(a) {
                    *g += C * (self.points.at(i, j) - n * p);
                }
                let w = C * C * n * p * (1.0 - p);
                hess.add(a, a, w);
                hess.add(a, b, -w);
            }
        }
        (grad, hess)
    }
}

/// The engines that games link to `anchor`, in engine order.
fn component(games: &Matrix, anchor: usize) -> Vec<usize> {
    let n = games.n;
    let mut seen = vec![false; n];
    let mut stack = vec![anchor];
    while let Some(i) = stack.pop() {
        match seen.get_mut(i) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        stack.extend((0..n).filter(|&j| games.at(i, j) > 0.0));
    }
    (0..n).filter(|&i| seen.get(i) == Some(&true)).collect()
}

/// Which engines of `set` reach which by "scored a point or half of one against", directly
/// or through others (each reaches itself): `reach[a][b]` over positions in `set`.
fn reachability(points: &Matrix, set: &[usize]) -> Matrix {
    let m = set.len();
    let mut reach = Matrix::zero(m);
    for (a, &i) in set.iter().enumerate() {
        for (b, &j) in set.iter().enumerate() {
            if a == b || points.at(i, j) > 0.0 {
                reach.set(a, b, 1.0);
            }
        }
    }
    for k in 0..m {
        for a in 0..m {
            for b in 0..m {
                if reach.at(a, k) > 0.0 && reach.at(k, b) > 0.0 {
                    reach.set(a, b, 1.0);
                }
            }
        }
    }
    reach
}

/// Newton's method from 0 with `set[0]` held at 0: the ratings over `set` and the negated
/// Hessian at them; `None` if it fails (it does not when the maximum is finite).
fn maximise(t: &Tally, set: &[usize]) -> Option<(Vec<f64>, Matrix)> {
    let m = set.len();
    let mut r = vec![0.0; m];
    for _ in 0..200 {
        let (grad, hess) = t.derivatives(set, &r);
        let reduced = reduce(&hess)?.inverse()?;
        let step: Vec<f64> = (0..m)
            .map(|a| match a.checked_sub(1) {
                None => 0.0,
                Some(x) => (1..m)
                    .map(|b| reduced.at(x, b - 1) * grad.get(b).copied().unwrap_or(0.0))
                    .sum(),
            })
            .collect();
        let base = t.log_likelihood(set, &r);
        let mut scale = 1.0;
        let mut next;
        loop {
            next = r
                .iter()
                .zip(&step)
                .map(|(x, d)| x + scale * d)
                .collect::<Vec<f64>>();
            if t.log_likelihood(set, &next) >= base - 1e-12 || scale < 1e-6 {
                break;
            }
            scale /= 2.0;
        }
        let moved = step.iter().map(|d| (scale * d).abs()).fold(0.0, f64::max);
        r = next;
        if moved < 1e-10 {
            break;
        }
    }
    let (_, hess) = t.derivatives(set, &r);
    r.iter().all(|x| x.is_finite()).then_some((r, hess))
}

/// The matrix without its first row and column (the anchor's).
fn reduce(m: &Matrix) -> Option<Matrix> {
    let k = m.n.checked_sub(1)?;
    let mut out = Matrix::zero(k);
    for a in 0..k {
        for b in 0..k {
            out.set(a, b, m.at(a + 1, b + 1));
        }
    }
    Some(out)
}

/// The rating list of `engines` engines from `results`, anchored on `anchor` at 0.
pub(crate) fn rating_list(engines: usize, results: &[Scored], anchor: usize) -> RatingList {
    let mut tally = Tally::new(engines, results);
    let mut points = vec![0.0; engines];
    let mut games = vec![0u32; engines];
    for g in results {
        if g.engine == g.opponent || g.engine >= engines || g.opponent >= engines {
            continue;
        }
        let s = g.score.clamp(0.0, 1.0);
        for (e, p) in [(g.engine, s), (g.opponent, 1.0 - s)] {
            if let (Some(x), Some(n)) = (points.get_mut(e), games.get_mut(e)) {
                *x += p;
                *n += 1;
            }
        }
    }
    let mut list = RatingList {
        ratings: vec![None; engines],
        points,
        games,
        anchor,
        prior: None,
    };
    if anchor >= engines {
        return list;
    }
    // The anchor first: it is the one held at 0.
    let mut set = vec![anchor];
    set.extend(
        component(&tally.games, anchor)
            .into_iter()
            .filter(|&i| i != anchor),
    );
    if set.len() < 2 {
        return list;
    }
    // The maximum is finite when every engine reaches every other by points scored;
    // otherwise the pairs that join two groups scored one way only (each engine of one
    // group scored nothing against the other) each get one virtual draw, and the games
    // within each group keep their exact maximum.
    let reach = reachability(&tally.points, &set);
    let mut joins = Vec::new();
    for (a, &i) in set.iter().enumerate() {
        for (b, &j) in set.iter().enumerate() {
            let apart = reach.at(a, b) == 0.0 || reach.at(b, a) == 0.0;
            if i < j && apart && tally.games.at(i, j) > 0.0 {
                joins.push((i.min(j), i.max(j)));
            }
        }
    }
    if !joins.is_empty() {
        let of = |full: f64| -> Vec<usize> {
            set.iter()
                .copied()
                .filter(|&i| {
                    let (p, n) = (list.points.get(i), list.games.get(i));
                    matches!((p, n), (Some(&p), Some(&n)) if n > 0 && p == full * f64::from(n))
                })
                .collect()
        };
        let (mut won_all, mut lost_all) = (of(1.0), of(0.0));
        won_all.sort_unstable();
        lost_all.sort_unstable();
        joins.sort_unstable();
        for &(i, j) in &joins {
            for (x, y) in [(i, j), (j, i)] {
                tally.games.add(x, y, 1.0);
                tally.points.add(x, y, 0.5);
            }
        }
        list.prior = Some(Unbounded {
            won_all,
            lost_all,
            pairs: joins,
        });
    }
    let Some((r, hess)) = maximise(&tally, &set) else {
        return list;
    };
    let cov = reduce(&hess).and_then(|h| h.inverse());
    for (a, &i) in set.iter().enumerate() {
        let variance = match a.checked_sub(1) {
            None => Some(0.0),
            Some(x) => cov.as_ref().map(|c| c.at(x, x)),
        };
        if let (Some(slot), Some(&elo), Some(v)) = (list.ratings.get_mut(i), r.get(a), variance)
            && v.is_finite()
        {
            *slot = Some(Rating {
                elo: elo + 0.0,
                error: Z95 * v.max(0.0).sqrt(),
            });
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(usize, usize, f64, usize)]) -> Vec<Scored> {
        list.iter()
            .flat_map(|&(engine, opponent, score, times)| {
                std::iter::repeat_n(
                    Scored {
                        engine,
                        opponent,
                        score,
                    },
                    times,
                )
            })
            .collect()
    }

    fn elo(list: &RatingList, i: usize) -> f64 {
        list.ratings[i].unwrap().elo
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    #[test]
    fn two_engines_give_the_elo_of_the_score() {
        // 5 wins, 2 draws, 3 losses: 6 of 10.
        let g = games(&[(0, 1, 1.0, 5), (0, 1, 0.5, 2), (1, 0, 1.0, 3)]);
        let list = rating_list(2, &g, 0);
        close(elo(&list, 0), 0.0);
        close(elo(&list, 1), -400.0 * (0.6f64 / 0.4).log10());
        assert_eq!(list.prior, None);
        assert_eq!(list.points, [6.0, 4.0]);
        assert_eq!(list.games, [10, 10]);
        // The Hessian of n games at score p: n C² p (1 - p).
        let sigma = 1.0 / (10.0 * C * C * 0.6 * 0.4).sqrt();
        close(list.ratings[1].unwrap().error, Z95 * sigma);
        assert_eq!(list.ratings[0].unwrap().error, 0.0);
    }

    #[test]
    fn the_anchor_shifts_the_list() {
        let g = games(&[
            (0, 1, 1.0, 3),
            (1, 0, 1.0, 1),
            (1, 2, 1.0, 2),
            (2, 1, 0.5, 2),
            (0, 2, 0.0, 1),
            (0, 2, 1.0, 2),
        ]);
        let a = rating_list(3, &g, 0);
        let b = rating_list(3, &g, 2);
        for i in 0..3 {
            close(elo(&a, i) - elo(&a, 2), elo(&b, i));
        }
        // The anchor's error moves to the others: E1's error against E3 is the same
        // whichever of the two is anchored.
        close(a.ratings[2].unwrap().error, b.ratings[0].unwrap().error);
    }

    #[test]
    fn a_gauntlet_rates_each_opponent_by_its_own_match() {
        // E1 scores 3/4 against E2 and 1/4 against E3: a star has no cycle, so each
        // opponent's maximum is its own pair's Elo.
        let g = games(&[
            (0, 1, 1.0, 3),
            (1, 0, 1.0, 1),
            (0, 2, 1.0, 1),
            (2, 0, 1.0, 3),
        ]);
        let list = rating_list(3, &g, 0);
        let d = 400.0 * 3f64.log10();
        close(elo(&list, 1), -d);
        close(elo(&list, 2), d);
    }

    #[test]
    fn symmetric_results_rate_every_engine_alike() {
        // A cycle: each engine beats the next 2-1.
        let g = games(&[
            (0, 1, 1.0, 2),
            (1, 0, 1.0, 1),
            (1, 2, 1.0, 2),
            (2, 1, 1.0, 1),
            (2, 0, 1.0, 2),
            (0, 2, 1.0, 1),
        ]);
        let list = rating_list(3, &g, 0);
        for i in 0..3 {
            close(elo(&list, i), 0.0);
        }
        close(
            list.ratings[1].unwrap().error,
            list.ratings[2].unwrap().error,
        );
    }

    #[test]
    fn the_maximum_matches_every_score() {
        // A round robin with uneven pairs and draws: at the maximum each engine's
        // expected score equals its points.
        let g = games(&[
            (0, 1, 1.0, 4),
            (0, 1, 0.5, 3),
            (1, 0, 1.0, 1),
            (1, 2, 1.0, 2),
            (2, 1, 1.0, 2),
            (0, 2, 1.0, 5),
            (2, 0, 1.0, 2),
            (3, 0, 1.0, 1),
            (0, 3, 0.5, 1),
            (3, 2, 1.0, 3),
            (2, 3, 0.5, 2),
            (1, 3, 1.0, 1),
            (3, 1, 1.0, 1),
        ]);
        let list = rating_list(4, &g, 0);
        assert_eq!(list.prior, None);
        for i in 0..4 {
            let expected: f64 = g
                .iter()
                .filter_map(|x| {
                    let (me, them) = if x.engine == i {
                        (x.engine, x.opponent)
                    } else if x.opponent == i {
                        (x.opponent, x.engine)
                    } else {
                        return None;
                    };
                    let d = elo(&list, me) - elo(&list, them);
                    Some(1.0 / (1.0 + 10f64.powf(-d / 400.0)))
                })
                .sum();
            assert!(
                (expected - list.points[i]).abs() < 1e-9,
                "E{} {expected}",
                i + 1
            );
        }
    }

    #[test]
    fn an_engine_that_won_everything_gets_a_finite_rating_and_a_note() {
        // E1 wins all 4 games against E2: with one virtual draw, 4.5 of 5, 400 log10(9).
        let g = games(&[(0, 1, 1.0, 4)]);
        let list = rating_list(2, &g, 1);
        close(elo(&list, 0), 400.0 * 9f64.log10());
        assert_eq!(
            list.prior,
            Some(Unbounded {
                won_all: vec![0],
                lost_all: vec![1],
                pairs: vec![(0, 1)],
            })
        );
        // In a round robin: E3 lost everything, E1 and E2 drew.
        let g = games(&[(0, 1, 0.5, 2), (0, 2, 1.0, 2), (1, 2, 1.0, 2)]);
        let list = rating_list(3, &g, 0);
        let e3 = list.ratings[2].unwrap();
        assert!(e3.elo.is_finite() && e3.elo < -100.0 && e3.error.is_finite());
        close(elo(&list, 1), 0.0);
        let prior = list.prior.unwrap();
        assert_eq!(prior.lost_all, [2]);
        assert_eq!(prior.pairs, [(0, 2), (1, 2)]);
    }

    #[test]
    fn the_prior_leaves_the_other_pairs_exact() {
        // A gauntlet: E1 scores 3/4 against E2 and 1/4 against E3, and every point against
        // E4. Only E1-E4 gets the virtual draw: E4 at 4.5 of 5 below E1, the others at
        // their own pairs' Elo.
        let g = games(&[
            (0, 1, 1.0, 3),
            (1, 0, 1.0, 1),
            (0, 2, 1.0, 1),
            (2, 0, 1.0, 3),
            (0, 3, 1.0, 2),
            (3, 0, 0.0, 2),
        ]);
        let list = rating_list(4, &g, 0);
        let d = 400.0 * 3f64.log10();
        close(elo(&list, 1), -d);
        close(elo(&list, 2), d);
        close(elo(&list, 3), -400.0 * 9f64.log10());
        let prior = list.prior.unwrap();
        assert_eq!(prior.pairs, [(0, 3)]);
        assert_eq!(prior.lost_all, [3]);
        assert!(prior.won_all.is_empty());
        // Two groups with no perfect engine: E1 and E2 beat each other, as do E3 and E4,
        // and E1 and E2 scored every point against E3 and E4.
        let g = games(&[
            (0, 1, 1.0, 1),
            (1, 0, 1.0, 1),
            (2, 3, 1.0, 1),
            (3, 2, 1.0, 1),
            (0, 2, 1.0, 1),
            (1, 3, 1.0, 1),
        ]);
        let list = rating_list(4, &g, 0);
        let prior = list.prior.clone().unwrap();
        assert!(prior.won_all.is_empty() && prior.lost_all.is_empty());
        assert_eq!(prior.pairs, [(0, 2), (1, 3)]);
        assert!(list.ratings.iter().all(Option::is_some));
        close(elo(&list, 2), elo(&list, 3));
    }

    #[test]
    fn engines_without_games_to_the_anchor_are_not_rated() {
        let g = games(&[
            (0, 1, 1.0, 1),
            (1, 0, 1.0, 1),
            (2, 3, 1.0, 1),
            (3, 2, 0.5, 1),
        ]);
        let list = rating_list(4, &g, 0);
        assert!(list.ratings[0].is_some() && list.ratings[1].is_some());
        assert_eq!(list.ratings[2], None);
        assert_eq!(list.ratings[3], None);
        assert_eq!(rating_list(2, &[], 0).ratings, [None, None]);
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn rating_list() {
        use crate::tools::matches::rating::{Scored, rating_list};
        // E1 scores 3 of 4 against E2: 400 log10(3) = 190.8 Elo.
        let games = [1.0, 1.0, 1.0, 0.0].map(|score| Scored {
            engine: 0,
            opponent: 1,
            score,
        });
        let list = rating_list(2, &games, 1);
        let e1 = list.ratings[0].unwrap();
        assert!((e1.elo - 400.0 * 3f64.log10()).abs() < 1e-6);
    }
}
