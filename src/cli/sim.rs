//! `nestor sim`: many games of the bot in the rules model on all cores, with a progress bar,
//! a summary (text or JSON), a CSV row per game and PNG plots; Ctrl-C keeps what finished.

use nestor::lab::decision_time::DecisionFigures;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use nestor::lab::batch::{run_batch_profiled, BatchConfig, GameResult, Summary};
use nestor::lab::selfplay::Limits;
use nestor::lab::Until;
use nestor::movegen::profile::Profile;
use nestor::search::{Standard, Weights};

use clap::Args;
use nestor::io::{Input, Output, OutputSet};
use nestor::lab::batch::DEFAULT_MAX_LINES;
use nestor::lab::shard::ShardSpec;

use super::args::{BotArgs, OverwriteArg, ReportArgs};
use super::interrupt::Interrupt;

/// `nestor sim`'s own options (its subcommands are in `cli/sim_command.rs`).
#[derive(Args, Debug, Default)]
pub struct SimArgs {
    /// Play only shard K of N of the games (1 ≤ K ≤ N) and write them to --part, for a batch
    /// system; `nestor sim merge` joins the parts into the whole run's summary.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ShardSpec>,
    /// Where --shard writes its games (JSON; never overwritten) [default: sim-part-K-of-N.json].
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub part: Option<PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Play each game to: `top-out`, `level:N` (`level:29` gives the level-19 figures),
    /// `lines:N` or `rebirth` (the level rolling over from 255 to 0). Every game also stops at
    /// its top-out, crash or hang; `level:155` gives the crash-level figure of the runs that
    /// stopped there.
    #[arg(long, default_value_t = Until::TopOut)]
    pub until: Until,
    /// Stop each game after this many lines (above the lines any start needs for the rebirth,
    /// the roll-over from level 255 to 0).
    #[arg(long, default_value_t = DEFAULT_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Stop each game after this many pieces (at least 1) [default: no limit].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub pieces: Option<u32>,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub bot: BotArgs,
    #[command(flatten)]
    pub output: OverwriteArg,
}

/// Loads `--weights FILE`, or the default set.
pub fn load_weights(path: Option<&Path>) -> Result<Weights> {
    match path {
        Some(p) => Ok(Weights::load(p)?),
        None => Ok(Weights::default()),
    }
}

/// The player profile a run played, as its summary and JSON name it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ProfileLabel {
    pub name: String,
    /// [`Profile::describe`]: the name with the timeline, shift, reaction and start delay.
    pub describe: String,
    /// The weight set played (`--weights FILE` or the profile's set); empty when not known
    /// (parts written before it was recorded).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub weights: String,
}

impl ProfileLabel {
    pub fn of(p: &Profile, weights: &str) -> ProfileLabel {
        ProfileLabel {
            name: p.name.clone(),
            describe: p.describe(),
            weights: weights.to_string(),
        }
    }
}

/// "1 game", "2 games".
fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

const CSV_HEADER: &str = "game,seed,start_level,score,lines,level,end,score_at_29,lines_at_29,lines_after_29,maxed_before_29,pieces,tetrises,tetris_rate,frames,desyncs,crash,crash_frame,peak_level,clears_past_155,lines_at_rebirth,lock_rows";

fn write_csv_rows(out: &mut impl Write, results: &[GameResult]) -> std::io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    let opt = |v: Option<u32>| v.map_or(String::new(), |v| v.to_string());
    for r in results {
        let s = &r.stats;
        let rows: Vec<String> = s.locks.iter().map(|(row, _)| row.to_string()).collect();
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4},{},{},{},{},{},{},{},{}",
            r.index,
            r.seed,
            s.start_level,
            s.score,
            s.lines,
            s.level,
            s.end.name(),
            opt(s.score_at_29),
            opt(s.lines_at_29),
            opt(s.lines_after_29()),
            s.maxed_before_29,
            s.pieces,
            s.tetrises,
            s.tetris_rate,
            s.frames,
            s.desyncs,
            s.crash.map_or("", |c| c.kind.name()),
            s.crash.map_or(String::new(), |c| c.frame.to_string()),
            s.peak_level,
            s.clears_past_155,
            opt(s.lines_at_rebirth),
            rows.join(" ")
        )?;
    }
    out.flush()
}

/// Writes the CSV whole, or not at all (see [`nestor::io::AtomicFile`]).
fn write_csv(out: &Output, results: &[GameResult]) -> Result<()> {
    let path = out.path();
    let write = || -> std::io::Result<()> {
        let mut file = out.create()?;
        write_csv_rows(&mut file, results)?;
        file.commit()
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

/// The outputs of a batch, checked before any game is played.
#[derive(Debug, Default)]
pub struct Outputs {
    pub csv: Option<Output>,
    pub plots: Option<Vec<Output>>,
}

impl Outputs {
    /// Checks `--out` and `--plots` under the overwrite rule; `inputs` are never outputs.
    /// The folder first: a CSV inside it is then refused for the plot it would be.
    pub fn check(report: &ReportArgs, inputs: &[Input<'_>], overwrite: bool) -> Result<Outputs> {
        let mut set = OutputSet::new(inputs.to_vec(), overwrite);
        let plots = report
            .plots
            .as_deref()
            .map(|d| set.folder("--plots", d, &super::plots::NAMES))
            .transpose()?;
        Ok(Outputs {
            csv: set.maybe("--out", report.out.as_deref())?,
            plots,
        })
    }
}

/// "seeds A..B" for `n` (at least 1) seeds from `first`, as they wrap past the largest seed
/// to 0: "seeds A..18446744073709551615 and 0..B".
pub fn seeds(first: u64, n: u64) -> String {
    let last = first.wrapping_add(n.saturating_sub(1));
    if last >= first {
        format!("seeds {first}..{last}")
    } else {
        format!("seeds {first}..{} and 0..{last}", u64::MAX)
    }
}

/// `--threads`, or every core; never more than there are games.
pub fn threads(requested: Option<u64>, games: u32) -> usize {
    match requested {
        Some(t) => usize::try_from(t).unwrap_or(usize::MAX),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
    .clamp(1, games.max(1) as usize)
}

/// The batch `args` describe; `nestor sim --shard` plays a share of it.
pub fn batch_config(args: &SimArgs, threads: usize) -> BatchConfig {
    BatchConfig {
        games: args.games,
        level: args.level,
        seed: args.seed,
        threads,
        limits: Limits {
            max_pieces: args.pieces,
            max_frames: None,
        },
        until: args.until,
        max_lines: Some(args.max_lines),
    }
}

pub fn run(args: &SimArgs) -> Result<ExitCode> {
    let bot = args.bot.resolve()?;
    let (weights, profile) = (&bot.weights, &bot.profile);
    if let Until::Level(n) = args.until {
        if n <= args.level {
            return Err(super::args::bad_argument(format!(
                "--until level:{n} is reached before the first piece of a game from level {}",
                args.level
            )));
        }
    }
    if let Until::Lines(n) = args.until {
        if n > args.max_lines {
            eprintln!(
                "warning: --until lines:{n} is past --max-lines {}: every game stops at {} lines \
                 at most (raise --max-lines to play to {n})",
                args.max_lines, args.max_lines
            );
        }
    }
    let threads = threads(args.threads, args.games);
    let outputs = Outputs::check(&args.report, &args.bot.inputs(), args.output.overwrite)?;
    let config = batch_config(args, threads);
    let interrupt = Interrupt::install();
    let bar = super::progress::bar(args.games as u64, "games");
    let started = Instant::now();
    let make = || Standard::new(weights.clone());
    let results = run_batch_profiled(&config, profile, make, interrupt.flag(), |_, r| {
        bar.inc(1);
        bar.set_message(format!(
            "last: {} points, {} lines, level {}",
            r.stats.score, r.stats.lines, r.stats.level
        ));
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = interrupt.requested();
    if interrupted {
        eprintln!(
            "interrupted: {} of {} finished; the figures and files hold those",
            count(results.len() as u64, "game", "games"),
            args.games
        );
    }
    report(
        args,
        &outputs,
        &ProfileLabel::of(profile, &bot.weights_source),
        &results,
        Some((elapsed, threads)),
        interrupted,
    )
}

/// The summary (text or JSON), CSV and plots of a batch's results; exit 1 on a desync, 130
/// for an interrupted batch. `timing` is (seconds, threads) when the batch ran here in one piece;
/// `nestor sim merge` reports shards without it.
pub fn report(
    args: &SimArgs,
    outputs: &Outputs,
    profile: &ProfileLabel,
    results: &[GameResult],
    timing: Option<(f64, usize)>,
    interrupted: bool,
) -> Result<ExitCode> {
    let summary = Summary::of(results);
    if let Some(out) = &outputs.csv {
        write_csv(out, results)?;
    }
    if let Some(plots) = &outputs.plots {
        super::plots::write(plots, results)?;
    }
    if args.report.json {
        let mut value = serde_json::json!({
            "profile": profile,
            "summary": summary,
            "seed": args.seed,
            "until": args.until.to_string(),
            "max_lines": args.max_lines,
            "interrupted": interrupted,
            "games": results,
        });
        if let Some((elapsed, threads)) = timing {
            value["seconds"] = elapsed.into();
            value["threads"] = threads.into();
            value["decision_time"] = serde_json::to_value(DecisionFigures::of(
                results.iter().map(|r| &r.stats.decisions),
            ))?;
            if let Some(ms) = ms_per_piece(results, elapsed, threads) {
                value["ms_per_piece_per_thread"] = ms.into();
            }
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print_summary(args, profile, &summary, results, timing);
    }
    Ok(if interrupted {
        ExitCode::from(super::interrupt::EXIT_INTERRUPTED)
    } else if summary.total_desyncs == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Wall time per piece per thread (the decisions and the model's frames), if any piece played.
fn ms_per_piece(results: &[GameResult], elapsed: f64, threads: usize) -> Option<f64> {
    let pieces: u64 = results.iter().map(|r| r.stats.pieces as u64).sum();
    (pieces > 0).then(|| elapsed * 1000.0 * threads as f64 / pieces as f64)
}

fn print_summary(
    args: &SimArgs,
    profile: &ProfileLabel,
    s: &Summary,
    results: &[GameResult],
    timing: Option<(f64, usize)>,
) {
    let speed = match timing {
        None => String::from("merged from shards"),
        Some((elapsed, threads)) => {
            let per_piece = match ms_per_piece(results, elapsed, threads) {
                None => String::from("no pieces played"),
                Some(ms) => format!("{ms:.2} ms per piece per thread"),
            };
            format!(
                "{elapsed:.1} s on {}, {per_piece}",
                count(threads as u64, "thread", "threads")
            )
        }
    };
    let seeds = match results.len() as u64 {
        0 => String::from("no games finished"),
        n => seeds(args.seed, n),
    };
    println!(
        "{} from level {} to {} ({seeds}), {speed}",
        count(s.games as u64, "game", "games"),
        args.level,
        args.until,
    );
    println!("profile: {}", profile.describe);
    if !profile.weights.is_empty() {
        println!("weights: {}", profile.weights);
    }
    println!(
        "score: mean {:.0}, median {:.0}, best third {:.0}, max {}",
        s.mean_score, s.median_score, s.best_third_mean, s.max_score
    );
    // Level 29's figures only when the goal lets a game get there.
    let to_29 = super::sim_levels::reaches(args.until, 29);
    if to_29 {
        println!(
            "max-out rate (999,999 before level 29): {:.1}%; median score at level 29 (games that reached it): {:.0}",
            100.0 * s.max_out_rate,
            s.median_score_at_29,
        );
    }
    let after_29 = if to_29 {
        format!(
            "; after the level-29 transition: mean {:.1}, median {:.1}",
            s.mean_lines_after_29, s.median_lines_after_29
        )
    } else {
        String::new()
    };
    println!(
        "lines: mean {:.1}, median {:.1}, p10 {:.0}, p90 {:.0}{after_29}",
        s.mean_lines, s.median_lines, s.p10_lines, s.p90_lines
    );
    super::sim_levels::print(args.until, s, results);
    println!(
        "pieces: mean {:.1}; Tetris rate {:.1}%; desyncs {}",
        s.mean_pieces,
        100.0 * s.tetris_rate,
        s.total_desyncs
    );
    let d = DecisionFigures::of(results.iter().map(|r| &r.stats.decisions));
    if timing.is_some() && d.decisions > 0 {
        // Past 155 only when a game got there.
        let past = if s.crash_level_rate > 0.0 {
            format!(
                "; at level 155 or above: p50 {:.2} ms, p99 {:.2} ms",
                d.p50_ms_past_155, d.p99_ms_past_155
            )
        } else {
            String::new()
        };
        println!(
            "decision time (planning thread CPU per decision, {} decisions): p50 {:.2} ms, p99 \
             {:.2} ms{past}",
            d.decisions, d.p50_ms, d.p99_ms,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1u64, "thread", "threads"), "1 thread");
        assert_eq!(count(2u64, "thread", "threads"), "2 threads");
        assert_eq!(count(0u64, "game", "games"), "0 games");
    }

    #[test]
    fn the_csv_has_one_row_per_game_with_every_column() {
        let mut buf = Vec::new();
        let r = GameResult {
            index: 3,
            seed: 4,
            stats: Default::default(),
        };
        write_csv_rows(&mut buf, &[r.clone(), r]).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let columns = CSV_HEADER.split(',').count();
        assert!(
            lines.iter().all(|l| l.split(',').count() == columns),
            "{text}"
        );
    }

    #[test]
    fn an_existing_csv_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keep.csv");
        std::fs::write(&path, "mine").unwrap();
        assert!(Output::check("--out", &path, &[], false).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        let new = dir.path().join("new.csv");
        write_csv(&Output::check("--out", &new, &[], false).unwrap(), &[]).unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap().trim(), CSV_HEADER);
    }
}
