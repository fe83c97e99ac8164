//! Batch statistics: many seeded games of the bot in the rules model, in parallel on all
//! cores, with per-game results and the summary figures the 2018 bot was judged by.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::game::state::Game;

use super::eval::Evaluator;
use super::plan::Planner;
use super::selfplay::{GameStats, Limits, SelfPlay};

/// What to simulate.
#[derive(Clone, Copy, Debug)]
pub struct BatchConfig {
    pub games: u32,
    pub level: u8,
    /// Game i is seeded with `seed + i`.
    pub seed: u64,
    pub threads: usize,
    pub limits: Limits,
    /// Stop a game when it reaches level 29 (the figures below need nothing after it).
    pub stop_at_29: bool,
}

/// One game's result, in order of its seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    pub index: u32,
    pub seed: u64,
    #[serde(flatten)]
    pub stats: GameStats,
}

impl GameResult {
    /// Score when level 29 was reached, or the final score of a game that ended before it.
    pub fn score_at_29_or_end(&self) -> u32 {
        self.stats.score_at_29.unwrap_or(self.stats.score)
    }

    /// Reached 999,999 before level 29.
    pub fn maxed_out(&self) -> bool {
        self.stats.maxed_before_29
    }
}

/// Plays the batch; `progress` is called after each game with the number finished.
pub fn run_batch<E, F>(
    config: &BatchConfig,
    make_evaluator: impl Fn() -> E + Sync,
    progress: F,
) -> Vec<GameResult>
where
    E: Evaluator,
    F: Fn(usize, &GameResult) + Sync,
{
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(config.games as usize));
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut planner = Planner::new(make_evaluator());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games as usize {
                        break;
                    }
                    let seed = config.seed.wrapping_add(i as u64);
                    let mut game = Game::seeded(config.level, seed);
                    let mut play = SelfPlay::new(&mut planner, &game);
                    play.stop_at_29 = config.stop_at_29;
                    let stats = play.run(&mut game, config.limits);
                    let result = GameResult {
                        index: i as u32,
                        seed,
                        stats,
                    };
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(n, &result);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(result);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r| r.index);
    results
}

/// Summary figures of a batch.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub start_level: u8,
    pub mean_score: f64,
    pub median_score: f64,
    /// Mean of the best third of final scores.
    pub best_third_mean: f64,
    pub max_score: u32,
    /// Games that reached 999,999 before level 29.
    pub max_out_rate: f64,
    /// Median of the score when level 29 was reached (the final score if the game ended first).
    pub median_score_at_29: f64,
    /// Games that reached level 29.
    pub reached_29_rate: f64,
    pub mean_lines: f64,
    pub median_lines: f64,
    pub mean_pieces: f64,
    /// Lines cleared by tetrises over all lines cleared.
    pub tetris_rate: f64,
    pub total_desyncs: u64,
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

impl Summary {
    pub fn of(results: &[GameResult]) -> Summary {
        let n = results.len();
        if n == 0 {
            return Summary::default();
        }
        let scores: Vec<f64> = results.iter().map(|r| r.stats.score as f64).collect();
        let mut sorted = scores.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let third = n.div_ceil(3);
        let lines_all: u64 = results.iter().map(|r| r.stats.lines as u64).sum();
        let tetris_lines: u64 = results.iter().map(|r| 4 * r.stats.tetrises as u64).sum();
        Summary {
            games: n,
            start_level: results[0].stats.start_level,
            mean_score: mean(scores.iter().copied()),
            median_score: median(scores.clone()),
            best_third_mean: mean(sorted[..third].iter().copied()),
            max_score: results.iter().map(|r| r.stats.score).max().unwrap_or(0),
            max_out_rate: results.iter().filter(|r| r.maxed_out()).count() as f64 / n as f64,
            median_score_at_29: median(
                results
                    .iter()
                    .map(|r| r.score_at_29_or_end() as f64)
                    .collect(),
            ),
            reached_29_rate: results
                .iter()
                .filter(|r| r.stats.score_at_29.is_some())
                .count() as f64
                / n as f64,
            mean_lines: mean(results.iter().map(|r| r.stats.lines as f64)),
            median_lines: median(results.iter().map(|r| r.stats.lines as f64).collect()),
            mean_pieces: mean(results.iter().map(|r| r.stats.pieces as f64)),
            tetris_rate: if lines_all == 0 {
                0.0
            } else {
                tetris_lines as f64 / lines_all as f64
            },
            total_desyncs: results.iter().map(|r| r.stats.desyncs as u64).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::Standard;

    #[test]
    fn batches_are_reproducible_whatever_the_thread_count() {
        let config = BatchConfig {
            games: 4,
            level: 19,
            seed: 11,
            threads: 1,
            limits: Limits {
                max_pieces: Some(40),
                max_frames: None,
            },
            stop_at_29: true,
        };
        let one = run_batch(&config, Standard::default, |_, _| {});
        let two = run_batch(
            &BatchConfig {
                threads: 2,
                ..config
            },
            Standard::default,
            |_, _| {},
        );
        let key = |r: &GameResult| (r.seed, r.stats.score, r.stats.lines, r.stats.locks.clone());
        assert_eq!(
            one.iter().map(key).collect::<Vec<_>>(),
            two.iter().map(key).collect::<Vec<_>>()
        );
        assert!(one
            .iter()
            .all(|r| r.stats.pieces == 40 && r.stats.desyncs == 0));
        assert_ne!(
            one[0].stats.locks, one[1].stats.locks,
            "seeds give different games"
        );
    }

    #[test]
    fn summary_figures() {
        let mk =
            |score: u32, at29: Option<u32>, maxed: bool, lines: u32, tetrises: u32| GameResult {
                index: 0,
                seed: 0,
                stats: GameStats {
                    score,
                    score_at_29: at29,
                    maxed_before_29: maxed,
                    lines,
                    tetrises,
                    start_level: 19,
                    ..GameStats::default()
                },
            };
        let s = Summary::of(&[
            mk(999_999, Some(999_999), true, 230, 50),
            mk(500_000, Some(480_000), false, 235, 20),
            mk(100_000, None, false, 80, 10),
        ]);
        assert_eq!(s.median_score, 500_000.0);
        assert_eq!(s.median_score_at_29, 480_000.0);
        assert!((s.max_out_rate - 1.0 / 3.0).abs() < 1e-9);
        assert!((s.reached_29_rate - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.best_third_mean, 999_999.0);
        assert!((s.tetris_rate - 320.0 / 545.0).abs() < 1e-9);
    }
}
