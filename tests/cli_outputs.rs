//! Every output of every command (that runs without the ROM) against every kind of place it
//! may be pointed at: a new file, an existing one, links, a folder, a read-only folder,
//! `/dev/null` and a FIFO. One table, one rule (docs/cli.md, "Outputs").
#![cfg(unix)]

mod common;

use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::FIVE_MODEL_PIECES;
use nestor::movie::{Movie, Recorder};
use nestor::nes::{testcart, Console, NesDeck, Rom, Video};

/// Where a command writes: a file named on the command line, or one file of a folder.
#[derive(Clone, Copy)]
enum Kind {
    File,
    /// The command takes the folder; the table's place is this file inside it.
    InFolder(&'static str),
}

struct Case {
    name: &'static str,
    kind: Kind,
    /// The command line, given the fixtures and the path the option gets.
    args: fn(&Fixture, &Path) -> Vec<OsString>,
}

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

/// `play` of five pieces on the model console, recorded to `p`.
fn play_record(p: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = FIVE_MODEL_PIECES.iter().map(OsString::from).collect();
    args.extend(os(&[&"--record", &p]));
    args
}

/// `analyze` of the model movie with `option` (an output) set to `p`.
fn analyze(f: &Fixture, option: &str, p: &Path) -> Vec<OsString> {
    let mut args = os(&[&"analyze", &"--model-console", &"1", &f.model_movie]);
    args.extend(os(&[&option, &p]));
    args
}

/// Shard `k` (of 2) of a two-game `sim` of five pieces, written to `p`.
fn sim_part(k: &str, p: &Path) -> Vec<OsString> {
    let sim = [
        "sim", "--games", "2", "--pieces", "5", "--shard", k, "--part",
    ];
    let mut args: Vec<OsString> = sim.iter().map(OsString::from).collect();
    args.push(p.into());
    args
}

/// A path of its own in the fixtures' folder for each run of a case, whatever the path under
/// test is (/dev/null, a FIFO...): the other output of a command that writes two.
fn own_path(f: &Fixture, stem: &str, ext: &str) -> PathBuf {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    f.dir.path().join(format!("{stem}-{n}{ext}"))
}

/// A one-round `learn` of two short games.
fn learn(data: &Path, out: &Path) -> Vec<OsString> {
    os(&[
        &"learn",
        &"--rounds",
        &"1",
        &"--games",
        &"2",
        &"--max-pieces",
        &"10",
        &"--data",
        &data,
        &"--out",
        &out,
    ])
}

const CASES: &[Case] = &[
    Case {
        name: "play --record",
        kind: Kind::File,
        args: |_, p| play_record(p),
    },
    Case {
        name: "sim --out",
        kind: Kind::File,
        args: |_, p| os(&[&"sim", &"--games", &"1", &"--pieces", &"5", &"--out", &p]),
    },
    Case {
        name: "sim --plots",
        kind: Kind::InFolder("scores.png"),
        args: |_, p| os(&[&"sim", &"--games", &"1", &"--pieces", &"5", &"--plots", &p]),
    },
    Case {
        name: "sim --shard --part",
        kind: Kind::File,
        args: |_, p| sim_part("1/2", p),
    },
    Case {
        name: "sim merge --out",
        kind: Kind::File,
        args: |f, p| os(&[&"sim", &"merge", &f.part_a, &f.part_b, &"--out", &p]),
    },
    Case {
        name: "sim merge --plots",
        kind: Kind::InFolder("locks.png"),
        args: |f, p| os(&[&"sim", &"merge", &f.part_a, &f.part_b, &"--plots", &p]),
    },
    Case {
        name: "analyze --csv",
        kind: Kind::File,
        args: |f, p| analyze(f, "--csv", p),
    },
    Case {
        name: "analyze --report",
        kind: Kind::InFolder("loss.png"),
        args: |f, p| analyze(f, "--report", p),
    },
    Case {
        name: "tune init --state",
        kind: Kind::File,
        args: |_, p| os(&[&"tune", &"init", &"--population", &"2", &"--state", &p]),
    },
    Case {
        name: "tune --out",
        kind: Kind::File,
        args: |f, p| {
            let state = own_path(f, "state", ".json");
            os(&[
                &"tune",
                &"--population",
                &"2",
                &"--generations",
                &"1",
                &"--games",
                &"1",
                &"--pieces",
                &"5",
                &"--compare-games",
                &"2",
                &"--state",
                &state,
                &"--out",
                &p,
            ])
        },
    },
    Case {
        name: "learn --out",
        kind: Kind::File,
        args: |f, p| learn(&own_path(f, "learn", ""), p),
    },
    Case {
        name: "learn --data",
        kind: Kind::InFolder("check.csv"),
        args: |f, p| learn(p, &own_path(f, "learned", ".toml")),
    },
    Case {
        name: "trace --out",
        kind: Kind::File,
        args: |f, p| {
            os(&[
                &"trace",
                &f.cart,
                &"--movie",
                &f.cart_movie,
                &"--whole-movie",
                &"--allow-unknown-rom",
                &"--out",
                &p,
            ])
        },
    },
];

/// Inputs several commands need, made once per test in its own folder.
struct Fixture {
    dir: tempfile::TempDir,
    part_a: PathBuf,
    part_b: PathBuf,
    model_movie: PathBuf,
    cart: PathBuf,
    cart_movie: PathBuf,
}

/// Runs nestor; one that has not ended after two minutes (a blocked open, say) is killed and
/// the test fails, instead of hanging.
fn nestor(args: &[OsString]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the nestor binary");
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(out) => out.expect("collect the output"),
        Err(_) => {
            // SAFETY: kill on the child this test started, which has not been reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("nestor {args:?} did not end within two minutes");
        }
    }
}

fn ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let part = |k: &str, path: &Path| {
        ok(&nestor(&sim_part(k, path)), "shard");
    };
    let (part_a, part_b) = (d.join("a.json"), d.join("b.json"));
    part("1/2", &part_a);
    part("2/2", &part_b);
    let model_movie = d.join("model.fm2");
    ok(&nestor(&play_record(&model_movie)), "model movie");
    // The test cartridge (MMC1, accepted with --allow-unknown-rom) and a short movie for it.
    let image = testcart::mmc1_image();
    let cart = d.join("cart.nes");
    fs::write(&cart, &image).unwrap();
    let md5 = Rom::from_bytes("cart.nes", image.clone(), true)
        .unwrap()
        .prg_chr_md5;
    let deck = NesDeck::from_image("cart", &image, Video::Headless).unwrap();
    let mut rec = Recorder::new(deck, Movie::new_recording("cart", md5, vec![]));
    for _ in 0..30 {
        rec.frame(nestor::game::PadState::NONE).unwrap();
    }
    let cart_movie = d.join("cart.fm2");
    rec.into_parts().1.save(&cart_movie).unwrap();
    Fixture {
        dir,
        part_a,
        part_b,
        model_movie,
        cart,
        cart_movie,
    }
}

fn umask() -> u32 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line.split_whitespace().nth(1).unwrap(), 8).unwrap()
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn is_link(p: &Path) -> bool {
    fs::symlink_metadata(p)
        .map(|m| m.file_type().is_symlink())
        .unwrap_or(false)
}

/// The place the table names, set up inside `cell`: returns the option's path (the folder for
/// folder outputs) and the place itself.
fn place(kind: Kind, cell: &Path) -> (PathBuf, PathBuf) {
    match kind {
        Kind::File => (cell.join("out"), cell.join("out")),
        Kind::InFolder(name) => {
            let dir = cell.join("dir");
            fs::create_dir_all(&dir).unwrap();
            (dir.clone(), dir.join(name))
        }
    }
}

fn with_overwrite(mut args: Vec<OsString>) -> Vec<OsString> {
    args.push("--overwrite".into());
    args
}

/// Refused before any work: exit 1, nothing on stdout (every summary goes there).
fn refused(out: &Output, case: &str, words: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{case}: {err}");
    assert!(out.stdout.is_empty(), "{case}: refused only after the run");
    assert!(err.contains(words), "{case}: `{words}` not in: {err}");
}

/// Runs every case in its own folder under `root`.
fn each_case(mut cell: impl FnMut(&Case, &Fixture, &Path)) {
    let f = fixture();
    let root = tempfile::tempdir().unwrap();
    for (i, case) in CASES.iter().enumerate() {
        let dir = root.path().join(format!("case{i}"));
        fs::create_dir(&dir).unwrap();
        cell(case, &f, &dir);
    }
}

#[test]
fn a_new_file_is_created_with_the_umask_mode() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        ok(&nestor(&(case.args)(f, &arg)), case.name);
        assert!(fs::metadata(&place).unwrap().len() > 0, "{}", case.name);
        assert_eq!(mode(&place), 0o666 & !umask(), "{}", case.name);
        let left: Vec<_> = fs::read_dir(place.parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(".nestor"))
            .collect();
        assert!(left.is_empty(), "{}: temporary files left", case.name);
    });
}

#[test]
fn an_existing_file_is_refused_unless_overwrite_which_keeps_its_mode() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        fs::write(&place, "mine").unwrap();
        fs::set_permissions(&place, fs::Permissions::from_mode(0o640)).unwrap();
        let args = (case.args)(f, &arg);
        refused(&nestor(&args), case.name, "--overwrite");
        assert_eq!(fs::read_to_string(&place).unwrap(), "mine", "{}", case.name);
        ok(&nestor(&with_overwrite(args)), case.name);
        assert_ne!(fs::read(&place).unwrap(), b"mine", "{}", case.name);
        assert_eq!(mode(&place), 0o640, "{}: the mode is kept", case.name);
    });
}

/// `place` made a link to `sub/NAME` in `cell` (not created); returns that target.
fn linked(cell: &Path, name: &str, place: &Path) -> PathBuf {
    fs::create_dir_all(cell.join("sub")).unwrap();
    let target = cell.join("sub").join(name);
    symlink(&target, place).unwrap();
    target
}

#[test]
fn a_link_to_a_file_is_written_through_never_replaced() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        let target = linked(cell, "target", &place);
        fs::write(&target, "mine").unwrap();
        let args = (case.args)(f, &arg);
        refused(&nestor(&args), case.name, "--overwrite");
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
        ok(&nestor(&with_overwrite(args)), case.name);
        assert!(is_link(&place), "{}: the link was replaced", case.name);
        assert_ne!(fs::read(&target).unwrap(), b"mine", "{}", case.name);
    });
}

#[test]
fn a_dangling_link_gets_its_target_created() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        let target = linked(cell, "made", &place);
        ok(&nestor(&(case.args)(f, &arg)), case.name);
        assert!(is_link(&place), "{}: the link was replaced", case.name);
        assert!(fs::metadata(&target).unwrap().len() > 0, "{}", case.name);
        assert_eq!(mode(&target), 0o666 & !umask(), "{}", case.name);
    });
}

#[test]
fn a_folder_is_refused() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        fs::create_dir_all(&place).unwrap();
        refused(&nestor(&(case.args)(f, &arg)), case.name, "folder");
        assert!(place.is_dir());
    });
}

/// Makes `dir` unwritable for this process and undoes it when dropped (also on a panic). As
/// root the mode bits do not bind: the immutable attribute does, where `chattr` may set it.
struct ReadOnly(PathBuf, bool);

impl ReadOnly {
    fn new(dir: &Path) -> Option<ReadOnly> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
            return Some(ReadOnly(dir.to_path_buf(), false));
        }
        let set = Command::new("chattr").arg("+i").arg(dir).status();
        match set {
            Ok(s) if s.success() => Some(ReadOnly(dir.to_path_buf(), true)),
            _ => None,
        }
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.1 {
            let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
        } else {
            let _ = fs::set_permissions(&self.0, fs::Permissions::from_mode(0o755));
        }
    }
}

#[test]
fn a_read_only_folder_is_refused_before_the_run() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        let dir = place.parent().unwrap();
        let Some(_guard) = ReadOnly::new(dir) else {
            eprintln!(
                "skipped {}: running as root without `chattr +i`, so no folder is read-only",
                case.name
            );
            return;
        };
        refused(
            &nestor(&(case.args)(f, &arg)),
            case.name,
            "cannot write there",
        );
        assert!(!place.exists());
    });
}

#[test]
fn dev_null_is_written_as_a_stream_and_stays_a_device() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        let arg = match case.kind {
            Kind::File => PathBuf::from("/dev/null"),
            Kind::InFolder(_) => {
                symlink("/dev/null", &place).unwrap();
                arg
            }
        };
        ok(&nestor(&(case.args)(f, &arg)), case.name);
        let meta = fs::metadata("/dev/null").unwrap();
        assert!(meta.file_type().is_char_device(), "{}", case.name);
        assert_eq!(meta.permissions().mode() & 0o666, 0o666);
    });
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn a_fifo_is_refused_without_a_reader_and_streamed_to_one() {
    each_case(|case, f, cell| {
        let (arg, place) = place(case.kind, cell);
        mkfifo(&place);
        let args = (case.args)(f, &arg);
        refused(&nestor(&args), case.name, "no process is reading");
        let fifo = place.clone();
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            fs::File::open(&fifo)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        let out = nestor(&args);
        // Should nestor not have opened it, the reader still waits: let it go.
        drop(
            fs::OpenOptions::new()
                .write(true)
                .custom_flags_nonblock()
                .open(&place),
        );
        let bytes = reader.join().unwrap();
        ok(&out, case.name);
        assert!(
            !bytes.is_empty(),
            "{}: nothing reached the reader",
            case.name
        );
        assert!(
            fs::symlink_metadata(&place).unwrap().file_type().is_fifo(),
            "{}: the FIFO was replaced",
            case.name
        );
    });
}

trait NonBlock {
    fn custom_flags_nonblock(&mut self) -> &mut Self;
}

impl NonBlock for fs::OpenOptions {
    fn custom_flags_nonblock(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        self.custom_flags(libc::O_NONBLOCK)
    }
}

/// Two options of one run that name the same file, however spelt: refused before any work,
/// nothing written.
#[test]
fn two_outputs_that_are_one_file_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = |name: &str| d.join(name);
    let cases: Vec<(Vec<OsString>, PathBuf)> = vec![
        (
            os(&[
                &"sim",
                &"--games",
                &"1",
                &"--pieces",
                &"3",
                &"--out",
                &p("d/scores.png"),
                &"--plots",
                &p("d"),
            ]),
            p("d/scores.png"),
        ),
        (
            os(&[
                &"analyze",
                &"--model-console",
                &"1",
                &p("missing.fm2"),
                &"--csv",
                &p("r/./loss.png"),
                &"--report",
                &p("r"),
            ]),
            p("r/loss.png"),
        ),
        (
            os(&[
                &"tune",
                &"--state",
                &p("s.json"),
                &"--out",
                &p("sub/../s.json"),
                &"--generations",
                &"1",
                &"--population",
                &"2",
                &"--games",
                &"1",
                &"--pieces",
                &"3",
            ]),
            p("s.json"),
        ),
    ];
    fs::create_dir(p("sub")).unwrap();
    for (args, written) in cases {
        let out = nestor(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} ran: {err}");
        assert!(
            err.contains("two outputs of one run cannot be the same file"),
            "{args:?}: {err}"
        );
        assert!(!written.exists(), "{args:?}: {} written", written.display());
    }
}
