//! A movie replayed in real FCEUX (headless, under `xvfb-run`): the game's RAM read back frame
//! by frame and judged by the driver's own freeze watch, so "froze" means the same in both.
//!
//! The two emulators differ by a few CPU cycles in where the NMI lands; past level 155 that is
//! exactly what decides a crash, so a cartridge batch's movies are checked here too.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::game::score::bcd_value;
use crate::game::score::line_count;
use crate::game::CrashKind;
use crate::nes::freeze::FreezeWatch;
use crate::nes::observe::RamSnapshot;
use crate::nes::{AddressMap, Poke};

/// Bytes FCEUX writes per frame: the zero page (the game's variables) and the playfield page
/// ($0400), what [`RamSnapshot`] reads.
const PAGES: [u16; 2] = [0x0000, 0x0400];
const RECORD: usize = 256 * PAGES.len();

/// Why FCEUX could not replay a movie.
#[derive(Debug, thiserror::Error)]
pub enum FceuxError {
    /// A tool is not installed: the tool, then the Debian package that has it.
    #[error("{0} is not installed (apt-get install {1})")]
    Missing(&'static str, &'static str),
    /// FCEUX could not be started.
    #[error("cannot run FCEUX: {0}")]
    Spawn(std::io::Error),
    /// FCEUX ran past the time limit and was stopped.
    #[error("FCEUX did not finish {movie} within {seconds} s")]
    Timeout {
        /// The movie replayed.
        movie: PathBuf,
        /// The limit in seconds.
        seconds: u64,
    },
    /// FCEUX ended without writing any frame's RAM.
    #[error("FCEUX wrote no RAM for {movie} (exit {code:?}): {stderr}")]
    NoOutput {
        /// The movie replayed.
        movie: PathBuf,
        /// FCEUX's exit code (`None` when a signal ended it).
        code: Option<i32>,
        /// What FCEUX wrote on standard error.
        stderr: String,
    },
    /// The temporary folder for FCEUX's files could not be made or used.
    #[error("cannot use the work folder {0}: {1}")]
    Work(PathBuf, std::io::Error),
}

/// Where FCEUX and `xvfb-run` are.
#[derive(Clone, Debug)]
pub struct FceuxTools {
    /// The `fceux` executable.
    pub fceux: PathBuf,
    /// The `xvfb-run` executable that gives FCEUX a display.
    pub xvfb_run: PathBuf,
}

impl FceuxTools {
    /// Finds both on `PATH` (FCEUX also in Debian's `/usr/games`).
    pub fn find() -> Result<FceuxTools, FceuxError> {
        let find = |name: &str, extra: &[&str]| -> Option<PathBuf> {
            let path = std::env::var_os("PATH").unwrap_or_default();
            std::env::split_paths(&path)
                .map(|d| d.join(name))
                .chain(extra.iter().map(|d| Path::new(d).join(name)))
                .find(|p| p.is_file())
        };
        Ok(FceuxTools {
            fceux: find("fceux", &["/usr/games", "/usr/local/games"])
                .ok_or(FceuxError::Missing("fceux", "fceux"))?,
            xvfb_run: find("xvfb-run", &[]).ok_or(FceuxError::Missing("xvfb-run", "xvfb"))?,
        })
    }
}

/// How a movie ended in FCEUX.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FceuxEnd {
    /// Input lines FCEUX ran (the lead line included).
    pub frames: u64,
    /// Score at the last frame in play before any stop (BCD decoded).
    pub score: u32,
    /// Lines at the last frame in play before any stop (BCD decoded).
    pub lines: u32,
    /// `levelNumber` at the last frame in play before any stop.
    pub level: u8,
    /// The level rolled over from 255 to 0, at these lines.
    pub lines_at_rebirth: Option<u32>,
    /// The game stopped (as the driver's freeze watch judges a stop) at this input line.
    pub froze: Option<Froze>,
}

/// Where and how the game stopped in FCEUX.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Froze {
    /// The input line from which RAM looked stopped.
    pub frame: u64,
    /// `crash`, `hang`, `demo`, or `nonsense` (RAM no longer describes a game).
    pub kind: String,
    /// What RAM showed ("the frame counter stopped").
    pub what: String,
    /// `levelNumber` when it stopped.
    pub level: u8,
    /// Lines when it stopped (BCD decoded).
    pub lines: u32,
}

/// The Lua script FCEUX runs: every movie frame's two pages appended to `out` (and `poke`'s
/// bytes written after its frame), then quit.
fn script(out: &Path, poke: Option<&Poke>) -> String {
    let reads: Vec<String> = PAGES
        .iter()
        .map(|a| format!("memory.readbyterange({a}, 256)"))
        .collect();
    let poke = poke.map_or(String::new(), |p| {
        let writes: Vec<String> = p
            .bytes
            .iter()
            .map(|(a, v)| format!("memory.writebyte({a}, {v})"))
            .collect();
        let at = p.frame + super::lead::FCEUX_LEAD_FRAMES as u64;
        format!(
            "  if n ~= last and n == {at} then {} end\n",
            writes.join("; ")
        )
    });
    let each_frame = format!(
        "  if n ~= last and n >= 1 then out:write({}) end\n{poke}",
        reads.join(", ")
    );
    movie_loop_script(
        "the zero page and the playfield page after every movie frame",
        (out, "wb"),
        "",
        &each_frame,
    )
}

/// A Lua script that opens `out` (in Lua's `mode`), steps FCEUX through its movie at maximum
/// speed running `each_frame` (Lua lines, which see the movie frame count `n` and the last
/// one seen, `last`) after every frame, then quits; `prelude` (Lua lines) defines what
/// `each_frame` calls. FCEUX's first `emu.frameadvance()` from a script returns before any
/// frame has run, so a frame is seen where the count changes, not per call.
pub fn movie_loop_script(
    title: &str,
    (out, mode): (&Path, &str),
    prelude: &str,
    each_frame: &str,
) -> String {
    format!(
        r#"-- nestor: {title}, then quit
local out = assert(io.open([==[{out}]==], "{mode}"))
emu.speedmode("maximum")
local len = movie.length() or 0
{prelude}local last = -1
local spins = 0
while true do
  local n = movie.framecount()
{each_frame}  last = n
  if n >= len or movie.mode() == "finished" or spins > len + 10 then break end
  spins = spins + 1
  emu.frameadvance()
end
out:close()
emu.exit()
"#,
        out = out.display(),
    )
}

/// Replays `movie` on `rom` in headless FCEUX and judges every frame as the driver would,
/// writing `poke` (the movie's poke comment) at its frame. `work` holds the script and the
/// RAM stream while it runs.
pub fn replay_in_fceux(
    tools: &FceuxTools,
    (rom, movie, poke): (&Path, &Path, Option<&Poke>),
    map: &AddressMap,
    work: &Path,
    timeout: Duration,
) -> Result<FceuxEnd, FceuxError> {
    let out = work.join("fceux-ram.bin");
    let lua = work.join("fceux-ram.lua");
    std::fs::write(&lua, script(&out, poke)).map_err(|e| FceuxError::Work(work.into(), e))?;
    let run = run_script(tools, rom, movie, &lua, work, timeout)?;
    let no_output = || FceuxError::NoOutput {
        movie: movie.into(),
        code: run.status.code(),
        stderr: String::from_utf8_lossy(&run.stderr).trim().to_string(),
    };
    let file = std::fs::File::open(&out).map_err(|_| no_output())?;
    let end = judge(std::io::BufReader::new(file), map).map_err(|_| no_output())?;
    let _ = std::fs::remove_file(&out);
    if end.frames == 0 {
        return Err(no_output());
    }
    Ok(end)
}

/// Plays `movie` on `rom` in headless FCEUX running the Lua script `lua`, with `work` as its
/// home (FCEUX writes its settings folder there), and returns its exit once it quit. A script
/// error leaves FCEUX running its window forever: it is killed after `timeout`.
pub fn run_script(
    tools: &FceuxTools,
    rom: &Path,
    movie: &Path,
    lua: &Path,
    work: &Path,
    timeout: Duration,
) -> Result<Output, FceuxError> {
    let mut child = Command::new(&tools.xvfb_run)
        .arg("-a")
        .arg(&tools.fceux)
        .args(["--no-config", "1", "--sound", "0", "--playmov"])
        .arg(movie)
        .arg("--loadlua")
        .arg(lua)
        .arg(rom)
        .env("HOME", work)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(FceuxError::Spawn)?;
    let deadline = Instant::now() + timeout;
    while child.try_wait().map_err(FceuxError::Spawn)?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(FceuxError::Timeout {
                movie: movie.into(),
                seconds: timeout.as_secs(),
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().map_err(FceuxError::Spawn)
}

/// Reads the RAM stream (one record of the zero page and the playfield page, 512 bytes, per
/// frame) and judges it frame by frame.
pub fn judge(mut stream: impl Read, map: &AddressMap) -> std::io::Result<FceuxEnd> {
    let mut ram = vec![0u8; 0x800];
    let mut record = [0u8; RECORD];
    let mut watch = FreezeWatch::default();
    let mut before: Option<RamSnapshot> = None;
    let mut end = FceuxEnd {
        frames: 0,
        score: 0,
        lines: 0,
        level: 0,
        lines_at_rebirth: None,
        froze: None,
    };
    loop {
        match stream.read_exact(&mut record) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        end.frames += 1;
        for (k, &page) in PAGES.iter().enumerate() {
            let at = usize::from(page);
            ram[at..at + 256].copy_from_slice(&record[256 * k..256 * (k + 1)]);
        }
        let now = RamSnapshot::read(&ram, map);
        if let Some(b) = &before {
            if b.in_play() {
                let lines = line_count(now.lines_bcd);
                if b.level == 255 && now.level == 0 && end.lines_at_rebirth.is_none() {
                    end.lines_at_rebirth = Some(lines);
                }
                if end.froze.is_none() {
                    if let Some(f) = watch.watch(b, &now) {
                        end.froze = Some(Froze {
                            frame: end.frames + 1 - u64::from(f.frames),
                            kind: f.kind.map_or("nonsense", CrashKind::name).to_string(),
                            what: f.what,
                            level: b.level,
                            lines: line_count(b.lines_bcd),
                        });
                    }
                }
            }
        }
        if now.in_play() && end.froze.is_none() {
            end.level = now.level;
            end.lines = line_count(now.lines_bcd);
            end.score = bcd_value(&now.score_bcd);
        }
        before = Some(now);
    }
    Ok(end)
}

#[cfg(test)]
mod tests;
