//! `nestor tune` from the outside: a run stopped by Ctrl-C (or killed) and resumed ends with
//! the same weights as an unbroken one, the batch-system steps give them too, bad state files
//! are clear errors.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

/// A small run: 3 generations of 8 candidates, 4 short games each.
const RUN: &[&str] = &[
    "--generations",
    "3",
    "--population",
    "8",
    "--games",
    "4",
    "--pieces",
    "20",
    "--seed",
    "5",
];

use common::{nestor_in as nestor, ok};

/// The weights of a tuned file: its lines without the header comments (which hold the date
/// and the command line).
fn weights_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a tuned weights file");
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(lines.len() >= 18, "{text}");
    nestor::search::Weights::load(path).expect("the result loads as weights");
    lines
}

fn tune_here(dir: &Path, state: &str, out: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nestor"));
    cmd.args([
        "tune",
        "--state",
        state,
        "--out",
        out,
        "--compare-games",
        "4",
    ])
    .args(RUN)
    .current_dir(dir);
    cmd
}

/// The state file shows generation 1 done. (The race saves a candidate as it finishes or
/// stops, which in a run this small is all at once at the generation's end, so a state with
/// some candidates scored is too brief to catch; resuming from a generation's end is.)
fn mid_second_generation(path: &Path) -> bool {
    let Ok(text) = std::fs::read(path) else {
        return false;
    };
    let Ok(state) = serde_json::from_slice::<serde_json::Value>(&text) else {
        return false;
    };
    state["generation"] == 1
}

/// Starts a run, stops it with `signal` once a candidate's score is in the state file, and
/// returns the exit status.
fn interrupted_run(dir: &Path, state: &str, signal: libc::c_int) -> std::process::ExitStatus {
    let mut child = tune_here(dir, state, "never.toml")
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start nestor tune");
    let path = dir.join(state);
    let started = Instant::now();
    loop {
        if mid_second_generation(&path) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no progress in the state file"
        );
        if let Some(status) = child.try_wait().expect("poll") {
            panic!("the run ended before it could be interrupted: {status:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the child we started and have not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    child.wait().expect("wait for nestor tune")
}

#[test]
fn an_interrupted_run_resumes_to_the_same_weights() {
    let tmp = common::temp_dir("tune-resume");
    let dir = tmp.path().to_path_buf();
    ok(&tune_here(&dir, "a.json", "a.toml").output().expect("run"));
    let unbroken = weights_lines(&dir.join("a.toml"));

    let status = interrupted_run(&dir, "b.json", libc::SIGINT);
    assert_eq!(status.code(), Some(130), "Ctrl-C ends with 130");
    assert!(!dir.join("never.toml").exists());
    ok(&nestor(
        &["tune", "--resume", "b.json", "--out", "b.toml"],
        &dir,
    ));
    assert_eq!(weights_lines(&dir.join("b.toml")), unbroken);

    // Killed outright: the state file is whole (written by rename), the run goes on.
    let status = interrupted_run(&dir, "c.json", libc::SIGKILL);
    assert_eq!(status.code(), None, "killed by a signal");
    ok(&nestor(
        &["tune", "--resume", "c.json", "--out", "c.toml"],
        &dir,
    ));
    assert_eq!(weights_lines(&dir.join("c.toml")), unbroken);
}

#[test]
fn batch_steps_give_the_weights_of_a_run_on_one_machine() {
    let tmp = common::temp_dir("tune-steps");
    let dir = tmp.path().to_path_buf();
    let small = common::small_tune("20");
    let mut here = vec![
        "tune",
        "--state",
        "h.json",
        "--out",
        "h.toml",
        "--compare-games",
        "2",
    ];
    here.extend(small);
    ok(&nestor(&here, &dir));

    let mut init = vec!["tune", "init", "--state", "s.json"];
    init.extend(small);
    ok(&nestor(&init, &dir));
    for g in 0..2 {
        let mut parts: Vec<String> = Vec::new();
        for k in 1..=3 {
            let part = format!("g{g}-{k}.json");
            let shard = format!("{k}/3");
            ok(&nestor(
                &[
                    "tune", "score", "--state", "s.json", "--shard", &shard, "--out", &part,
                ],
                &dir,
            ));
            parts.push(part);
        }
        let mut gather = vec!["tune", "gather", "--state", "s.json"];
        gather.extend(parts.iter().map(String::as_str));
        if g == 0 {
            // A missing shard is an error that leaves the state as it was.
            let before = std::fs::read(dir.join("s.json")).expect("state");
            let out = nestor(&gather[..gather.len() - 1], &dir);
            assert!(!out.status.success());
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("no score for candidates"), "{err}");
            assert_eq!(std::fs::read(dir.join("s.json")).expect("state"), before);
        }
        ok(&nestor(&gather, &dir));
    }
    ok(&nestor(
        &[
            "tune",
            "finish",
            "--state",
            "s.json",
            "--out",
            "s.toml",
            "--compare-games",
            "2",
        ],
        &dir,
    ));
    assert_eq!(
        weights_lines(&dir.join("s.toml")),
        weights_lines(&dir.join("h.toml"))
    );
}

#[test]
fn bad_state_files_and_existing_outputs_are_clear_errors() {
    let tmp = common::temp_dir("tune-bad");
    let dir = tmp.path().to_path_buf();
    ok(&nestor(&common::SMALL_TUNE_INIT, &dir));
    let text = std::fs::read_to_string(dir.join("s.json")).expect("state");
    let fail = |args: &[&str]| -> String {
        let out = nestor(args, &dir);
        assert_eq!(out.status.code(), Some(1), "{args:?} must fail");
        String::from_utf8_lossy(&out.stderr).to_string()
    };

    std::fs::write(dir.join("cut.json"), &text[..text.len() / 2]).expect("write");
    let err = fail(&["tune", "--resume", "cut.json"]);
    assert!(
        err.contains("cut.json") && err.contains("truncated"),
        "{err}"
    );

    let version = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    std::fs::write(
        dir.join("old.json"),
        text.replace(&version, "\"version\": \"0.0.0\""),
    )
    .expect("write");
    let err = fail(&["tune", "--resume", "old.json"]);
    assert!(err.contains("old.json") && err.contains("0.0.0"), "{err}");

    // A new run never replaces an existing state file.
    let err = fail(&["tune", "--state", "s.json"]);
    assert!(
        err.contains("s.json exists") && err.contains("--resume"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("s.json")).expect("state"),
        text
    );

    // Nor an existing result.
    std::fs::write(dir.join("taken.toml"), "keep").expect("write");
    let err = fail(&["tune", "--resume", "s.json", "--out", "taken.toml"]);
    assert!(err.contains("taken.toml exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("taken.toml")).expect("kept"),
        "keep"
    );

    let err = fail(&["tune", "--state", "x.json", "--phase", "nope"]);
    assert!(err.contains("no phase `nope`"), "{err}");
}

/// Ctrl-C during the final comparison keeps the tuned weights (the comparison is what is
/// missing, and the file says so) and ends with 130.
#[test]
fn ctrl_c_in_the_final_comparison_keeps_the_weights_and_exits_130() {
    let tmp = common::temp_dir("tune-finish-int");
    let dir = tmp.path().to_path_buf();
    ok(&nestor(
        &[
            "tune",
            "--state",
            "s.json",
            "--out",
            "first.toml",
            "--compare-games",
            "2",
        ]
        .iter()
        .chain(RUN)
        .copied()
        .collect::<Vec<_>>(),
        &dir,
    ));
    // Far more comparison games than the time before the signal allows.
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["tune", "finish", "--state", "s.json", "--out", "f.toml"])
        .args(["--compare-games", "100000", "--threads", "1"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start nestor tune finish");
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on the child we started and have not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().expect("wait for nestor tune");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(
        weights_lines(&dir.join("f.toml")),
        weights_lines(&dir.join("first.toml"))
    );
    let text = std::fs::read_to_string(dir.join("f.toml")).expect("kept");
    assert!(
        text.contains("not checked against the starting weights"),
        "{text}"
    );
}
