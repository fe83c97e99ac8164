//! `nestor play` and `nestor replay` open the window (cargo feature `window`) and show the
//! emulator's frames: the synthetic test cartridge paints a light-blue backdrop, run under Xvfb.
//! Without a window (no display, or a build without it) `play` says why and runs headless.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::tool;
use nestor::game::PadState;
use nestor::nes::{testcart, Console, NesDeck, Video};

/// The test cartridge in a temp dir that is removed when the guard drops.
fn temp_cart(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join(format!("{name}.nes"));
    std::fs::write(&path, testcart::mmc1_image()).expect("write the test cartridge");
    (dir, path)
}

/// `play` of the test cartridge for `frames` frames with a JSON summary under Xvfb (`env` set),
/// or None, having said why, when xvfb-run is missing.
fn play_in_xvfb(tag: &str, frames: &str, env: &[(&str, &str)]) -> Option<std::process::Output> {
    let Some(xvfb) = tool("xvfb-run") else {
        eprintln!("skipped: xvfb-run is not installed (Debian package xvfb)");
        return None;
    };
    let (_tmp, cart) = temp_cart(tag);
    let out = Command::new(xvfb)
        .args(["-a", env!("CARGO_BIN_EXE_nestor"), "play"])
        .arg(&cart)
        .args(["--allow-unknown-rom", "--frames", frames, "--json"])
        .envs(env.iter().copied())
        .output()
        .expect("run xvfb-run");
    Some(out)
}

#[test]
fn the_emulator_picture_is_what_the_cartridge_draws() {
    let mut deck = NesDeck::from_image("testcart", &testcart::nrom_image(), Video::On).unwrap();
    for _ in 0..10 {
        deck.frame(PadState::NONE).unwrap();
    }
    let fb = deck.frame_buffer();
    assert_eq!(fb.len(), 256 * 240 * 4);
    let px = |x: usize, y: usize| &fb[(y * 256 + x) * 4..(y * 256 + x) * 4 + 3];
    let centre = px(128, 120).to_vec();
    assert!(
        centre[2] > centre[0] && centre[2] > 128,
        "light-blue backdrop, got {centre:?}"
    );
    assert_eq!(px(10, 200), &centre[..], "uniform backdrop");
}

#[test]
#[cfg_attr(not(feature = "window"), ignore = "needs --features window")]
fn play_opens_the_window_and_runs() {
    let Some(out) = play_in_xvfb("play", "90", &[]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "play failed: {stderr}");
    assert!(
        stderr.contains("window: Space pause"),
        "no window opened: {stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(json["frames"], 90);
}

/// No display, or a build without the window: `play` says which and runs headless (stdout is
/// not a terminal here, so not in the terminal either).
#[test]
fn without_a_window_play_says_why_and_runs_headless() {
    let (_tmp, cart) = temp_cart("nodisplay");
    let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .arg("play")
        .arg(&cart)
        .args(["--allow-unknown-rom", "--frames", "30"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run nestor");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("running headless"), "{stderr}");
    assert!(stderr.contains(common::no_window_reason()), "{stderr}");
    let lines = stderr.lines().filter(|l| l.contains("window")).count();
    assert_eq!(lines, 1, "one line: {stderr}");
}

/// No window, but stdout is a terminal (a pty from `script`): `play` draws in the terminal, says
/// so on one line, and ends with its summary as usual.
#[test]
fn without_a_window_play_draws_in_the_terminal() {
    let Some(script) = tool("script") else {
        eprintln!("skipped: needs `script` (util-linux) for a pseudo-terminal");
        return;
    };
    let (_tmp, cart) = temp_cart("pty");
    let command = format!(
        "stty rows 30 cols 100; '{}' play '{}' --allow-unknown-rom --frames 60 --json",
        env!("CARGO_BIN_EXE_nestor"),
        cart.display()
    );
    let out = Command::new(script)
        .args(["-qec", &command, "/dev/null"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("drawing in the terminal"), "{text}");
    // The test cartridge is no Tetris: its RAM holds no game to draw.
    assert!(text.contains("the cartridge is in its menus"), "{text}");
    assert!(text.contains("\"frames\": 60"), "{text}");
}

/// The hidden `--model-window` asks for the window outright: a build without it refuses,
/// naming the option and how to get the window, before playing.
#[cfg(not(feature = "window"))]
#[test]
fn model_window_without_the_feature_names_the_rebuild() {
    let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args([
            "play",
            "--model-console",
            "1",
            "--model-window",
            "--frames",
            "5",
        ])
        .output()
        .expect("run nestor");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--model-window needs the window"),
        "{stderr}"
    );
    assert!(stderr.contains("--features window"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing played");
}

/// Built with sound: a machine without a sound device (like CI or Xvfb here) plays on silently,
/// saying why at info level; one with a device names its rate.
#[cfg(feature = "audio")]
#[test]
fn with_the_audio_feature_play_runs_with_or_without_a_sound_device() {
    let Some(out) = play_in_xvfb("audio", "120", &[("RUST_LOG", "nestor=info")]) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stderr}");
    assert!(out.status.success(), "play failed: {stderr}");
    assert!(
        stderr.contains("continuing silently") || stderr.contains("sound: "),
        "no word about sound: {stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(json["frames"], 120);
}
