//! `nestor play` on the rules-model console (the hidden `--model-console SEED`), run as a
//! program: Ctrl-C keeps a movie that replays, injected faults are survived and counted, and
//! outputs that are inputs or cannot be written are refused before anything runs.

mod common;

use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use nestor::game::score::bcd_value;
use nestor::game::Game;
use nestor::movie::Replay;
use nestor::nes::testcart::mmc1_image;
use nestor::nes::{AddressMap, ModelConsole, RamSnapshot};

/// Weights whose games end quickly after level 29 (the 2018 set at every level).
const SHORT_GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/config/weights/tetris-everywhere.toml"
);

fn nestor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .env("RUST_LOG", "off")
        .output()
        .expect("run nestor")
}

/// The JSON summary a successful run prints.
fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&common::ok(&nestor(args))).expect("a JSON summary")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// Replays `movie` on a fresh model console and returns (score, lines) at its end.
fn replay_on_model(movie: &Path, level: u8, seed: u64) -> (u32, u32) {
    let replay = Replay::load(movie).expect("the kept movie parses");
    let map = AddressMap::default();
    let mut console = ModelConsole::new(Game::seeded(level, seed), map.clone());
    let mut last = None;
    replay
        .run(&mut console, |f| {
            last = Some(RamSnapshot::read(f.ram, &map));
            ControlFlow::Continue(())
        })
        .expect("replay");
    let last = last.expect("frames");
    (bcd_value(&last.score_bcd), bcd_value(&last.lines_bcd))
}

#[cfg(unix)]
#[test]
fn interrupting_play_record_keeps_a_movie_that_replays() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("game.fm2");
    // Level 0, slowed to at most 5,000 frames a second: a game of tens of thousands of
    // frames, still going when the signal comes however fast the planner is.
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["play", "--model-console", "7", "--level", "0", "--json"])
        .args(["--model-frame-delay-us", "200"])
        .args(["--record", s(&movie)])
        .env("RUST_LOG", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nestor");
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: a plain kill(2) on the child's pid, which has not been waited for yet.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let deadline = Instant::now() + Duration::from_secs(60);
    let out = child.wait_with_output().expect("wait");
    assert!(Instant::now() < deadline);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "stderr: {stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    let game = &summary["games"][0];
    assert_eq!(game["end"], "interrupted", "{summary}");
    assert!(summary["frames"].as_u64().unwrap() > 1000, "{summary}");
    // The movie holds every frame up to the interruption and replays to the same game.
    let kept = Replay::load(&movie).unwrap();
    assert_eq!(
        kept.movie().gameplay_frames().len() as u64,
        summary["frames"].as_u64().unwrap()
    );
    let (score, lines) = replay_on_model(&movie, 0, 7);
    assert_eq!(u64::from(score), game["score"].as_u64().unwrap());
    assert_eq!(u64::from(lines), game["lines"].as_u64().unwrap());
    // Nothing but the movie is left in the folder (no temporary file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_finished_model_game_replays_to_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("g.fm2");
    // The 2018 set at every level tops out soon after level 29; the shipped killscreen brain
    // would play on for well over a thousand lines.
    let summary = json_of(&[
        "play",
        "--model-console",
        "11",
        "--weights",
        SHORT_GAMES,
        "--json",
        "--record",
        s(&movie),
    ]);
    assert_eq!(summary["games"][0]["end"], "topped_out", "{summary}");
    let (score, lines) = replay_on_model(&movie, 19, 11);
    assert_eq!(u64::from(score), summary["score"].as_u64().unwrap());
    assert_eq!(u64::from(lines), summary["lines"].as_u64().unwrap());
    let text = std::fs::read_to_string(&movie).unwrap();
    // The console, and the weights as `sim` says them.
    for comment in [
        "comment model console: seed 11",
        "comment weights tetris-everywhere.toml (--weights)",
    ] {
        assert!(text.contains(comment), "{comment} is not in {text}");
    }
}

#[test]
fn injected_faults_are_counted_and_play_goes_on() {
    let v = json_of(&[
        "play",
        "--model-console",
        "3",
        "--pieces",
        "300",
        "--games",
        "50",
        "--inject-faults",
        "0.02",
        "--json",
    ]);
    let t = &v["totals"];
    assert_eq!(t["pieces"], 300, "{v}");
    assert!(t["faults_injected"].as_u64().unwrap() > 50, "{v}");
    assert!(t["desyncs"].as_u64().unwrap() > 10, "{v}");
    // Without faults the model console never desyncs.
    let out = nestor(&["play", "--model-console", "3", "--pieces", "100", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["desyncs"], 0, "{v}");
    assert_eq!(v["totals"]["faults_injected"], 0, "{v}");
    let out = nestor(&["play", "--model-console", "3", "--inject-faults", "5"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_unwritable_record_path_fails_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no").join("such").join("m.fm2");
    let started = Instant::now();
    let out = nestor(&["play", "--model-console", "1", "--record", s(&bad)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    common::says(&err, &["cannot write there", "m.fm2"]);
    assert!(out.stdout.is_empty(), "nothing ran");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn outputs_that_are_inputs_are_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let rom = dir.path().join("rom.nes");
    std::fs::write(&rom, mmc1_image()).unwrap();
    // The same file under another spelling.
    let other = dir.path().join(".").join("rom.nes");
    let out = nestor(&[
        "play",
        s(&rom),
        "--allow-unknown-rom",
        "--headless",
        "--record",
        s(&other),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is the ROM"), "{err}");
    assert_eq!(std::fs::read(&rom).unwrap(), mmc1_image());

    let movie = dir.path().join("m.fm2");
    let text = "version 3\nemuVersion 1\nrerecordCount 0\npalFlag 0\nromFilename x\n\
                romChecksum base64:AAAAAAAAAAAAAAAAAAAAAA==\nguid x\nfourscore 0\n\
                microphone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\n|0|........|||\n";
    std::fs::write(&movie, text).unwrap();
    for (out_path, role) in [(&movie, "is the movie"), (&rom, "is the ROM")] {
        let out = nestor(&["trace", s(&rom), "--movie", s(&movie), "--out", s(out_path)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(role), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&movie).unwrap(), text);
    assert_eq!(std::fs::read(&rom).unwrap(), mmc1_image());
}

#[test]
fn clap_refuses_zero_games_and_endless_files_are_refused_quickly() {
    let out = nestor(&["play", "--model-console", "1", "--games", "0"]);
    assert_eq!(out.status.code(), Some(2));
    #[cfg(unix)]
    {
        let started = Instant::now();
        let out = nestor(&["play", "/dev/zero", "--headless"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        common::says(&err, &["/dev/zero", "not a regular file"]);
        let dir = tempfile::tempdir().unwrap();
        let rom = dir.path().join("rom.nes");
        std::fs::write(&rom, mmc1_image()).unwrap();
        let out = nestor(&["replay", s(&rom), "/dev/zero", "--allow-unknown-rom"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("not a regular file"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

#[test]
fn a_two_game_summary_labels_each_game_and_the_totals() {
    let out = nestor(&[
        "play",
        "--model-console",
        "4",
        "--games",
        "2",
        "--level",
        "29",
        "--weights",
        SHORT_GAMES,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = |n: u32| {
        text.lines()
            .find(|l| l.starts_with(&format!("game {n}: ")))
            .unwrap_or_else(|| panic!("no game {n} line: {text}"))
    };
    // Started at 29: every line is after the transition, and the line says so.
    for n in [1, 2] {
        assert!(
            game(n).contains(" after level 29)") && game(n).ends_with("topped out"),
            "{text}"
        );
    }
    assert!(text.contains("total over 2 games: pieces "), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("score ")),
        "no unlabelled line: {text}"
    );
}

#[test]
fn show_plan_headless_is_not_silently_ignored() {
    let out = nestor(&[
        "play",
        "--model-console",
        "1",
        "--pieces",
        "3",
        "--show-plan",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    common::says(&err, &["--show-plan", "headless"]);
}

/// `play`'s run-ahead options reach the driver: checks from level 0 on the model console,
/// none with `--no-run-ahead` or the settings file's `no_run_ahead`, the level shown in the
/// summary's settings, and the two options refused together.
#[test]
fn run_ahead_options_reach_the_driver() {
    let run = |extra: &[&str]| {
        let mut args = vec!["play", "--model-console", "3", "--level", "19"];
        args.extend(["--pieces", "60", "--json"]);
        args.extend(extra);
        let out = nestor(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
        // The model beside the copy is the model console itself: it never disagrees, and
        // nothing crashes at level 19.
        for key in [
            "run_ahead_crashes",
            "run_ahead_open",
            "run_ahead_disagreements",
        ] {
            assert_eq!(v["totals"][key], 0, "{args:?}: {key}");
        }
        (
            v["settings"]["run_ahead_from"].clone(),
            v["totals"]["run_ahead_checks"].as_u64().expect("checks"),
        )
    };
    let (from, checks) = run(&["--run-ahead-from", "0"]);
    assert_eq!(from, 0);
    assert!(checks > 0, "60 pieces from level 19 clear lines: {checks}");
    // The default starts at 150: a game at level 19 is never checked.
    assert_eq!(run(&[]), (serde_json::json!(150), 0));
    assert_eq!(run(&["--no-run-ahead"]), (serde_json::Value::Null, 0));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("play.toml");
    std::fs::write(&file, "no_run_ahead = true\n").unwrap();
    assert_eq!(run(&["--config", s(&file)]), (serde_json::Value::Null, 0));
    // An option wins over the file.
    let (from, checks) = run(&["--config", s(&file), "--run-ahead-from", "0"]);
    assert_eq!((from, checks > 0), (serde_json::json!(0), true));
    std::fs::write(&file, "run_ahead_from = 0\n").unwrap();
    assert_eq!(run(&["--config", s(&file)]).0, 0);
    let out = nestor(&[
        "play",
        "--model-console",
        "3",
        "--no-run-ahead",
        "--run-ahead-from",
        "150",
    ]);
    assert_eq!(out.status.code(), Some(2), "clap refuses the pair");
}

#[test]
fn until_ends_the_run_when_its_game_reaches_the_goal_and_says_so() {
    let json = json_of(&[
        "play",
        "--model-console",
        "3",
        "--level",
        "19",
        "--until",
        "lines:12",
        "--json",
    ]);
    let game = &json["games"][0];
    assert_eq!(game["end"], "reached", "{json}");
    let lines = game["lines"].as_u64().expect("lines");
    // Stopped on the frame the goal is reached: at most one clear past it.
    assert!((12..16).contains(&lines), "{lines} lines");
    assert_eq!(json["settings"]["until"], "lines:12");
    let text = nestor(&["play", "--model-console", "3", "--until", "lines:12"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("reached the --until goal"), "{text}");
}

#[test]
fn a_bad_until_is_refused_naming_where_it_came_from() {
    let out = nestor(&["play", "--model-console", "3", "--until", "rebirht"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--until") && err.contains("rebirth"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("play.toml");
    std::fs::write(&cfg, "until = \"level:x\"\n").unwrap();
    let out = nestor(&["play", "--model-console", "3", "--config", s(&cfg)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("play.toml") && err.contains("`until`"),
        "{err}"
    );
}
