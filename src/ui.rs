//! Everything that shows a game to a person: nestor's own board picture, the desktop window,
//! the terminal view. May use `game`, `search` and `nes`; none of those depends on it.

pub mod audio;
pub mod chart;
pub mod coach_plots;
pub mod explain_panel;
pub mod font;
pub mod frame;
#[cfg(feature = "gamepad")]
pub mod gamepad;
pub mod keypad;
pub mod nes_view;
pub mod pacing;
pub mod plot;
pub mod render;
pub mod terminal;
pub mod window;

pub use nes_view::{NesView, ViewEvent};
pub use pacing::{Action, Controls, Pacer, NES_FPS};
pub use render::{draw_game, overlay_plan_on_nes, save_png, DrawOptions, Frame, RenderError};
pub use terminal::{render_terminal, too_small, TermOptions, TerminalView};
pub use window::{screenshot_path, Input, PixelAspect, Window, WindowError};
