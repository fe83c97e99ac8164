//! Paired comparison of two players on the same seeds: the per-seed differences, their mean and
//! median with 95 % confidence intervals, and two-sided p-values (paired t, Wilcoxon signed-rank).

use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// The usual threshold: a p-value below it is called significant.
pub const ALPHA: f64 = 0.05;

/// Exact Wilcoxon distribution up to this many non-zero differences (ties included); the
/// normal approximation beyond. 2^60 subsets still count exactly in an f64.
const WILCOXON_EXACT_MAX: usize = 60;

/// The comparison of paired samples `a` and `b` (pair i played the same seed), as `a − b`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// Pairs compared.
    pub n: usize,
    /// Mean of `a`.
    pub mean_a: f64,
    /// Mean of `b`.
    pub mean_b: f64,
    /// Mean of `a − b`.
    pub mean_diff: f64,
    /// Median of `a − b`.
    pub median_diff: f64,
    /// Sample standard deviation of `a − b`.
    pub sd_diff: f64,
    /// 95 % confidence interval of the mean difference (Student's t).
    pub mean_ci: (f64, f64),
    /// Distribution-free 95 % (or wider) interval of the median difference, from order
    /// statistics of the differences (the sign-test interval).
    pub median_ci: (f64, f64),
    /// Two-sided p-value of the paired t-test.
    pub t_p: f64,
    /// Two-sided p-value of the Wilcoxon signed-rank test (zero differences dropped).
    pub wilcoxon_p: f64,
}

impl Paired {
    /// Both tests agree the difference is not chance at [`ALPHA`]; a difference only one of
    /// them sees is reported as not significant, to stay on the safe side.
    pub fn significant(&self) -> bool {
        self.t_p < ALPHA && self.wilcoxon_p < ALPHA
    }
}

/// Why two samples cannot be compared.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum StatsError {
    /// `a` and `b` hold different numbers of values.
    #[error("paired samples differ in length: {a} and {b}")]
    LengthMismatch {
        /// Values in `a`.
        a: usize,
        /// Values in `b`.
        b: usize,
    },
    /// Fewer than 2 pairs.
    #[error("a paired comparison needs at least 2 pairs, got {n}")]
    TooFew {
        /// Pairs given.
        n: usize,
    },
    /// A value is NaN or infinite.
    #[error("pair {index} is not a finite number")]
    NotFinite {
        /// The first such pair, 0-based.
        index: usize,
    },
}

/// Mean of a slice (0 when empty).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// Median of a slice (0 when empty); the mean of the two middle values for an even count.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => s[n / 2],
        _ => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// The 95 % Wilson score interval of a share of `count` in `of` trials: unlike the normal
/// approximation it stays inside 0-1 and is not empty at 0 or `of` successes, which matters
/// for batches of 20 games. `(0, 1)` for no trials.
pub fn wilson_interval(count: usize, of: usize) -> (f64, f64) {
    if of == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054;
    let (n, p) = (of as f64, count as f64 / of as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Compares `a` against `b` pair by pair.
pub fn paired(a: &[f64], b: &[f64]) -> Result<Paired, StatsError> {
    if a.len() != b.len() {
        return Err(StatsError::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    let n = a.len();
    if n < 2 {
        return Err(StatsError::TooFew { n });
    }
    if let Some(index) = (0..n).find(|&i| !(a[i].is_finite() && b[i].is_finite())) {
        return Err(StatsError::NotFinite { index });
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mean_diff = mean(&d);
    let sd_diff = (d.iter().map(|x| (x - mean_diff).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    let (mean_ci, t_p) = t_test(mean_diff, sd_diff, n);
    Ok(Paired {
        n,
        mean_a: mean(a),
        mean_b: mean(b),
        mean_diff,
        median_diff: median(&d),
        sd_diff,
        mean_ci,
        median_ci: median_interval(&d),
        t_p,
        wilcoxon_p: wilcoxon(&d),
    })
}

/// The 95 % interval of the mean and the two-sided p-value of "the mean is 0".
fn t_test(mean: f64, sd: f64, n: usize) -> ((f64, f64), f64) {
    if sd == 0.0 {
        // Every difference is the same number: no spread, so either no difference at all or
        // one that no sample size could make more certain.
        return ((mean, mean), if mean == 0.0 { 1.0 } else { 0.0 });
    }
    let t = StudentsT::new(0.0, 1.0, (n - 1) as f64).expect("n ≥ 2 gives a valid t");
    let se = sd / (n as f64).sqrt();
    let q = t.inverse_cdf(0.975);
    let p = (2.0 * t.sf((mean / se).abs())).min(1.0);
    ((mean - q * se, mean + q * se), p)
}

/// The interval between the k-th smallest and k-th largest difference, with k the largest
/// count for which P(Binomial(n, ½) < k) ≤ 2.5 %: coverage at least 95 %.
fn median_interval(d: &[f64]) -> (f64, f64) {
    let mut s = d.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let bin = Binomial::new(0.5, n as u64).expect("p = ½ is valid");
    // cdf(k − 1) = P(X ≤ k − 1) = P(X < k).
    let mut k = 0;
    while k < n / 2 && bin.cdf(k as u64) <= 0.025 {
        k += 1;
    }
    if k == 0 {
        // Too few pairs for a 95 % interval: the whole range is the honest answer.
        return (s[0], s[n - 1]);
    }
    (s[k - 1], s[n - k])
}

/// Ranks of `v` (1-based, ties share the mean rank), and Σ (t³ − t) over the tie groups.
fn ranks(v: &[f64]) -> (Vec<f64>, f64) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut rank = vec![0.0; v.len()];
    let mut ties = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let shared = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            rank[k] = shared;
        }
        let t = (j - i + 1) as f64;
        ties += t * t * t - t;
        i = j + 1;
    }
    (rank, ties)
}

/// Two-sided p-value of the Wilcoxon signed-rank test, zero differences dropped: exact (over
/// the midranks when there are ties) for up to [`WILCOXON_EXACT_MAX`] pairs, else the normal
/// approximation with the tie correction and no continuity correction.
fn wilcoxon(d: &[f64]) -> f64 {
    let nz: Vec<f64> = d.iter().copied().filter(|&x| x != 0.0).collect();
    let n = nz.len();
    if n == 0 {
        return 1.0;
    }
    let abs: Vec<f64> = nz.iter().map(|x| x.abs()).collect();
    let (rank, ties) = ranks(&abs);
    let w_plus: f64 = nz
        .iter()
        .zip(&rank)
        .filter(|(x, _)| **x > 0.0)
        .map(|(_, r)| r)
        .sum();
    let nf = n as f64;
    if ties == 0.0 && n <= WILCOXON_EXACT_MAX {
        let counts = signed_rank_counts(n);
        let total: f64 = counts.iter().sum();
        let w = w_plus.round() as usize;
        let below: f64 = counts[..=w].iter().sum();
        let above: f64 = counts[w..].iter().sum();
        return (2.0 * below.min(above) / total).min(1.0);
    }
    if n <= WILCOXON_EXACT_MAX {
        // Ties: the exact distribution over the sign patterns of these midranks, counted in
        // half ranks so that they are whole (2 pairs of equal |d| give p = 0.5, not the
        // normal approximation's 0.157).
        let halves: Vec<usize> = rank.iter().map(|r| (2.0 * r).round() as usize).collect();
        let counts = rank_sum_counts(&halves);
        let total: f64 = counts.iter().sum();
        let w = (2.0 * w_plus).round() as usize;
        let below: f64 = counts[..=w].iter().sum();
        let above: f64 = counts[w..].iter().sum();
        return (2.0 * below.min(above) / total).min(1.0);
    }
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
    if var <= 0.0 {
        return 1.0;
    }
    let z = (w_plus - mean) / var.sqrt();
    let normal = Normal::standard();
    (2.0 * normal.sf(z.abs())).min(1.0)
}

/// counts[w] = how many of the 2^n sign patterns of these (whole) ranks give W+ = w.
fn rank_sum_counts(ranks: &[usize]) -> Vec<f64> {
    let max: usize = ranks.iter().sum();
    let mut counts = vec![0.0; max + 1];
    counts[0] = 1.0;
    for &r in ranks {
        for w in (r..=max).rev() {
            counts[w] += counts[w - r];
        }
    }
    counts
}

/// counts[w] = how many of the 2^n sign patterns of ranks 1..n give W+ = w.
fn signed_rank_counts(n: usize) -> Vec<f64> {
    let max = n * (n + 1) / 2;
    let mut counts = vec![0.0; max + 1];
    counts[0] = 1.0;
    for r in 1..=n {
        for w in (r..=max).rev() {
            counts[w] += counts[w - r];
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn identical_samples_show_no_difference() {
        let a = [10.0, 20.0, 35.0, 5.0, 8.0];
        let p = paired(&a, &a).expect("comparable");
        assert_eq!(p.mean_diff, 0.0);
        assert_eq!(p.median_diff, 0.0);
        assert_eq!(p.mean_ci, (0.0, 0.0));
        assert_eq!(p.t_p, 1.0);
        assert_eq!(p.wilcoxon_p, 1.0);
        assert!(!p.significant());
    }

    /// Student's classic paired example (sleep data, Cushny & Peebles): differences
    /// 1.2 2.4 1.3 1.3 0 1.0 1.8 0.8 4.6 1.4; by hand: mean 1.58, sd 1.2300, t = 4.0621 with
    /// 9 df, two-sided p = 0.002833, 95 % CI 0.7001..2.4599 (t₀.₉₇₅,₉ = 2.262157). scipy 1.x
    /// agrees (`ttest_rel`, and `wilcoxon(method="approx")` for the signed-rank p below).
    #[test]
    fn paired_t_matches_the_sleep_data() {
        let b = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        let a = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        let p = paired(&a, &b).expect("comparable");
        assert!(close(p.mean_diff, 1.58, 1e-12), "{p:?}");
        assert!(close(p.sd_diff, 1.229995, 1e-6), "{p:?}");
        assert!(close(p.t_p, 0.002833, 1e-6), "{p:?}");
        assert!(close(p.mean_ci.0, 0.700119, 1e-5), "{p:?}");
        assert!(close(p.mean_ci.1, 2.459881, 1e-5), "{p:?}");
        assert!(close(p.median_diff, 1.3, 1e-12));
        // The same data with a tie (1.3 twice) and a zero: nine non-zero differences, all
        // positive, so W+ is the largest of the 2^9 sign patterns' (one pattern, ties or
        // not): the exact two-sided p is 2/512 (scipy's normal approximation: 0.007632).
        assert_eq!(p.wilcoxon_p, 2.0 / 512.0, "{p:?}");
        assert!(p.significant());
    }

    /// Exact signed-rank distribution: n = 5, W+ = 0 has probability 1/32, so the
    /// two-sided p of an all-negative sample is 2/32 (the known table value 0.0625).
    #[test]
    fn wilcoxon_exact_small_table() {
        assert_eq!(wilcoxon(&[-1.0, -2.0, -3.0, -4.0, -5.0]), 0.0625);
        // W+ = 3 of n = 5 (ranks 1+2 positive): P(W ≤ 3) = 5/32 (W = 0,1,2,3,3), p = 10/32.
        assert_eq!(wilcoxon(&[1.0, 2.0, -3.0, -4.0, -5.0]), 10.0 / 32.0);
        let c = signed_rank_counts(5);
        assert_eq!(c.iter().sum::<f64>(), 32.0);
        assert_eq!(&c[..4], &[1.0, 1.0, 1.0, 2.0]);
        // Symmetric.
        assert!(c.iter().zip(c.iter().rev()).all(|(x, y)| x == y));
    }

    /// Two pairs with equal |d|, both positive: of the 4 sign patterns one gives the
    /// largest W+, so the two-sided p is 2/4 (the smallest two pairs can give).
    #[test]
    fn wilcoxon_is_exact_for_two_tied_pairs() {
        assert_eq!(wilcoxon(&[10.0, 10.0]), 0.5);
        assert_eq!(wilcoxon(&[10.0, -10.0]), 1.0);
        assert_eq!(wilcoxon(&[3.0, 5.0]), 0.5);
    }

    #[test]
    fn constant_non_zero_difference_is_certain() {
        let p = paired(&[3.0, 4.0, 5.0], &[1.0, 2.0, 3.0]).expect("comparable");
        assert_eq!(p.mean_diff, 2.0);
        assert_eq!(p.t_p, 0.0);
        assert_eq!(p.mean_ci, (2.0, 2.0));
    }

    #[test]
    fn median_interval_uses_order_statistics() {
        // n = 10: P(X ≤ 1) = 11/1024 ≤ 2.5 %, P(X ≤ 2) = 56/1024 > 2.5 %: k = 2, so the
        // interval is from the 2nd smallest to the 2nd largest (coverage 97.9 %).
        let d: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(median_interval(&d), (2.0, 9.0));
        // n = 5: even k = 1 has P(X ≤ 0) = 1/32 > 2.5 %: the whole range.
        assert_eq!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), (1.0, 5.0));
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert_eq!(
            paired(&[1.0], &[1.0, 2.0]),
            Err(StatsError::LengthMismatch { a: 1, b: 2 })
        );
        assert_eq!(paired(&[1.0], &[1.0]), Err(StatsError::TooFew { n: 1 }));
        assert_eq!(
            paired(&[1.0, f64::NAN], &[1.0, 2.0]),
            Err(StatsError::NotFinite { index: 1 })
        );
    }

    #[test]
    fn the_wilson_interval_matches_the_textbook_values_and_stays_in_bounds() {
        // 19 of 20: 0.764-0.991 (Wilson, z = 1.96), as any statistics table gives it.
        let (lo, hi) = wilson_interval(19, 20);
        assert!(
            (lo - 0.7639).abs() < 1e-3 && (hi - 0.9911).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(0, 20);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1611).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson_interval(20, 20);
        assert!(
            (lo - 0.8389).abs() < 1e-3 && (hi - 1.0).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
