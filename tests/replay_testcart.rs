//! Movie replay and trace capture on the synthetic test cartridge (no Tetris ROM needed):
//! record → save → replay twice gives identical traces whose $F7 is each frame's pad, and
//! the CLI refuses wrong checksums, malformed movies and bad ROMs with clear messages.

mod common;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use common::{nestor, random_pads, temp_dir};
use nestor::movie::{Movie, Recorder, Replay, ReplayError};
use nestor::nes::testcart::{self, COUNTER, HELD};
use nestor::nes::{Console, NesDeck, Rom, Video};
use nestor::trace::{capture_to_file, read_trace, run_diff, CaptureSpan, TraceCapture};

const FRAMES: usize = 300;

/// PRG+CHR MD5 of an image (what FCEUX writes as `romChecksum`).
fn prg_chr_md5(image: &[u8]) -> [u8; 16] {
    // The MMC1 twin has the same PRG and CHR; `Rom` computes the hash for either.
    let mmc1 = image.to_vec();
    let mut twin = mmc1.clone();
    twin[6] = (twin[6] & 0x0F) | 0x10;
    Rom::from_bytes("t.nes", twin, true)
        .expect("the test cart's MMC1 twin loads")
        .prg_chr_md5
}

/// Records a movie of the NROM cart with random pads, through `Recorder`.
fn recorded_movie(seed: u32) -> Movie {
    let image = testcart::nrom_image();
    let deck = NesDeck::from_image("testcart", &image, Video::Headless).expect("cart loads");
    let movie = Movie::new_recording("testcart", prg_chr_md5(&image), vec!["test".into()]);
    let mut rec = Recorder::new(deck, movie);
    for pad in random_pads(seed, FRAMES) {
        rec.frame(pad).expect("frame runs");
    }
    rec.into_parts().1
}

fn capture(replay: &Replay, out: &Path) {
    let mut deck = NesDeck::from_image("testcart", &testcart::nrom_image(), Video::Headless)
        .expect("cart loads");
    let cap = TraceCapture::new(
        nestor::nes::AddressMap::default(),
        CaptureSpan::Movie,
        Some(vec![
            "frame".into(),
            "input".into(),
            "held".into(),
            "frame_counter".into(),
        ]),
    )
    .expect("known fields");
    let header = cap.header("testcart", "testcart", "movie.fm2", FRAMES);
    let (end, lines) = capture_to_file(replay, &mut deck, cap, out, &header, |_| {
        std::ops::ControlFlow::Continue(())
    })
    .expect("capture");
    assert_eq!((end.frames, lines), (FRAMES, FRAMES as u64));
}

#[test]
fn recorded_movie_replays_into_identical_traces_holding_its_pads() {
    let tmp = temp_dir("cart-replay");
    let dir = tmp.path();
    let path = dir.join("movie.fm2");
    let movie = recorded_movie(0x5EED);
    assert_eq!(
        movie.frames.len(),
        FRAMES + 1,
        "lead frame + one line per frame"
    );
    assert_eq!(movie.frames[0], nestor::movie::FrameInput::BLANK);
    movie.save(&path).expect("save");

    let replay = Replay::load(&path).expect("load");
    assert_eq!(replay.movie(), &movie);
    let md5 = prg_chr_md5(&testcart::nrom_image());
    replay.check_rom(&md5, false).expect("its own checksum");

    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl.gz"));
    capture(&replay, &a);
    capture(&replay, &b);
    let diff = run_diff(&a, &b).expect("diff");
    assert!(diff.is_equal(), "{}", diff.to_text());

    let trace = read_trace(&b).expect("read");
    let pads = movie.gameplay_pads();
    let mut counted = 0;
    for (t, line) in trace.frames.iter().enumerate() {
        assert_eq!(line["t"], t as u64);
        assert_eq!(
            line["frame"],
            t as u64 + 1,
            "frames count from power-on, 1-based"
        );
        assert_eq!(line["input"], pads[t].to_letters());
        // The cart's NMI starts after its two-vblank boot; from then on $F7 is the pad and
        // the counter steps once per frame.
        if line["frame_counter"].as_u64().unwrap_or(0) > 0 {
            assert_eq!(line["held"], u64::from(pads[t].bits()), "t={t}");
            counted += 1;
        }
    }
    assert!(counted > FRAMES - 10, "the NMI ran on {counted} frames");
}

#[test]
fn replay_feeds_every_pad_to_the_console() {
    let movie = recorded_movie(77);
    let replay = Replay::from_movie(movie.clone()).expect("power-on movie");
    let mut deck = NesDeck::from_image("t", &testcart::nrom_image(), Video::Headless).unwrap();
    let pads = movie.gameplay_pads();
    let mut last_counter = None;
    replay
        .run(&mut deck, |f| {
            let counter =
                u16::from_le_bytes([f.ram[usize::from(COUNTER)], f.ram[usize::from(COUNTER) + 1]]);
            if counter > 0 {
                assert_eq!(f.ram[usize::from(HELD)], pads[f.index].bits());
                if let Some(prev) = last_counter {
                    assert_eq!(counter, prev + 1);
                }
                last_counter = Some(counter);
            }
            std::ops::ControlFlow::Continue(())
        })
        .expect("replay");
}

#[test]
fn wrong_checksum_is_refused_unless_forced() {
    let mut movie = recorded_movie(3);
    movie.header.rom_checksum = [0x11; 16];
    let replay = Replay::from_movie(movie).unwrap();
    let md5 = prg_chr_md5(&testcart::nrom_image());
    match replay.check_rom(&md5, false) {
        Err(e @ ReplayError::ChecksumMismatch { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(&"11".repeat(16)), "{msg}");
            assert!(msg.contains("base64:ERERERERERERERERERERE"), "{msg}");
            assert!(msg.contains(&nestor::nes::rom::hex(&md5)), "{msg}");
            assert!(msg.contains("--force"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    assert!(replay.check_rom(&md5, true).is_ok());
}

/// The MMC1 twin of the cart as a .nes file (the CLI accepts only mapper-1 images; this one
/// needs --allow-unknown-rom) and a movie recorded on it.
fn cli_files(dir: &Path) -> (PathBuf, PathBuf) {
    let rom = dir.join("cart.nes");
    std::fs::write(&rom, testcart::mmc1_image()).unwrap();
    let movie = dir.join("movie.fm2");
    recorded_movie(11).save(&movie).unwrap();
    (rom, movie)
}

fn os(args: &[&dyn AsRef<OsStr>]) -> Vec<OsString> {
    args.iter().map(|a| a.as_ref().to_os_string()).collect()
}

/// `replay ROM MOVIE --allow-unknown-rom --headless EXTRA…` (the test cart is no known ROM).
fn replay(rom: &Path, movie: &Path, extra: &[&str]) -> Vec<OsString> {
    let mut args = os(&[
        &"replay",
        &rom,
        &movie,
        &"--allow-unknown-rom",
        &"--headless",
    ]);
    args.extend(extra.iter().map(OsString::from));
    args
}

/// `trace ROM --movie MOVIE --out OUT --allow-unknown-rom EXTRA…`.
fn trace(rom: &Path, movie: &Path, out: &Path, extra: &[&str]) -> Vec<OsString> {
    let mut args = os(&[
        &"trace",
        &rom,
        &"--movie",
        &movie,
        &"--out",
        &out,
        &"--allow-unknown-rom",
    ]);
    args.extend(extra.iter().map(OsString::from));
    args
}

#[test]
fn cli_replays_the_cart_and_refuses_a_wrong_checksum_unless_forced() {
    let tmp = temp_dir("cli-replay");
    let dir = tmp.path();
    let (rom, movie) = cli_files(dir);
    let ok = nestor(&replay(&rom, &movie, &["--json"]));
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["frames"], FRAMES as u64);
    assert_eq!(v["game_over"], false);
    assert_eq!(v["checksum"], "match");
    let part = nestor(&replay(&rom, &movie, &["--frames", "25"]));
    let text = String::from_utf8_lossy(&part.stdout);
    assert!(
        text.contains(&format!("25 of {FRAMES} frames replayed")),
        "{text}"
    );

    let mut m = Movie::load(&movie).unwrap();
    m.header.rom_checksum = [0x22; 16];
    let wrong = dir.join("wrong.fm2");
    m.save(&wrong).unwrap();
    let refused = nestor(&replay(&rom, &wrong, &[]));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&"22".repeat(16)), "{stderr}");
    assert!(
        stderr.contains("base64:IiIiIiIiIiIiIiIiIiIiIg=="),
        "{stderr}"
    );
    let md5 = prg_chr_md5(&testcart::nrom_image());
    assert!(stderr.contains(&nestor::nes::rom::hex(&md5)), "{stderr}");

    let forced = nestor(&replay(&rom, &wrong, &["--force"]));
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert!(String::from_utf8_lossy(&forced.stderr).contains("warning"));
}

#[test]
fn cli_errors_name_the_problem() {
    let tmp = temp_dir("cli-errors");
    let dir = tmp.path();
    let (rom, movie) = cli_files(dir);
    let text = std::fs::read_to_string(&movie).unwrap();
    // Break the 10th input line (the 5th pad's field loses a byte).
    let header_lines = text.lines().take_while(|l| !l.starts_with('|')).count();
    let bad_line = header_lines + 10;
    let broken: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == bad_line {
                "|0|.......|........||".into()
            } else {
                l.to_string()
            }
        })
        .collect();
    let bad = dir.join("bad.fm2");
    std::fs::write(&bad, broken.join("\n")).unwrap();
    let nrom = dir.join("nrom.nes");
    std::fs::write(&nrom, testcart::nrom_image()).unwrap();
    let reset = dir.join("reset.fm2");
    let mut with_reset = Movie::load(&movie).unwrap();
    with_reset.frames[4].commands = nestor::movie::commands::SOFT_RESET;
    with_reset.save(&reset).unwrap();
    let out_trace = dir.join("t.jsonl");

    let cases: Vec<(Vec<OsString>, Vec<String>)> = vec![
        (
            replay(&rom, &bad, &[]),
            vec![format!("line {bad_line}"), "7 bytes".into()],
        ),
        (
            os(&[
                &"replay",
                &rom,
                &dir.join("missing.fm2"),
                &"--allow-unknown-rom",
            ]),
            vec!["missing.fm2".into(), "cannot read".into()],
        ),
        (replay(&nrom, &movie, &[]), vec!["mapper 0".into()]),
        (
            os(&[&"replay", &rom, &movie, &"--headless"]),
            vec!["--allow-unknown-rom".into()],
        ),
        (
            replay(&rom, &reset, &[]),
            vec![format!("line {}", header_lines + 5), "soft reset".into()],
        ),
        (
            trace(&rom, &movie, &out_trace, &["--fields", "score,scroe"]),
            vec!["scroe".into(), "hidden".into()],
        ),
        (
            trace(&rom, &movie, &out_trace, &[]),
            vec!["never starts an A-type game".into()],
        ),
    ];
    for (args, wanted) in cases {
        let out = nestor(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        for w in wanted {
            assert!(stderr.contains(&w), "{args:?}: `{w}` not in: {stderr}");
        }
    }
    // Each error names its movie once, not once per layer.
    let empty = dir.join("empty.fm2");
    std::fs::write(&empty, "").unwrap();
    for (m, wanted) in [
        (&empty, "not an FM2 movie"),
        (&bad, "7 bytes"),
        (&reset, "soft reset"),
    ] {
        let out = nestor(&replay(&rom, m, &[]));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let name = m.file_name().unwrap().to_str().unwrap();
        assert_eq!(stderr.matches(name).count(), 1, "{stderr}");
        assert!(stderr.contains(wanted), "{stderr}");
    }
    assert!(!out_trace.exists(), "no header-only trace is left behind");
}

#[test]
fn cli_captures_the_whole_movie_twice_into_equal_traces() {
    let tmp = temp_dir("cli-whole");
    let dir = tmp.path();
    let (rom, movie) = cli_files(dir);
    let pads = Movie::load(&movie).unwrap().gameplay_pads();
    let mut outs = Vec::new();
    for name in ["a.jsonl.gz", "b.jsonl"] {
        let out = dir.join(name);
        let run = nestor(&trace(
            &rom,
            &movie,
            &out,
            &["--whole-movie", "--fields", "held,frame_counter"],
        ));
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        outs.push(out);
    }
    let diff = nestor(&os(&[&"trace", &"diff", &outs[0], &outs[1]]));
    assert_eq!(
        diff.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );
    let trace = read_trace(&outs[0]).unwrap();
    assert_eq!(trace.frames.len(), FRAMES);
    // From the first NMI on, $F7 holds the pad of the same frame.
    let first = trace
        .frames
        .iter()
        .position(|l| l["frame_counter"] != 0)
        .unwrap();
    for (line, pad) in trace.frames.iter().zip(&pads).skip(first + 1) {
        assert_eq!(line["held"], u64::from(pad.bits()), "{line:?}");
    }
}

/// Ctrl-C during `trace` keeps a complete trace of the frames replayed so far: the gzip stream
/// is finished, every line parses, and nothing else is left in the folder.
#[cfg(unix)]
#[test]
fn interrupting_trace_keeps_a_complete_trace() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let tmp = temp_dir("cli-trace-int");
    let dir = tmp.path();
    let (rom, movie) = cli_files(dir);
    // A movie long enough to be still replaying when the signal comes (about an hour).
    let mut long = Movie::load(&movie).unwrap();
    let pads = long.frames.clone();
    while long.frames.len() < 200_000 {
        long.frames.extend_from_slice(&pads[1..]);
    }
    let long_path = dir.join("long.fm2");
    long.save(&long_path).unwrap();
    let out = dir.join("t.jsonl.gz");
    let child = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .arg("trace")
        .arg(&rom)
        .arg("--movie")
        .arg(&long_path)
        .arg("--out")
        .arg(&out)
        .args(["--allow-unknown-rom", "--whole-movie"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nestor");
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: a plain kill(2) on the child's pid, which has not been waited for yet.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(
        done.status.code(),
        Some(130),
        "{stdout} {}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(stdout.contains("interrupted"), "{stdout}");
    let trace = read_trace(&out).expect("a complete, readable trace");
    let n = trace.frames.len();
    assert!(n > 10 && n < 199_999, "{n} lines");
    assert!(stdout.contains(&format!("{n} frame lines")), "{stdout}");
    // The frames are consecutive from power-on.
    for (i, line) in trace.frames.iter().enumerate() {
        assert_eq!(line["frame"], i as u64 + 1);
    }
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["cart.nes", "long.fm2", "movie.fm2", "t.jsonl.gz"]);
}

#[test]
fn verify_says_why_a_trace_cannot_be_checked_naming_the_file_once() {
    let tmp = temp_dir("cli-verify");
    let dir = tmp.path();
    let (rom, movie) = cli_files(dir);
    let whole = dir.join("whole.jsonl");
    let out = nestor(&trace(&rom, &movie, &whole, &["--whole-movie"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let corrupt = dir.join("corrupt.jsonl");
    let text = std::fs::read_to_string(&whole).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{not json";
    std::fs::write(&corrupt, lines.join("\n")).unwrap();
    let out = nestor(&os(&[&"trace", &"verify", &whole, &corrupt]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("whole.jsonl: ERROR: made with --whole-movie"),
        "{stdout}"
    );
    assert!(
        stdout.contains("corrupt.jsonl: ERROR: line 3: not JSON"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("corrupt.jsonl").count(), 1, "{stdout}");
}
