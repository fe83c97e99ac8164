//! `nestor learn` from the outside: a small run writes its data, every round's weights and the
//! check file; the result plays in `sim`; outputs are never replaced; bad options are refused.

use std::path::Path;

mod common;

use common::{nestor_in as nestor, ok};

fn learn_args<'a>(data: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "--profile",
        "12hz",
        "--rounds",
        "2",
        "--games",
        "6",
        "--max-pieces",
        "40",
        "--seed",
        "3",
        "--threads",
        "2",
        "--data",
        data,
        "--out",
        out,
    ]
}

/// `args` with `flag`'s value set to `value` (replaced where the flag is there, else added).
fn with<'a>(mut args: Vec<&'a str>, flag: &'a str, value: &'a str) -> Vec<&'a str> {
    match args.iter().position(|a| *a == flag) {
        Some(i) => args[i + 1] = value,
        None => args.extend([flag, value]),
    }
    args
}

/// The weights lines of a file, its header comments (date, command) left out.
fn body(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("a weights file")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_small_run_writes_its_data_and_weights_that_play() {
    let tmp = common::temp_dir("learn-run");
    let dir = tmp.path();
    let stdout = ok(&nestor(&learn_args("data", "learned.toml"), dir));
    assert!(stdout.contains("round 1: 6 games"), "{stdout}");
    assert!(stdout.contains("round 2: 6 games"), "{stdout}");
    for f in [
        "round-1.csv",
        "round-1.toml",
        "round-2.csv",
        "round-2.toml",
        "check.csv",
    ] {
        assert!(dir.join("data").join(f).is_file(), "{f} missing");
    }
    let positions = std::fs::read_to_string(dir.join("data/round-1.csv")).unwrap();
    assert!(
        positions.starts_with("seed,piece,rows,target\n3,0,"),
        "{positions:.60}"
    );
    let weights = nestor::search::Weights::load(&dir.join("learned.toml")).expect("loads");
    assert!(weights.at(29).learned.is_some());
    assert!(
        weights.at(28).learned.is_none(),
        "only the phase of --level is learned"
    );
    let header = std::fs::read_to_string(dir.join("learned.toml")).unwrap();
    assert!(
        header.contains("# chosen: round 1's weights"),
        "{header:.400}"
    );
    // Round 1's fit was the one round 2 played: the result is that file's weights.
    assert_eq!(
        body(&dir.join("learned.toml")),
        body(&dir.join("data/round-1.toml"))
    );
    let sim = ok(&nestor(
        &[
            "sim",
            "--weights",
            "learned.toml",
            "--profile",
            "12hz",
            "--level",
            "29",
            "--games",
            "2",
            "--pieces",
            "30",
        ],
        dir,
    ));
    assert!(sim.contains("2 games from level 29"), "{sim}");

    // The same run again gives the same weights (the data is in seed order, the fit exact).
    ok(&nestor(&learn_args("again", "again.toml"), dir));
    assert_eq!(
        body(&dir.join("again.toml")),
        body(&dir.join("learned.toml"))
    );
}

/// The (rows, target) columns of a positions file.
fn positions(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("a positions file");
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2].to_string(), f[3].to_string())
        })
        .collect()
}

#[test]
fn lambda_below_one_values_the_same_games_positions_again() {
    let tmp = common::temp_dir("learn-lambda");
    let dir = tmp.path();
    ok(&nestor(&learn_args("plain", "plain.toml"), dir));
    let args = with(learn_args("lambda", "lambda.toml"), "--lambda", "0.5");
    let stdout = ok(&nestor(&with(args, "--sweeps", "3"), dir));
    assert!(stdout.contains("round 2: 6 games"), "{stdout}");
    // Round 1 is the starting weights' games either way: the same positions, other targets.
    let (plain, lambda) = (
        positions(&dir.join("plain/round-1.csv")),
        positions(&dir.join("lambda/round-1.csv")),
    );
    assert_eq!(plain.len(), lambda.len());
    assert!(plain.iter().zip(&lambda).all(|(p, l)| p.0 == l.0));
    let differ = plain
        .iter()
        .zip(&lambda)
        .filter(|(p, l)| p.1 != l.1)
        .count();
    assert!(
        differ > plain.len() / 2,
        "{differ} of {} differ",
        plain.len()
    );
    assert_ne!(
        body(&dir.join("plain.toml")),
        body(&dir.join("lambda.toml"))
    );
    let weights = nestor::search::Weights::load(&dir.join("lambda.toml")).expect("loads");
    assert!(weights.at(29).learned.is_some());
}

#[test]
fn existing_outputs_are_refused_before_any_game() {
    let tmp = common::temp_dir("learn-refuse");
    let dir = tmp.path();
    std::fs::create_dir(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/round-2.toml"), "mine").unwrap();
    let out = nestor(&learn_args("data", "learned.toml"), dir);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("round-2.toml"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("data/round-2.toml")).unwrap(),
        "mine"
    );
    assert!(
        !dir.join("data/round-1.csv").exists(),
        "nothing was written"
    );
}

#[test]
fn bad_options_are_refused_with_their_reason() {
    let tmp = common::temp_dir("learn-bad");
    for (flag, value, says) in [
        ("--gamma", "1.5", "at most 1"),
        ("--gamma", "0", "above 0"),
        ("--ridge", "0", "positive"),
        ("--lambda", "1.5", "from 0 to 1"),
        ("--lambda", "-0.1", "from 0 to 1"),
        ("--sweeps", "0", "0"),
        ("--rounds", "0", "0"),
    ] {
        let args = with(learn_args("d", "o.toml"), flag, value);
        let out = nestor(&args, tmp.path());
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{flag} {value}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn sigterm_ends_the_run_with_the_finished_rounds_kept_and_the_best_written() {
    use std::time::{Duration, Instant};
    let tmp = common::temp_dir("learn-term");
    let dir = tmp.path();
    let args = with(learn_args("data", "learned.toml"), "--rounds", "50");
    let args = with(with(args, "--games", "20"), "--max-pieces", "400");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(&args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start nestor learn");
    let started = Instant::now();
    while !dir.join("data/round-1.toml").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "round 1 never ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the child we started and have not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted in round"), "{err}");
    nestor::search::Weights::load(&dir.join("data/round-1.toml")).expect("round 1 is whole");
    // The result is the best of the rounds finished, written as on a whole run.
    let learned = nestor::search::Weights::load(&dir.join("learned.toml")).expect("the result");
    assert!(learned.at(29).learned.is_some());
}

#[test]
fn an_unknown_phase_is_refused_with_the_phases_there_are() {
    let tmp = common::temp_dir("learn-phase");
    let args = with(learn_args("d", "o.toml"), "--phase", "nope");
    let out = nestor(&args, tmp.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--phase nope") && err.contains("score, survival, killscreen"),
        "{err}"
    );
    assert!(!tmp.path().join("d").exists(), "nothing was made");
}
