//! `nestor sim compare A.toml B.toml`: two sets of weights play the same seeds, and the paired
//! differences say, with an interval and a p-value, whether one is really better.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};

use nestor::search::batch::{run_batch, BatchConfig, GameResult};
use nestor::search::objective::Objective;
use nestor::search::selfplay::Limits;
use nestor::search::stats::{self, Paired, ALPHA};
use nestor::search::{Standard, Weights};

use super::sim::{load_weights, threads};
use crate::CompareArgs;

/// The games to play for a comparison.
pub struct Trial {
    pub objective: Objective,
    pub level: u8,
    pub pieces: Option<u32>,
    pub games: u32,
    pub seed: u64,
    pub threads: Option<usize>,
}

/// Plays `a` and `b` on the trial's seeds (common random numbers) and compares them, `a − b`.
pub fn play_and_compare(trial: &Trial, a: &Weights, b: &Weights) -> Result<Paired> {
    let config = BatchConfig {
        games: trial.games,
        level: trial.level,
        seed: trial.seed,
        threads: threads(trial.threads, trial.games),
        limits: Limits {
            max_pieces: trial.pieces,
            max_frames: None,
        },
        stop_at_29: trial.objective.decided_at_29(),
    };
    let bar = super::progress::bar(2 * u64::from(trial.games), "games");
    let play = |w: &Weights| -> Vec<GameResult> {
        run_batch(&config, || Standard::new(w.clone()), |_, _| bar.inc(1))
    };
    let (ra, rb) = (play(a), play(b));
    bar.finish_and_clear();
    let desyncs: u32 = ra.iter().chain(&rb).map(|r| r.stats.desyncs).sum();
    if desyncs > 0 {
        log::warn!("{desyncs} desyncs in the comparison games");
    }
    let value =
        |r: &[GameResult]| -> Vec<f64> { r.iter().map(|g| trial.objective.value(g)).collect() };
    Ok(stats::paired(&value(&ra), &value(&rb))?)
}

/// The comparison in words, one figure a line, ending with the verdict.
pub fn describe(trial: &Trial, a: &str, b: &str, p: &Paired) -> String {
    let verdict = if p.significant() {
        let better = if p.mean_diff > 0.0 { a } else { b };
        format!(
            "{better} is significantly better (both p < {ALPHA}; {} − {} = {:+.3} per game)",
            a, b, p.mean_diff
        )
    } else {
        format!("no significant difference between {a} and {b} at p < {ALPHA}")
    };
    format!(
        "{games} games from level {level} (seeds {s}..{e}), objective {o}, difference A − B (A = {a}, B = {b})\n\
         A mean {ma:.3}, B mean {mb:.3}\n\
         mean difference {md:+.3}, 95% CI [{cl:+.3}, {ch:+.3}] (paired t-test {tp})\n\
         median difference {med:+.3}, 95% CI [{ml:+.3}, {mh:+.3}] (Wilcoxon signed-rank {wp})\n\
         {verdict}",
        games = p.n,
        level = trial.level,
        s = trial.seed,
        e = trial.seed + u64::from(trial.games) - 1,
        o = trial.objective,
        ma = p.mean_a,
        mb = p.mean_b,
        md = p.mean_diff,
        cl = p.mean_ci.0,
        ch = p.mean_ci.1,
        tp = p_value(p.t_p),
        med = p.median_diff,
        ml = p.median_ci.0,
        mh = p.median_ci.1,
        wp = p_value(p.wilcoxon_p),
    )
}

/// "p = 0.0123", or "p < 0.0001" where four decimals would print as zero.
fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_string()
    } else {
        format!("p = {p:.4}")
    }
}

fn name(path: Option<&Path>) -> String {
    path.map_or_else(|| "default".to_string(), |p| p.display().to_string())
}

pub fn run(args: &CompareArgs) -> Result<ExitCode> {
    let a_path = args.a.as_deref().or(args.weights.as_deref());
    let b_path = args.b.as_deref().or(args.against.as_deref());
    if a_path.is_none() && b_path.is_none() {
        bail!("nothing to compare: give two weights files (A.toml B.toml, or --weights A --against B)");
    }
    let a = load_weights(a_path)?;
    let b = load_weights(b_path)?;
    let trial = Trial {
        objective: args.judge.objective,
        level: args.judge.level,
        pieces: args.judge.pieces,
        games: args.games,
        seed: args.seed,
        threads: args.judge.threads,
    };
    let p = play_and_compare(&trial, &a, &b)?;
    let (an, bn) = (name(a_path), name(b_path));
    if args.json {
        let value = serde_json::json!({
            "a": an,
            "b": bn,
            "objective": trial.objective,
            "level": trial.level,
            "seed": trial.seed,
            "games": trial.games,
            "comparison": p,
            "significant": p.significant(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!("{}", describe(&trial, &an, &bn, &p));
    }
    Ok(ExitCode::SUCCESS)
}
