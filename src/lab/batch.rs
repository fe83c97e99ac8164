//! Batch statistics: many seeded games of the bot in the rules model, in parallel on all
//! cores, with per-game results and the summary figures the 2018 bot was judged by.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::game::score::CRASH_LEVEL;
use crate::game::state::Game;

use super::selfplay::{GameStats, Limits, SelfPlay};
use super::until::{End, Until};
use crate::movegen::profile::Profile;
use crate::search::eval::Evaluator;
use crate::search::plan::Planner;

/// What to simulate.
#[derive(Clone, Copy, Debug)]
pub struct BatchConfig {
    /// Games to play.
    pub games: u32,
    /// Start level of every game.
    pub level: u8,
    /// Game i is seeded with `seed + i`.
    pub seed: u64,
    /// Worker threads (0 runs one).
    pub threads: usize,
    /// Piece and frame caps per game.
    pub limits: Limits,
    /// What each game plays to (it also stops at its top-out, crash or hang).
    pub until: Until,
    /// End a game once it has cleared this many lines.
    pub max_lines: Option<u32>,
}

/// The default line cap: above the lines any start level needs to reach the rebirth (the level
/// rolls over from 255 to 0 at 3,300 lines from level 19, 3,360 from level 0).
pub const DEFAULT_MAX_LINES: u32 = 3400;

/// One game's result, in order of its seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number in the batch, from 0.
    pub index: u32,
    /// Its seed (`BatchConfig::seed + index`).
    pub seed: u64,
    /// What the game did.
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

/// Plays the batch, every game under `profile`; `progress` is called after each game with
/// the number finished. When `stop` is set (Ctrl-C), the games in play are dropped and the
/// finished ones returned, in order of their seeds.
pub fn run_batch_profiled<E, F>(
    config: &BatchConfig,
    profile: &Profile,
    make_evaluator: impl Fn() -> E + Sync,
    stop: &AtomicBool,
    progress: F,
) -> Vec<GameResult>
where
    E: Evaluator,
    F: Fn(usize, &GameResult) + Sync,
{
    let make_planner = || {
        let mut planner = Planner::new(make_evaluator());
        planner.profile = profile.clone();
        planner
    };
    let play = |planner: &mut Planner<E>, i: u32| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let seed = config.seed.wrapping_add(u64::from(i));
        let mut game = Game::seeded(config.level, seed);
        let mut play = SelfPlay::new(planner, &game);
        play.until = config.until;
        play.max_lines = config.max_lines;
        let stats = play.run_or_stop(&mut game, config.limits, stop)?;
        Some(GameResult {
            index: i,
            seed,
            stats,
        })
    };
    in_parallel(config.games, config.threads, make_planner, play, progress)
}

/// Plays games 0..`games` on `threads` threads (0 runs one), each thread with a planner of
/// its own from `make_planner`: `play(planner, i)` plays game i, `None` when it was stopped
/// (that thread then takes no more); `progress` is called after each game with the number
/// finished. The results come back in order of `i`.
pub fn in_parallel<E: Evaluator, T: Send>(
    games: u32,
    threads: usize,
    make_planner: impl Fn() -> Planner<E> + Sync,
    play: impl Fn(&mut Planner<E>, u32) -> Option<T> + Sync,
    progress: impl Fn(usize, &T) + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // Not `with_capacity(games)`: a huge --games with a tiny --pieces must not reserve for all.
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut planner = make_planner();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games as usize {
                        break;
                    }
                    let Some(result) = play(&mut planner, i as u32) else {
                        break;
                    };
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, &result);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Summary figures of a batch.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Summary {
    /// Games summed up.
    pub games: usize,
    /// The first game's start level.
    pub start_level: u8,
    /// Mean final score.
    pub mean_score: f64,
    /// Median final score.
    pub median_score: f64,
    /// Mean of the best third of final scores.
    pub best_third_mean: f64,
    /// Best final score.
    pub max_score: u32,
    /// Games that reached 999,999 before level 29.
    pub max_out_rate: f64,
    /// Median score at the level-29 transition, over the games that reached it (0 if none did).
    pub median_score_at_29: f64,
    /// Games that reached level 29.
    pub reached_29_rate: f64,
    /// Games that reached level 39.
    pub reached_39_rate: f64,
    /// Games that reached level 49.
    pub reached_49_rate: f64,
    /// Games that reached level 99.
    pub reached_99_rate: f64,
    /// Games that reached the crash level (`CRASH_LEVEL`, 155).
    pub crash_level_rate: f64,
    /// Games that reached level 200.
    pub reached_200_rate: f64,
    /// Games that reached level 255.
    pub reached_255_rate: f64,
    /// Games that rolled over from level 255 to 0 (the rebirth).
    pub rebirth_rate: f64,
    /// Games that reached the rebirth without a single "may crash" frame: the share a console
    /// would give if every frame the model leaves open crashed (the model plays on through
    /// them, so `rebirth_rate` is the share if none did; the cartridge lies between).
    #[serde(default)]
    pub strict_rebirth_rate: f64,
    /// Games the cartridge crashed or hung in (`End::Crashed`).
    pub crash_rate: f64,
    /// Crashes and hangs per 1,000 line clears made at level 155 or above (0 with no clear).
    pub crashes_per_1000_clears_past_155: f64,
    /// Line clears made at level 155 or above, over all games.
    pub clears_past_155: u64,
    /// Frames the model flagged "may crash" per 1,000 line clears past 155.
    #[serde(default)]
    pub may_crash_per_1000_clears_past_155: f64,
    /// Safe frames that landed within the planner's preferred margin of a danger window, per
    /// 1,000 line clears past 155.
    #[serde(default)]
    pub thin_margin_per_1000_clears_past_155: f64,
    /// Lines at the rebirth, over the games that reached it (0 if none did).
    pub mean_lines_at_rebirth: f64,
    /// Mean final lines.
    pub mean_lines: f64,
    /// Median final lines.
    pub median_lines: f64,
    /// 10th percentile of final lines (nearest rank).
    pub p10_lines: f64,
    /// 90th percentile of final lines (nearest rank).
    pub p90_lines: f64,
    /// Mean lines cleared from the level-29 transition on, over the games that reached it.
    pub mean_lines_after_29: f64,
    /// Median of the same.
    pub median_lines_after_29: f64,
    /// Games that ended by topping out (the rest hit a goal, the crash level or a cap).
    pub top_out_rate: f64,
    /// Mean pieces locked per game.
    pub mean_pieces: f64,
    /// Lines cleared by tetrises over all lines cleared.
    pub tetris_rate: f64,
    /// Frames where a piece left its plan, over all games.
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

/// Nearest-rank percentile `p` (0-100) of `v`; 0 for no values.
fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
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
    /// The figures of `results` (all zero for none).
    pub fn of(results: &[GameResult]) -> Summary {
        let n = results.len();
        if n == 0 {
            return Summary::default();
        }
        let share = |f: &dyn Fn(&GameResult) -> bool| {
            results.iter().filter(|r| f(r)).count() as f64 / n as f64
        };
        let scores: Vec<f64> = results.iter().map(|r| r.stats.score as f64).collect();
        let mut sorted = scores.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let third = n.div_ceil(3);
        let lines: Vec<f64> = results.iter().map(|r| r.stats.lines as f64).collect();
        let after_29: Vec<f64> = results
            .iter()
            .filter_map(|r| r.stats.lines_after_29())
            .map(f64::from)
            .collect();
        let lines_all: u64 = results.iter().map(|r| r.stats.lines as u64).sum();
        let clears_past_155: u64 = results
            .iter()
            .map(|r| u64::from(r.stats.clears_past_155))
            .sum();
        let crashes = results
            .iter()
            .filter(|r| r.stats.end == End::Crashed)
            .count();
        // Frames of a kind summed over the games, per 1,000 line clears past 155.
        let per_1000_past_155 = |frames: fn(&GameStats) -> u32| {
            let n: u64 = results.iter().map(|r| u64::from(frames(&r.stats))).sum();
            if clears_past_155 == 0 {
                0.0
            } else {
                n as f64 * 1000.0 / clears_past_155 as f64
            }
        };
        let tetris_lines: u64 = results.iter().map(|r| 4 * r.stats.tetrises as u64).sum();
        Summary {
            games: n,
            start_level: results[0].stats.start_level,
            mean_score: mean(scores.iter().copied()),
            median_score: median(scores.clone()),
            best_third_mean: mean(sorted[..third].iter().copied()),
            max_score: results.iter().map(|r| r.stats.score).max().unwrap_or(0),
            max_out_rate: share(&|r| r.maxed_out()),
            median_score_at_29: median(
                results
                    .iter()
                    .filter_map(|r| r.stats.score_at_29)
                    .map(f64::from)
                    .collect(),
            ),
            reached_29_rate: share(&|r| r.stats.reached(29)),
            reached_39_rate: share(&|r| r.stats.reached(39)),
            reached_49_rate: share(&|r| r.stats.reached(49)),
            reached_99_rate: share(&|r| r.stats.reached(99)),
            crash_level_rate: share(&|r| r.stats.reached(CRASH_LEVEL)),
            reached_200_rate: share(&|r| r.stats.reached(200)),
            reached_255_rate: share(&|r| r.stats.reached(255)),
            rebirth_rate: share(&|r| r.stats.reborn()),
            strict_rebirth_rate: share(&|r| r.stats.reborn() && r.stats.may_crash_frames == 0),
            crash_rate: crashes as f64 / n as f64,
            crashes_per_1000_clears_past_155: if clears_past_155 == 0 {
                0.0
            } else {
                crashes as f64 * 1000.0 / clears_past_155 as f64
            },
            clears_past_155,
            may_crash_per_1000_clears_past_155: per_1000_past_155(|s| s.may_crash_frames),
            thin_margin_per_1000_clears_past_155: per_1000_past_155(|s| s.thin_margin_frames),
            mean_lines_at_rebirth: mean(
                results
                    .iter()
                    .filter_map(|r| r.stats.lines_at_rebirth)
                    .map(f64::from),
            ),
            mean_lines: mean(lines.iter().copied()),
            median_lines: median(lines.clone()),
            p10_lines: percentile(lines.clone(), 10.0),
            p90_lines: percentile(lines, 90.0),
            mean_lines_after_29: mean(after_29.iter().copied()),
            median_lines_after_29: median(after_29),
            top_out_rate: share(&|r| r.stats.end == End::TopOut),
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

/// The survival curve: for each of `points` line counts from 0 to the most lines any game
/// cleared (past the rebirth when games got there), the share of games that had not topped out,
/// crashed or hung before clearing that many lines. A game stopped by a goal or a cap did not
/// die: it counts as alive up to where it stopped, and the curve ends there, at the first such
/// stop: past it, not every game was watched.
pub fn survival(results: &[GameResult], points: usize) -> Vec<(u32, f64)> {
    let n = results.len();
    let first_stop = results
        .iter()
        .filter(|r| !r.stats.end.is_death())
        .map(|r| r.stats.lines)
        .min();
    let most = results.iter().map(|r| r.stats.lines).max().unwrap_or(0);
    let most = first_stop.map_or(most, |stop| stop.min(most));
    let points = points.max(2);
    (0..points)
        .map(|i| {
            let at = (u64::from(most) * i as u64 / (points as u64 - 1)) as u32;
            let alive = results
                .iter()
                .filter(|r| !r.stats.end.is_death() || r.stats.lines >= at)
                .count();
            (at, if n == 0 { 0.0 } else { alive as f64 / n as f64 })
        })
        .collect()
}

#[cfg(test)]
mod tests;
