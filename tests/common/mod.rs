//! Helpers shared by the replay tests: unique temp dirs, the CLI binary, and running a movie
//! in headless FCEUX with a Lua script that dumps RAM after every input line.

#![allow(dead_code)] // each test crate uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use nestor::game::PadState;
use nestor::movegen::profile::Profile;
use nestor::movie::check::{check_movie, CheckReport, ReactionCheck};
use nestor::movie::Movie;
use nestor::nes::{AddressMap, Console};
use nestor::search::{Planner, Standard};

/// RAM FCEUX dumps: $0000-$0754 (above, the cartridge never writes and FCEUX's power-on fill
/// is what `RAMInitOption` says).
pub const COMPARED_RAM: usize = 0x755;

/// The parts of the dump that must be equal: the zero page and $0200-$0754, not the stack
/// page $0100-$01FF. The two emulators end a frame at different CPU instructions (FCEUX at
/// the end of its scanline loop, tetanes-core at the end of the PPU frame), so the NMI
/// interrupts the main loop at different places and pushes different return addresses and
/// flags there; on the real cartridge they first differ at $01FA on frame 4. No game
/// variable lives on the stack page (`../shared/host-notes.md`, `docs/nes-tetris.md` §2).
pub const EQUAL_RAM: [std::ops::Range<usize>; 2] = [0x0000..0x0100, 0x0200..COMPARED_RAM];

/// How long one FCEUX run may take (a full game at maximum speed takes seconds).
const FCEUX_TIMEOUT: Duration = Duration::from_secs(180);

/// A fresh directory under the system temp dir, removed (with everything in it) when the
/// returned guard drops, also when the test fails.
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("nestor-{tag}-"))
        .tempdir()
        .expect("create a temp dir")
}

/// Runs the `nestor` binary.
pub fn nestor(args: &[std::ffi::OsString]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .output()
        .expect("run the nestor binary")
}

/// Runs the `nestor` binary in `dir`.
pub fn nestor_in(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the nestor binary")
}

/// Asserts that a run succeeded (its exit, stdout and stderr are the message when not);
/// returns its stdout.
pub fn ok(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The keys of a tapping profile file with no reaction time or start delay and this timeline
/// (a preset's name or a pattern of `X` and `.`).
pub fn tap_profile(timeline: &str) -> String {
    format!("timeline = \"{timeline}\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 0\n")
}

/// `text` without its lines that start with `prefix`, each line ended by a newline.
pub fn without_lines(text: &str, prefix: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with(prefix))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Asserts that `text` holds every one of `words`.
pub fn says(text: &str, words: &[&str]) {
    for w in words {
        assert!(text.contains(w), "`{w}` not in: {text}");
    }
}

/// The options of a small tuning run (2 generations of 4 candidates, 2 games each) of
/// games of `pieces` pieces.
pub fn small_tune(pieces: &str) -> [&str; 8] {
    [
        "--generations",
        "2",
        "--population",
        "4",
        "--games",
        "2",
        "--pieces",
        pieces,
    ]
}

/// `tune init` of a small run (4 candidates of 2 games a generation) into `s.json`.
pub const SMALL_TUNE_INIT: [&str; 8] = [
    "tune",
    "init",
    "--state",
    "s.json",
    "--population",
    "4",
    "--games",
    "2",
];

/// A five-piece game of `play` on the model console.
pub const FIVE_MODEL_PIECES: [&str; 6] = [
    "play",
    "--model-console",
    "1",
    "--headless",
    "--pieces",
    "5",
];

/// The default planner playing as `profile`.
pub fn profile_planner(profile: &Profile) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = profile.clone();
    p
}

/// The movie check (reactions as seen) of `movie` replayed on `fresh`, with the planner of
/// `profile`.
pub fn check_profile_movie(
    movie: &Movie,
    fresh: &mut impl Console,
    map: &AddressMap,
    profile: &Profile,
) -> CheckReport {
    check_movie(
        movie,
        fresh,
        map,
        &mut profile_planner(profile),
        ReactionCheck::AsSeen,
    )
    .expect("the recorded movie replays")
}

/// Deterministic pseudo-random pads (xorshift), any byte including opposite directions.
pub fn random_pads(seed: u32, n: usize) -> Vec<PadState> {
    let mut x = seed.max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            PadState((x >> 8) as u8)
        })
        .collect()
}

/// A program on the PATH.
pub fn tool(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// `xvfb-run`, when it and `xdotool` (the window tests' keys) are installed; or None, having
/// said why.
pub fn xvfb_with_xdotool() -> Option<PathBuf> {
    let (Some(xvfb), Some(_)) = (tool("xvfb-run"), tool("xdotool")) else {
        eprintln!("skipped: needs xvfb-run and xdotool (apt-get install xvfb xdotool)");
        return None;
    };
    Some(xvfb)
}

/// Runs a window test, `test(xvfb_run, dir)` in a fresh temp dir, when `xvfb-run` and `xdotool`
/// are installed; otherwise says why and returns (the test is then skipped).
pub fn with_xvfb(tag: &str, test: impl FnOnce(&Path, &Path)) {
    if let Some(xvfb) = xvfb_with_xdotool() {
        let tmp = temp_dir(tag);
        test(&xvfb, tmp.path());
    }
}

/// What a window test's run left: stdout, stderr and the window's screenshots (PNGs sorted by
/// name: the window names them by UTC time to the millisecond, so in the order taken).
pub struct WindowRun {
    pub dir: tempfile::TempDir,
    pub out: String,
    pub err: String,
    pub shots: Vec<PathBuf>,
}

/// Runs `nestor ARGS` (shell words) in a fresh temp dir under Xvfb and, once its window titled
/// `title` has the focus, the shell lines `keys`, where `tap KEY [SECONDS]` holds a key down
/// for SECONDS (0.1). None, having said why, without xvfb-run or xdotool.
pub fn keys_in_window(tag: &str, args: &str, title: &str, keys: &str) -> Option<WindowRun> {
    let xvfb = xvfb_with_xdotool()?;
    let dir = temp_dir(tag);
    let script = format!(
        r#"cd "{dir}"
tap() {{ xdotool keydown "$1"; sleep "${{2:-0.1}}"; xdotool keyup "$1"; }}
"{bin}" {args} > out.txt 2> err.txt &
pid=$!
xdotool search --sync --name "{title}" windowactivate --sync >/dev/null 2>&1 \
  || xdotool search --sync --name "{title}" windowfocus --sync
{keys}
wait $pid
"#,
        dir = dir.path().display(),
        bin = env!("CARGO_BIN_EXE_nestor"),
    );
    let status = Command::new(xvfb)
        .args(["-a", "sh", "-c", &script])
        .status()
        .expect("run xvfb-run");
    assert!(status.success(), "{script}");
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect(name);
    let (out, err) = (read("out.txt"), read("err.txt"));
    let mut shots: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read the test dir")
        .map(|e| e.expect("a dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    shots.sort();
    Some(WindowRun {
        dir,
        out,
        err,
        shots,
    })
}

/// A PNG's width and its pixels' RGB, row by row (the window tests' screenshots).
pub fn png_rgb(path: &Path) -> (usize, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width as usize, rgb)
}

/// The FCEUX executable (Debian installs it in /usr/games, often not on PATH) and
/// `xvfb-run`, or why the FCEUX tests cannot run.
pub fn fceux_tools() -> Result<(PathBuf, PathBuf), String> {
    let tools = nestor::movie::fceux::FceuxTools::find().map_err(|e| e.to_string())?;
    Ok((tools.fceux, tools.xvfb_run))
}

/// True, having said why, when FCEUX or Xvfb is missing (the FCEUX tests are then skipped).
pub fn without_fceux() -> bool {
    match fceux_tools() {
        Ok(_) => false,
        Err(why) => {
            eprintln!("skipped: {why}");
            true
        }
    }
}

/// The Lua script: after every input line of the movie, one text line `N HEX`, where N is
/// the number of input lines run (FCEUX's movie frame count) and HEX is RAM $0000-$0754.
fn dump_script(out: &Path) -> String {
    let hexram = format!(
        r#"local function hexram()
  local t = {{}}
  for a = 0, {last} do t[#t + 1] = string.format("%02x", memory.readbyte(a)) end
  return table.concat(t)
end
"#,
        last = COMPARED_RAM - 1
    );
    nestor::movie::fceux::movie_loop_script(
        "dump RAM $0000-$0754 after every movie frame",
        (out, "w"),
        &hexram,
        "  if n ~= last and n >= 1 then out:write(n, \" \", hexram(), \"\\n\") end\n",
    )
}

/// Plays `movie` on `rom` in headless FCEUX and returns, for each input line n = 1, 2, …
/// (lead frame included), the RAM after it.
pub fn fceux_ram(rom: &Path, movie: &Path, dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    let tools = nestor::movie::fceux::FceuxTools::find().map_err(|e| e.to_string())?;
    let out = dir.join("fceux-ram.txt");
    let lua = dir.join("dump.lua");
    std::fs::write(&lua, dump_script(&out)).map_err(|e| e.to_string())?;
    let run = nestor::movie::fceux::run_script(&tools, rom, movie, &lua, dir, FCEUX_TIMEOUT)
        .map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&out).map_err(|e| {
        format!(
            "FCEUX wrote no RAM dump ({e}); exit {:?}, stderr: {}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr)
        )
    })?;
    let mut frames = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (n, hex) = line.split_once(' ').ok_or("malformed dump line")?;
        if n.parse::<usize>().ok() != Some(i + 1) {
            return Err(format!("dump line {} is for movie frame {n}", i + 1));
        }
        let ram = (0..hex.len() / 2)
            .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|e| e.to_string())?;
        frames.push(ram);
    }
    Ok(frames)
}

/// Asserts FCEUX's RAM after input line n+1 equals nestor's after its frame n (1-based) for
/// every frame of the movie (the lead line has no nestor counterpart).
pub fn assert_same_ram(movie: &Movie, fceux: &[Vec<u8>], nestor: &[Vec<u8>]) {
    assert_eq!(
        fceux.len(),
        movie.frames.len(),
        "FCEUX ran every input line"
    );
    assert_eq!(
        nestor.len() + 1,
        movie.frames.len(),
        "nestor ran every frame"
    );
    for (k, (ours, theirs)) in nestor.iter().zip(&fceux[1..]).enumerate() {
        assert_eq!(theirs.len(), COMPARED_RAM, "FCEUX dump line {}", k + 2);
        if let Some(at) = EQUAL_RAM
            .iter()
            .flat_map(|r| r.clone())
            .find(|&a| ours[a] != theirs[a])
        {
            panic!(
                "RAM differs after nestor frame {} (movie input line {}): first at ${at:04X}, \
                 nestor {:#04x}, FCEUX {:#04x}",
                k + 1,
                k + 2,
                ours[at],
                theirs[at]
            );
        }
    }
}

/// What a command says of why it has no window: no display, or in a build without the window
/// (cargo feature `window`) how to rebuild.
pub fn no_window_reason() -> &'static str {
    if cfg!(feature = "window") {
        "display"
    } else {
        "rebuild with `cargo build --release --features window`"
    }
}

/// A game at `level`/`lines` with the score at the cap, `piece` at its spawn and `next` to
/// come, on a board whose bottom rows are `rows` ('#' filled): a position past level 155 as a
/// game from 19 reaches it.
pub fn game_past_155(
    rows: &[&str],
    piece: nestor::game::Piece,
    next: nestor::game::Piece,
    (level, lines): (u8, [u8; 2]),
) -> nestor::game::Game {
    use nestor::game::{Active, Board, Game, Playfield};
    let text: Vec<&str> = std::iter::repeat_n("..........", 20 - rows.len())
        .chain(rows.iter().copied())
        .collect();
    let board = Board::from_text(&text.join("\n")).expect("a test board");
    let mut g = Game::new(level, 0x8988, 0, 0);
    g.field = Playfield::from_board(&board);
    g.level = level;
    g.lines = lines;
    g.score = [0x99; 3];
    g.active = Active::spawn(piece.spawn().id(), 0, 0);
    g.next = next.spawn().id();
    g
}
