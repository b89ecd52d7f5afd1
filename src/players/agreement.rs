//! How well two counts agree: Fisher's exact test on `a` of `n` against `b` of `m`, the
//! binomial comparison `hnefi study` makes of the paper's 10 games a pairing and its own.
//! Exact rather than a normal approximation because the paper's counts are small and
//! often 0 or 10.

/// The two-sided p-value of Fisher's exact test: the probability, given the two samples'
/// sizes and the successes of both together, of a split between them as unlikely as or
/// less likely than the one seen (hypergeometric). 1 means no sign of a difference. A
/// count larger than its sample is read as the whole sample.
pub(crate) fn fisher_two_sided(a: u64, n: u64, b: u64, m: u64) -> f64 {
    let a = a.min(n);
    let b = b.min(m);
    let k = a.saturating_add(b);
    let total = n.saturating_add(m);
    let ln_fact = LnFactorials::up_to(total);
    let ln_p = |x: u64| {
        ln_fact.choose(n, x) + ln_fact.choose(m, k.saturating_sub(x)) - ln_fact.choose(total, k)
    };
    let seen = ln_p(a);
    // Ties in probability count as "as unlikely": a relative slack keeps rounding from
    // splitting them.
    let bound = seen + 1e-9;
    let low = k.saturating_sub(m);
    let high = k.min(n);
    let p: f64 = (low..=high)
        .map(ln_p)
        .filter(|&l| l <= bound)
        .map(f64::exp)
        .sum();
    p.min(1.0)
}

/// `ln(i!)` for every `i` up to a bound.
struct LnFactorials(Vec<f64>);

impl LnFactorials {
    fn up_to(n: u64) -> LnFactorials {
        let mut table = vec![0.0];
        let mut sum = 0.0;
        for i in 1..=n {
            sum += (i as f64).ln();
            table.push(sum);
        }
        LnFactorials(table)
    }

    fn ln_fact(&self, i: u64) -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.0.get(i))
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// `ln C(n, k)`, `-inf` (probability 0) when `k > n`.
    fn choose(&self, n: u64, k: u64) -> f64 {
        if k > n {
            return f64::NEG_INFINITY;
        }
        self.ln_fact(n) - self.ln_fact(k) - self.ln_fact(n.saturating_sub(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn known_values() {
        // Fisher's tea-tasting: 3 of 4 against 1 of 4, two-sided p = 34/70.
        assert!(close(fisher_two_sided(3, 4, 1, 4), 34.0 / 70.0));
        // The same proportion: no sign of a difference.
        assert!(close(fisher_two_sided(5, 10, 50, 100), 1.0));
        assert!(close(fisher_two_sided(0, 10, 0, 100), 1.0));
        assert!(close(fisher_two_sided(10, 10, 100, 100), 1.0));
        // 10 of 10 against 0 of 100: only this split (and none rarer) in C(110, 10).
        let p = fisher_two_sided(10, 10, 0, 100);
        assert!(p > 0.0 && p < 1e-12, "{p}");
        // 0 of 10 against 30 of 100: p = 0.05912 (the sum over the hypergeometric
        // splits, computed apart with Python's exact math.comb).
        assert!(close(fisher_two_sided(0, 10, 30, 100), 0.059_118_7));
        assert!(close(fisher_two_sided(2, 10, 40, 100), 0.312_379_0));
    }

    #[test]
    fn symmetric_and_bounded() {
        for (a, n, b, m) in [(2, 10, 40, 100), (7, 10, 12, 100), (1, 3, 9, 9)] {
            let p = fisher_two_sided(a, n, b, m);
            assert!((0.0..=1.0).contains(&p));
            assert!(close(p, fisher_two_sided(b, m, a, n)));
            assert!(close(p, fisher_two_sided(n - a, n, m - b, m)));
        }
        // Counts beyond their samples are clamped, never a panic.
        assert!((0.0..=1.0).contains(&fisher_two_sided(20, 10, 500, 100)));
    }
}
