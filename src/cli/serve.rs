//! `nestor serve`: waits for an emulator's script (lua/nestor-fceux.lua) on a pipe pair and/or a
//! loopback TCP port and plays the game it shows, one connection after another, until stopped.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;

use anyhow::{bail, Context, Result};
use clap::Args;

use nestor::nes::{AddressMap, DriverConfig};
use nestor::search::{Planner, Standard, Weights};
use nestor::serve::transport::{self, FifoPair};
use nestor::serve::{session, BridgeConsole, BridgeError, SessionReport};

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
    profile: nestor::search::profile::Profile,
    map: AddressMap,
    level: u8,
}

impl Brain {
    fn serve<R: std::io::BufRead, W: std::io::Write>(
        &self,
        reader: R,
        writer: W,
        from: &str,
    ) -> Option<SessionReport> {
        let console = match BridgeConsole::accept(reader, writer, &self.map) {
            Ok(c) => c,
            Err(BridgeError::Closed) => {
                log::info!("{from}: closed before saying hello");
                return None;
            }
            Err(e) => {
                eprintln!("serve: {from}: {e}");
                return None;
            }
        };
        let mut planner = Planner::new(Standard::new(self.weights.clone()));
        planner.profile = self.profile.clone();
        let config = DriverConfig { level: self.level };
        let report = session::run(console, &self.map, planner, config);
        eprintln!(
            "serve: {} ({}) left: {}; {report}",
            report.client,
            report.mode.map_or("?", |m| m.word()),
            report.end
        );
        Some(report)
    }
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
    install_stop(fifo.as_ref().map(|f| f.dir().to_path_buf()))?;
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
            let (brain, done) = (brain.clone(), done.clone());
            s.spawn(move || loop {
                match f.accept() {
                    Ok((r, w)) => {
                        if let Some(rep) = brain.serve(r, w, "pipe") {
                            let _ = done.send(rep);
                        }
                    }
                    Err(e) => {
                        eprintln!("serve: {e}");
                        return;
                    }
                }
            });
        }
        if let Some(l) = &tcp {
            let (brain, done) = (brain.clone(), done.clone());
            s.spawn(move || loop {
                match transport::accept_tcp(l) {
                    Ok((r, w, peer)) => {
                        if let Some(rep) = brain.serve(r, w, &peer.to_string()) {
                            let _ = done.send(rep);
                        }
                    }
                    Err(e) => log::warn!("a TCP client could not connect: {e}"),
                }
            });
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
/// the pipes so that the script does not open pipes nobody serves.
fn install_stop(dir: Option<PathBuf>) -> Result<()> {
    ctrlc::set_handler(move || {
        if let Some(d) = &dir {
            remove_pipes(d);
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
