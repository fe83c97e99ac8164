//! `nestor cartridge`: a batch of cartridge games in parallel jobs, each kept as a movie and a
//! record, resumable. Without a ROM only the refusals run; with `NESTOR_ROM` two short games.

mod common;

use std::ffi::OsString;
use std::path::Path;

use common::{nestor, temp_dir};

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

#[test]
fn bad_settings_are_refused_before_anything_runs() {
    let tmp = temp_dir("cartridge-bad");
    let out = tmp.path().join("games");
    let out = out.to_str().unwrap();
    let rom = tmp.path().join("missing.nes");
    let rom = rom.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut a = vec!["cartridge", rom, "--out", out];
        a.extend_from_slice(extra);
        nestor(&args(&a))
    };
    let o = run(&["--level", "25"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--level 25"));
    let o = run(&["--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["--level", "18", "--from-level", "18"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--from-level 18"));
    let o = run(&["--until", "soon"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("`soon`"));
    // A ROM that is not there is named.
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.nes"));
    assert!(
        !Path::new(out).exists(),
        "nothing was created for a run that never started"
    );
    if !common::without_fceux() {
        let o = nestor(&args(&["fceux-replay", rom, "no-such-movie.fm2"]));
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stderr).contains("missing.nes"));
    }
}

/// `cartridge ROM --out OUT` with `extra` options.
fn cartridge(rom: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let head = ["cartridge", rom, "--out", out.to_str().unwrap()];
    nestor(&args(&[&head[..], extra].concat()))
}

/// For the tests on the real cartridge: NESTOR_ROM, a temp dir named after `tag` and the
/// batch's folder in it.
fn rom_batch(tag: &str) -> (String, tempfile::TempDir, std::path::PathBuf) {
    let rom = std::env::var("NESTOR_ROM").unwrap();
    let tmp = temp_dir(tag);
    let out = tmp.path().join("games");
    (rom, tmp, out)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Replays `movie` on the cartridge `rom` headless and checks it ends at the record's lines
/// and level.
fn replays_in_nestor(rom: &str, movie: &Path, record: &serde_json::Value) {
    let r = nestor(&args(&[
        "replay",
        rom,
        movie.to_str().unwrap(),
        "--headless",
        "--json",
    ]));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(replayed["lines"], record["lines"], "{}", movie.display());
    assert_eq!(replayed["level"], record["level"], "{}", movie.display());
}

/// Replays `movie` in real FCEUX (skipped without it), where the NMI lands a few cycles
/// apart, and checks it does not freeze and ends at the record's lines, level and score.
fn replays_in_fceux(rom: &str, movie: &Path, record: &serde_json::Value) {
    if common::without_fceux() {
        return;
    }
    let f = nestor(&args(&[
        "fceux-replay",
        rom,
        movie.to_str().unwrap(),
        "--json",
    ]));
    assert!(f.status.success(), "{}", String::from_utf8_lossy(&f.stderr));
    let report: serde_json::Value = serde_json::from_slice(&f.stdout).unwrap();
    assert_eq!(report[0]["fceux"]["froze"], serde_json::Value::Null);
    for field in ["lines", "level", "score"] {
        assert_eq!(report[0]["fceux"][field], record[field], "{field}");
    }
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn two_games_are_dealt_apart_kept_as_movies_that_replay_and_resumed() {
    let (rom, _tmp, out) = rom_batch("cartridge-rom");
    let batch = |extra: &[&str]| {
        let two = [
            "--games", "2", "--jobs", "2", "--until", "level:20", "--json",
        ];
        cartridge(&rom, &out, &[&two[..], extra].concat())
    };
    let o = batch(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(printed["summary"]["reached_goal"]["count"], 2);
    assert_eq!(printed["summary"]["desyncs"], 0);
    for game in 1..=2 {
        let record = json(&out.join(format!("game-{game:04}.json")));
        assert_eq!(record["end"], "reached");
        assert_eq!(record["menu_wait"], (game - 1) * 61);
        // The movie replays on the cartridge to the record's lines and level.
        replays_in_nestor(&rom, &out.join(format!("game-{game:04}.fm2")), &record);
    }
    let record = json(&out.join("game-0002.json"));
    replays_in_fceux(&rom, &out.join("game-0002.fm2"), &record);
    assert_ne!(
        std::fs::read(out.join("game-0001.fm2")).unwrap(),
        std::fs::read(out.join("game-0002.fm2")).unwrap(),
        "each game is dealt by its own menu wait"
    );
    // Again into the same folder: refused, naming --resume; with it nothing is replayed.
    let o = batch(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let o = batch(&["--resume"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 finished game(s) kept"));
    let again: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(again["summary"], printed["summary"]);
    // Other settings cannot be mixed into the folder.
    let o = batch(&["--resume", "--frames", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
}

/// The synthetic test cartridge (not Tetris: its menus never show a game) in `dir`.
fn test_cart(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("cart.nes");
    std::fs::write(&path, nestor::nes::testcart::mmc1_image()).unwrap();
    path
}

#[test]
fn a_cartridge_that_never_starts_a_game_fails_each_game_with_the_reason_kept() {
    let tmp = temp_dir("cartridge-fail");
    let cart = test_cart(tmp.path());
    let out = tmp.path().join("games");
    let unknown = ["--allow-unknown-rom", "--games", "1", "--json"];
    let o = cartridge(cart.to_str().unwrap(), &out, &unknown);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a failed game fails the batch: {stderr}"
    );
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).expect(&stderr);
    assert_eq!(printed["summary"]["failed"], 1);
    // stderr is a pipe here, as in a logged batch: each finished game still gets its line.
    assert!(stderr.contains("game    1 (menu wait"), "{stderr}");
    let record = json(&out.join("game-0001.json"));
    let why = record["end"]["failed"].as_str().unwrap();
    assert!(why.contains("menu"), "{why}");
    // The movie of what was pressed is kept too.
    assert!(out.join("game-0001.fm2").is_file());
}

#[test]
#[cfg(unix)]
fn sigterm_keeps_the_finished_games_and_marks_the_one_in_hand_for_resume() {
    use std::process::{Command, Stdio};
    let tmp = temp_dir("cartridge-term");
    let cart = test_cart(tmp.path());
    let out = tmp.path().join("games");
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["cartridge", cart.to_str().unwrap(), "--allow-unknown-rom"])
        .args([
            "--out",
            out.to_str().unwrap(),
            "--games",
            "1000",
            "--jobs",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started and has not reaped.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    let ends: Vec<serde_json::Value> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "json").then(|| json(&p)["end"].clone())
        })
        .collect();
    assert!(!ends.is_empty() && ends.len() < 1000);
    assert!(
        ends.contains(&serde_json::Value::from("interrupted")),
        "{ends:?}"
    );
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn a_game_put_at_level_150_replays_with_its_poke_in_nestor_and_fceux() {
    let (rom, _tmp, out) = rom_batch("cartridge-from-level");
    let o = cartridge(
        &rom,
        &out,
        &[
            "--games",
            "1",
            "--first-game",
            "3",
            "--from-level",
            "150",
            "--until",
            "level:152",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let record = json(&out.join("game-0003.json"));
    assert_eq!(record["end"], "reached");
    assert_eq!(record["spec"]["from_level"], 150);
    assert_eq!(record["level"], 152);
    // 1,440 lines at 150 (a game from 19), then 20 more.
    let lines = record["lines"].as_u64().unwrap();
    assert!((1_460..1_464).contains(&lines), "{lines}");
    let movie = out.join("game-0003.fm2");
    let text = std::fs::read_to_string(&movie).unwrap();
    assert!(
        text.contains("comment nestor poke after frame "),
        "{text:.600}"
    );
    replays_in_nestor(&rom, &movie, &record);
    replays_in_fceux(&rom, &movie, &record);
}
