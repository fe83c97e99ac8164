//! `nestor serve`: waits for an emulator's script (lua/nestor-fceux.lua) on a pipe pair and/or a
//! loopback TCP port and plays the game it shows, one connection after another, until stopped.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;

use nestor::nes::{AddressMap, DriverConfig};
use nestor::search::{Planner, Standard, Weights};
use nestor::serve::transport::{self, FifoPair};
use nestor::serve::{session, BridgeConsole, BridgeError, SessionReport};

/// How long a TCP client may take to say hello (and send its first frame) before the next
/// client is served: a silent one must not hold the others.
pub const HELLO_LIMIT: Duration = Duration::from_secs(5);

/// The TCP address `--tcp` uses when given no value.
pub const DEFAULT_TCP: &str = "127.0.0.1:7157";

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Folder of the named pipes the emulator's script opens, where lua/nestor-fceux.lua
    /// looks [default: $XDG_RUNTIME_DIR/nestor, else /tmp/nestor-$USER].
    #[arg(long, value_name = "DIR")]
    pub fifo: Option<PathBuf>,
    /// No pipes: serve TCP only.
    #[arg(long, conflicts_with = "fifo", requires = "tcp")]
    pub no_fifo: bool,
    /// Also listen on TCP (for scripts with sockets: LuaSocket, BizHawk, Mesen), at an address
    /// or HOST:PORT (localhost:7157) [default ADDR: 127.0.0.1:7157].
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DEFAULT_TCP, value_parser = super::args::parse_tcp)]
    pub tcp: Option<SocketAddr>,
    /// Allow a --tcp address other than loopback (anyone who reaches it can drive nestor).
    #[arg(long)]
    pub listen_any: bool,
    /// A-type start level the bot picks in the menus (0-19).
    #[arg(long, default_value_t = 19, value_parser = nestor::nes::settings::parse_level)]
    pub level: u8,
    #[command(flatten)]
    pub bot: super::args::BotArgs,
    /// RAM map (TOML, as addresses.toml): decides which RAM the emulator is asked for
    /// [default: the built-in map].
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
    /// Serve one connection, print its summary (JSON with --json) and exit.
    #[arg(long)]
    pub once: bool,
    /// With --once: the summary as JSON.
    #[arg(long, requires = "once")]
    pub json: bool,
}

/// What each transport's thread needs to make a planner per connection.
#[derive(Clone)]
struct Brain {
    weights: Weights,
    profile: nestor::movegen::profile::Profile,
    map: AddressMap,
    level: u8,
}

impl Brain {
    /// Serves one connection; `greeted` runs once the script's hello and first frame came.
    fn serve<R: std::io::BufRead, W: std::io::Write>(
        &self,
        reader: R,
        writer: W,
        from: &str,
        greeted: impl FnOnce(),
        live: &session::Live,
    ) -> Option<SessionReport> {
        let console = match BridgeConsole::accept(reader, writer, &self.map) {
            Ok(c) => c,
            Err(BridgeError::Closed) => {
                log::info!("{from}: closed before saying hello");
                return None;
            }
            Err(BridgeError::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                eprintln!(
                    "serve: {from}: no hello within {} s; serving the next client",
                    HELLO_LIMIT.as_secs()
                );
                return None;
            }
            Err(e) => {
                eprintln!("serve: {from}: {e}");
                return None;
            }
        };
        greeted();
        let mut planner = Planner::new(Standard::new(self.weights.clone()));
        planner.profile = self.profile.clone();
        let config = DriverConfig { level: self.level };
        let report = session::run(console, &self.map, planner, config, live);
        eprintln!("serve: {}", left(&report, &report.end));
        Some(report)
    }
}

/// The line that says how a session ended.
fn left(report: &SessionReport, end: &str) -> String {
    format!(
        "{} ({}) left: {end}; {report}",
        report.client,
        report.mode.map_or("?", |m| m.word()),
    )
}

#[derive(serde::Serialize)]
struct ReportJson<'a> {
    client: &'a str,
    mode: &'static str,
    end: &'a str,
    frames: u64,
    pressed: u64,
    pieces: u64,
    desyncs: u64,
    games: u64,
    jumps: u64,
    recoveries: u64,
    echo_mismatches: u64,
    score: u32,
    lines: u32,
}

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    // A server outlives its clients: a write to a script that has gone must be an error to
    // handle (wait for the next one), not the SIGPIPE that main() restores for `| head`.
    // SAFETY: SIG_IGN is a valid disposition; no other thread changes signals.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    if args.level > 19 {
        return Err(super::args::bad_argument(format!(
            "--level {}: {}",
            args.level,
            nestor::nes::settings::LEVELS
        )));
    }
    // `--weights`, else the set the profile is paired with, as on every command that plans.
    let bot = args.bot.resolve()?;
    let map = AddressMap::load_or_default(args.addresses.as_deref())?;
    let brain = Brain {
        weights: bot.weights,
        profile: bot.profile,
        map,
        level: args.level,
    };
    let tcp = args
        .tcp
        .map(|addr| transport::listen_tcp(addr, args.listen_any))
        .transpose()?;
    let fifo = if args.no_fifo {
        None
    } else {
        let dir = args
            .fifo
            .clone()
            .unwrap_or_else(transport::default_fifo_dir);
        Some(FifoPair::create(&dir).with_context(|| "cannot make the pipes for the emulator")?)
    };
    let live: [Arc<session::Live>; 2] = Default::default();
    install_stop(fifo.as_ref().map(|f| f.dir().to_path_buf()), live.clone())?;
    if let Some(f) = &fifo {
        eprintln!(
            "serve: waiting on the pipes in {} (load lua/nestor-fceux.lua in FCEUX's Lua console)",
            f.dir().display()
        );
    }
    if let Some(l) = &tcp {
        eprintln!("serve: listening on {}", l.local_addr()?);
    }
    let (done, reports) = mpsc::channel::<SessionReport>();
    std::thread::scope(|s| -> Result<ExitCode> {
        if let Some(f) = &fifo {
            let (brain, done, live) = (brain.clone(), done.clone(), &live[0]);
            s.spawn(move || serve_pipes(f, &brain, &done, live, args.once));
        }
        if let Some(l) = &tcp {
            let (brain, done, live) = (brain.clone(), done.clone(), &live[1]);
            s.spawn(move || serve_tcp(l, &brain, &done, live, args.once));
        }
        drop(done);
        for report in reports {
            if args.once {
                print_report(&report, args.json)?;
                remove(fifo.as_ref());
                // The other transport's thread is blocked waiting: end the process here.
                std::process::exit(0);
            }
        }
        // Both transports ended on their own (the pipes could not be opened any more).
        bail!("no transport is left to serve on")
    })
}

/// Serves the pipes' clients one after another (only the first one's session with `once`).
fn serve_pipes(
    f: &FifoPair,
    brain: &Brain,
    done: &mpsc::Sender<SessionReport>,
    live: &session::Live,
    once: bool,
) {
    loop {
        match f.accept() {
            Ok((r, w)) => {
                if let Some(rep) = brain.serve(r, w, "pipe", || {}, live) {
                    let _ = done.send(rep);
                    if once {
                        // The main thread removes the pipes and exits: open nothing more.
                        return;
                    }
                }
            }
            Err(e) => {
                eprintln!("serve: {e}");
                return;
            }
        }
    }
}

/// Serves TCP clients one after another, each given `HELLO_LIMIT` to say hello.
fn serve_tcp(
    l: &std::net::TcpListener,
    brain: &Brain,
    done: &mpsc::Sender<SessionReport>,
    live: &session::Live,
    once: bool,
) {
    loop {
        match transport::accept_tcp(l) {
            Ok((r, w, peer)) => {
                let limited = w.set_read_timeout(Some(HELLO_LIMIT));
                let control = match limited.and_then(|()| w.try_clone()) {
                    Ok(c) => c,
                    Err(e) => {
                        log::warn!("{peer}: {e}");
                        continue;
                    }
                };
                // A paused emulator sends nothing for as long as it likes once it is playing.
                let greeted = || {
                    let _ = control.set_read_timeout(None);
                };
                if let Some(rep) = brain.serve(r, w, &peer.to_string(), greeted, live) {
                    let _ = done.send(rep);
                    if once {
                        return;
                    }
                }
            }
            Err(e) => log::warn!("a TCP client could not connect: {e}"),
        }
    }
}

fn remove(fifo: Option<&FifoPair>) {
    if let Some(f) = fifo {
        f.remove();
    }
}

fn print_report(r: &SessionReport, json: bool) -> Result<()> {
    if json {
        let j = ReportJson {
            client: &r.client,
            mode: r.mode.map_or("?", |m| m.word()),
            end: &r.end,
            frames: r.frames,
            pressed: r.pressed,
            pieces: r.pieces,
            desyncs: r.desyncs,
            games: r.games,
            jumps: r.jumps,
            recoveries: r.recoveries,
            echo_mismatches: r.echo_mismatches,
            score: r.score,
            lines: r.lines,
        };
        println!("{}", serde_json::to_string(&j)?);
    } else {
        println!("{}: {}; {r}", r.client, r.end);
    }
    Ok(())
}

/// Ctrl-C and SIGTERM end the server at once (a session has nothing to save), after removing
/// the pipes so that the script does not open pipes nobody serves, and saying how the
/// sessions in progress stood.
fn install_stop(dir: Option<PathBuf>, live: [Arc<session::Live>; 2]) -> Result<()> {
    ctrlc::set_handler(move || {
        if let Some(d) = &dir {
            remove_pipes(d);
        }
        for l in &live {
            if let Some(r) = l.lock().ok().and_then(|mut r| r.take()) {
                eprintln!("serve: {}", left(&r, "the server was stopped"));
            }
        }
        eprintln!("serve: stopped");
        std::process::exit(i32::from(super::interrupt::EXIT_INTERRUPTED));
    })
    .context("cannot install the Ctrl-C handler")
}

fn remove_pipes(dir: &Path) {
    for name in [
        transport::TO_NESTOR,
        transport::FROM_NESTOR,
        transport::PID_FILE,
    ] {
        let _ = std::fs::remove_file(dir.join(name));
    }
}
