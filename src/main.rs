//! The `nestor` command line: subcommands only; the work lives in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(
    name = "nestor",
    version,
    about = "Plays NES Tetris, frame-exact, on the real cartridge or the built-in rules model"
)]
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

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Trace(TraceCommand::Verify { files, json }) => cli::trace::verify(&files, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
