//! The exit-code table of docs/cli.md, command by command: 0 done, 1 an error or a failed result,
//! 2 a bad command line, 130 interrupted after saving (interruptions: `cli_reliability`).

use std::process::Command;

fn code(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .output()
        .expect("run nestor");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_follows_the_exit_code_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixture = |name: &str| {
        format!(
            "{}/tests/fixtures/traces/{name}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let a = fixture("l19-rotation-walls-stack.jsonl.gz");
    let b = fixture("l29-speed-levelup-score-cap.jsonl.gz");
    let missing = d.join("missing.jsonl").to_str().unwrap().to_string();
    let table: Vec<(Vec<&str>, i32)> = vec![
        // 0: done.
        (vec!["sim", "--games", "1", "--pieces", "3"], 0),
        (
            vec![
                "play",
                "--model-console",
                "1",
                "--headless",
                "--pieces",
                "3",
            ],
            0,
        ),
        (vec!["trace", "diff", &a, &a], 0),
        // 1: an error, or a result that failed.
        (vec!["trace", "diff", &a, &b], 1),
        (vec!["sim", "--games", "1", "--weights", &missing], 1),
        (vec!["play", &missing, "--headless"], 1),
        (vec!["replay", &missing, &missing], 1),
        (vec!["analyze", &missing, &missing], 1),
        (vec!["trace", "verify", &missing], 1),
        (vec!["sim", "merge", &missing], 1),
        (vec!["tune", "gather", "--state", &missing, &missing], 1),
        // 2: the command line is wrong (clap), or `trace diff` cannot read a trace.
        (vec!["sim", "--no-such-option"], 2),
        (vec!["sim", "--games", "0"], 2),
        (vec!["sim", "--pieces", "0"], 2),
        (vec!["demo", "--pieces", "0"], 2),
        (vec!["demo", "--explain", "0"], 2),
        (vec!["play", "--model-console", "1", "--explain", "0"], 2),
        (vec!["play", "--model-console", "1", "--frames", "0"], 2),
        (vec!["replay", "rom.nes", "m.fm2", "--frames", "0"], 2),
        (vec!["analyze", "m.fm2", "--explain", "0"], 2),
        (vec!["sim", "compare", "--objective", "speed"], 2),
        (vec!["play"], 2),
        (vec!["trace", "diff", &a, &missing], 2),
        // 2 also when nestor's own check finds the bad argument, not clap.
        (vec!["play", "--model-console", "1", "--level", "30"], 2),
        (vec!["play", "--level", "20", "rom.nes"], 2),
        (vec!["play", "--level", "255", "rom.nes"], 2),
        (vec!["play", "--until", "level:999", "rom.nes"], 2),
        (vec!["sim", "--until", "level:999"], 2),
        (vec!["analyze", "rom.nes"], 2),
        (vec!["sim", "--games", "1", "--until", "lines:0"], 2),
        (vec!["sim", "--games", "1", "--until", "level:5"], 2),
    ];
    #[cfg(unix)]
    let table = [table, vec![(vec!["serve", "--level", "20"], 2)]].concat();
    for (args, expected) in table {
        let (got, err) = code(&args);
        assert_eq!(got, Some(expected), "nestor {}: {err}", args.join(" "));
    }
}

/// The range `play --level` refuses is the one its help gives, in the same words either way.
#[test]
fn play_level_help_and_refusals_agree() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["play", "--help"])
        .output()
        .expect("run nestor");
    assert!(String::from_utf8_lossy(&help.stdout).contains("Start level (0-19)"));
    for level in ["20", "255"] {
        let (got, err) = code(&["play", "--level", level, "rom.nes"]);
        assert_eq!(got, Some(2), "{err}");
        assert!(err.contains("level 0-19"), "{err}");
        assert!(!err.contains("0..="), "{err}");
    }
}

#[test]
fn play_exits_0_after_injected_faults_whose_desyncs_it_recovered() {
    // Desyncs that come from --inject-faults are the point of the run, not a failure; the
    // unit test of `play`'s exit code covers the desyncs that are a failure (exit 1).
    let (got, err) = code(&[
        "play",
        "--model-console",
        "3",
        "--headless",
        "--pieces",
        "30",
        "--inject-faults",
        "0.05",
    ]);
    assert_eq!(got, Some(0), "{err}");
}

/// `serve --tcp` takes a host name as well as an address: `localhost:PORT` listens on the
/// loopback (nestor refused it as no socket address).
#[cfg(unix)]
#[test]
fn serve_tcp_takes_localhost_port() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["serve", "--no-fifo", "--tcp", &format!("localhost:{port}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start nestor serve");
    let started = std::time::Instant::now();
    let listening = loop {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break true;
        }
        if child.try_wait().expect("poll").is_some()
            || started.elapsed() > std::time::Duration::from_secs(20)
        {
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let _ = child.kill();
    let out = child.wait_with_output().expect("wait for nestor serve");
    assert!(listening, "{}", String::from_utf8_lossy(&out.stderr));
}
