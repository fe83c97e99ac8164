//! Subcommand implementations for the `nestor` binary, one file per command group;
//! they parse nothing themselves (main.rs holds the clap definitions) and report with anyhow.

pub mod analyze;
pub mod assist;
pub mod demo;
pub mod explain;
pub mod interrupt;
pub mod play;
pub mod plots;
pub mod progress;
pub mod replay;
pub mod sim;
pub mod trace;

use nestor::nes::Video;
use nestor::ui::NesView;

/// Window pixels per NES pixel (vertically; 8:7 wider horizontally).
pub const WINDOW_SCALE: usize = 3;

/// The window for `play` and `replay` unless `headless`; without a display, says so and
/// carries on headless. Returns the view and the video mode the emulator needs.
pub fn open_view(headless: bool, title: &str) -> (Option<NesView>, Video) {
    if headless {
        return (None, Video::Headless);
    }
    match NesView::open(title, WINDOW_SCALE) {
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
