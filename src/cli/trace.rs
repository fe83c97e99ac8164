//! `nestor trace …`: capture a RAM trace from a movie, verify traces against the rules model,
//! diff two traces.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};
use nestor::io::OutputSet;

use nestor::nes::rom::hex;
use nestor::nes::{NesDeck, Video};
use nestor::trace::{
    capture_to_file, check_fields, verify_trace, CaptureError, CaptureSpan, TraceCapture,
    TraceError,
};

use super::args::{OverwriteArg, ReplayRomOptions};
use super::interrupt::Interrupt;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TraceArgs {
    #[command(subcommand)]
    pub command: Option<TraceCommand>,
    #[command(flatten)]
    pub capture: TraceCaptureArgs,
}

/// `nestor trace ROM --movie MOVIE.fm2 --out FILE.jsonl[.gz]`: capture a RAM trace.
#[derive(Args, Debug)]
pub struct TraceCaptureArgs {
    /// The cartridge.
    #[arg(required = true)]
    pub rom: Option<PathBuf>,
    /// The FM2 movie to replay.
    #[arg(long, required = true)]
    pub movie: Option<PathBuf>,
    /// Output trace (gzip when it ends in .gz).
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Only these fields (comma-separated; default: all of the schema).
    #[arg(long, value_delimiter = ',')]
    pub fields: Option<Vec<String>>,
    /// Write every frame from power-on, menus included (default: the first game's gameplay
    /// frames, framed like the cartridge traces so `trace verify` can check them).
    #[arg(long)]
    pub whole_movie: bool,
    #[command(flatten)]
    pub rom_options: ReplayRomOptions,
    #[command(flatten)]
    pub output: OverwriteArg,
}

#[derive(Subcommand, Debug)]
pub enum TraceCommand {
    /// Checks trace files (JSONL, plain or gzip) against the rules model frame by frame.
    Verify {
        /// Trace files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print a JSON summary instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Reports the first frame and field where two traces differ (exit code 1), or that they are equal.
    Diff {
        /// The first trace (JSONL, plain or gzip): the reference, "expected" in the report.
        #[arg(value_name = "A")]
        a: PathBuf,
        /// The second trace, compared with A ("actual" in the report).
        #[arg(value_name = "B")]
        b: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn verify(files: &[PathBuf], json: bool) -> Result<ExitCode> {
    let mut reports = Vec::new();
    for f in files {
        let report = match verify_trace(f) {
            Ok(r) => r,
            Err(e) => nestor::trace::VerifyReport {
                file: f.display().to_string(),
                name: f.display().to_string(),
                frames: 0,
                frames_checked: 0,
                fields_checked: 0,
                divergence: None,
                unknown_fields: vec![],
                error: Some(without_file(&e)),
                forks: vec![],
            },
        };
        if !json {
            match (&report.error, &report.divergence) {
                (Some(e), _) => println!("{}: ERROR: {e}", report.file),
                (None, Some(d)) => println!(
                    "{}: {} frames checked, DIVERGES at t={} (frame {}) field `{}`: cartridge {}, model {}",
                    report.file, report.frames_checked, d.t, d.frame, d.field, d.expected, d.actual
                ),
                (None, None) => println!(
                    "{}: {} frames checked, {} fields, no divergence",
                    report.file, report.frames_checked, report.fields_checked
                ),
            }
            for f in &report.forks {
                println!(
                    "  t={}: the model leaves this frame open; the cartridge chose: {}",
                    f.t, f.outcome
                );
            }
            if !report.unknown_fields.is_empty() {
                println!(
                    "  not compared (unknown fields): {}",
                    report.unknown_fields.join(", ")
                );
            }
        }
        reports.push(report);
    }
    let failed = reports.iter().filter(|r| !r.ok()).count();
    if json {
        let summary = serde_json::json!({
            "files": reports,
            "frames_checked": reports.iter().map(|r| r.frames_checked).sum::<u64>(),
            "divergences": reports.iter().filter(|r| r.divergence.is_some()).count(),
            "errors": reports.iter().filter(|r| r.error.is_some()).count(),
        });
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        println!(
            "{} file(s), {} frames checked, {} failed",
            reports.len(),
            reports.iter().map(|r| r.frames_checked).sum::<u64>(),
            failed
        );
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A read error without the file name, which the report line already starts with.
fn without_file(e: &TraceError) -> String {
    match e {
        TraceError::Io { action, source, .. } => format!("cannot {action}: {source}"),
        TraceError::Line { line, reason, .. } => format!("line {line}: {reason}"),
        TraceError::Empty { .. } => "no frame lines".into(),
        e => e.to_string(),
    }
}

/// `nestor trace diff A B`: exit 0 when equal, 1 when they differ, 2 when one cannot be read.
pub fn diff(a: &std::path::Path, b: &std::path::Path, json: bool) -> Result<ExitCode> {
    let report = match nestor::trace::diff::run_diff(a, b) {
        Ok(r) => r,
        Err(e) => {
            // Not "different" (1): the traces could not be compared at all.
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if json {
        println!("{}", report.to_json());
    } else {
        println!("{}", report.to_text());
    }
    Ok(ExitCode::from(report.exit_code() as u8))
}

/// `nestor trace ROM --movie M --out F`: the first game of the movie, framed as the cartridge
/// traces are (see `CaptureSpan::FirstGame`), so `nestor trace verify` can check it; or every
/// frame with `--whole-movie`. Ctrl-C stops the replay and keeps a complete trace of the frames
/// so far (exit code 130).
/// `nestor trace …`: the capture, or one of its subcommands.
pub fn dispatch(args: TraceArgs) -> Result<ExitCode> {
    match args.command {
        Some(TraceCommand::Verify { files, json }) => verify(&files, json),
        Some(TraceCommand::Diff { a, b, json }) => diff(&a, &b, json),
        None => capture(&args.capture),
    }
}

pub fn capture(args: &TraceCaptureArgs) -> Result<ExitCode> {
    // clap requires these three; the checks only keep a bad parse from panicking.
    let (Some(rom), Some(movie), Some(out)) = (&args.rom, &args.movie, &args.out) else {
        anyhow::bail!("`nestor trace` needs ROM, --movie and --out");
    };
    // Field names and the output first: a typo or a wrong path should not cost a replay, and
    // an output that is an input must never be touched.
    check_fields(args.fields.as_deref())?;
    let mut inputs = vec![("ROM", rom.as_path()), ("movie", movie.as_path())];
    if let Some(a) = &args.rom_options.rom.addresses {
        inputs.push(("addresses file", a.as_path()));
    }
    // Kept to the end: a FIFO output stays open for its reader.
    let _out = OutputSet::new(inputs, args.output.overwrite).file("--out", out)?;
    let loaded = super::replay::load(rom, movie, &args.rom_options)?;
    let capture = TraceCapture::new(
        loaded.map.clone(),
        if args.whole_movie {
            CaptureSpan::Movie
        } else {
            CaptureSpan::FirstGame
        },
        args.fields.clone(),
    )?;
    let rom_desc = format!(
        "{}, md5 {}",
        loaded.rom.known.unwrap_or("unknown dump"),
        hex(&loaded.rom.file_md5)
    );
    let note = out
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .trim_end_matches(".gz")
                .trim_end_matches(".jsonl")
                .to_string()
        })
        .unwrap_or_default();
    let header = capture.header(
        &note,
        &rom_desc,
        &movie.display().to_string(),
        loaded.replay.movie().gameplay_frames().len(),
    );
    let mut deck = NesDeck::new(&loaded.rom, Video::Headless)?;
    let stop = Interrupt::install();
    let bar = super::progress::bar(loaded.replay.pads().len() as u64, "frames");
    let result = capture_to_file(&loaded.replay, &mut deck, capture, out, &header, |_| {
        bar.inc(1);
        if stop.requested() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish_and_clear();
    let (end, lines) = result.map_err(|e| match e {
        // Write errors name the trace file; the rest concern the movie being replayed.
        CaptureError::Trace(e) => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(format!("replaying {}", movie.display())),
    })?;
    let interrupted = stop.requested();
    println!(
        "{}: {lines} frame lines ({} of {} movie frames replayed{})",
        out.display(),
        end.frames,
        end.movie_frames,
        if interrupted { "; interrupted" } else { "" }
    );
    Ok(if interrupted {
        ExitCode::from(super::interrupt::EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}
