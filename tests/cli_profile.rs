//! `--profile` on every command that plans, run as a program: a bad profile is a clear error
//! naming it on each; `play --model-console --profile P --record` names P in the movie, the
//! text and JSON summaries, and the movie check passes on what it recorded; tune keeps it;
//! `--reaction FRAMES` replaces the profile's reaction everywhere, a bad one is a clear error;
//! `--adjust restart` plays and records adjustments on the restarted tap table;
//! a profile's weight set is picked with it, `--weights` replaces it, a bad one is a clear error.

use std::path::Path;
use std::process::{Command, Output};

use nestor::game::Game;
use nestor::lab::tune::TuneState;
use nestor::movegen::profile::Profile;
use nestor::movie::check::CheckReport;
use nestor::movie::Movie;
use nestor::nes::{AddressMap, ModelConsole};

mod common;

fn nestor(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .current_dir(dir)
        .env("RUST_LOG", "off")
        .output()
        .expect("run nestor")
}

/// The JSON a successful run prints.
fn json_of(args: &[&str], dir: &Path) -> serde_json::Value {
    serde_json::from_str(&common::ok(&nestor(args, dir))).expect("JSON")
}

/// `sim --json` of one 10-piece game with `extra` options.
fn short_sim(extra: &[&str], dir: &Path) -> serde_json::Value {
    let mut args = vec!["sim", "--games", "1", "--pieces", "10", "--json"];
    args.extend(extra);
    json_of(&args, dir)
}

/// `play --model-console SEED --level 18 --pieces PIECES` with `profile` options, recorded
/// to `movie`: the JSON it prints and the movie it wrote.
fn play_recorded(
    seed: u64,
    pieces: u32,
    profile: &[&str],
    movie: &str,
    dir: &Path,
) -> (serde_json::Value, Movie) {
    let (seed, pieces) = (seed.to_string(), pieces.to_string());
    let head = [
        "play",
        "--model-console",
        &seed,
        "--level",
        "18",
        "--pieces",
        &pieces,
    ];
    let args = [&head[..], profile, &["--record", movie, "--json"]].concat();
    let v = json_of(&args, dir);
    (v, Movie::load(&dir.join(movie)).unwrap())
}

/// The movie check of `m`, played from level 18 and `seed`, as `profile`'s player's.
fn check_as(m: &Movie, profile: &Profile, seed: u64) -> CheckReport {
    let map = AddressMap::default();
    let mut console = ModelConsole::new(Game::seeded(18, seed), map.clone());
    common::check_profile_movie(m, &mut console, &map, profile)
}

/// `play_recorded` from seed 6 for 60 pieces as `preset`'s player with `--reaction REACTION`
/// and `extra` options: asserts it played in sync and that the movie's header has the comment
/// `want`; returns the JSON, the movie and the profile it was played as.
fn play_with_reaction(
    preset: &str,
    reaction: u16,
    extra: &[&str],
    want: &str,
    dir: &Path,
) -> (serde_json::Value, Movie, Profile) {
    let text = reaction.to_string();
    let options = [&["--profile", preset, "--reaction", &text][..], extra].concat();
    let (v, m) = play_recorded(6, 60, &options, "r.fm2", dir);
    assert_eq!(v["totals"]["desyncs"], 0, "{v}");
    assert!(
        m.header.comments.iter().any(|c| c == want),
        "{:?}",
        m.header.comments
    );
    let mut profile = Profile::preset(preset).unwrap();
    profile.reaction = reaction;
    (v, m, profile)
}

/// Short runs of the commands that take `--profile` (in a folder with `empty.fm2`).
const PLAYING_COMMANDS: [&[&str]; 5] = [
    &["play", "--model-console", "1", "--pieces", "1"],
    &["demo", "--pieces", "1", "--seed", "1"],
    &["analyze", "empty.fm2", "--model-console", "1"],
    &["assist", "--model-console", "1", "--frames", "1"],
    &["tune", "--state", "s.json", "--generations", "1"],
];

#[test]
fn a_bad_profile_is_a_clear_error_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fast.toml"), common::tap_profile("XX.")).unwrap();
    std::fs::write(dir.path().join("empty.fm2"), "version 3\n").unwrap();
    for cmd in PLAYING_COMMANDS {
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
        let (v, m) = play_recorded(seed, 150, &["--profile", name], &movie, dir.path());
        assert_eq!(v["settings"]["profile"]["name"], name, "{v}");
        assert_eq!(v["totals"]["desyncs"], 0, "{v}");
        assert_eq!(m.header.profile_name(), Some(name));
        let r = check_as(&m, &Profile::preset(name).unwrap(), seed);
        assert!(r.passed(), "{name}: {:?}", r.violations.first());
        assert!(r.pieces >= 150, "{name}: {}", r.pieces);
        // The same movie is not a 10 Hz player's.
        let r = check_as(&m, &Profile::preset("10hz").unwrap(), seed);
        assert!(!r.passed(), "{name} checked as 10hz");
    }
    // The text summary names it too.
    let text = common::ok(&nestor(
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
    let text = common::ok(&nestor(
        &["demo", "--pieces", "5", "--seed", "5", "--profile", "12hz"],
        dir.path(),
    ));
    assert!(text.contains("profile      12hz (timeline X...."), "{text}");
}

#[test]
fn tune_keeps_the_profile_in_its_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        &common::SMALL_TUNE_INIT[..],
        &["--generations", "1", "--profile", "13.5hz"],
    ]
    .concat();
    common::ok(&nestor(&args, dir.path()));
    let state = TuneState::load(&dir.path().join("s.json")).expect("the state loads");
    assert_eq!(state.config.profile, Profile::preset("13.5hz").unwrap());
    let text = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    assert!(text.contains("X....X...X..."), "the timeline is kept whole");
}

#[test]
fn reaction_on_the_command_line_replaces_the_profiles_and_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let want = "profile 30hz (timeline X., tap, reaction 21, start delay 0)";
    let (v, m, profile) = play_with_reaction("30hz", 21, &[], want, dir.path());
    assert_eq!(v["settings"]["profile"]["name"], "30hz", "{v}");
    assert_eq!(v["settings"]["profile"]["reaction"], 21, "{v}");
    // The movie is a 30 Hz player's who waits 21 frames for the next piece.
    let r = check_as(&m, &profile, 6);
    assert!(r.passed(), "{:?}", r.violations.first());

    // sim's summary, demo's text and tune's state carry it too; a profile file's own
    // reaction is replaced as a preset's is.
    let v = short_sim(&["--profile", "24hz", "--reaction", "18"], dir.path());
    assert_eq!(v["profile"]["name"], "24hz", "{v}");
    assert_eq!(
        v["profile"]["describe"], "24hz (timeline X..X., tap, reaction 18, start delay 0)",
        "{v}"
    );
    let text = common::ok(&nestor(
        &[
            "demo",
            "--pieces",
            "3",
            "--seed",
            "5",
            "--profile",
            "human",
            "--reaction",
            "0",
        ],
        dir.path(),
    ));
    assert!(
        text.contains(
            "profile      human (timeline X., tap, reaction 0, start delay 18, 3 blind placements)"
        ),
        "{text}"
    );
    std::fs::write(
        dir.path().join("slow.toml"),
        "timeline = \"X...\"\nshift = \"tap\"\nreaction = 30\nstart_delay = 0\n",
    )
    .unwrap();
    let tune = [
        &common::SMALL_TUNE_INIT[..],
        &[
            "--generations",
            "1",
            "--profile",
            "slow.toml",
            "--reaction",
            "24",
        ],
    ]
    .concat();
    common::ok(&nestor(&tune, dir.path()));
    let state = TuneState::load(&dir.path().join("s.json")).expect("the state loads");
    assert_eq!(
        (
            state.config.profile.name.as_str(),
            state.config.profile.reaction
        ),
        ("slow", 24)
    );
}

#[test]
fn a_bad_reaction_is_a_clear_error_on_every_command() {
    bad_values_are_clear_errors(
        "--reaction",
        &[
            ("601", "601 frames is over 600 (10 seconds)"),
            ("-3", "-3 is negative"),
            ("soon", "\"soon\" is not a number of frames"),
        ],
    );
}

#[test]
fn blind_placements_on_the_command_line_replace_the_profiles_and_a_bad_count_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for (count, describe) in [
        ("0", "human (timeline X., tap, reaction 18, start delay 18)"),
        (
            "5",
            "human (timeline X., tap, reaction 18, start delay 18, 5 blind placements)",
        ),
    ] {
        let v = short_sim(
            &["--profile", "human", "--blind-placements", count],
            dir.path(),
        );
        assert_eq!(v["profile"]["describe"], describe, "{v}");
    }
    bad_values_are_clear_errors(
        "--blind-placements",
        &[
            (
                "201",
                "201 is not a count of placements from 0 (every one) to 200",
            ),
            ("-1", "-1 is not a count of placements"),
            ("all", "\"all\" is not a count of placements"),
        ],
    );
}

/// `option` with each bad value on every command that plans: exit code 2 and a message that
/// names the option and says what is wrong (`cases`: value, message).
fn bad_values_are_clear_errors(option: &str, cases: &[(&str, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let more: [&[&str]; 3] = [
        &["sim", "--games", "1", "--pieces", "1"],
        &["sim", "compare", "a.toml", "b.toml", "--games", "2"],
        &["serve", "--once"],
    ];
    for cmd in PLAYING_COMMANDS.into_iter().chain(more) {
        for &(value, want) in cases {
            let mut args = cmd.to_vec();
            args.extend([option, value]);
            let out = nestor(&args, dir.path());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd:?} {value}: {err}");
            assert!(
                err.contains(option) && err.contains(want),
                "{cmd:?} {value}: {err}"
            );
        }
    }
}

/// The 15 Hz preset's keys, without a weight set.
fn slow() -> String {
    common::tap_profile("15hz")
}

fn repo_file(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `sim --json` over a few short games: the weight set it names and each game's outcome.
fn sim_games(dir: &Path, extra: &[&str]) -> (String, Vec<(u64, u64, u64)>) {
    let mut args = vec![
        "sim", "--games", "3", "--level", "19", "--pieces", "60", "--seed", "5", "--json",
    ];
    args.extend(extra);
    let v = json_of(&args, dir);
    let games = v["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let n = |k: &str| g[k].as_u64().unwrap();
            (n("score"), n("lines"), n("pieces"))
        })
        .collect();
    let weights = v["profile"]["weights"].as_str().expect("a weight set");
    (weights.to_string(), games)
}

#[test]
fn a_profile_plays_with_its_weight_set_and_weights_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let other = repo_file("config/weights/tetris-everywhere.toml");
    std::fs::create_dir(dir.path().join("sets")).unwrap();
    std::fs::copy(&other, dir.path().join("sets/w.toml")).unwrap();
    // Relative to the profile's folder, not the working one.
    std::fs::write(
        dir.path().join("paired.toml"),
        format!("{}weights = \"sets/w.toml\"\n", slow()),
    )
    .unwrap();
    std::fs::write(dir.path().join("plain.toml"), slow()).unwrap();
    std::fs::write(
        dir.path().join("named.toml"),
        format!("{}weights = \"tetris-everywhere\"\n", slow()),
    )
    .unwrap();
    let run = |extra: &[&str]| sim_games(dir.path(), extra);
    let (label, paired) = run(&["--profile", "paired.toml"]);
    // Named as the profile's path leads to it.
    assert_eq!(label, "sets/w.toml (profile paired)");
    // The pairing plays exactly what `--weights` with that file plays.
    let other_s = other.to_str().unwrap();
    let (label, forced) = run(&["--profile", "plain.toml", "--weights", other_s]);
    assert_eq!(label, format!("{other_s} (--weights)"));
    assert_eq!(paired, forced);
    let (label, named) = run(&["--profile", "named.toml"]);
    assert_eq!(label, "built-in tetris-everywhere (profile named)");
    assert_eq!(named, paired, "the built-in set is the file's");
    // Without a set the profile plays the default one, and the games differ.
    let (label, plain) = run(&["--profile", "plain.toml"]);
    assert_eq!(label, "built-in default (profile plain)");
    assert_ne!(plain, paired, "the weight set changed the games");
    // `--weights` replaces the profile's set.
    let default = repo_file("config/weights/default.toml");
    let default_s = default.to_str().unwrap();
    let (label, overridden) = run(&["--profile", "paired.toml", "--weights", default_s]);
    assert_eq!(label, format!("{default_s} (--weights)"));
    assert_eq!(overridden, plain);
    // A preset names its set in the text summary too: 12 Hz has its own, 20 Hz the default.
    for (preset, set) in [("12hz", "12hz"), ("20hz", "default")] {
        let text = common::ok(&nestor(
            &["sim", "--games", "1", "--pieces", "5", "--profile", preset],
            dir.path(),
        ));
        let want = format!("weights: built-in {set} (profile {preset})");
        assert!(text.contains(&want), "{text}");
    }
}

#[test]
fn a_bad_profile_weight_file_is_a_clear_error_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let default = std::fs::read_to_string(repo_file("config/weights/default.toml")).unwrap();
    let pile = default
        .lines()
        .find(|l| l.starts_with("pile_height = "))
        .unwrap();
    let cases = [
        ("missing", None, "cannot read weights file"),
        (
            "malformed",
            Some("[phase.score\nfrom_level = 0\n".to_string()),
            "bad weights file",
        ),
        (
            "unknown",
            Some(default.replacen("[phase.score]\n", "[phase.score]\nspeed = 2\n", 1)),
            "unknown field `speed`",
        ),
        (
            "wrong-type",
            Some(default.replacen(pile, "pile_height = \"high\"", 1)),
            "pile_height",
        ),
    ];
    std::fs::write(dir.path().join("empty.fm2"), "version 3\n").unwrap();
    let commands: [&[&str]; 6] = [
        &["sim", "--games", "1", "--pieces", "1"],
        &["play", "--model-console", "1", "--pieces", "1"],
        &["demo", "--pieces", "1", "--seed", "1"],
        &["analyze", "empty.fm2", "--model-console", "1"],
        &["assist", "--model-console", "1", "--frames", "1"],
        &["tune", "--state", "s.json", "--generations", "1"],
    ];
    for (name, text, problem) in cases {
        if let Some(text) = &text {
            std::fs::write(dir.path().join(format!("{name}.toml")), text).unwrap();
        }
        let profile = format!("p-{name}.toml");
        std::fs::write(
            dir.path().join(&profile),
            format!("{}weights = \"{name}.toml\"\n", slow()),
        )
        .unwrap();
        for cmd in commands {
            let mut args = cmd.to_vec();
            args.extend(["--profile", &profile]);
            let out = nestor(&args, dir.path());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd:?} {name}: {err}");
            assert!(!err.contains("panicked"), "{cmd:?} {name}: {err}");
            assert!(
                err.contains("`weights`") && err.contains(&format!(" {name}.toml")),
                "{cmd:?} {name}: names the profile key and the file: {err}"
            );
            assert!(err.contains(problem), "{cmd:?} {name}: {err}");
            if cmd[0] != "play" {
                assert!(err.contains(&format!("--profile {profile}")), "{err}");
            }
            // `--weights` replaces the broken set: the command gets past it.
            if cmd[0] == "sim" {
                args.extend(["--weights", "../nonexistent-dir/none.toml"]);
                let out = nestor(&args, dir.path());
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(err.contains("--weights: cannot read weights file"), "{err}");
            }
        }
    }
    // A name that is no built-in set is refused when the profile is read.
    std::fs::write(
        dir.path().join("p-name.toml"),
        format!("{}weights = \"fast\"\n", slow()),
    )
    .unwrap();
    let out = nestor(
        &["sim", "--games", "1", "--profile", "p-name.toml"],
        dir.path(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("profile p-name.toml: `weights`: \"fast\" is neither a built-in weight set"),
        "{err}"
    );
    assert!(!dir.path().join("s.json").exists(), "tune wrote nothing");
}

#[test]
fn adjust_on_the_command_line_restarts_the_taps_at_the_reaction_and_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let want = "profile 15hz (timeline X..., tap, reaction 18, start delay 0, adjust restart)";
    let restart = ["--adjust", "restart"];
    let (v, m, mut profile) = play_with_reaction("15hz", 18, &restart, want, dir.path());
    assert_eq!(v["settings"]["profile"]["adjust"], "restart", "{v}");
    // The movie obeys the restarted tables, and some adjustment tapped off the spawn's table.
    let spawn_table = check_as(&m, &profile, 6);
    let off = |v: &nestor::movie::check::Violation| {
        matches!(
            v.breach,
            nestor::movegen::profile_check::Breach::OffTimeline { .. }
        )
    };
    let found = &spawn_table.violations;
    assert!(
        !found.is_empty() && found.iter().all(off),
        "{:?}",
        found.first()
    );
    profile.adjust = nestor::movegen::profile::Adjust::Restart;
    let r = check_as(&m, &profile, 6);
    assert!(r.passed(), "{:?}", r.violations.first());

    // A bad rule is a clear error.
    let out = nestor(&["sim", "--games", "1", "--adjust", "later"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("\"later\" is not \"continue\" or \"restart\""),
        "{err}"
    );
}
