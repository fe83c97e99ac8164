//! `nestor fceux-replay ROM MOVIE...`: each movie replayed in real FCEUX (headless, under
//! `xvfb-run`), saying whether the game froze there and where, and how far it got.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use clap::Args;

use nestor::movie::fceux::{replay_in_fceux, FceuxEnd, FceuxTools};
use nestor::movie::Movie;
use nestor::nes::AddressMap;

use super::args::RomOptions;
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};

#[derive(Args, Debug)]
pub struct FceuxReplayArgs {
    /// The cartridge: your own "Tetris (U) [!].nes".
    #[arg(value_name = "ROM")]
    pub rom: PathBuf,
    /// The FM2 movies (e.g. a `nestor cartridge` folder's `game-*.fm2`).
    #[arg(value_name = "MOVIE", required = true)]
    pub movies: Vec<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rom_options: RomOptions,
}

/// FCEUX at its top speed runs 250 frames a second or more here (one core, under load); a
/// movie gets twice that long plus a minute to start before it is given up.
fn timeout(frames: usize) -> Duration {
    Duration::from_secs(60 + frames as u64 / 100)
}

pub fn run(args: &FceuxReplayArgs) -> Result<ExitCode> {
    let stop = Interrupt::install();
    let tools = FceuxTools::find()?;
    // The ROM is checked as every command checks it (a missing or wrong file is named).
    let rom = super::load_rom(&args.rom, args.rom_options.unknown.allow_unknown_rom)
        .map_err(|e| anyhow!("{e}"))?;
    let map = AddressMap::load_or_default(args.rom_options.addresses.as_deref())?;
    let mut results = Vec::new();
    let mut froze = 0;
    for path in &args.movies {
        if stop.requested() {
            break;
        }
        let movie = Movie::load(path).map_err(|e| anyhow!("{e}"))?;
        let poke = movie
            .header
            .poke()
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        let work = tempfile::Builder::new()
            .prefix("nestor-fceux-")
            .tempdir()
            .context("cannot make a work folder for FCEUX")?;
        let end = replay_in_fceux(
            &tools,
            (&rom.path, path, poke.as_ref()),
            &map,
            work.path(),
            timeout(movie.frames.len()),
        )
        .with_context(|| format!("{}", path.display()))?;
        froze += usize::from(end.froze.is_some());
        if !args.json {
            println!("{}: {}", path.display(), describe(&end));
        }
        results.push(serde_json::json!({ "movie": path, "fceux": end }));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    }
    if stop.requested() {
        eprintln!(
            "interrupted after {} of {} movies",
            results.len(),
            args.movies.len()
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if froze > 0 {
        eprintln!("{froze} of {} movies froze in FCEUX", results.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(end: &FceuxEnd) -> String {
    let reached = match end.lines_at_rebirth {
        Some(l) => format!(", the rebirth at {l} lines"),
        None => String::new(),
    };
    match &end.froze {
        Some(f) => format!(
            "froze at input line {} ({}: {}) at level {}, {} lines{reached}",
            f.frame, f.kind, f.what, f.level, f.lines
        ),
        None => format!(
            "no freeze in {} input lines; level {}, {} lines, score {}{reached}",
            end.frames, end.level, end.lines, end.score
        ),
    }
}
