//! A bridge-protocol client for the `nestor serve` tests: the rules model plays the emulator's
//! part, sending its RAM each frame and pressing the buttons nestor answers.

#![allow(dead_code)] // each test crate uses a different subset

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

use nestor::game::piece::Orientation;
use nestor::game::{Game, PadState};
use nestor::nes::{AddressMap, Console, ModelConsole};
use nestor::serve::protocol::encode_hex;
use nestor::serve::{Ranges, ServerMsg};

/// `nestor serve` running in the background, killed when dropped.
pub struct Server {
    pub child: Child,
    pub stderr: Option<BufReader<ChildStderr>>,
    /// The pipe folder (FIFO servers).
    pub dir: Option<PathBuf>,
    /// The TCP address (TCP servers).
    pub addr: Option<String>,
    /// What the server printed on stderr before it listened.
    pub early: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `nestor serve ARGS` on pipes in a new temp dir, and an emulator connected to them that
/// said hello in `mode`: the temp dir (the pipes' folder lives as long), the pipes' folder,
/// the server, the connection and the ranges the server asked for.
pub fn fifo_session(
    args: &[&str],
    mode: &str,
) -> (tempfile::TempDir, PathBuf, Server, Conn, Ranges) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pipes");
    let server = start(args, Some(&dir));
    let mut conn = Conn::fifo(&dir);
    let ranges = conn.hello(mode);
    (tmp, dir, server, conn, ranges)
}

/// Starts `nestor serve ARGS`; returns once the pipes exist or the TCP port is known.
pub fn start(args: &[&str], dir: Option<&Path>) -> Server {
    start_env(args, dir, &[])
}

/// [`start`] with environment variables (e.g. `RUST_LOG`) set for the server.
pub fn start_env(args: &[&str], dir: Option<&Path>, env: &[(&str, &str)]) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nestor"));
    cmd.arg("serve").args(args).envs(env.iter().copied());
    if let Some(d) = dir {
        cmd.arg("--fifo").arg(d);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nestor serve");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut addr = None;
    let mut line = String::new();
    let mut early = String::new();
    // The server prints one line per transport once it waits on it.
    let want_tcp = args.contains(&"--tcp");
    let want_fifo = dir.is_some();
    let (mut tcp_seen, mut fifo_seen) = (false, false);
    while (want_tcp && !tcp_seen) || (want_fifo && !fifo_seen) {
        line.clear();
        if stderr
            .read_line(&mut line)
            .expect("read the server's stderr")
            == 0
        {
            let _ = child.wait();
            panic!("nestor serve ended before listening");
        }
        eprint!("server: {line}");
        early.push_str(&line);
        if let Some(a) = line.trim().strip_prefix("serve: listening on ") {
            addr = Some(a.to_string());
            tcp_seen = true;
        }
        fifo_seen |= line.contains("waiting on the pipes");
    }
    Server {
        child,
        stderr: Some(stderr),
        dir: dir.map(Path::to_path_buf),
        addr,
        early,
    }
}

impl Server {
    /// Everything the server printed on stdout, after it ended (with --once).
    pub fn wait_stdout(&mut self, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        while self.child.try_wait().expect("wait").is_none() {
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut out = String::new();
        if let Some(mut s) = self.child.stdout.take() {
            s.read_to_string(&mut out).expect("read stdout");
        }
        out
    }

    /// Reads the server's stderr until a line containing `text` (echoed to the test's);
    /// false when the server ended first.
    pub fn wait_for(&mut self, text: &str) -> bool {
        let Some(err) = self.stderr.as_mut() else {
            return false;
        };
        let mut line = String::new();
        loop {
            line.clear();
            match err.read_line(&mut line) {
                Ok(0) | Err(_) => return false,
                Ok(_) => {
                    eprint!("server: {line}");
                    if line.contains(text) {
                        return true;
                    }
                }
            }
        }
    }

    /// Drains the server's stderr into the test's (call after it ended).
    pub fn stderr_text(&mut self) -> String {
        let mut s = String::new();
        if let Some(mut e) = self.stderr.take() {
            let _ = e.read_to_string(&mut s);
        }
        s
    }
}

/// One connection's two ends.
pub struct Conn {
    pub reader: Box<dyn BufRead>,
    pub writer: Box<dyn Write>,
}

impl Conn {
    /// Opens the pipes as the Lua script does: the one nestor reads first.
    pub fn fifo(dir: &Path) -> Conn {
        let writer = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("to-nestor"))
            .expect("open to-nestor");
        let reader = std::fs::File::open(dir.join("from-nestor")).expect("open from-nestor");
        Conn {
            reader: Box::new(BufReader::new(reader)),
            writer: Box::new(writer),
        }
    }

    pub fn tcp(addr: &str) -> Conn {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).expect("nodelay");
        s.set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        Conn {
            reader: Box::new(BufReader::new(s.try_clone().expect("clone"))),
            writer: Box::new(s),
        }
    }

    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.writer.write_all(line.as_bytes())?;
        self.writer.write_all(b"\n")?;
        self.writer.flush()
    }

    /// The next line, or `None` at the end of the stream.
    pub fn line(&mut self) -> Option<String> {
        let mut s = String::new();
        match self.reader.read_line(&mut s) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(s.trim_end().to_string()),
        }
    }

    /// The next message that is not a note.
    pub fn msg(&mut self) -> Option<ServerMsg> {
        loop {
            let line = self.line()?;
            match ServerMsg::parse(&line) {
                Ok(ServerMsg::Note(n)) => eprintln!("note: {n}"),
                Ok(m) => return Some(m),
                Err(e) => panic!("nestor sent `{line}`: {e}"),
            }
        }
    }

    /// Says hello; returns the ranges nestor asks for.
    pub fn hello(&mut self, mode: &str) -> Ranges {
        self.send(&format!("hello 1 test {mode}"))
            .expect("send hello");
        match self.msg() {
            Some(ServerMsg::Hello { ranges, .. }) => ranges,
            other => panic!("expected hello, got {other:?}"),
        }
    }
}

/// What a model-driven run saw.
#[derive(Debug, Default)]
pub struct Played {
    pub frames: u64,
    pub pieces: u64,
    /// Locks where the model's piece did not land on the cells nestor announced.
    pub lock_mismatches: u64,
    pub game_over: bool,
    /// The last lock nestor announced.
    pub last_lock: Option<[(i8, i8); 4]>,
    /// The last answer, not pressed yet.
    pub pending: Option<PadState>,
}

/// The cells of a lock as the model reports it.
pub fn cells_of(x: u8, y: u8, id: u8) -> [(i8, i8); 4] {
    let o = Orientation::new(id).expect("a valid orientation");
    o.cells().map(|(dx, dy)| (x as i8 + dx, y as i8 + dy))
}

/// The model console of the tests: level 19, seeded.
pub fn model(seed: u64) -> ModelConsole {
    ModelConsole::new(Game::seeded(19, seed), AddressMap::default())
}

/// Sends frame `number` of `console`.
pub fn send_frame(conn: &mut Conn, ranges: &Ranges, number: u64, console: &ModelConsole) {
    let mut bytes = Vec::new();
    ranges.gather(console.ram(), &mut bytes);
    let mut line = format!("frame {number} ");
    encode_hex(&bytes, &mut line);
    conn.send(&line).expect("send a frame");
}

/// Plays `console` through nestor until `pieces` pieces locked (or the game ended), numbering
/// frames from `first`; `pending` is the answer a previous call left unpressed. The frame the
/// last piece locked in is sent and answered, so nestor has seen it; that answer is returned
/// unpressed in `Played::pending`, with the next frame number.
pub fn play(
    conn: &mut Conn,
    ranges: &Ranges,
    console: &mut ModelConsole,
    first: u64,
    pieces: u64,
    pending: Option<PadState>,
) -> (Played, u64) {
    let mut seen = Played::default();
    let mut n = first;
    if let Some(pad) = pending {
        console.frame(pad).expect("the model runs");
    }
    loop {
        send_frame(conn, ranges, n, console);
        let (pad, lock) = match conn.msg() {
            Some(ServerMsg::Pad { number, pad, lock }) => {
                assert_eq!(number, n, "the answer is for another frame");
                (pad, lock)
            }
            other => panic!("expected pad for frame {n}, got {other:?}"),
        };
        n += 1;
        seen.frames += 1;
        if seen.pieces >= pieces || seen.game_over {
            seen.pending = Some(pad);
            return (seen, n);
        }
        if lock.is_some() {
            seen.last_lock = lock;
        }
        console.frame(pad).expect("the model runs");
        let ev = console.events();
        if let Some(p) = ev.locked {
            let (x, y, id) = (p.x, p.y, p.id());
            seen.pieces += 1;
            if seen.last_lock != Some(cells_of(x, y, id)) {
                seen.lock_mismatches += 1;
            }
        }
        seen.game_over |= console.game().is_over();
    }
}

/// Parses `key=value` words of a `bye` summary.
pub fn summary_value(summary: &str, key: &str) -> u64 {
    summary
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in `{summary}`"))
}

/// A frame nobody asked for: pad PadState::NONE (for the tests that break the protocol).
pub const NONE: PadState = PadState::NONE;
