//! The desktop window over minifb: crisp nearest-neighbour scaling (8:7 pixels for the NES
//! picture), our own 60.0988 fps pacing with speed controls, key polling, no-display errors.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use minifb::{Key, KeyRepeat, WindowOptions};

use super::keypad::KeyName;
use super::pacing::{Action, Controls, Pacer};
use super::render::Frame;

/// Errors opening or drawing the window. Callers fall back to a headless view on any of them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WindowError {
    /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` names a display.
    #[error("no display: neither DISPLAY nor WAYLAND_DISPLAY is set")]
    NoDisplay,
    /// minifb could not open the window (its message).
    #[error("cannot open a window: {0}")]
    Open(String),
    /// minifb could not draw to the window (its message).
    #[error("cannot draw to the window: {0}")]
    Update(String),
}

/// The shape of one source pixel on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelAspect {
    /// 1:1 (nestor's own board picture).
    Square,
    /// 8:7, the NTSC NES's pixel aspect: the 256×240 picture is shown about 292.6 wide.
    Nes,
}

impl PixelAspect {
    /// Width over height of one pixel.
    pub fn ratio(self) -> f64 {
        match self {
            PixelAspect::Square => 1.0,
            PixelAspect::Nes => 8.0 / 7.0,
        }
    }
}

/// Screen size of a `width`×`height` picture shown at `scale` with `aspect` pixels: the height
/// is scaled exactly; the width is `round(width × ratio × scale)`.
pub fn scaled_size(
    width: usize,
    height: usize,
    scale: usize,
    aspect: PixelAspect,
) -> (usize, usize) {
    let scale = scale.max(1);
    let w = (width as f64 * aspect.ratio() * scale as f64).round() as usize;
    (w.max(1), height * scale)
}

/// Nearest-neighbour resampling of an RGBA frame into minifb's 0RGB `u32` pixels of
/// `out_w`×`out_h`. Each output pixel takes the source pixel under its centre, so every source
/// column is shown `out_w/width` times, rounded (crisp, no blending).
pub fn resample(src: &Frame, out_w: usize, out_h: usize, out: &mut Vec<u32>) {
    out.clear();
    out.reserve(out_w * out_h);
    if src.width == 0 || src.height == 0 {
        out.resize(out_w * out_h, 0);
        return;
    }
    let cols: Vec<usize> = (0..out_w)
        .map(|ox| ((2 * ox + 1) * src.width / (2 * out_w)).min(src.width - 1))
        .collect();
    for oy in 0..out_h {
        let sy = ((2 * oy + 1) * src.height / (2 * out_h)).min(src.height - 1);
        let row = &src.pixels[sy * src.width * 4..(sy + 1) * src.width * 4];
        out.extend(cols.iter().map(|&sx| {
            let p = &row[sx * 4..sx * 4 + 3];
            (u32::from(p[0]) << 16) | (u32::from(p[1]) << 8) | u32::from(p[2])
        }));
    }
}

/// The playback action bound to `key`, if any.
pub fn action_for_key(key: Key) -> Option<Action> {
    Some(match key {
        Key::Space => Action::TogglePause,
        Key::F => Action::ToggleFast,
        Key::Equal | Key::NumPadPlus => Action::Faster,
        Key::Minus | Key::NumPadMinus => Action::Slower,
        Key::S => Action::Screenshot,
        Key::Escape => Action::Quit,
        _ => return None,
    })
}

/// True when the environment names an X11 or Wayland display (non-empty).
pub fn display_named(display: Option<&OsStr>, wayland: Option<&OsStr>) -> bool {
    display.is_some_and(|d| !d.is_empty()) || wayland.is_some_and(|d| !d.is_empty())
}

/// Checks for a display before asking minifb (Linux and other X11/Wayland systems only).
fn check_display() -> Result<(), WindowError> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let display = std::env::var_os("DISPLAY");
        let wayland = std::env::var_os("WAYLAND_DISPLAY");
        if !display_named(display.as_deref(), wayland.as_deref()) {
            return Err(WindowError::NoDisplay);
        }
    }
    Ok(())
}

/// What the user asked for since the last poll, plus the playback state after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Esc pressed or the window closed.
    pub quit: bool,
    /// S pressed: the caller saves a screenshot (see [`screenshot_path`]).
    pub screenshot: bool,
    /// E pressed: the caller shows or hides its explanation panel.
    pub explain: bool,
    /// The playback state after the keys of this poll.
    pub controls: Controls,
}

/// A window showing frames of one fixed source size.
pub struct Window {
    inner: minifb::Window,
    out_w: usize,
    out_h: usize,
    buffer: Vec<u32>,
    controls: Controls,
    pacer: Pacer,
}

impl Window {
    /// Opens a window for `width`×`height` square-pixel frames shown at `scale`.
    pub fn open(
        title: &str,
        width: usize,
        height: usize,
        scale: usize,
    ) -> Result<Window, WindowError> {
        Window::open_with_aspect(title, width, height, scale, PixelAspect::Square)
    }

    /// Opens a window for the cartridge's 256×240 picture with 8:7 pixels.
    pub fn open_nes(title: &str, scale: usize) -> Result<Window, WindowError> {
        Window::open_with_aspect(title, 256, 240, scale, PixelAspect::Nes)
    }

    /// Opens a window for `width`×`height` frames with the given pixel shape.
    pub fn open_with_aspect(
        title: &str,
        width: usize,
        height: usize,
        scale: usize,
        aspect: PixelAspect,
    ) -> Result<Window, WindowError> {
        check_display()?;
        let (out_w, out_h) = scaled_size(width, height, scale, aspect);
        let mut inner = minifb::Window::new(title, out_w, out_h, WindowOptions::default())
            .map_err(|e| WindowError::Open(e.to_string()))?;
        // minifb's own limiter is integer fps (and 250 fps by default): we pace ourselves.
        inner.set_target_fps(0);
        Ok(Window {
            inner,
            out_w,
            out_h,
            buffer: Vec::with_capacity(out_w * out_h),
            controls: Controls::default(),
            pacer: Pacer::new(),
        })
    }

    /// The bindable keys held down now (as of the last `present`), for game controls.
    pub fn held_keys(&self) -> Vec<KeyName> {
        let held = self.inner.get_keys();
        KeyName::ALL
            .iter()
            .map(|(_, k)| *k)
            .filter(|k| held.contains(&Key::from(*k)))
            .collect()
    }

    /// Size of the window's picture in screen pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.out_w, self.out_h)
    }

    /// Scales `frame` to the window and shows it (this also collects key events).
    pub fn present(&mut self, frame: &Frame) -> Result<(), WindowError> {
        resample(frame, self.out_w, self.out_h, &mut self.buffer);
        self.inner
            .update_with_buffer(&self.buffer, self.out_w, self.out_h)
            .map_err(|e| WindowError::Update(e.to_string()))
    }

    /// Keys pressed since the last `present`, applied to the playback controls.
    pub fn poll(&mut self) -> Input {
        let mut input = Input {
            quit: !self.inner.is_open(),
            ..Input::default()
        };
        for key in self.inner.get_keys_pressed(KeyRepeat::No) {
            if key == Key::E {
                input.explain = true;
            }
            match action_for_key(key) {
                Some(Action::Quit) => input.quit = true,
                Some(Action::Screenshot) => input.screenshot = true,
                Some(a) => {
                    self.controls.apply(a);
                    self.pacer.reset();
                }
                None => {}
            }
        }
        input.controls = self.controls;
        input
    }

    /// The playback controls (e.g. to start in fast-forward).
    pub fn controls_mut(&mut self) -> &mut Controls {
        &mut self.controls
    }

    /// Waits out the rest of the frame at the current speed; returns at once in fast-forward.
    pub fn pace(&mut self) {
        if self.controls.fast {
            self.pacer.reset();
        } else {
            self.pacer.wait(self.controls.speed());
        }
    }
}

/// `nestor-YYYYMMDD-HHMMSS-mmm.png` (UTC) in the current folder.
pub fn screenshot_path(now: SystemTime) -> PathBuf {
    let d = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (y, m, day) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    PathBuf::from(format!(
        "nestor-{y:04}{m:02}{day:02}-{:02}{:02}{:02}-{:03}.png",
        t / 3600,
        t / 60 % 60,
        t % 60,
        d.subsec_millis()
    ))
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (Howard Hinnant's method).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
#[path = "window_tests.rs"]
mod tests;
