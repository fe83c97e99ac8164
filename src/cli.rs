//! Subcommand implementations for the `nestor` binary, one file per command with its own clap
//! arguments (groups several share in `args.rs`); outputs and inputs go through `nestor::io`.

pub mod analyze;
pub mod args;
pub mod assist;
pub mod compare;
pub mod demo;
pub mod explain;
pub mod interrupt;
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
pub mod trace;
pub mod tune;

use nestor::nes::{Rom, Video};
use nestor::ui::NesView;

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
pub const WINDOW_SCALE: usize = 3;

/// The window for `play` and `replay` unless `headless`, with the explanation panel when
/// `panel`; without a display, says so and carries on headless. Returns the view and the video
/// mode the emulator needs.
pub fn open_view(headless: bool, title: &str, panel: bool) -> (Option<NesView>, Video) {
    if headless {
        return (None, Video::Headless);
    }
    match NesView::open_with_panel(title, WINDOW_SCALE, panel) {
        Ok(v) => {
            eprintln!("window: {}", NesView::KEYS);
            (Some(v), Video::On)
        }
        Err(e) => {
            eprintln!("no window ({e}); running headless");
            (None, Video::Headless)
        }
    }
}

/// A window of nestor's board picture for `play --model-console --model-window` (a test
/// console has no cartridge picture), with the explanation panel when `panel`.
pub fn open_board_view(title: &str, panel: bool) -> anyhow::Result<NesView> {
    let mut board = nestor::ui::Frame::new(0, 0, [0; 3]);
    let game = nestor::game::Game::seeded(0, 1);
    nestor::ui::render::draw_game_into(&game, &nestor::ui::DrawOptions::default(), &mut board);
    let view = NesView::open_board(title, 2, (board.width, board.height), panel)?;
    eprintln!("window: {}", NesView::KEYS);
    Ok(view)
}
