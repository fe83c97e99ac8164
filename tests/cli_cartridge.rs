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

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
#[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
fn two_games_are_dealt_apart_kept_as_movies_that_replay_and_resumed() {
    let rom = std::env::var("NESTOR_ROM").unwrap();
    let tmp = temp_dir("cartridge-rom");
    let out = tmp.path().join("games");
    let out_s = out.to_str().unwrap().to_string();
    let batch = |extra: &[&str]| {
        let mut a = vec![
            "cartridge",
            rom.as_str(),
            "--out",
            out_s.as_str(),
            "--games",
            "2",
            "--jobs",
            "2",
            "--until",
            "level:20",
            "--json",
        ];
        a.extend_from_slice(extra);
        nestor(&args(&a))
    };
    let o = batch(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(printed["summary"]["reached_goal"]["count"], 2);
    assert_eq!(printed["summary"]["desyncs"], 0);
    let mut lines = Vec::new();
    for game in 1..=2 {
        let record = json(&out.join(format!("game-{game:04}.json")));
        assert_eq!(record["end"], "reached");
        assert_eq!(record["menu_wait"], (game - 1) * 61);
        // The movie replays on the cartridge to the record's lines and level.
        let movie = out.join(format!("game-{game:04}.fm2"));
        let r = nestor(&args(&[
            "replay",
            rom.as_str(),
            movie.to_str().unwrap(),
            "--headless",
            "--json",
        ]));
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let replayed: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(replayed["lines"], record["lines"], "game {game}");
        assert_eq!(replayed["level"], record["level"], "game {game}");
        lines.push(record["pieces"].clone());
    }
    // And in real FCEUX, where the NMI lands a few cycles apart: no freeze, the same end.
    if !common::without_fceux() {
        let movie = out.join("game-0002.fm2");
        let f = nestor(&args(&[
            "fceux-replay",
            rom.as_str(),
            movie.to_str().unwrap(),
            "--json",
        ]));
        assert!(f.status.success(), "{}", String::from_utf8_lossy(&f.stderr));
        let report: serde_json::Value = serde_json::from_slice(&f.stdout).unwrap();
        let record = json(&out.join("game-0002.json"));
        assert_eq!(report[0]["fceux"]["froze"], serde_json::Value::Null);
        assert_eq!(report[0]["fceux"]["lines"], record["lines"]);
        assert_eq!(report[0]["fceux"]["level"], record["level"]);
        assert_eq!(report[0]["fceux"]["score"], record["score"]);
    }
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
