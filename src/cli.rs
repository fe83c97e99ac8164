//! Subcommand implementations for the `nestor` binary, one file per command with its own clap
//! arguments (groups several share in `args.rs`); outputs and inputs go through `nestor::io`.

pub mod analyze;
pub mod args;
pub mod assist;
pub mod cartridge;
pub mod compare;
pub mod demo;
pub mod explain;
pub mod fceux_replay;
pub mod interrupt;
pub mod learn;
pub mod log_hold;
pub mod play;
mod play_finish;
mod play_settings;
mod play_summary;
pub mod plots;
pub mod profile;
pub mod progress;
pub mod replay;
#[cfg(unix)]
pub mod serve;
pub mod shard;
pub mod sim;
pub mod sim_command;
mod sim_levels;
pub mod trace;
pub mod tune;
pub mod view;

use nestor::nes::Rom;

/// Reads a ROM; when its PRG+CHR is the known dump's but the file differs (another header,
/// trailing bytes), says so: what identifies the cartridge is PRG+CHR, not the whole file.
pub fn load_rom(
    path: &std::path::Path,
    allow_unknown: bool,
) -> Result<Rom, nestor::nes::rom::Error> {
    let rom = Rom::load(path, allow_unknown)?;
    if rom.header_differs() {
        eprintln!(
            "warning: {}: PRG+CHR is {}, but the file differs from that dump's (its iNES header \
             or extra bytes); playing it as that cartridge",
            path.display(),
            rom.known.unwrap_or("a known dump")
        );
    }
    Ok(rom)
}

/// Window pixels per NES pixel (vertically; 8:7 wider horizontally).
#[cfg(feature = "window")]
pub const WINDOW_SCALE: usize = 3;
