//! The cartridge's picture in a window, one emulated frame at a time: pause, fast-forward,
//! speed, screenshots, the planned-lock outline and the explanation panel (key E), shared by
//! `nestor play` and `nestor replay`.

use crate::game::Pos;
use std::time::{Duration, Instant, SystemTime};

use crate::search::explain::Explanation;

use super::explain_panel::{compose_with_panel, PANEL_WIDTH};
use super::pacing::{Pacer, ViewEvent};
use super::render::{overlay_plan_on_nes, save_png, Frame, RenderError};
use super::window::{screenshot_path, PixelAspect, Window, WindowError};

/// Fastest redraw while fast-forwarding: the emulator runs on, the screen keeps up at ~60 Hz.
const MAX_REDRAW: Duration = Duration::from_micros(16_640);

/// Why the view could not be opened or drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The window could not be opened or drawn to.
    #[error(transparent)]
    Window(#[from] WindowError),
    /// A picture could not be made or saved (a screenshot).
    #[error(transparent)]
    Picture(#[from] RenderError),
}

/// The explanation panel's state: shown or hidden (key E), and the picture beside it.
struct Panel {
    shown: bool,
    composed: Frame,
}

/// A window showing 256×240 NES frames with 8:7 pixels (or, for the model console, nestor's
/// board picture), optionally with the explanation panel on the right.
pub struct NesView {
    window: Window,
    frame: Frame,
    /// The explanation panel, when the view was opened with one.
    panel: Option<Panel>,
    idle: Pacer,
    last_present: Option<Instant>,
    #[cfg(feature = "audio")]
    audio: Option<super::audio::AudioOut>,
}

impl NesView {
    /// Opens the window (an error without a display: callers fall back to headless).
    pub fn open(title: &str, scale: usize) -> Result<NesView, ViewError> {
        NesView::open_with_panel(title, scale, false)
    }

    /// Opens the window, wider by the explanation panel when `panel` (shown until E hides it).
    pub fn open_with_panel(title: &str, scale: usize, panel: bool) -> Result<NesView, ViewError> {
        NesView::open_sized(title, scale, (256, 240), PixelAspect::Nes, panel)
    }

    /// Opens a window for nestor's square-pixel board picture of `size` (the model console,
    /// which has no cartridge picture), shown with [`NesView::show_picture`].
    pub fn open_board(
        title: &str,
        scale: usize,
        size: (usize, usize),
        panel: bool,
    ) -> Result<NesView, ViewError> {
        NesView::open_sized(title, scale, size, PixelAspect::Square, panel)
    }

    fn open_sized(
        title: &str,
        scale: usize,
        (width, height): (usize, usize),
        aspect: PixelAspect,
        panel: bool,
    ) -> Result<NesView, ViewError> {
        let shown = width + if panel { PANEL_WIDTH } else { 0 };
        Ok(NesView {
            window: Window::open_with_aspect(title, shown, height, scale, aspect)?,
            frame: Frame::new(width, height, [0; 3]),
            panel: panel.then(|| Panel {
                shown: true,
                composed: Frame::new(0, 0, [0; 3]),
            }),
            idle: Pacer::new(),
            last_present: None,
            #[cfg(feature = "audio")]
            audio: None,
        })
    }

    /// Opens the default sound device; returns whether there is sound. Without a device (or on
    /// any sound error) it logs why at info level, once, and the view stays silent.
    #[cfg(feature = "audio")]
    pub fn open_audio(&mut self) -> bool {
        match super::audio::AudioOut::open() {
            Ok(a) => self.audio = Some(a),
            Err(e) => log::info!("no sound ({e}); continuing silently"),
        }
        self.audio.is_some()
    }

    /// Queues the sound of the frame about to be shown (call before [`NesView::show`]): muted
    /// while paused or fast-forwarding, pitch-shifted at other speeds.
    #[cfg(feature = "audio")]
    pub fn queue_audio(&mut self, samples: &[f32]) {
        let controls = *self.window.controls_mut();
        if let Some(a) = &mut self.audio {
            if controls.paused || controls.fast {
                a.clear();
            } else {
                a.push(samples, controls.speed());
            }
        }
    }

    /// Stops the sound at once rather than letting the queued ~0.1 s play out.
    fn mute(&mut self) {
        #[cfg(feature = "audio")]
        if let Some(a) = &mut self.audio {
            a.clear();
        }
    }

    /// Keys the window understands, for a line on the console.
    pub const KEYS: &'static str =
        "Space pause, F fast-forward, +/- speed, S screenshot, E explanations (with --explain), \
         Esc quit";

    /// Shows one emulated frame (with the plan's lock cells outlined when given), saves a
    /// screenshot on S, waits while paused, then paces to 60.0988 frames per second × speed
    /// (no wait in fast-forward).
    pub fn show(&mut self, rgba: &[u8], plan: Option<&Pos>) -> Result<ViewEvent, ViewError> {
        self.show_explained(rgba, plan, &[])
    }

    /// [`NesView::show`] with `top` in the explanation panel (if the view has one).
    pub fn show_explained(
        &mut self,
        rgba: &[u8],
        plan: Option<&Pos>,
        top: &[Explanation],
    ) -> Result<ViewEvent, ViewError> {
        self.show_with(top, |frame| {
            if rgba.len() != frame.pixels.len() {
                return Err(RenderError::WrongSize {
                    expected_width: frame.width,
                    expected_height: frame.height,
                    got: rgba.len(),
                }
                .into());
            }
            frame.pixels.copy_from_slice(rgba);
            if let Some(p) = plan {
                overlay_plan_on_nes(&mut frame.pixels, p)?;
            }
            Ok(())
        })
    }

    /// Shows a picture of the size the view was opened with ([`NesView::open_board`]), with
    /// `top` in the explanation panel; otherwise as [`NesView::show`].
    pub fn show_picture(
        &mut self,
        picture: &Frame,
        top: &[Explanation],
    ) -> Result<ViewEvent, ViewError> {
        self.show_with(top, |frame| {
            if (picture.width, picture.height) != (frame.width, frame.height) {
                return Err(RenderError::WrongSize {
                    expected_width: frame.width,
                    expected_height: frame.height,
                    got: picture.pixels.len(),
                }
                .into());
            }
            frame.pixels.copy_from_slice(&picture.pixels);
            Ok(())
        })
    }

    /// Draws the picture with `fill` when a redraw is due, then presents, polls, pauses, paces.
    fn show_with(
        &mut self,
        top: &[Explanation],
        fill: impl FnOnce(&mut Frame) -> Result<(), ViewError>,
    ) -> Result<ViewEvent, ViewError> {
        let due = !self.window.controls_mut().fast
            || self.last_present.is_none_or(|t| t.elapsed() >= MAX_REDRAW);
        if due {
            fill(&mut self.frame)?;
            if self.present_and_poll(top)? == ViewEvent::Quit {
                return Ok(ViewEvent::Quit);
            }
            if self.window.controls_mut().paused {
                self.mute();
            }
            while self.window.controls_mut().paused {
                self.idle.wait(1.0);
                if self.present_and_poll(top)? == ViewEvent::Quit {
                    return Ok(ViewEvent::Quit);
                }
            }
        }
        self.window.pace();
        Ok(ViewEvent::Continue)
    }

    /// Presents the picture (beside the panel when there is one) and applies the keys.
    fn present_and_poll(&mut self, top: &[Explanation]) -> Result<ViewEvent, ViewError> {
        let shown = match &mut self.panel {
            Some(p) => {
                compose_with_panel(&self.frame, p.shown.then_some(top), &mut p.composed);
                &p.composed
            }
            None => &self.frame,
        };
        self.window.present(shown)?;
        self.last_present = Some(Instant::now());
        let input = self.window.poll();
        if input.screenshot {
            let path = screenshot_path(SystemTime::now());
            match save_png(shown, &path) {
                Ok(()) => eprintln!("screenshot: {}", path.display()),
                Err(e) => eprintln!("screenshot failed: {e}"),
            }
        }
        if let Some(p) = self.panel.as_mut().filter(|_| input.explain) {
            p.shown = !p.shown;
        }
        Ok(if input.quit {
            ViewEvent::Quit
        } else {
            ViewEvent::Continue
        })
    }
}
