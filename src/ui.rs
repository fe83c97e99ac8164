//! Everything that shows a game to a person: nestor's own board picture, the desktop window
//! (cargo feature `window`), the terminal view. May use `game`, `search` and `nes`; none of
//! those depends on it.

pub mod audio;
pub mod chart;
pub mod coach_plots;
pub mod explain_panel;
pub mod font;
pub mod frame;
#[cfg(feature = "gamepad")]
pub mod gamepad;
pub mod keypad;
#[cfg(feature = "window")]
pub mod nes_view;
pub mod pacing;
pub mod plot;
pub mod render;
pub mod terminal;
#[cfg(feature = "window")]
pub mod window;

#[cfg(feature = "window")]
pub use nes_view::NesView;
pub use pacing::{Action, Controls, Pacer, ViewEvent, NES_FPS};
pub use render::{draw_game, overlay_plan_on_nes, save_png, DrawOptions, Frame, RenderError};
pub use terminal::{render_terminal, too_small, Legend, TermOptions, TerminalView};
#[cfg(feature = "window")]
pub use window::{screenshot_path, Input, PixelAspect, Window, WindowError};
