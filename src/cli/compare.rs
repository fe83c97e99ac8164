//! `nestor sim compare A.toml B.toml`: two sets of weights play the same seeds, and the paired
//! differences say, with an interval and a p-value, whether one is really better.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use nestor::lab::batch::{run_batch_profiled, BatchConfig, GameResult};
use nestor::lab::objective::Objective;
use nestor::lab::selfplay::Limits;
use nestor::lab::stats::{self, Paired, ALPHA};
use nestor::movegen::profile::Profile;
use nestor::search::{Standard, Weights};

use clap::Args;
use nestor::lab::batch::DEFAULT_MAX_LINES;

use super::args::ProfileArg;
use super::interrupt::Interrupt;
use super::sim::{load_weights, threads};

/// The games that judge weights (compare, tune): the figure they are judged by and the level
/// they start from (which together say which levels count, `Objective::levels`).
#[derive(Args, Clone, Copy, Debug)]
pub struct GamesJudged {
    /// The figure games are judged by.
    #[arg(long, default_value = "lines", value_parser = objective_parser())]
    pub objective: Objective,
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
}

/// Options of a batch of games used to judge weights (`sim compare`).
#[derive(Args, Clone, Debug)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub judged: GamesJudged,
    /// Stop each game after this many pieces (a cap that keeps long games affordable; at
    /// least 1) [default: no limit].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub pieces: Option<u32>,
    /// Stop each game after this many lines.
    #[arg(long, default_value_t = DEFAULT_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
}

/// `--objective`: one of [`Objective::ALL`] by name, the names listed in `--help`.
pub fn objective_parser() -> impl clap::builder::TypedValueParser<Value = Objective> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Objective::ALL.map(Objective::name))
        .try_map(|s| s.parse::<Objective>())
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Weights A (TOML); the difference reported is A − B.
    #[arg(conflicts_with = "weights")]
    pub a: Option<PathBuf>,
    /// Weights B (TOML).
    #[arg(conflicts_with = "against")]
    pub b: Option<PathBuf>,
    /// Weights A, as an option [default: the built-in set].
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Weights B, as an option [default: the built-in set].
    #[arg(long, value_name = "FILE")]
    pub against: Option<PathBuf>,
    /// Games each set plays (the same seeds for both).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    pub games: u32,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// The player profile both sides play under.
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Plays `a` and `b` on the batch's seeds (common random numbers), both under `profile`, and
/// compares them by `objective`, as `a − b`. Ctrl-C abandons the comparison (half a pair
/// means nothing).
pub fn play_and_compare_profiled(
    config: &BatchConfig,
    profile: &Profile,
    objective: Objective,
    a: &Weights,
    b: &Weights,
) -> Result<Paired> {
    let interrupt = Interrupt::install();
    let bar = super::progress::bar(2 * u64::from(config.games), "games");
    let play = |w: &Weights| -> Vec<GameResult> {
        run_batch_profiled(
            config,
            profile,
            || Standard::new(w.clone()),
            interrupt.flag(),
            |_, _| bar.inc(1),
        )
    };
    let (ra, rb) = (play(a), play(b));
    bar.finish_and_clear();
    if interrupt.requested() {
        bail!("interrupted: no comparison");
    }
    let desyncs: u32 = ra.iter().chain(&rb).map(|r| r.stats.desyncs).sum();
    if desyncs > 0 {
        log::warn!("{desyncs} desyncs in the comparison games");
    }
    let value = |r: &[GameResult]| -> Vec<f64> { r.iter().map(|g| objective.value(g)).collect() };
    Ok(stats::paired(&value(&ra), &value(&rb))?)
}

/// "p = 0.0123", or "p < 0.0001" where four decimals would print as zero.
fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_string()
    } else {
        format!("p = {p:.4}")
    }
}

/// The comparison in words, one figure a line, ending with the verdict.
pub fn describe(
    config: &BatchConfig,
    objective: Objective,
    a: &str,
    b: &str,
    p: &Paired,
) -> String {
    let verdict = if p.significant() {
        let better = if p.mean_diff > 0.0 { a } else { b };
        format!(
            "{better} is significantly better (both p < {ALPHA}; {a} − {b} = {:+.3} per game)",
            p.mean_diff
        )
    } else {
        format!("no significant difference between {a} and {b} at p < {ALPHA}")
    };
    format!(
        "{games} games from level {level} to {until} ({seeds}), objective {objective}, \
         difference A − B (A = {a}, B = {b})\n\
         A mean {ma:.3}, B mean {mb:.3}\n\
         mean difference {md:+.3}, 95% CI [{cl:+.3}, {ch:+.3}] (paired t-test {tp})\n\
         median difference {med:+.3}, 95% CI [{ml:+.3}, {mh:+.3}] (Wilcoxon signed-rank {wp})\n\
         {verdict}",
        games = p.n,
        level = config.level,
        until = config.until,
        seeds = super::sim::seeds(config.seed, u64::from(config.games)),
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
    let profile = args.profile.resolve()?;
    let objective = args.judge.judged.objective;
    let config = BatchConfig {
        games: args.games,
        level: args.judge.judged.level,
        seed: args.seed,
        threads: threads(args.judge.threads, args.games),
        limits: Limits {
            max_pieces: args.judge.pieces,
            max_frames: None,
        },
        until: objective.until(),
        max_lines: Some(args.judge.max_lines),
    };
    let p = play_and_compare_profiled(&config, &profile, objective, &a, &b)?;
    let (an, bn) = (name(a_path), name(b_path));
    if args.json {
        let value = serde_json::json!({
            "a": an,
            "b": bn,
            "objective": objective,
            "profile": super::sim::ProfileLabel::of(&profile, ""),
            "level": config.level,
            "until": config.until.to_string(),
            "seed": config.seed,
            "games": config.games,
            "comparison": p,
            "significant": p.significant(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!("{}", describe(&config, objective, &an, &bn, &p));
        println!("both played under the profile {}", profile.describe());
    }
    Ok(ExitCode::SUCCESS)
}
