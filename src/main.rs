//! The `nestor` command line: subcommands only; the work lives in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use nestor::trace::verify_trace;

#[derive(Parser)]
#[command(name = "nestor", version, about = "Plays NES Tetris, frame-exact, on the real cartridge or the built-in rules model")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// RAM traces: check them against the rules model.
    #[command(subcommand)]
    Trace(TraceCommand),
}

#[derive(Subcommand)]
enum TraceCommand {
    /// Checks trace files (JSONL, plain or gzip) against the rules model frame by frame.
    Verify {
        /// Trace files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print a JSON summary instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn trace_verify(files: &[PathBuf], json: bool) -> Result<ExitCode> {
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
                error: Some(e.to_string()),
            },
        };
        if !json {
            match (&report.error, &report.divergence) {
                (Some(e), _) => println!("{}: ERROR {e}", report.file),
                (None, Some(d)) => println!(
                    "{}: {} frames checked, DIVERGES at t={} (frame {}) field `{}`: cartridge {}, model {}",
                    report.file, report.frames_checked, d.t, d.frame, d.field, d.expected, d.actual
                ),
                (None, None) => println!(
                    "{}: {} frames checked, {} fields, no divergence",
                    report.file, report.frames_checked, report.fields_checked
                ),
            }
            if !report.unknown_fields.is_empty() {
                println!("  not compared (unknown fields): {}", report.unknown_fields.join(", "));
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
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Trace(TraceCommand::Verify { files, json }) => trace_verify(&files, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
