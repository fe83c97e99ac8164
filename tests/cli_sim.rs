//! `nestor sim` as a user runs it: option errors before any game, what the summary says, and
//! Ctrl-C/SIGTERM leaving a complete CSV of the games finished so far.

mod common;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn nestor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .output()
        .expect("run the nestor binary")
}

/// A one-piece `sim` of one game with `extra` options.
fn one_piece(extra: &[&str]) -> Output {
    nestor(&[&["sim", "--games", "1", "--pieces", "1"][..], extra].concat())
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file `name` holding "mine" in a fresh temp dir.
fn mine(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, "mine").unwrap();
    (dir, file)
}

#[test]
fn zero_threads_is_an_error_not_one_thread() {
    let out = nestor(&["sim", "--games", "1", "--pieces", "1", "--threads", "0"]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("--threads"), "{err}");
}

#[test]
fn plots_into_a_file_says_not_a_directory() {
    let (_dir, file) = mine("plots");
    let out = one_piece(&["--plots", file.to_str().unwrap()]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("not a directory"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn zero_pieces_is_refused_and_counts_are_singular() {
    // `--pieces 0` would play nothing: a usage error (issue 23, item 11).
    let out = nestor(&["sim", "--games", "1", "--pieces", "0", "--threads", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out).1);
    let out = nestor(&["sim", "--games", "1", "--pieces", "1", "--threads", "1"]);
    let stdout = common::ok(&out);
    common::says(&stdout, &["1 game ", "1 thread,"]);
}

#[test]
fn a_weights_file_missing_a_key_names_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    let full = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/config/weights/default.toml"
    ))
    .unwrap();
    let text_without = common::without_lines(&full, "row_transitions");
    for body in [text_without.as_str(), ""] {
        std::fs::write(&path, body).unwrap();
        let out = one_piece(&["--weights", path.to_str().unwrap()]);
        let (_, err) = text(&out);
        assert!(!out.status.success(), "{err}");
        assert!(err.contains("w.toml"), "{err}");
        let key = if body.is_empty() {
            "phase"
        } else {
            "row_transitions"
        };
        assert!(err.contains(key), "{err}");
    }
}

/// A goal that stops every game says only what the games could measure, and what a stopped
/// game counts as.
#[test]
fn a_goal_level_prints_only_what_was_measured() {
    let out = nestor(&[
        "sim", "--games", "2", "--level", "18", "--until", "level:19",
    ]);
    let (said, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(!said.contains("past 155"), "{said}");
    assert!(!said.contains("reached level"), "{said}");
    assert!(
        !said.contains("level 29") && !said.contains("level-29"),
        "{said}"
    );
    assert!(
        said.contains("stopped before dying: 2 by the goal level:19")
            && said.contains("counts as alive"),
        "{said}"
    );
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("plots");
    let out = nestor(&[
        "sim",
        "--games",
        "1",
        "--pieces",
        "5",
        "--plots",
        plots.to_str().unwrap(),
    ]);
    let (said, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(said.contains("1 by --pieces"), "{said}");
    // A game of 5 pieces reaches the crash level in no run: there is nothing past it to say.
    assert!(!said.contains("past 155: reached"), "{said}");
    assert!(plots.join("survival.png").exists());
}

#[test]
fn until_a_level_already_reached_is_refused() {
    let out = nestor(&[
        "sim", "--games", "1", "--level", "29", "--until", "level:29",
    ]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("level:29"), "{err}");
    let out = nestor(&["sim", "--games", "1", "--until", "score:5"]);
    assert!(!out.status.success());
}

#[test]
fn an_existing_csv_is_refused_before_the_run_and_kept() {
    let (_dir, path) = mine("games.csv");
    let out = one_piece(&["--out", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).1.contains("already exists"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
}

/// Sends `signal` to a huge batch (`--games 4294967295 --pieces 1`: it must neither reserve
/// memory for every game nor run for ever) once it is under way.
fn interrupted_batch(signal: libc::c_int) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args([
            "sim",
            "--games",
            "4294967295",
            "--pieces",
            "1",
            "--threads",
            "2",
        ])
        .arg("--out")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nestor sim");
    // Let it install its handler and finish some games.
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on our own child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0);
    let start = Instant::now();
    let out = child.wait_with_output().expect("sim ends");
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "stopped promptly"
    );
    let (stdout, err) = text(&out);
    assert!(err.contains("interrupted"), "{err}");
    assert!(!err.contains("memory allocation"), "{err}");
    let csv = std::fs::read_to_string(&path).expect("the CSV was written");
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows.len() > 1, "some games finished: {csv}");
    let columns = rows[0].split(',').count();
    // Every finished game, in order of its seed (a game in play at the signal is left out).
    let mut last = None;
    for row in &rows[1..] {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells.len(), columns, "{row}");
        let index: u64 = cells[0].parse().expect("a game number");
        assert!(last.is_none_or(|l| index > l), "in order: {row}");
        last = Some(index);
        assert_eq!(cells[6], "max_pieces", "{row}");
    }
    assert!(
        stdout.contains(&format!("{} games", rows.len() - 1)),
        "the summary of the finished games: {stdout}"
    );
    (stdout, err)
}

#[test]
fn ctrl_c_keeps_a_complete_csv_and_prints_the_summary_so_far() {
    interrupted_batch(libc::SIGINT);
}

#[test]
fn sigterm_does_the_same() {
    interrupted_batch(libc::SIGTERM);
}

#[test]
fn a_profile_plays_and_is_named_in_the_summary_and_the_json() {
    let out = nestor(&[
        "sim",
        "--games",
        "2",
        "--pieces",
        "20",
        "--level",
        "18",
        "--threads",
        "1",
        "--profile",
        "human",
    ]);
    let stdout = common::ok(&out);
    assert!(
        stdout.contains(
            "profile: human (timeline X., tap, reaction 18, start delay 18, 3 blind placements)",
        ),
        "{stdout}"
    );
    let out = nestor(&[
        "sim",
        "--games",
        "1",
        "--pieces",
        "20",
        "--threads",
        "1",
        "--profile",
        "das",
        "--json",
    ]);
    let stdout = common::ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["profile"]["name"], "das");
    assert!(v["profile"]["describe"].as_str().unwrap().contains("hold"));
    assert_eq!(v["summary"]["total_desyncs"], 0);
    assert!(v["ms_per_piece_per_thread"].as_f64().unwrap() > 0.0);
}

#[test]
fn an_unknown_profile_or_a_bad_file_is_an_error_before_any_game() {
    let out = nestor(&["sim", "--games", "1", "--profile", "9hz"]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("unknown profile \"9hz\""), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fast.toml");
    std::fs::write(&file, common::tap_profile("XX.")).unwrap();
    let out = nestor(&["sim", "--games", "1", "--profile", file.to_str().unwrap()]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    common::says(&err, &["fast.toml", "`timeline`"]);
}

#[test]
fn shards_of_two_profiles_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let part = |k: &str, profile: &str| {
        let path = dir.path().join(format!("part{}.json", &k[..1]));
        let out = nestor(&[
            "sim",
            "--games",
            "2",
            "--pieces",
            "5",
            "--threads",
            "1",
            "--shard",
            k,
            "--part",
            path.to_str().unwrap(),
            "--profile",
            profile,
        ]);
        assert!(out.status.success(), "{}", text(&out).1);
        path
    };
    // Two profiles that play the same weight set (both the default set), so the profile is
    // what tells the shards apart.
    let (a, b) = (part("1/2", "20hz"), part("2/2", "30hz"));
    let out = nestor(&["sim", "merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    let (_, err) = text(&out);
    assert!(!out.status.success());
    common::says(&err, &["player profile 30hz (timeline X., tap", "20hz"]);
    std::fs::remove_file(&b).unwrap();
    let c = part("2/2", "20hz");
    let out = nestor(&["sim", "merge", a.to_str().unwrap(), c.to_str().unwrap()]);
    let stdout = common::ok(&out);
    assert!(stdout.contains("profile: 20hz (timeline X.."), "{stdout}");
}
