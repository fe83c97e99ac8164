//! `nestor sim`: many games of the bot in the rules model on all cores, with a progress bar,
//! a summary (text or JSON), a CSV row per game and PNG plots.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use nestor::search::batch::{run_batch, BatchConfig, GameResult, Summary};
use nestor::search::selfplay::Limits;
use nestor::search::{Standard, Weights};

use crate::SimArgs;

/// Loads `--weights FILE`, or the default set.
pub fn load_weights(path: Option<&Path>) -> Result<Weights> {
    match path {
        Some(p) => Ok(Weights::load(p)?),
        None => Ok(Weights::default()),
    }
}

fn write_csv(path: &Path, results: &[GameResult]) -> Result<()> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = BufWriter::new(file);
    writeln!(
        out,
        "game,seed,score,lines,level,score_at_29,maxed_before_29,pieces,tetrises,tetris_rate,frames,desyncs,topped_out,lock_rows"
    )?;
    for r in results {
        let s = &r.stats;
        let rows: Vec<String> = s.locks.iter().map(|(row, _)| row.to_string()).collect();
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{:.4},{},{},{},{}",
            r.index,
            r.seed,
            s.score,
            s.lines,
            s.level,
            s.score_at_29.map_or(String::new(), |v| v.to_string()),
            s.maxed_before_29,
            s.pieces,
            s.tetrises,
            s.tetris_rate,
            s.frames,
            s.desyncs,
            s.topped_out,
            rows.join(" ")
        )?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))
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
        // The figures stop at level 29; a game that starts there plays to its top-out.
        stop_at_29: args.level < 29,
    }
}

/// `--threads`, or every core; never more than there are games.
pub fn threads(requested: Option<usize>, games: u32) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, games.max(1) as usize)
}

pub fn run(args: &SimArgs) -> Result<ExitCode> {
    let weights = load_weights(args.bot.weights.as_deref())?;
    let threads = threads(args.threads, args.games);
    // Fail on an unwritable output before the batch, not after it.
    if let Some(path) = &args.out {
        File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    }
    if let Some(dir) = &args.plots {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let config = batch_config(args, threads);
    let bar = super::progress::bar(args.games as u64, "games");
    let started = Instant::now();
    let results = run_batch(
        &config,
        || Standard::new(weights.clone()),
        |_, r| {
            bar.inc(1);
            bar.set_message(format!(
                "last: {} points, {} lines",
                r.stats.score, r.stats.lines
            ));
        },
    );
    bar.finish_and_clear();
    let timing = Timing {
        seconds: started.elapsed().as_secs_f64(),
        threads,
    };
    report(
        &results,
        args.seed,
        Output {
            json: args.json,
            csv: args.out.as_deref(),
            plots: args.plots.as_deref(),
        },
        Some(timing),
    )
}

/// Where the figures of a batch go.
pub struct Output<'a> {
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub plots: Option<&'a Path>,
}

/// How long a batch took, when it ran here in one piece.
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
}

/// Prints the summary of a batch whose first seed is `seed` (text or JSON) and writes its CSV
/// and plots; exit 1 if any desync happened. `nestor sim merge` reports merged shards with it.
pub fn report(
    results: &[GameResult],
    seed: u64,
    output: Output,
    timing: Option<Timing>,
) -> Result<ExitCode> {
    let summary = Summary::of(results);
    if let Some(path) = output.csv {
        write_csv(path, results)?;
    }
    if let Some(dir) = output.plots {
        crate::cli::plots::write(dir, results)?;
    }
    if output.json {
        let mut value = serde_json::json!({
            "summary": summary,
            "seed": seed,
            "games": results,
        });
        if let Some(t) = &timing {
            value["seconds"] = t.seconds.into();
            value["threads"] = t.threads.into();
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        let pieces: u64 = results.iter().map(|r| r.stats.pieces as u64).sum();
        let how = match &timing {
            Some(t) => format!(
                "{:.1} s on {} threads, {:.2} ms per piece per thread",
                t.seconds,
                t.threads,
                t.seconds * 1000.0 * t.threads as f64 / pieces.max(1) as f64
            ),
            None => "merged from shards".to_string(),
        };
        println!(
            "{} games from level {} (seeds {}..{}), {how}",
            summary.games,
            summary.start_level,
            seed,
            seed + summary.games.max(1) as u64 - 1,
        );
        println!(
            "score: mean {:.0}, median {:.0}, best third {:.0}, max {}",
            summary.mean_score, summary.median_score, summary.best_third_mean, summary.max_score
        );
        println!(
            "max-out rate (999,999 before level 29): {:.1}%; median score at level 29: {:.0}; reached level 29: {:.1}%",
            100.0 * summary.max_out_rate,
            summary.median_score_at_29,
            100.0 * summary.reached_29_rate
        );
        println!(
            "lines: mean {:.1}, median {:.1}; pieces: mean {:.1}; Tetris rate {:.1}%; desyncs {}",
            summary.mean_lines,
            summary.median_lines,
            summary.mean_pieces,
            100.0 * summary.tetris_rate,
            summary.total_desyncs
        );
    }
    Ok(if summary.total_desyncs == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
