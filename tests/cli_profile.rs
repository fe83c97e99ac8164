//! `--profile` on every command that plans, run as a program: a bad profile is a clear error
//! naming it on each; `play --model-console --profile P --record` names P in the movie, the
//! text and JSON summaries, and the movie check passes on what it recorded; tune keeps it.

use std::path::Path;
use std::process::{Command, Output};

use nestor::game::Game;
use nestor::lab::tune::TuneState;
use nestor::movie::check::{check_movie, ReactionCheck};
use nestor::movie::Movie;
use nestor::nes::{AddressMap, ModelConsole};
use nestor::search::profile::Profile;
use nestor::search::{Planner, Standard};

fn nestor(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .current_dir(dir)
        .env("RUST_LOG", "off")
        .output()
        .expect("run nestor")
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_bad_profile_is_a_clear_error_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fast.toml"),
        "timeline = \"XX.\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 0\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("empty.fm2"), "version 3\n").unwrap();
    let commands: [&[&str]; 5] = [
        &["play", "--model-console", "1", "--pieces", "1"],
        &["demo", "--pieces", "1", "--seed", "1"],
        &["analyze", "empty.fm2", "--model-console", "1"],
        &["assist", "--model-console", "1", "--frames", "1"],
        &["tune", "--state", "s.json", "--generations", "1"],
    ];
    for cmd in commands {
        for (profile, want) in [
            ("9hz", "--profile: unknown profile \"9hz\""),
            (
                "fast.toml",
                "profile fast.toml: `timeline`: \"XX.\" has two X frames",
            ),
        ] {
            let mut args = cmd.to_vec();
            args.extend(["--profile", profile]);
            let out = nestor(&args, dir.path());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd:?}: {err}");
            assert!(err.contains(want), "{cmd:?} {profile}: {err}");
        }
    }
    assert!(!dir.path().join("s.json").exists(), "tune wrote nothing");
}

#[test]
fn play_records_the_profile_and_its_movie_obeys_it() {
    let dir = tempfile::tempdir().unwrap();
    for (name, seed) in [("human", 3u64), ("15hz", 4)] {
        let movie = format!("{name}.fm2");
        let args = [
            "play",
            "--model-console",
            &seed.to_string(),
            "--level",
            "18",
            "--pieces",
            "150",
            "--profile",
            name,
            "--record",
            &movie,
            "--json",
        ];
        let v: serde_json::Value =
            serde_json::from_str(&stdout_of(&nestor(&args, dir.path()))).expect("JSON");
        assert_eq!(v["settings"]["profile"]["name"], name, "{v}");
        assert_eq!(v["totals"]["desyncs"], 0, "{v}");
        let m = Movie::load(&dir.path().join(&movie)).unwrap();
        assert_eq!(m.header.profile_name(), Some(name));
        let profile = Profile::preset(name).unwrap();
        let mut planner = Planner::new(Standard::default());
        planner.profile = profile.clone();
        let map = AddressMap::default();
        let mut console = ModelConsole::new(Game::seeded(18, seed), map.clone());
        let r = check_movie(&m, &mut console, &map, &mut planner, ReactionCheck::AsSeen).unwrap();
        assert!(r.passed(), "{name}: {:?}", r.violations.first());
        assert!(r.pieces >= 150, "{name}: {}", r.pieces);
        // The same movie is not a 10 Hz player's.
        planner.profile = Profile::preset("10hz").unwrap();
        let mut console = ModelConsole::new(Game::seeded(18, seed), map.clone());
        let r = check_movie(&m, &mut console, &map, &mut planner, ReactionCheck::AsSeen).unwrap();
        assert!(!r.passed(), "{name} checked as 10hz");
    }
    // The text summary names it too.
    let text = stdout_of(&nestor(
        &[
            "play",
            "--model-console",
            "5",
            "--pieces",
            "5",
            "--profile",
            "das",
        ],
        dir.path(),
    ));
    assert!(text.contains("profile das (timeline X., hold,"), "{text}");
    let text = stdout_of(&nestor(
        &["demo", "--pieces", "5", "--seed", "5", "--profile", "12hz"],
        dir.path(),
    ));
    assert!(text.contains("profile      12hz (timeline X...."), "{text}");
}

#[test]
fn tune_keeps_the_profile_in_its_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "tune",
        "init",
        "--state",
        "s.json",
        "--population",
        "4",
        "--games",
        "2",
        "--generations",
        "1",
        "--profile",
        "13.5hz",
    ];
    stdout_of(&nestor(&args, dir.path()));
    let state = TuneState::load(&dir.path().join("s.json")).expect("the state loads");
    assert_eq!(state.config.profile, Profile::preset("13.5hz").unwrap());
    let text = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    assert!(text.contains("X....X...X..."), "the timeline is kept whole");
}
