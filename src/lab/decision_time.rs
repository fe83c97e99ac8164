//! Decision time in `sim`: the planning thread's CPU time per decision (not wall time, so the
//! figure holds on a loaded machine), kept per game in a fixed histogram and merged per run.

use std::time::Duration;

/// Width of a histogram bucket (µs): percentiles are given to this resolution.
pub const BUCKET_US: u64 = 10;
/// Buckets: 0-20 ms; the last one also holds every longer decision.
pub const BUCKETS: usize = 2000;

/// How many decisions took how long, in [`BUCKET_US`] buckets (empty until the first one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u32>,
}

impl Histogram {
    /// Counts one decision of `t` (past 20 ms in the last bucket).
    pub fn record(&mut self, t: Duration) {
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS];
        }
        let i = (t.as_micros() / u128::from(BUCKET_US)).min(BUCKETS as u128 - 1) as usize;
        self.counts[i] += 1;
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.is_empty() {
            return;
        }
        if self.counts.is_empty() {
            self.counts = vec![0; BUCKETS];
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// Decisions counted.
    pub fn count(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// Nearest-rank percentile `p` (0-100) in milliseconds, as the upper edge of its bucket
    /// (a decision of 0.123 ms counts as 0.13); 0 with no decision.
    pub fn percentile_ms(&self, p: f64) -> f64 {
        let n = self.count();
        if n == 0 {
            return 0.0;
        }
        let rank = ((p / 100.0) * n as f64).ceil().clamp(1.0, n as f64) as u64;
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += u64::from(c);
            if seen >= rank {
                return ((i as u64 + 1) * BUCKET_US) as f64 / 1000.0;
            }
        }
        (BUCKETS as u64 * BUCKET_US) as f64 / 1000.0
    }
}

/// A game's decisions: all of them and those made at level 155 or above.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecisionTimes {
    /// Every decision.
    pub all: Histogram,
    /// The decisions made at level 155 or above.
    pub past_155: Histogram,
}

impl DecisionTimes {
    /// Counts one decision of `t`, in `past_155` too when it was made at level 155 or above.
    pub fn record(&mut self, t: Duration, past_155: bool) {
        self.all.record(t);
        if past_155 {
            self.past_155.record(t);
        }
    }

    /// Adds `other`'s decisions to these.
    pub fn merge(&mut self, other: &DecisionTimes) {
        self.all.merge(&other.all);
        self.past_155.merge(&other.past_155);
    }
}

/// A run's decision-time figures (ms, nearest rank to 0.01 ms): median and 99th percentile
/// over every decision, and over those made at level 155 or above; 0 where there was none.
/// A run's own measurement, not a game figure: `sim merge` of shards has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct DecisionFigures {
    /// Median over every decision, in ms.
    pub p50_ms: f64,
    /// 99th percentile over every decision, in ms.
    pub p99_ms: f64,
    /// Median over the decisions at level 155 or above, in ms.
    pub p50_ms_past_155: f64,
    /// 99th percentile over the decisions at level 155 or above, in ms.
    pub p99_ms_past_155: f64,
    /// Decisions counted.
    pub decisions: u64,
}

impl DecisionFigures {
    /// The figures of `games`' decisions taken together.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a DecisionTimes>) -> DecisionFigures {
        let mut t = DecisionTimes::default();
        for g in games {
            t.merge(g);
        }
        DecisionFigures {
            p50_ms: t.all.percentile_ms(50.0),
            p99_ms: t.all.percentile_ms(99.0),
            p50_ms_past_155: t.past_155.percentile_ms(50.0),
            p99_ms_past_155: t.past_155.percentile_ms(99.0),
            decisions: t.all.count(),
        }
    }
}

/// CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec the call writes; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank_to_the_bucket_edge() {
        let mut h = Histogram::default();
        assert_eq!(h.percentile_ms(50.0), 0.0);
        for us in 1..=100u64 {
            h.record(Duration::from_micros(us * 100));
        }
        assert_eq!(h.count(), 100);
        // The 50th of 100 values 0.1..10 ms is 5.0 ms: bucket 500 (5.00-5.01 ms).
        assert_eq!(h.percentile_ms(50.0), 5.01);
        assert_eq!(h.percentile_ms(99.0), 9.91);
        h.record(Duration::from_millis(500));
        assert_eq!(
            h.percentile_ms(100.0),
            20.0,
            "the last bucket holds the long ones"
        );
    }

    #[test]
    fn merged_games_count_every_decision_once() {
        let mut a = DecisionTimes::default();
        a.record(Duration::from_micros(150), false);
        let mut b = DecisionTimes::default();
        b.record(Duration::from_micros(2_000), true);
        b.record(Duration::from_micros(3_000), true);
        a.merge(&b);
        assert_eq!((a.all.count(), a.past_155.count()), (3, 2));
        assert_eq!(a.past_155.percentile_ms(50.0), 2.01);
        assert_eq!(a.all.percentile_ms(1.0), 0.16);
        let f = DecisionFigures::of([&a, &DecisionTimes::default()]);
        assert_eq!((f.decisions, f.p50_ms_past_155, f.p99_ms), (3, 2.01, 3.01));
        let cpu = thread_cpu();
        assert!(thread_cpu() >= cpu);
    }
}
