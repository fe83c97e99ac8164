//! The clap definitions of the replay-side subcommands (`replay`, `trace`), kept out of
//! main.rs so that it stays short; main.rs re-exports them with the others.

use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The cartridge.
    pub rom: PathBuf,
    /// The FM2 movie.
    pub movie: PathBuf,
    /// Run without a window.
    #[arg(long)]
    pub headless: bool,
    /// Replay even if the movie's ROM checksum is not this ROM's.
    #[arg(long)]
    pub force: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many frames (default: the whole movie).
    #[arg(long)]
    pub frames: Option<u64>,
    /// Play a well-formed ROM whose hash is not the known dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
    /// RAM map (TOML, as addresses.toml).
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
}

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
    /// Replay even if the movie's ROM checksum is not this ROM's.
    #[arg(long)]
    pub force: bool,
    /// Play a well-formed ROM whose hash is not the known dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
    /// RAM map (TOML, as addresses.toml).
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
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
        a: PathBuf,
        b: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}
