//! A generation played as a race: every candidate plays the same seeds block by block, and a
//! candidate that cannot reach the elite (by a paired confidence bound) stops early.

// The rule. After each block, for candidate j with n games played (n >= `min_games`), count
// the other candidates i that are confidently better on the same n seeds: the paired
// differences d_g = x_i,g - x_j,g (higher objective is better) have a lower bound
// mean(d) - z * sd(d) / sqrt(n) above 0. When at least `elite` candidates are, j cannot be in
// the elite except with a small chance (one-sided normal tail at z per comparison; z = 3 is
// about 0.13 %), so it stops and keeps its partial mean as its score, marked stopped: the
// refit ranks stopped candidates after every finished one. Common seeds make the differences
// far less noisy than the scores themselves, which is what lets most losers stop early.
// Candidates that finish play every game, so the elite's scores are the full evaluation's.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::{play_seeds, TuneConfig};
use crate::lab::batch::GameResult;
use crate::search::Standard;

/// When a candidate may stop early (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceRule {
    /// Games every candidate in the race plays between two checks.
    pub block: u32,
    /// No candidate stops before this many games.
    pub min_games: u32,
    /// Standard errors the paired mean difference must clear; `f64::INFINITY` never stops.
    pub z: f64,
}

impl Default for RaceRule {
    fn default() -> RaceRule {
        RaceRule {
            block: 10,
            min_games: 10,
            z: 3.0,
        }
    }
}

impl RaceRule {
    /// The rule that never stops a candidate: every one plays every game.
    pub const FULL: RaceRule = RaceRule {
        block: u32::MAX,
        min_games: u32::MAX,
        z: f64::INFINITY,
    };
}

/// How one candidate's race ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Mean objective over the games it played.
    pub score: f64,
    /// Games it played.
    pub games: u32,
    /// Stopped before the last game by the rule.
    pub stopped: bool,
}

/// Is `a` better than `b` on their common first `n` games beyond `z` standard errors?
pub fn confidently_better(a: &[f64], b: &[f64], n: usize, z: f64) -> bool {
    if n < 2 || a.len() < n || b.len() < n || !z.is_finite() {
        return false;
    }
    let d: Vec<f64> = a[..n].iter().zip(&b[..n]).map(|(x, y)| x - y).collect();
    let nf = n as f64;
    let mean = d.iter().sum::<f64>() / nf;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (nf - 1.0);
    mean - z * (var / nf).sqrt() > 0.0
}

/// Does the rule stop candidate `j` given every candidate's per-game values so far?
pub fn hopeless(values: &[Vec<f64>], j: usize, elite: usize, rule: &RaceRule) -> bool {
    let n = values[j].len();
    if n < rule.min_games as usize {
        return false;
    }
    let better = (0..values.len())
        .filter(|&i| i != j && confidently_better(&values[i], &values[j], n, rule.z))
        .count();
    better >= elite
}

/// Races `candidates` over `games` common games: `play(candidate, first game, count)` plays
/// games first..first+count of that candidate and returns their objective values, or `None`
/// when interrupted (then the race returns `None`). `resolved(candidate, outcome)` is called
/// as each candidate finishes or stops, so a caller can save it at once. Returns every
/// candidate's outcome, in order.
pub fn race(
    candidates: usize,
    games: u32,
    elite: usize,
    rule: &RaceRule,
    mut play: impl FnMut(usize, u32, u32) -> Option<Vec<f64>>,
    mut resolved: impl FnMut(usize, &Outcome),
) -> Option<Vec<Outcome>> {
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); candidates];
    let mut outcome: Vec<Option<Outcome>> = vec![None; candidates];
    let block = rule.block.clamp(1, games.max(1));
    let mut played = 0u32;
    while played < games {
        let count = block.min(games - played);
        for j in 0..candidates {
            if outcome[j].is_some() {
                continue;
            }
            let v = play(j, played, count)?;
            if v.len() != count as usize {
                return None;
            }
            values[j].extend(v);
        }
        played += count;
        for j in 0..candidates {
            if outcome[j].is_some() {
                continue;
            }
            let last = played >= games;
            let stop = !last && hopeless(&values, j, elite, rule);
            if last || stop {
                let o = Outcome {
                    score: super::super::stats::mean(&values[j]),
                    games: values[j].len() as u32,
                    stopped: stop,
                };
                log::info!(
                    "candidate {j}: score {:.3} after {} games{}",
                    o.score,
                    o.games,
                    if stop { ", stopped early" } else { "" }
                );
                resolved(j, &o);
                outcome[j] = Some(o);
            }
        }
    }
    outcome.into_iter().collect()
}

/// Races candidates with their evaluators `standards` (one entry each) through generation `generation`'s seeds,
/// each block on `threads` threads (see [`race`]); `None` when `stop` was set first.
#[allow(clippy::too_many_arguments)]
pub fn play_race(
    config: &TuneConfig,
    standards: &[Standard],
    generation: u32,
    threads: usize,
    rule: &RaceRule,
    stop: &AtomicBool,
    on_game: impl Fn(&GameResult) + Sync,
    resolved: impl FnMut(usize, &Outcome),
) -> Option<Vec<Outcome>> {
    race(
        standards.len(),
        config.games,
        config.elite as usize,
        rule,
        |j, first, count| {
            let seed = config.game_seed(generation, first);
            let r = play_seeds(config, &standards[j], seed, count, threads, stop, &on_game);
            (r.len() == count as usize)
                .then(|| r.iter().map(|g| config.objective.value(g)).collect())
        },
        resolved,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic objective: candidate j's true mean is `means[j]`, plus a per-seed
    /// term common to every candidate (the seed's difficulty) and a small per-(candidate,
    /// seed) term, both from a fixed hash.
    fn value(means: &[f64], j: usize, game: u32) -> f64 {
        let h = |x: u64| {
            let mut z = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z ^= z >> 29;
            z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z ^= z >> 32;
            (z % 10_000) as f64 / 10_000.0
        };
        let seed = 100.0 * h(u64::from(game) + 1);
        let own = 4.0 * h((j as u64 + 1) << 32 | u64::from(game));
        means[j] + seed + own
    }

    fn run(means: &[f64], games: u32, elite: usize, rule: &RaceRule) -> (Vec<Outcome>, u32) {
        let mut total = 0;
        let out = race(
            means.len(),
            games,
            elite,
            rule,
            |j, first, count| {
                total += count;
                Some((first..first + count).map(|g| value(means, j, g)).collect())
            },
            |_, _| {},
        )
        .expect("not interrupted");
        (out, total)
    }

    fn elite_of(out: &[Outcome], elite: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..out.len()).collect();
        order.sort_by(|&a, &b| {
            (out[a].stopped, -out[a].score)
                .partial_cmp(&(out[b].stopped, -out[b].score))
                .expect("finite")
                .then(a.cmp(&b))
        });
        order.truncate(elite);
        order.sort_unstable();
        order
    }

    #[test]
    fn clear_losers_stop_early_and_the_elite_is_the_full_evaluations() {
        // 16 candidates, 4 in the elite: the per-seed term (spread 100) swamps the
        // differences in the scores, but the paired differences see them.
        let means: Vec<f64> = (0..16).map(|j| f64::from(j as u32) * 3.0).collect();
        let (full, full_games) = run(&means, 50, 4, &RaceRule::FULL);
        assert_eq!(full_games, 16 * 50);
        assert!(full.iter().all(|o| !o.stopped && o.games == 50));
        let (raced, raced_games) = run(&means, 50, 4, &RaceRule::default());
        assert_eq!(elite_of(&raced, 4), elite_of(&full, 4));
        assert_eq!(elite_of(&full, 4), vec![12, 13, 14, 15]);
        for j in 12..16 {
            assert_eq!(raced[j], full[j], "an elite candidate plays every game");
        }
        assert!(
            raced_games * 2 <= full_games,
            "{raced_games} of {full_games} games"
        );
        assert!(raced[0].stopped && raced[0].games == 10);
    }

    #[test]
    fn equal_candidates_all_play_every_game() {
        let means = vec![50.0; 8];
        let (out, games) = run(&means, 40, 2, &RaceRule::default());
        assert_eq!(games, 8 * 40);
        assert!(out.iter().all(|o| !o.stopped));
    }

    #[test]
    fn nothing_stops_before_min_games_or_without_enough_better_ones() {
        let means: Vec<f64> = (0..6).map(|j| f64::from(j as u32) * 50.0).collect();
        let rule = RaceRule {
            block: 5,
            min_games: 20,
            z: 3.0,
        };
        let (out, _) = run(&means, 40, 2, &rule);
        assert!(out.iter().filter(|o| o.stopped).all(|o| o.games >= 20));
        assert!(out[0].stopped);
        // With the whole population as the elite, no one can be pushed out of it.
        let (out, games) = run(&means, 40, 6, &rule);
        assert!(out.iter().all(|o| !o.stopped));
        assert_eq!(games, 6 * 40);
    }

    #[test]
    fn the_paired_bound_needs_a_consistent_difference() {
        let a = [10.0, 20.0, 30.0, 40.0];
        let b = [9.0, 19.0, 29.0, 39.0];
        assert!(confidently_better(&a, &b, 4, 3.0));
        assert!(!confidently_better(&b, &a, 4, 3.0));
        let c = [12.0, 18.0, 33.0, 37.0];
        assert!(!confidently_better(&c, &b, 4, 3.0));
        assert!(!confidently_better(&a, &b, 1, 3.0));
        assert!(!confidently_better(&a, &b, 4, f64::INFINITY));
    }

    #[test]
    fn an_interrupted_race_returns_nothing() {
        let out = race(3, 20, 1, &RaceRule::default(), |_, _, _| None, |_, _| {});
        assert!(out.is_none());
    }
}
