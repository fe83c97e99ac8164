//! `lua/nestor-fceux.lua` in the real FCEUX (headless, under Xvfb) with `nestor serve`:
//! * always (when fceux and xvfb-run are installed; skipped with the reason otherwise): on the
//!   synthetic test cartridge the script loads, connects over the pipes, exchanges frames, and
//!   FCEUX presses the buttons nestor answers in the frame nestor meant them for (the cart
//!   polls the pad into $F7, which nestor's echo check compares with its answers);
//! * with NESTOR_ROM: FCEUX plays 300 pieces from level 19 driven by nestor, 0 desyncs.

#![cfg(unix)]

mod common;
mod serve_client;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use std::ops::ControlFlow;

use common::{fceux_tools, temp_dir, without_fceux};
use nestor::game::PadState;
use nestor::movie::Replay;
use nestor::nes::testcart;
use nestor::nes::{NesDeck, Video};
use serve_client::{start, start_env, summary_value};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lua/nestor-fceux.lua")
}

/// A temp dir (named after `tag`) holding the test cartridge and the pipe folder's path, or
/// None, having said why, when FCEUX cannot run.
fn test_cart_session(tag: &str) -> Option<(tempfile::TempDir, PathBuf, PathBuf)> {
    if without_fceux() {
        return None;
    }
    let tmp = temp_dir(tag);
    let rom = tmp.path().join("testcart.nes");
    std::fs::write(&rom, testcart::nrom_image()).unwrap();
    let dir = tmp.path().join("pipes");
    Some((tmp, rom, dir))
}

/// For the tests that need the cartridge and FCEUX (they panic when FCEUX is missing): a temp
/// dir named after `tag`, the cartridge's path (NESTOR_ROM) and the pipe folder's path.
fn rom_session(tag: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    fceux_tools().unwrap_or_else(|why| panic!("{why}"));
    let rom = PathBuf::from(std::env::var_os("NESTOR_ROM").expect("NESTOR_ROM"));
    let tmp = temp_dir(tag);
    let dir = tmp.path().join("pipes");
    (tmp, rom, dir)
}

/// `run_fceux` of `frames` frames at maximum speed recording `movie`; the summary is shown.
fn record_in_fceux(
    rom: &Path,
    dir: &Path,
    tmp: &Path,
    frames: u32,
    movie: &Path,
    secs: u64,
) -> String {
    let frames = frames.to_string();
    let env = [
        ("NESTOR_FRAMES", frames.as_str()),
        ("NESTOR_SPEED", "maximum"),
        ("NESTOR_MOVIE", movie.to_str().unwrap()),
    ];
    let summary = run_fceux(rom, dir, tmp, &env, Duration::from_secs(secs));
    eprintln!("summary: {summary}");
    summary
}

/// Runs FCEUX on `rom` with the script until it quits by itself; returns the `bye` summary
/// the script wrote.
fn run_fceux(rom: &Path, dir: &Path, tmp: &Path, env: &[(&str, &str)], limit: Duration) -> String {
    let (fceux, xvfb) = fceux_tools().expect("checked by the caller");
    let result = tmp.join("result.txt");
    let mut child = Command::new(xvfb)
        .arg("-a")
        .arg(fceux)
        .args(["--no-config", "1", "--sound", "0", "--loadlua"])
        .arg(script())
        .arg(rom)
        .env("HOME", tmp)
        .env("NESTOR_FIFO", dir)
        .env("NESTOR_AUTOSTART", "0")
        .env("NESTOR_RESULT", &result)
        .env("NESTOR_STATUS", tmp.join("status.txt"))
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run FCEUX");
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "FCEUX did not finish within {limit:?}; stdout: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    eprintln!("fceux stdout:\n{}", String::from_utf8_lossy(&out.stdout));
    std::fs::read_to_string(&result).unwrap_or_else(|e| {
        panic!(
            "the script wrote no result ({e}); stdout: {}, stderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn the_plugin_plays_through_the_pipes_in_real_fceux_on_the_test_cart() {
    let Some((tmp, rom, dir)) = test_cart_session("serve-fceux") else {
        return;
    };
    let movie = tmp.path().join("session.fm2");
    let mut server = start(&["--once", "--json"], Some(&dir));
    let summary = record_in_fceux(&rom, &dir, tmp.path(), 600, &movie, 120);
    assert!(summary.starts_with("bye "), "{summary}");
    // 600 frames went both ways; the cart is no Tetris, so nestor sat in the menus pressing
    // Start as it does on the title screen, and FCEUX pressed exactly those buttons.
    assert_eq!(summary_value(&summary, "frames"), 600, "{summary}");
    assert!(summary_value(&summary, "pressed") >= 10, "{summary}");
    assert_eq!(summary_value(&summary, "echo_mismatches"), 0, "{summary}");
    assert_eq!(summary_value(&summary, "jumps"), 0, "{summary}");
    // The status line says what is going on, not just dots.
    let status = status_line(tmp.path());
    assert!(
        status.starts_with("nestor play: connected  desyncs 0\n"),
        "{status}"
    );
    let out = server.wait_stdout(Duration::from_secs(30));
    assert!(
        out.contains("\"end\":\"the emulator's script said bye\""),
        "{out}"
    );
    // The movie FCEUX recorded holds nestor's answers, and nestor replays it from power-on:
    // the cart's last polled buttons there are the movie's last frame's.
    let replay = Replay::load(&movie).unwrap_or_else(|e| panic!("{}: {e}", movie.display()));
    let pads = replay.movie().gameplay_pads();
    let pressed = pads.iter().filter(|p| **p != PadState::NONE).count() as u64;
    let answered = summary_value(&summary, "pressed");
    assert!(pads.len() >= 590, "{} frames recorded", pads.len());
    assert!(
        pressed.abs_diff(answered) <= 2,
        "movie {pressed}, nestor {answered}"
    );
    let image = testcart::nrom_image();
    let mut deck = NesDeck::from_image("testcart", &image, Video::Headless).unwrap();
    let mut last = None;
    replay
        .run(&mut deck, |f| {
            last = Some(f.ram[usize::from(testcart::HELD)]);
            ControlFlow::Continue(())
        })
        .expect("nestor replays FCEUX's movie");
    assert_eq!(last, pads.last().map(|p| p.bits()));
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM")]
fn fceux_plays_300_pieces_from_level_19_driven_by_nestor() {
    let (tmp, rom, dir) = rom_session("serve-fceux-rom");
    let movie = tmp.path().join("nestor-in-fceux.fm2");
    let mut server = start(&["--once", "--json", "--level", "19"], Some(&dir));
    // 300 pieces at level 19 take about 300 × 55 frames, plus the menus: stop well after, well
    // before level 29 (about 575 pieces), where a top-out would end the game being compared.
    let summary = record_in_fceux(&rom, &dir, tmp.path(), 24000, &movie, 1800);
    assert!(summary_value(&summary, "pieces") >= 300, "{summary}");
    assert_eq!(summary_value(&summary, "desyncs"), 0, "{summary}");
    assert_eq!(summary_value(&summary, "echo_mismatches"), 0, "{summary}");
    assert_eq!(
        summary_value(&summary, "games"),
        0,
        "a game ended: {summary}"
    );
    let _ = server.wait_stdout(Duration::from_secs(30));
    // The movie FCEUX recorded replays in nestor to the same score and lines.
    let out = common::nestor(&[
        "replay".into(),
        rom.clone().into(),
        movie.clone().into(),
        "--headless".into(),
        "--json".into(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&common::ok(&out)).expect("replay JSON");
    assert_eq!(json["score"], summary_value(&summary, "score"), "{json}");
    assert_eq!(json["lines"], summary_value(&summary, "lines"), "{json}");
}

/// Assist in the real FCEUX: frames flow, nestor never presses anything.
#[test]
fn the_plugin_assists_in_real_fceux_without_pressing() {
    let Some((tmp, rom, dir)) = test_cart_session("serve-fceux-assist") else {
        return;
    };
    let mut server = start(&["--once", "--json"], Some(&dir));
    let summary = run_fceux(
        &rom,
        &dir,
        tmp.path(),
        &[
            ("NESTOR_FRAMES", "300"),
            ("NESTOR_SPEED", "maximum"),
            ("NESTOR_MODE", "assist"),
        ],
        Duration::from_secs(120),
    );
    assert_eq!(summary_value(&summary, "frames"), 300, "{summary}");
    assert_eq!(summary_value(&summary, "pressed"), 0, "{summary}");
    let out = server.wait_stdout(Duration::from_secs(30));
    assert!(out.contains("\"mode\":\"assist\""), "{out}");
}

/// Either side gone: FCEUX started before nestor waits for it; nestor killed mid-session
/// (SIGKILL: its pipes and pid file left stale) and started again is reconnected to.
#[test]
fn the_plugin_waits_for_nestor_and_reconnects_after_it_was_killed() {
    let Some((tmp, rom, dir)) = test_cart_session("serve-fceux-restart") else {
        return;
    };
    let env = [("NESTOR_FRAMES", "400")];
    let (log, fceux) = spawn_fceux_logged(&rom, &dir, tmp.path(), &env, Duration::from_secs(120));
    // FCEUX runs at 60 fps with nobody serving; then a first nestor, killed after a while.
    std::thread::sleep(Duration::from_secs(2));
    let mut first = start(&[], Some(&dir));
    std::thread::sleep(Duration::from_secs(2));
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    assert!(dir.join("pid").exists(), "SIGKILL leaves the pid file");
    std::thread::sleep(Duration::from_millis(500));
    let mut second = start(&["--once", "--json"], Some(&dir));
    let summary = fceux.join().expect("FCEUX thread");
    let frames = summary_value(&summary, "frames");
    assert!((1..400).contains(&frames), "{summary}");
    let out = second.wait_stdout(Duration::from_secs(30));
    assert!(out.contains("said bye"), "{out}");
    let said = std::fs::read_to_string(&log).expect("the plugin's log");
    assert_eq!(said.matches("connected (play)").count(), 2, "{said}");
    assert!(said.contains("nestor went away"), "{said}");
    // Before the first nestor, the plugin said what to start (autostart was off).
    assert!(
        said.contains("cargo run --release -- serve --fifo"),
        "{said}"
    );
}

/// Nothing started by hand: the plugin finds this repository's build and starts it.
#[test]
fn the_plugin_starts_nestor_by_itself() {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/nestor");
    if Path::new(env!("CARGO_BIN_EXE_nestor")) != built {
        eprintln!("skipped: the plugin starts target/release/nestor; run with --release");
        return;
    }
    let Some((tmp, rom, dir)) = test_cart_session("serve-fceux-auto") else {
        return;
    };
    let summary = run_fceux(
        &rom,
        &dir,
        tmp.path(),
        &[
            ("NESTOR_FRAMES", "200"),
            ("NESTOR_SPEED", "maximum"),
            ("NESTOR_AUTOSTART", "1"),
        ],
        Duration::from_secs(120),
    );
    // The server it started goes on waiting for the next FCEUX: stop it.
    let pid = std::fs::read_to_string(dir.join("pid")).expect("the started server's pid");
    let pid: i32 = pid.trim().parse().unwrap();
    // SAFETY: a plain kill(2) on the server the plugin started for this test.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    assert_eq!(summary_value(&summary, "frames"), 200, "{summary}");
}

/// nestor killed mid-game, the game tops out with nobody pressing, a new nestor connects to
/// the game-over screen: it presses through it and plays a new game (the real cartridge).
#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM")]
fn a_new_nestor_presses_through_a_game_over_it_finds_in_fceux() {
    let (tmp, rom, dir) = rom_session("serve-fceux-game-over");
    // Frames exchanged with either nestor: the first one's menus (a few hundred), then the
    // second one's game over, menus and new game.
    let env = [("NESTOR_FRAMES", "4000"), ("NESTOR_SPEED", "maximum")];
    let (_, fceux) = spawn_fceux_logged(&rom, &dir, tmp.path(), &env, Duration::from_secs(600));
    let info = [("RUST_LOG", "info")];
    let mut first = start_env(&["--level", "19"], Some(&dir), &info);
    assert!(
        first.wait_for("a game starts at level 19"),
        "no game started"
    );
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    // Nobody presses: level 19's pieces stack up in a few hundred frames, and the curtain
    // comes down (at maximum speed, well within these seconds).
    std::thread::sleep(Duration::from_secs(4));
    // The second nestor plays to lose (every weight's sign flipped: holes and height are
    // sought), so that its own top-outs are pressed through too.
    let weights = tmp.path().join("lose.toml");
    std::fs::write(&weights, losing_weights()).unwrap();
    let debug = [("RUST_LOG", "nestor::serve=debug,info")];
    let args = [
        "--once",
        "--json",
        "--level",
        "19",
        "--weights",
        weights.to_str().unwrap(),
    ];
    let mut second = start_env(&args, Some(&dir), &debug);
    let summary = fceux.join().expect("FCEUX thread");
    let out = second.wait_stdout(Duration::from_secs(30));
    let err = second.stderr_text();
    eprintln!("{err}");
    assert!(
        err.contains("a finished game's screen"),
        "connected to no game over"
    );
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON summary");
    assert!(json["games"].as_u64().unwrap() >= 1, "{json}");
    assert!(err.matches("a game starts").count() >= 2, "{json}");
    assert!(json["pieces"].as_u64().unwrap() >= 10, "{json}");
    assert_eq!(json["recoveries"], 0, "{json}");
    assert_eq!(json["desyncs"], 0, "{json}");
    assert_eq!(json["echo_mismatches"], 0, "{json}");
    assert!(summary.starts_with("bye "), "{summary}");
    // The status line: the connection, nestor's desyncs, the game and the plan.
    let status = status_line(tmp.path());
    for part in [
        "nestor play: connected  desyncs 0",
        "level 19",
        "lines ",
        "pieces ",
    ] {
        assert!(status.contains(part), "no `{part}` in {status}");
    }
}

/// `run_fceux` on a thread of its own, with the plugin's log written to `tmp/plugin.log`:
/// the log's path and the thread (which returns FCEUX's summary).
fn spawn_fceux_logged(
    rom: &Path,
    dir: &Path,
    tmp: &Path,
    env: &[(&'static str, &'static str)],
    limit: Duration,
) -> (PathBuf, std::thread::JoinHandle<String>) {
    let log = tmp.join("plugin.log");
    let mut env: Vec<(&str, String)> = env.iter().map(|&(k, v)| (k, v.to_string())).collect();
    env.push(("NESTOR_LOG", log.to_str().unwrap().to_string()));
    let (rom, dir, tmp) = (rom.to_path_buf(), dir.to_path_buf(), tmp.to_path_buf());
    let fceux = std::thread::spawn(move || {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run_fceux(&rom, &dir, &tmp, &env, limit)
    });
    (log, fceux)
}

/// The status line the plugin showed last (it writes it to NESTOR_STATUS as it stops).
fn status_line(tmp: &Path) -> String {
    let path = tmp.join("status.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The default weights with every weight's sign flipped: the worst placement is chosen.
fn losing_weights() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/default.toml");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| match l.split_once(" = ") {
            Some((key, value)) if value.contains('.') && value.parse::<f64>().is_ok() => {
                format!("{key} = {}", -value.parse::<f64>().unwrap())
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
