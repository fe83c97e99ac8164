//! `nestor demo` from the outside: a short seeded game ends with a summary, a bad weights
//! path fails clearly, and `--window` without a display falls back instead of failing (in a
//! build without the window, `--window` is refused with the rebuild command).

use std::process::{Command, Output};

fn nestor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run the nestor binary")
}

/// The number after `key` on the summary row (after the `demo (seed …)` heading) that starts with it.
fn summary_value(stdout: &str, key: &str) -> Option<u64> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("demo (seed"))
        .map(str::trim)
        .find_map(|l| l.strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

#[test]
fn a_short_seeded_demo_prints_a_summary() {
    let out = nestor(&["demo", "--fast", "--pieces", "30", "--seed", "7"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("stopped after 30 pieces"), "{stdout}");
    assert_eq!(summary_value(&stdout, "pieces "), Some(30), "{stdout}");
    let lines = summary_value(&stdout, "lines ").expect("a lines row in the summary");
    assert!(lines > 0, "the bot cleared no line in 30 pieces:\n{stdout}");
    assert!(summary_value(&stdout, "score ").is_some());
    assert!(stdout.contains("tetris rate"));
    assert!(
        !stdout.contains("\x1b["),
        "no escape codes when stdout is not a terminal"
    );
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let args = [
        "demo", "--fast", "--pieces", "20", "--seed", "11", "--level", "18",
    ];
    let a = nestor(&args);
    let b = nestor(&args);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn a_missing_weights_file_is_a_clear_error() {
    let out = nestor(&[
        "demo",
        "--fast",
        "--pieces",
        "5",
        "--weights",
        "/no/such/weights.toml",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/no/such/weights.toml"), "{stderr}");
    assert!(stderr.contains("weights"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing played");
}

#[cfg(feature = "window")]
#[test]
fn window_without_a_display_falls_back() {
    let out = nestor(&["demo", "--window", "--fast", "--pieces", "5", "--seed", "3"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no display"), "{stderr}");
    assert_eq!(
        summary_value(&String::from_utf8_lossy(&out.stdout), "pieces "),
        Some(5)
    );
}

/// A build without the window refuses `--window` outright (it was asked for), saying how to
/// get it, instead of playing elsewhere.
#[cfg(not(feature = "window"))]
#[test]
fn window_without_the_feature_is_refused_with_the_rebuild_command() {
    let out = nestor(&["demo", "--window", "--fast", "--pieces", "5", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--window needs the window"), "{stderr}");
    assert!(
        stderr.contains("cargo build --release --features window"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing played");
}

/// `nestor … | head -1`: when the reader goes away the program ends quietly (SIGPIPE), it does
/// not panic on the failed write.
#[test]
fn a_closed_pipe_ends_the_demo_without_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["demo", "--fast", "--pieces", "400", "--seed", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nestor");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a first line");
    // The reader is dropped here: the pipe closes while nestor still has lines to print.
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(first.starts_with("pieces"), "{first}");
}
