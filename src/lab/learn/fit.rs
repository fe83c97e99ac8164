//! The least-squares fit behind `nestor learn`: the board value's tables and feature weights
//! that best predict the samples' targets, by ridge regression solved exactly.

// The normal equations (XᵀX + λI) β = Xᵀy are summed sample by sample in the samples' order and
// solved by a Cholesky factorisation written out here, not by a linear-algebra crate: every
// sum runs in one fixed order, so the same samples give the same weights to the last bit on
// every machine and thread count, which the committed weights and their check file rely on.
// The board features are standardised first (their scales differ by a hundredfold), so that
// one λ shrinks them alike; the weights written are in the features' own units. Each pass reads
// the samples' boards again rather than keeping them read: a read is two passes over 20 bit
// rows, small beside a sample's accumulation (1,128 products into a 20 MB matrix), and kept
// they would take 184 bytes a sample (about 190 MB for a 15 Hz run's million positions).

// The loops index parallel arrays and matrix entries by number, as the algebra is written.
#![allow(clippy::needless_range_loop)]

use crate::search::eval::encode_rows;
use crate::search::weights::learned::{LearnedValue, ACTIVE, REALS, TABLE_LEN};

use super::Sample;

/// Unknowns: the bias, the table entries and the board features.
const N: usize = 1 + TABLE_LEN + REALS;

/// Why no value could be fitted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FitError {
    /// No sample to fit.
    #[error("no positions to learn from (every game ended before its first piece)")]
    NoSamples,
    /// The ridge term must keep the system solvable.
    #[error("the ridge term must be a positive number, got {0}")]
    BadRidge(f64),
    /// A target was not a finite number.
    #[error("a target is not a finite number: {0}")]
    BadTarget(f64),
}

/// Mean and spread of each board feature over the samples (a spread of 0 counts as 1).
fn scales(samples: &[Sample]) -> ([f64; REALS], [f64; REALS]) {
    let n = samples.len() as f64;
    let (mut mean, mut sq) = ([0.0; REALS], [0.0; REALS]);
    for s in samples {
        let e = encode_rows(&s.rows);
        for k in 0..REALS {
            mean[k] += e.reals[k];
        }
    }
    mean.iter_mut().for_each(|m| *m /= n);
    for s in samples {
        let e = encode_rows(&s.rows);
        for k in 0..REALS {
            let d = e.reals[k] - mean[k];
            sq[k] += d * d;
        }
    }
    let mut spread = [1.0; REALS];
    for k in 0..REALS {
        let sd = (sq[k] / n).sqrt();
        if sd > 1e-9 {
            spread[k] = sd;
        }
    }
    (mean, spread)
}

/// The ridge fit of `samples`' targets: the value whose predictions on the samples have the
/// least squared error plus `ridge` times the squared weights (the bias is not shrunk).
pub fn fit(samples: &[Sample], ridge: f64) -> Result<LearnedValue, FitError> {
    Normal::new(samples, ridge)?.solve(samples)
}

/// The left side of the normal equations of a set of boards, factored: the fit of any targets
/// on those boards is then two substitutions (the boards decide it, the targets do not).
pub struct Normal {
    /// The Cholesky factor of XᵀX + λI, in the lower triangle (row-major, N × N).
    factor: Vec<f64>,
    mean: [f64; REALS],
    spread: [f64; REALS],
    len: usize,
}

/// One sample's inputs (index, value), standardised, the table indices in ascending order.
fn inputs(x: &mut Vec<(usize, f64)>, s: &Sample, mean: &[f64; REALS], spread: &[f64; REALS]) {
    let e = encode_rows(&s.rows);
    x.clear();
    x.push((0, 1.0));
    let mut active = e.active;
    active.sort_unstable();
    x.extend(active.iter().map(|&i| (1 + usize::from(i), 1.0)));
    for k in 0..REALS {
        x.push((1 + TABLE_LEN + k, (e.reals[k] - mean[k]) / spread[k]));
    }
}

impl Normal {
    /// The factored normal equations of `samples`' boards with the ridge term `ridge`.
    pub fn new(samples: &[Sample], ridge: f64) -> Result<Normal, FitError> {
        if samples.is_empty() {
            return Err(FitError::NoSamples);
        }
        if !(ridge > 0.0 && ridge.is_finite()) {
            return Err(FitError::BadRidge(ridge));
        }
        let (mean, spread) = scales(samples);
        let mut a = vec![0.0f64; N * N];
        let mut x: Vec<(usize, f64)> = Vec::with_capacity(1 + ACTIVE + REALS);
        for s in samples {
            inputs(&mut x, s, &mean, &spread);
            for (p, &(i, xi)) in x.iter().enumerate() {
                for &(j, xj) in &x[p..] {
                    a[i * N + j] += xi * xj;
                }
            }
        }
        for i in 1..N {
            a[i * N + i] += ridge;
        }
        // The bias alone is left unshrunk; a tiny term keeps its pivot positive all the same.
        a[0] += 1e-9;
        factor(&mut a);
        Ok(Normal {
            factor: a,
            mean,
            spread,
            len: samples.len(),
        })
    }

    /// The fit of `samples`' targets; `samples` must be the boards the equations were made of,
    /// in the same order (their targets may differ).
    pub fn solve(&self, samples: &[Sample]) -> Result<LearnedValue, FitError> {
        assert_eq!(samples.len(), self.len, "the samples of the equations");
        if let Some(s) = samples.iter().find(|s| !s.target.is_finite()) {
            return Err(FitError::BadTarget(s.target));
        }
        let (mean, spread) = (&self.mean, &self.spread);
        let mut b = vec![0.0f64; N];
        let mut x: Vec<(usize, f64)> = Vec::with_capacity(1 + ACTIVE + REALS);
        for s in samples {
            inputs(&mut x, s, mean, spread);
            for &(i, xi) in &x {
                b[i] += xi * s.target;
            }
        }
        let beta = substitute(&self.factor, &mut b);
        let mut features = [0.0; REALS];
        let mut bias = beta[0];
        for k in 0..REALS {
            features[k] = beta[1 + TABLE_LEN + k] / spread[k];
            bias -= features[k] * mean[k];
        }
        Ok(LearnedValue {
            bias,
            table: beta[1..1 + TABLE_LEN].to_vec(),
            features,
        })
    }
}

/// Factors the symmetric positive definite `a` whose upper triangle is filled (row-major,
/// N × N) in place: Cholesky `a = L Lᵀ`, `L` in the lower triangle.
fn factor(a: &mut [f64]) {
    for i in 0..N {
        for j in 0..i {
            a[i * N + j] = a[j * N + i];
        }
    }
    for j in 0..N {
        let mut d = a[j * N + j];
        for k in 0..j {
            d -= a[j * N + k] * a[j * N + k];
        }
        let d = d.max(1e-300).sqrt();
        a[j * N + j] = d;
        for i in j + 1..N {
            let mut s = a[i * N + j];
            for k in 0..j {
                s -= a[i * N + k] * a[j * N + k];
            }
            a[i * N + j] = s / d;
        }
    }
}

/// Solves `L Lᵀ β = b` for the factor `l` of [`factor`]: two substitutions.
fn substitute(l: &[f64], b: &mut [f64]) -> Vec<f64> {
    for i in 0..N {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * N + k] * b[k];
        }
        b[i] = s / l[i * N + i];
    }
    for i in (0..N).rev() {
        let mut s = b[i];
        for k in i + 1..N {
            s -= l[k * N + i] * b[k];
        }
        b[i] = s / l[i * N + i];
    }
    b.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(heights: [usize; 10]) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (c, &h) in heights.iter().enumerate() {
            for r in 20 - h..20 {
                rows[r] |= 1 << c;
            }
        }
        rows
    }

    /// Targets made by a known table are found again: the fit's predictions on its own
    /// samples match the targets closely when the ridge term is small.
    #[test]
    fn a_value_made_from_the_tables_is_recovered() {
        let mut samples = Vec::new();
        let mut seed = 7u64;
        for _ in 0..4000 {
            let mut h = [0usize; 10];
            for v in h.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = (seed >> 60) as usize % 8;
            }
            // A value that only the edges' heights decide, as slow taps' reach does.
            let target = 3.0 * h[0] as f64 + 2.0 * (h[9] * h[9]) as f64 - 5.0;
            samples.push(Sample {
                rows: board(h),
                target,
                lines: 0,
            });
        }
        let v = fit(&samples, 1e-6).unwrap();
        let worst = samples
            .iter()
            .map(|s| (v.value_of(&encode_rows(&s.rows)) - s.target).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-4, "worst error {worst}");
        // Column 9 at 5 against 0: 50 more, whatever the rest.
        let high = v.value_of(&encode_rows(&board([0, 0, 0, 0, 0, 0, 0, 0, 0, 5])));
        let low = v.value_of(&encode_rows(&board([0; 10])));
        assert!((high - low - 50.0).abs() < 1e-3, "{high} {low}");
    }

    #[test]
    fn the_same_samples_give_the_same_bits() {
        let samples: Vec<Sample> = (0..300)
            .map(|i| Sample {
                rows: board([i % 5, i % 3, 0, 1, 2, i % 7, 0, 0, 1, i % 4]),
                target: (i % 11) as f64,
                lines: 0,
            })
            .collect();
        assert_eq!(fit(&samples, 0.5).unwrap(), fit(&samples, 0.5).unwrap());
    }

    /// One factored system serves every set of targets on its boards, to the bit.
    #[test]
    fn the_factored_equations_fit_any_targets_as_a_fit_from_scratch() {
        let mut samples: Vec<Sample> = (0..300)
            .map(|i| Sample {
                rows: board([i % 4, 0, i % 6, 1, 2, i % 3, 0, i % 5, 1, 0]),
                target: (i % 7) as f64,
                lines: 0,
            })
            .collect();
        let normal = Normal::new(&samples, 0.5).unwrap();
        assert_eq!(normal.solve(&samples).unwrap(), fit(&samples, 0.5).unwrap());
        for (i, s) in samples.iter_mut().enumerate() {
            s.target = -((i % 13) as f64) * 0.25;
        }
        let again = normal.solve(&samples).unwrap();
        assert_eq!(again, fit(&samples, 0.5).unwrap());
        assert_ne!(again, fit(&samples[1..], 0.5).unwrap());
    }

    #[test]
    fn nothing_to_fit_and_bad_inputs_are_errors() {
        assert_eq!(fit(&[], 1.0), Err(FitError::NoSamples));
        let s = [Sample {
            rows: [0; 20],
            target: 1.0,
            lines: 0,
        }];
        assert_eq!(fit(&s, 0.0), Err(FitError::BadRidge(0.0)));
        let nan = [Sample {
            rows: [0; 20],
            target: f64::NAN,
            lines: 0,
        }];
        assert!(matches!(fit(&nan, 1.0), Err(FitError::BadTarget(_))));
    }
}
