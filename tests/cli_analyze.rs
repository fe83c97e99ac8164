//! `nestor analyze` end to end: a movie the driver played on the model console is rated best,
//! the outputs are written (and never overwritten); on the real cartridge (`NESTOR_ROM`) the
//! same for a movie from power-on, plus a movie of another ROM and one with no game refused;
//! a profile ranks with its own weight set.

mod common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use nestor::game::Game;
use nestor::movie::Movie;
use nestor::nes::{
    AddressMap, Console, Driver, DriverConfig, ModelConsole, NesDeck, Rom, Step, Video,
};
use nestor::search::{Planner, Standard};

use common::{nestor, temp_dir};

/// Drives `console` with the bot for `pieces` pieces and returns the movie of what it pressed.
fn record<C: Console>(console: C, name: &str, md5: [u8; 16], pieces: u32) -> Movie {
    let mut movie = record_with(console, Planner::new(Standard::default()), pieces);
    movie.header.rom_filename = name.into();
    movie.header.rom_checksum = md5;
    movie
}

/// `record` with this planner (and its profile), on the model's name and checksum.
fn record_with<C: Console>(console: C, planner: Planner<Standard>, pieces: u32) -> Movie {
    let mut d = Driver::new(
        console,
        AddressMap::default(),
        planner,
        DriverConfig { level: 19 },
    )
    .unwrap();
    let mut movie = Movie::new_recording("nestor-model", [0; 16], vec!["cli_analyze test".into()]);
    while d.game().pieces < pieces {
        let step = d.step().unwrap();
        movie.push(d.last_pad());
        assert!(!matches!(step, Step::Desync { .. }), "{step:?}");
        if let Step::GameOver { .. } = step {
            break;
        }
    }
    movie
}

fn args(list: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    list.iter().map(|a| a.as_ref().to_os_string()).collect()
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// The bot's game of `pieces` pieces from level 19 and seed 31 on the model console, saved
/// as `dir/bot.fm2`: its path.
fn bot_movie(dir: &Path, pieces: u32) -> PathBuf {
    let console = ModelConsole::new(Game::seeded(19, 31), AddressMap::default());
    let path = dir.join("bot.fm2");
    record(console, "nestor-model", [0; 16], pieces)
        .save(&path)
        .unwrap();
    path
}

/// `analyze MOVIE --model-console 31` with `extra` options: the run and its stdout.
fn analyze_bot_movie(
    movie: &Path,
    extra: &[&dyn AsRef<std::ffi::OsStr>],
) -> (std::process::Output, String) {
    let head: [&dyn AsRef<std::ffi::OsStr>; 4] = [&"analyze", &movie, &"--model-console", &"31"];
    let out = nestor(&args(&[&head[..], extra].concat()));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

fn is_png(p: &Path) -> bool {
    std::fs::read(p).is_ok_and(|b| b.starts_with(b"\x89PNG"))
}

#[test]
fn a_model_console_game_by_the_bot_is_rated_best_and_reported() {
    let tmp = temp_dir("analyze");
    let dir = tmp.path();
    let movie_path = bot_movie(dir, 120);
    let csv = dir.join("pieces.csv");
    let report = dir.join("report");
    let (out, _) = analyze_bot_movie(
        &movie_path,
        &[
            &"--json",
            &"--csv",
            &csv,
            &"--report",
            &report,
            &"--explain",
            &"2",
        ],
    );
    let v = json_of(&out);
    let pieces = v["summary"]["pieces"].as_u64().unwrap();
    assert!(pieces >= 100, "{pieces}");
    let best = v["summary"]["best_share"].as_f64().unwrap();
    assert!(best >= 0.99, "{best}");
    assert_eq!(v["pieces"].as_array().unwrap().len() as u64, pieces);
    let counted: u64 = ["best", "good", "inaccuracy", "mistake", "blunder"]
        .iter()
        .map(|c| v["summary"]["counts"][c].as_u64().unwrap())
        .sum();
    assert_eq!(counted, pieces);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count() as u64, pieces + 1);
    assert!(text.starts_with("game,piece_number,frame"));
    for name in ["loss.png", "accuracy-by-level.png"] {
        assert!(is_png(&report.join(name)), "{name}");
    }
    // Outputs are never overwritten: the same command is refused, naming the file.
    let (again, _) = analyze_bot_movie(&movie_path, &[&"--csv", &csv]);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains("pieces.csv") && err.contains("exists"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    // The text summary names the profile and the accuracy.
    let (plain, s) = analyze_bot_movie(&movie_path, &[]);
    assert!(plain.status.success());
    assert!(
        s.contains("accuracy") && s.contains("profile unlimited ("),
        "{s}"
    );
}

/// A flawless game says so in full, draws its charts with a title that says so too, and
/// without `--report` says where its charts are.
#[test]
fn a_flawless_game_is_summed_up_and_charted() {
    let tmp = temp_dir("analyze-flawless");
    let dir = tmp.path();
    let movie_path = bot_movie(dir, 20);
    let (plain, s) = analyze_bot_movie(&movie_path, &[]);
    assert!(plain.status.success(), "{s}");
    assert!(
        s.contains("no placement worse than the best: all 20 were the best"),
        "{s}"
    );
    assert!(s.contains("--report DIR draws the game's charts"), "{s}");
    let report = dir.join("report");
    let (out, _) = analyze_bot_movie(&movie_path, &[&"--report", &report]);
    assert!(out.status.success());
    assert!(is_png(&report.join("loss.png")));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("--report DIR"));
}

#[test]
fn a_game_played_under_a_profile_is_rated_under_it() {
    let tmp = temp_dir("analyze-profile");
    let movie_path = tmp.path().join("bot15.fm2");
    // Played as `--profile 15hz` plays: the preset with the weight set it names.
    let profile = nestor::search::Profile::preset("15hz").unwrap();
    let mut planner = Planner::new(Standard::new(profile.weights.load().unwrap()));
    planner.profile = profile;
    let console = ModelConsole::new(Game::seeded(19, 32), AddressMap::default());
    record_with(console, planner, 60).save(&movie_path).unwrap();
    let run = |profile: &str| {
        nestor(&args(&[
            &"analyze",
            &movie_path,
            &"--model-console",
            &"32",
            &"--json",
            &"--profile",
            &profile,
        ]))
    };
    let v = json_of(&run("15hz"));
    assert_eq!(v["profile"]["name"], "15hz");
    assert_eq!(v["profile"]["timeline"], "X...");
    let best = v["summary"]["best_share"].as_f64().unwrap();
    assert!(
        best >= 0.99,
        "under its own profile the bot's locks are the best: {best}"
    );
    let bad = run("9hz");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--profile: unknown profile \"9hz\""), "{err}");
}

#[test]
fn a_missing_movie_is_named() {
    let out = nestor(&args(&[
        &"analyze",
        &"/nonexistent/game.fm2",
        &"--model-console",
        &"1",
    ]));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/game.fm2"), "{err}");
}

fn rom() -> Option<(PathBuf, Rom)> {
    let Some(path) = std::env::var_os("NESTOR_ROM") else {
        eprintln!("skipped: set NESTOR_ROM to the Tetris (U) [!] ROM to run this test");
        return None;
    };
    let path = PathBuf::from(path);
    let rom = Rom::load(&path, false).expect("NESTOR_ROM is the known dump");
    Some((path, rom))
}

#[test]
fn on_the_cartridge_a_bot_game_is_rated_best_and_bad_movies_are_refused() {
    let Some((path, rom)) = rom() else { return };
    let tmp = temp_dir("analyze-rom");
    let dir = tmp.path();
    let deck = NesDeck::new(&rom, Video::Headless).unwrap();
    let movie = record(deck, &rom.name(), rom.prg_chr_md5, 150);
    let movie_path = dir.join("bot.fm2");
    movie.save(&movie_path).unwrap();
    let v = json_of(&nestor(&args(&[&"analyze", &path, &movie_path, &"--json"])));
    let best = v["summary"]["best_share"].as_f64().unwrap();
    assert!(v["summary"]["pieces"].as_u64().unwrap() >= 140);
    assert!(best >= 0.99, "{best}");
    // Another ROM's movie.
    let mut other = movie.clone();
    other.header = Movie::new_recording("other", [7; 16], vec![]).header;
    let other_path = dir.join("other.fm2");
    other.save(&other_path).unwrap();
    let out = nestor(&args(&[&"analyze", &path, &other_path]));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("other.fm2") && err.to_lowercase().contains("checksum"),
        "{err}"
    );
    // A movie that never leaves the title screen.
    let mut idle = Movie::new_recording(rom.name(), rom.prg_chr_md5, vec![]);
    for _ in 0..600 {
        idle.push(nestor::game::PadState::NONE);
    }
    let idle_path = dir.join("idle.fm2");
    idle.save(&idle_path).unwrap();
    let out = nestor(&args(&[&"analyze", &path, &idle_path]));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("idle.fm2") && err.contains("no game"), "{err}");
}

/// A model game (level 19, seed 11) where pieces 3 and 8 take the placement of rank 5 (under
/// the `unlimited` ranking), saved as `dir/two.fm2`: its path.
fn two_mistakes_movie(dir: &Path) -> PathBuf {
    use nestor::game::state::PlayState;
    use nestor::game::PadState;
    use nestor::search::rank::Ranker;
    use nestor::search::Situation;
    use std::collections::VecDeque;

    let mut ranker = Ranker::new(Standard::default());
    // Level 19, where the model console starts: no hidden `--model-level` needed.
    let mut game = Game::seeded(19, 11);
    let mut movie = Movie::new_recording("nestor-model", [0; 16], vec![]);
    let (mut queue, mut prev, mut n) = (VecDeque::new(), None, 0);
    while n < 12 {
        let control = game.play_state == PlayState::Control;
        if control && prev != Some(PlayState::Control) {
            let ranking = ranker.rank(&Situation::of(&game)).unwrap();
            let e = match n {
                3 | 8 => *ranking.entries.iter().find(|e| e.rank == 5).unwrap(),
                _ => ranking.entries[0],
            };
            queue = ranker.inputs_to(&e.lock).unwrap().into_iter().collect();
            n += 1;
        }
        prev = Some(game.play_state);
        let pad = queue.pop_front().unwrap_or(PadState::NONE);
        game.step(pad);
        movie.push(pad);
    }
    let path = dir.join("two.fm2");
    movie.save(&path).unwrap();
    path
}

/// Pieces 3 and 8 take the placement of rank 5: `--explain 2` shows, for each, the top 2
/// placements and the played one, whose terms add up to their values.
#[test]
fn explain_shows_the_top_placements_and_the_played_one() {
    let tmp = temp_dir("analyze-explain");
    let path = two_mistakes_movie(tmp.path());
    let v = json_of(&nestor(&args(&[
        &"analyze",
        &path,
        &"--model-console",
        &"11",
        &"--json",
        &"--explain",
        &"2",
    ])));
    let explained = v["explain"].as_array().unwrap();
    assert_eq!(explained.len(), 2, "{v}");
    let pieces = v["pieces"].as_array().unwrap();
    let mut frames: Vec<u64> = explained
        .iter()
        .map(|e| e["frame"].as_u64().unwrap())
        .collect();
    frames.sort();
    let expected: Vec<u64> = [3, 8]
        .iter()
        .map(|&i| pieces[i]["frame"].as_u64().unwrap())
        .collect();
    assert_eq!(frames, expected);
    for e in explained {
        let top = e["top"].as_array().unwrap();
        assert_eq!(top.len(), 2);
        assert_eq!(top[0]["rank"], 1);
        assert_eq!(e["played"]["rank"], 5);
        for x in top.iter().chain([&e["played"]]) {
            let sum: f64 = x["terms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["contribution"].as_f64().unwrap())
                .sum();
            assert!((sum - x["value"].as_f64().unwrap()).abs() < 1e-6, "{x}");
        }
    }
}

/// Issue 21: the coach ranks under the person's profile with the weight set that profile is
/// paired with (`--weights` replaces it).
#[test]
fn a_profile_ranks_with_its_own_weight_set() {
    let tmp = temp_dir("analyze-weights");
    let dir = tmp.path();
    let set = nestor::search::Weights::built_in("tetris-everywhere").unwrap();
    let mut planner = Planner::new(Standard::new(set));
    planner.profile = nestor::search::Profile::preset("15hz").unwrap();
    let console = ModelConsole::new(Game::seeded(19, 33), AddressMap::default());
    let movie_path = dir.join("te15.fm2");
    record_with(console, planner, 80).save(&movie_path).unwrap();
    let keys = common::tap_profile("15hz");
    let paired = dir.join("paired.toml");
    std::fs::write(&paired, format!("{keys}weights = \"tetris-everywhere\"\n")).unwrap();
    let plain = dir.join("plain.toml");
    std::fs::write(&plain, keys).unwrap();
    let run = |profile: &Path, extra: &[&dyn AsRef<std::ffi::OsStr>]| {
        let mut list: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![
            &"analyze",
            &movie_path,
            &"--model-console",
            &"33",
            &"--json",
            &"--profile",
        ];
        list.push(&profile);
        list.extend(extra);
        json_of(&nestor(&args(&list)))
    };
    let ranks = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["rank"].clone())
            .collect()
    };
    let own = run(&paired, &[]);
    assert_eq!(
        own["weights"],
        "built-in tetris-everywhere (profile paired)"
    );
    let best = own["summary"]["best_share"].as_f64().unwrap();
    assert!(
        best >= 0.99,
        "with the set it played, its locks are the best: {best}"
    );
    let other = run(&plain, &[]);
    assert_eq!(other["weights"], "built-in default (profile plain)");
    let other_best = other["summary"]["best_share"].as_f64().unwrap();
    assert!(
        other_best < best,
        "another set ranks them otherwise: {other_best}"
    );
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/default.toml");
    let forced = run(&paired, &[&"--weights", &default]);
    assert_eq!(
        forced["weights"],
        format!("{} (--weights)", default.display())
    );
    assert_eq!(
        ranks(&forced),
        ranks(&other),
        "--weights replaces the profile's set"
    );
}

/// Issue 36: under a profile with a reaction delay the coach says, for each worst piece, where
/// the bot hovers when the next piece is seen and its taps for each of the seven next pieces;
/// a profile that reacts at once has nothing to adjust.
#[test]
fn a_reaction_profile_shows_the_hover_and_the_taps_for_each_next_piece() {
    let tmp = temp_dir("analyze-adjust");
    let path = two_mistakes_movie(tmp.path());
    let run = |profile: &str, json: bool| {
        let mut a: Vec<&dyn AsRef<std::ffi::OsStr>> =
            vec![&"analyze", &path, &"--model-console", &"11", &"--profile"];
        a.push(if profile == "human" {
            &"human"
        } else {
            &"30hz"
        });
        if json {
            a.push(&"--json");
        }
        nestor(&args(&a))
    };
    let v = json_of(&run("human", true));
    let adjust = v["adjust"].as_array().unwrap();
    let worst = v["worst"].as_array().unwrap();
    assert!(!adjust.is_empty() && adjust.len() <= worst.len(), "{v}");
    for a in adjust {
        assert!(worst.iter().any(|w| w["frame"] == a["frame"]), "{a}");
        assert_eq!(a["hover_frames"], 18, "human reacts after 18 frames: {a}");
        let by_next = a["by_next"].as_array().unwrap();
        let next: String = by_next
            .iter()
            .map(|n| n["next"].as_str().unwrap())
            .collect();
        assert_eq!(next, "TJZOSLI", "{a}");
        for n in by_next {
            let taps = n["taps"].as_str().unwrap();
            assert!(
                taps == "none" || taps.chars().next().unwrap().is_ascii_digit(),
                "{n}"
            );
        }
    }
    let text = String::from_utf8_lossy(&run("human", false).stdout).into_owned();
    assert!(
        text.contains("with a reaction of 18 frames") && text.contains("hover x "),
        "{text}"
    );
    let v = json_of(&run("30hz", true));
    assert_eq!(
        v["adjust"].as_array().unwrap().len(),
        0,
        "30hz reacts at once: {v}"
    );
}
