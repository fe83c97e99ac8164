//! Tests of the window layer without a display (sizes, resampling, keys, names), plus one real
//! window opened under `DISPLAY` or `xvfb-run`, skipped with a message when neither exists.

use std::time::Duration;

use super::*;

#[test]
fn nes_pixels_are_eight_sevenths_wide() {
    assert_eq!(scaled_size(256, 240, 1, PixelAspect::Nes), (293, 240));
    assert_eq!(scaled_size(256, 240, 2, PixelAspect::Nes), (585, 480));
    assert_eq!(scaled_size(256, 240, 3, PixelAspect::Nes), (878, 720));
    assert_eq!(scaled_size(216, 265, 2, PixelAspect::Square), (432, 530));
    assert_eq!(
        scaled_size(10, 10, 0, PixelAspect::Square),
        (10, 10),
        "scale 0 acts as 1"
    );
}

#[test]
fn integer_scaling_repeats_each_pixel() {
    let mut src = Frame::new(2, 1, [255, 0, 0]);
    src.fill_rect(1, 0, 1, 1, [0, 0, 255]);
    let mut out = Vec::new();
    resample(&src, 4, 2, &mut out);
    assert_eq!(out, [0xFF0000, 0xFF0000, 0x0000FF, 0x0000FF].repeat(2));
}

#[test]
fn nes_resampling_is_crisp_and_keeps_every_column() {
    // Source column i has red = i, so each output pixel says which column it came from.
    let mut src = Frame::new(256, 240, [0, 0, 0]);
    for x in 0..256 {
        src.fill_rect(x, 0, 1, 240, [x as u8, 7, 9]);
    }
    let (w, h) = scaled_size(256, 240, 1, PixelAspect::Nes);
    let mut out = Vec::new();
    resample(&src, w, h, &mut out);
    assert_eq!(out.len(), w * h);
    let row: Vec<u32> = out[..w].iter().map(|p| p >> 16).collect();
    assert!(
        row.windows(2).all(|p| p[1] == p[0] || p[1] == p[0] + 1),
        "monotonic, no gaps"
    );
    assert_eq!(row[0], 0);
    assert_eq!(row[w - 1], 255);
    let doubled = (0..256u32)
        .filter(|&c| row.iter().filter(|&&r| r == c).count() == 2)
        .count();
    assert_eq!(doubled, w - 256, "each column shown once or twice");
    assert!(
        out.iter().all(|p| p & 0xFFFF == 0x0709),
        "no blended colours"
    );
    assert!(out.chunks(w).all(|r| r == &out[..w]), "rows identical");
}

#[test]
fn keys_map_to_actions() {
    assert_eq!(action_for_key(Key::Space), Some(Action::TogglePause));
    assert_eq!(action_for_key(Key::F), Some(Action::ToggleFast));
    assert_eq!(action_for_key(Key::Equal), Some(Action::Faster));
    assert_eq!(action_for_key(Key::NumPadPlus), Some(Action::Faster));
    assert_eq!(action_for_key(Key::Minus), Some(Action::Slower));
    assert_eq!(action_for_key(Key::NumPadMinus), Some(Action::Slower));
    assert_eq!(action_for_key(Key::S), Some(Action::Screenshot));
    assert_eq!(action_for_key(Key::Escape), Some(Action::Quit));
    assert_eq!(action_for_key(Key::A), None);
}

#[test]
fn display_detection_needs_a_non_empty_name() {
    assert!(!display_named(None, None));
    assert!(!display_named(Some(OsStr::new("")), None));
    assert!(display_named(Some(OsStr::new(":0")), None));
    assert!(display_named(None, Some(OsStr::new("wayland-0"))));
}

#[test]
fn screenshot_names_carry_a_utc_timestamp() {
    assert_eq!(
        screenshot_path(UNIX_EPOCH),
        PathBuf::from("nestor-19700101-000000-000.png")
    );
    let t = UNIX_EPOCH + Duration::from_millis(1_709_210_096_789);
    assert_eq!(
        screenshot_path(t),
        PathBuf::from("nestor-20240229-123456-789.png")
    );
}

/// Runs only on request (from `a_real_window_opens_under_a_display`), inside a display.
#[test]
#[ignore = "needs a display; run through a_real_window_opens_under_a_display"]
fn real_window_inner() {
    let mut w = Window::open_nes("nestor test", 1).expect("window under a display");
    assert_eq!(w.size(), (293, 240));
    let frame = Frame::new(256, 240, [40, 80, 120]);
    for _ in 0..3 {
        w.present(&frame).expect("present");
        let input = w.poll();
        assert!(!input.quit && !input.screenshot);
        w.pace();
    }
}

#[test]
fn a_real_window_opens_under_a_display() {
    let has_display = display_named(
        std::env::var_os("DISPLAY").as_deref(),
        std::env::var_os("WAYLAND_DISPLAY").as_deref(),
    );
    let Ok(exe) = std::env::current_exe() else {
        eprintln!("skipped: cannot find the test binary");
        return;
    };
    let args = [
        "--exact",
        "ui::window::tests::real_window_inner",
        "--ignored",
    ];
    let status = if has_display {
        std::process::Command::new(&exe).args(args).status()
    } else {
        match std::process::Command::new("xvfb-run")
            .arg("--help")
            .output()
        {
            Ok(_) => std::process::Command::new("xvfb-run")
                .arg("-a")
                .arg(&exe)
                .args(args)
                .status(),
            Err(_) => {
                eprintln!(
                    "skipped: no DISPLAY/WAYLAND_DISPLAY and no xvfb-run (apt-get install xvfb)"
                );
                return;
            }
        }
    };
    let status = status.expect("run the window test");
    assert!(status.success(), "opening a real window failed: {status}");
}

#[test]
fn no_display_is_a_clear_error() {
    // Pure check of the error text callers print before falling back.
    let msg = WindowError::NoDisplay.to_string();
    assert!(msg.contains("DISPLAY"), "{msg}");
}
