//! The cartridge's picture in a window, one emulated frame at a time: pause, fast-forward,
//! speed, screenshots and the planned-lock outline, shared by `nestor play` and `nestor replay`.

use std::time::{Duration, Instant, SystemTime};

use crate::search::Placement;

use super::pacing::Pacer;
use super::render::{overlay_plan_on_nes, save_png, Frame, RenderError};
use super::window::{screenshot_path, Window, WindowError};

/// Fastest redraw while fast-forwarding: the emulator runs on, the screen keeps up at ~60 Hz.
const MAX_REDRAW: Duration = Duration::from_micros(16_640);

/// What the person did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewEvent {
    Continue,
    /// Esc or the window was closed.
    Quit,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    #[error(transparent)]
    Window(#[from] WindowError),
    #[error(transparent)]
    Picture(#[from] RenderError),
}

/// A window showing 256×240 NES frames with 8:7 pixels.
pub struct NesView {
    window: Window,
    frame: Frame,
    idle: Pacer,
    last_present: Option<Instant>,
    #[cfg(feature = "audio")]
    audio: Option<super::audio::AudioOut>,
}

impl NesView {
    /// Opens the window (an error without a display: callers fall back to headless).
    pub fn open(title: &str, scale: usize) -> Result<NesView, ViewError> {
        Ok(NesView {
            window: Window::open_nes(title, scale)?,
            frame: Frame::new(256, 240, [0; 3]),
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
    pub const KEYS: &'static str = "Space pause, F fast-forward, +/- speed, S screenshot, Esc quit";

    /// Shows one emulated frame (with the plan's lock cells outlined when given), saves a
    /// screenshot on S, waits while paused, then paces to 60.0988 frames per second × speed
    /// (no wait in fast-forward).
    pub fn show(&mut self, rgba: &[u8], plan: Option<&Placement>) -> Result<ViewEvent, ViewError> {
        let due = !self.window.controls_mut().fast
            || self.last_present.is_none_or(|t| t.elapsed() >= MAX_REDRAW);
        if due {
            if rgba.len() != self.frame.pixels.len() {
                return Err(RenderError::WrongSize {
                    expected_width: 256,
                    expected_height: 240,
                    got: rgba.len(),
                }
                .into());
            }
            self.frame.pixels.copy_from_slice(rgba);
            if let Some(p) = plan {
                overlay_plan_on_nes(&mut self.frame.pixels, p)?;
            }
            if self.present_and_poll()? == ViewEvent::Quit {
                return Ok(ViewEvent::Quit);
            }
            if self.window.controls_mut().paused {
                self.mute();
            }
            while self.window.controls_mut().paused {
                self.idle.wait(1.0);
                if self.present_and_poll()? == ViewEvent::Quit {
                    return Ok(ViewEvent::Quit);
                }
            }
        }
        self.window.pace();
        Ok(ViewEvent::Continue)
    }

    fn present_and_poll(&mut self) -> Result<ViewEvent, ViewError> {
        self.window.present(&self.frame)?;
        self.last_present = Some(Instant::now());
        let input = self.window.poll();
        if input.screenshot {
            let path = screenshot_path(SystemTime::now());
            match save_png(&self.frame, &path) {
                Ok(()) => eprintln!("screenshot: {}", path.display()),
                Err(e) => eprintln!("screenshot failed: {e}"),
            }
        }
        Ok(if input.quit {
            ViewEvent::Quit
        } else {
            ViewEvent::Continue
        })
    }
}
