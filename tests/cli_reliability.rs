//! The items of the second reliability round (issue 23), one test each where the table tests
//! (`cli_outputs`, `cli_exit_codes`, `cli_help`) do not already show them.
#![cfg(unix)]

mod common;

use std::ffi::OsString;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::FIVE_MODEL_PIECES;
use nestor::movie::Movie;
use nestor::nes::{testcart, Console, NesDeck, Rom, Video};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
}

fn nestor(args: &[&str]) -> Output {
    bin().args(args).output().expect("run nestor")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn spawn(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nestor")
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: a signal to the child this test started and has not reaped.
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
}

/// Runs nestor with `args`, sends `sig` after `wait_ms`, and waits for it to end (a minute
/// at most).
fn interrupted(args: &[&str], wait_ms: u64, sig: libc::c_int) -> Output {
    let child = spawn(args);
    std::thread::sleep(Duration::from_millis(wait_ms));
    signal(&child, sig);
    finish(child, Duration::from_secs(60))
}

/// Waits for `child`, killing it (and failing) after `limit`.
fn finish(child: Child, limit: Duration) -> Output {
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("collect"),
        Err(_) => {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("nestor did not end within {limit:?}");
        }
    }
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(s(p)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Item 3: the parts carry the lock rows, so a merge's CSV and plots equal a single run's.
#[test]
fn merged_outputs_equal_a_single_runs_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let common = ["--games", "4", "--pieces", "40", "--seed", "7"];
    let one = d.join("one.csv");
    let one_dir = d.join("one");
    let mut args = vec!["sim"];
    args.extend(common);
    args.extend(["--out", s(&one), "--plots", s(&one_dir)]);
    let out = nestor(&args);
    assert!(out.status.success(), "{}", text(&out).1);
    for k in ["1/2", "2/2"] {
        let part = d.join(format!("part{}.json", &k[..1]));
        let mut args = vec!["sim"];
        args.extend(common);
        args.extend(["--shard", k, "--part", s(&part)]);
        let out = nestor(&args);
        assert!(out.status.success(), "{}", text(&out).1);
    }
    let merged = d.join("merged.csv");
    let out = nestor(&[
        "sim",
        "merge",
        s(&d.join("part1.json")),
        s(&d.join("part2.json")),
        "--out",
        s(&merged),
        "--plots",
        s(&d.join("merged")),
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
    let csv = fs::read_to_string(&merged).unwrap();
    assert_eq!(csv, fs::read_to_string(&one).unwrap());
    // Every game locked pieces: its row list is not empty.
    assert!(
        csv.lines().skip(1).all(|l| !l.ends_with(',')),
        "lock_rows empty: {csv}"
    );
    for png in ["scores.png", "locks.png", "rows.png", "survival.png"] {
        assert_eq!(
            fs::read(d.join("one").join(png)).unwrap(),
            fs::read(d.join("merged").join(png)).unwrap(),
            "{png}"
        );
    }
}

/// Item 4: a named pipe as the ROM (or any input) is refused at once, not waited on.
#[test]
fn a_fifo_as_the_rom_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.nes");
    mkfifo(&fifo);
    let started = Instant::now();
    let child = spawn(&["play", s(&fifo), "--headless"]);
    let out = finish(child, Duration::from_secs(30));
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    common::says(&err, &["fifo.nes", "named pipe"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    for args in [
        vec!["sim", "--games", "1", "--weights", s(&fifo)],
        vec!["sim", "--games", "1", "--profile", s(&fifo)],
        vec!["trace", "verify", s(&fifo)],
    ] {
        let out = finish(spawn(&args), Duration::from_secs(30));
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        let (stdout, stderr) = text(&out);
        assert!(
            stdout.contains("named pipe") || stderr.contains("named pipe"),
            "{args:?}: {stdout}{stderr}"
        );
    }
}

/// Item 4: SIGTERM ends every long command, at its next safe point, with code 130.
#[test]
fn sigterm_ends_every_long_command_with_130() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let movie = long_cart_movie(d);
    let cart = d.join("cart.nes");
    let state = d.join("state.json");
    let out = d.join("tuned.toml");
    let runs: Vec<Vec<OsString>> = vec![
        args(&["sim", "--games", "100000", "--threads", "1"]),
        args(&[
            "play",
            "--model-console",
            "1",
            "--headless",
            "--model-frame-delay-us",
            "2000",
        ]),
        args(&[
            "replay",
            s(&cart),
            s(&movie),
            "--headless",
            "--allow-unknown-rom",
        ]),
        args(&[
            "tune",
            "--games",
            "50",
            "--threads",
            "1",
            "--state",
            s(&state),
            "--out",
            s(&out),
        ]),
    ];
    for a in runs {
        let child = bin()
            .args(&a)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        signal(&child, libc::SIGTERM);
        let out = finish(child, Duration::from_secs(60));
        assert_eq!(out.status.code(), Some(130), "{a:?}: {}", text(&out).1);
    }
}

fn args(a: &[&str]) -> Vec<OsString> {
    a.iter().map(OsString::from).collect()
}

/// The MMC1 test cartridge in `dir` and a movie for it far longer than any test waits.
fn long_cart_movie(dir: &Path) -> std::path::PathBuf {
    let image = testcart::mmc1_image();
    fs::write(dir.join("cart.nes"), &image).unwrap();
    let md5 = Rom::from_bytes("cart.nes", image, true)
        .unwrap()
        .prg_chr_md5;
    let mut movie = Movie::new_recording("cart", md5, vec![]);
    for _ in 0..1_000_000 {
        movie.push(nestor::game::PadState::NONE);
    }
    let path = dir.join("long.fm2");
    movie.save(&path).unwrap();
    path
}

/// Items 6 and 7: Ctrl-C in the menus says what was kept, and a movie's header tells how the
/// run really ended (not the limit it was given).
#[test]
fn an_interrupted_movie_says_how_it_ended_and_what_was_kept() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("run.fm2");
    let out = interrupted(
        &[
            "play",
            "--model-console",
            "1",
            "--headless",
            "--pieces",
            "500",
            "--model-frame-delay-us",
            "2000",
            "--record",
            s(&movie),
        ],
        2000,
        libc::SIGINT,
    );
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    common::says(&err, &["kept the", "run.fm2"]);
    let header = fs::read_to_string(&movie).unwrap();
    assert!(!header.contains("stopped after 500 pieces"), "{header}");
    assert!(header.contains("comment piece limit 500"), "{header}");
    assert!(header.contains("comment ended: interrupted"), "{header}");
    // A run that reaches its limit says so.
    let done = dir.path().join("done.fm2");
    let out = nestor(&[&FIVE_MODEL_PIECES[..], &["--record", s(&done)]].concat());
    assert!(out.status.success(), "{}", text(&out).1);
    let header = fs::read_to_string(&done).unwrap();
    assert!(
        header.contains("comment ended: stopped at the piece limit, after 5 pieces"),
        "{header}"
    );
}

/// Item 6 on a cartridge whose menus never end (the test cartridge): Ctrl-C there says the
/// movie of the menus was kept.
#[test]
fn ctrl_c_in_the_menus_says_what_was_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cart = dir.path().join("cart.nes");
    fs::write(&cart, testcart::mmc1_image()).unwrap();
    let movie = dir.path().join("menus.fm2");
    let out = interrupted(
        &[
            "play",
            s(&cart),
            "--headless",
            "--allow-unknown-rom",
            "--record",
            s(&movie),
        ],
        300,
        libc::SIGINT,
    );
    let (_, err) = text(&out);
    if out.status.code() == Some(1) && err.contains("does not look like Tetris") {
        // The machine was too fast: the navigator gave up before the signal came.
        eprintln!("skipped: the menus ended before Ctrl-C ({err})");
        return;
    }
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("still in the menus"), "{err}");
    assert!(movie.exists());
    // Without --record it says that nothing was recorded.
    let out = interrupted(
        &["play", s(&cart), "--headless", "--allow-unknown-rom"],
        300,
        libc::SIGINT,
    );
    let (_, err) = text(&out);
    if out.status.code() == Some(130) {
        common::says(&err, &["in the menus", "nothing recorded"]);
    }
}

/// Item 8: an immutable file (`chattr +i`) is refused before the run even with --overwrite.
#[test]
fn an_immutable_record_file_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let movie = dir.path().join("keep.fm2");
    fs::write(&movie, "mine").unwrap();
    let set = Command::new("chattr").arg("+i").arg(&movie).status();
    if !set.is_ok_and(|s| s.success()) {
        eprintln!("skipped: `chattr +i` is not available here");
        return;
    }
    let out = nestor(
        &[
            &FIVE_MODEL_PIECES[..],
            &["--overwrite", "--record", s(&movie)],
        ]
        .concat(),
    );
    let _ = Command::new("chattr").arg("-i").arg(&movie).status();
    let (stdout, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(stdout.is_empty(), "the game was played: {stdout}");
    assert!(err.contains("keep.fm2"), "{err}");
    assert_eq!(fs::read_to_string(&movie).unwrap(), "mine");
}

/// Item 10: parts of different runs are told apart in words, not Rust debug structs.
#[test]
fn merging_parts_of_different_levels_says_which_option_differs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (k, level) in [("1/2", "18"), ("2/2", "19")] {
        let part = d.join(format!("p{}.json", &k[..1]));
        let out = nestor(&[
            "sim",
            "--games",
            "2",
            "--pieces",
            "3",
            "--level",
            level,
            "--shard",
            k,
            "--part",
            s(&part),
        ]);
        assert!(out.status.success(), "{}", text(&out).1);
    }
    let out = nestor(&["sim", "merge", s(&d.join("p1.json")), s(&d.join("p2.json"))]);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("level: 19 here, 18 in the first file"),
        "{err}"
    );
    assert!(!err.contains('{') && !err.contains("BatchConfig"), "{err}");
}

/// Item 10: a profile's TOML syntax error says where.
#[test]
fn a_profile_syntax_error_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.toml");
    fs::write(&p, "timeline = \"X.\"\nshift = = 3\n").unwrap();
    let out = nestor(&["sim", "--games", "1", "--profile", s(&p)]);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("line 2, column"), "{err}");
}

/// Item 10: a state file that is the weights file is called what it is, not "--resume it".
#[test]
fn tune_state_on_the_weights_file_is_refused_as_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w.toml");
    fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/config/weights/default.toml"),
        &w,
    )
    .unwrap();
    let before = fs::read(&w).unwrap();
    let out = nestor(&["tune", "--weights", s(&w), "--state", s(&w)]);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is the weights file"), "{err}");
    assert!(!err.contains("--resume"), "{err}");
    assert_eq!(fs::read(&w).unwrap(), before);
}

/// Item 10: a ROM with a trainer is played as the cartridge it was accepted as (the trainer
/// never reaches the emulator), so it is not accepted and then refused.
#[test]
fn a_rom_with_a_trainer_plays_as_its_cartridge() {
    let plain = testcart::mmc1_image();
    let mut trained = plain[..16].to_vec();
    trained[6] |= 0x04;
    trained.extend(std::iter::repeat_n(0xEA, 512));
    trained.extend_from_slice(&plain[16..]);
    let a = Rom::from_bytes("plain.nes", plain, true).unwrap();
    let b = Rom::from_bytes("trained.nes", trained, true).unwrap();
    assert_eq!(a.prg_chr_md5, b.prg_chr_md5);
    assert_eq!(a.playable_image(), b.playable_image());
    let mut da = NesDeck::new(&a, Video::Headless).unwrap();
    let mut db = NesDeck::new(&b, Video::Headless).unwrap();
    for _ in 0..120 {
        da.frame(nestor::game::PadState::NONE).unwrap();
        db.frame(nestor::game::PadState::NONE).unwrap();
    }
    assert_eq!(da.ram(), db.ram());
}

/// Item 11: `sim --until lines:N` past `--max-lines` says the cap wins.
#[test]
fn until_past_the_line_cap_is_warned_about() {
    let out = nestor(&[
        "sim",
        "--games",
        "1",
        "--pieces",
        "3",
        "--until",
        "lines:50",
        "--max-lines",
        "10",
    ]);
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: --until lines:50 is past --max-lines 10"),
        "{err}"
    );
}

/// Item 11: two pairs cannot give a two-sided Wilcoxon p below 0.5.
#[test]
fn compare_two_games_gives_an_exact_wilcoxon_p() {
    let out = nestor(&[
        "sim",
        "compare",
        "--games",
        "2",
        "--pieces",
        "20",
        "--against",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/weights/score-2018.toml"
        ),
        "--json",
    ]);
    let stdout = common::ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let p = v["comparison"]["wilcoxon_p"].as_f64().expect("a p");
    assert!(p >= 0.5, "{stdout}");
}
