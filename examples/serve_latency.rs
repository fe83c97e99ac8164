//! The time nestor adds per frame across the bridge: a `nestor serve` session (in a thread, on
//! real named pipes or loopback TCP) plays the rules model, which stands in for the emulator;
//! the client times each `frame` line to its `pad` answer (the emulator's wait), the model's
//! own step excluded.
//!
//! `cargo run --release --example serve_latency -- [PIECES] [pipe|tcp]` (default 300 pipe).

use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

use nestor::game::Game;
use nestor::nes::{AddressMap, Console, DriverConfig, ModelConsole};
use nestor::search::{Planner, Standard, Weights};
use nestor::serve::protocol::encode_hex;
#[cfg(unix)]
use nestor::serve::transport::{accept_tcp, listen_tcp, FifoPair};
use nestor::serve::{session, BridgeConsole, ServerMsg};

fn serve<R: BufRead, W: Write>(r: R, w: W) {
    let map = AddressMap::default();
    let console = BridgeConsole::accept(r, w, &map).expect("hello");
    let planner = Planner::new(Standard::new(Weights::default_set()));
    let live = session::Live::default();
    let report = session::run(console, &map, planner, DriverConfig { level: 19 }, &live);
    eprintln!("server: {} ({report})", report.end);
}

#[cfg(not(unix))]
fn main() {
    eprintln!("serve_latency needs Unix (named pipes)");
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pieces: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let tcp = args.get(2).is_some_and(|a| a == "tcp");
    let tmp = tempfile::tempdir().expect("temp dir");
    let (mut reader, mut writer): (Box<dyn BufRead>, Box<dyn Write>);
    let server;
    if tcp {
        let l = listen_tcp("127.0.0.1:0".parse().unwrap(), false).expect("listen");
        let addr = l.local_addr().unwrap();
        server = std::thread::spawn(move || {
            let (r, w, _) = accept_tcp(&l).expect("accept");
            serve(r, w);
        });
        let s = std::net::TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).unwrap();
        reader = Box::new(BufReader::new(s.try_clone().unwrap()));
        writer = Box::new(s);
    } else {
        let pair = FifoPair::create(&tmp.path().join("pipes")).expect("pipes");
        let (to, from) = (pair.to_nestor(), pair.from_nestor());
        server = std::thread::spawn(move || {
            let (r, w) = pair.accept().expect("accept");
            serve(r, w);
        });
        writer = Box::new(std::fs::OpenOptions::new().write(true).open(to).unwrap());
        reader = Box::new(BufReader::new(std::fs::File::open(from).unwrap()));
    }
    let mut line = String::new();
    writeln!(writer, "hello 1 bench play").unwrap();
    writer.flush().unwrap();
    reader.read_line(&mut line).unwrap();
    let Ok(ServerMsg::Hello { ranges, .. }) = ServerMsg::parse(line.trim_end()) else {
        panic!("no hello: {line}");
    };
    let mut console = ModelConsole::new(Game::seeded(19, 0x1A7E), AddressMap::default());
    let (mut waits, mut spawn_waits) = (Vec::new(), Vec::new());
    let (mut bytes, mut out) = (Vec::new(), String::new());
    let mut locked = 0;
    let mut first = Duration::ZERO;
    let start = Instant::now();
    for n in 0.. {
        // The frame that shows a new piece: nestor plans it before answering.
        let after_spawn = n > 0 && console.events().spawned;
        ranges.gather(console.ram(), &mut bytes);
        out.clear();
        out.push_str(&format!("frame {n} "));
        encode_hex(&bytes, &mut out);
        out.push('\n');
        let t = Instant::now();
        writer.write_all(out.as_bytes()).unwrap();
        writer.flush().unwrap();
        line.clear();
        reader.read_line(&mut line).unwrap();
        let wait = t.elapsed();
        let Ok(ServerMsg::Pad { pad, .. }) = ServerMsg::parse(line.trim_end()) else {
            panic!("expected pad: {line}");
        };
        if n == 0 {
            first = wait;
        } else if after_spawn {
            spawn_waits.push(wait);
        } else {
            waits.push(wait);
        }
        console.frame(pad).unwrap();
        locked += u64::from(console.events().locked.is_some());
        if locked >= pieces || console.game().is_over() {
            break;
        }
    }
    let total = start.elapsed();
    writeln!(writer, "bye").unwrap();
    writer.flush().unwrap();
    line.clear();
    reader.read_line(&mut line).unwrap();
    drop(writer);
    server.join().unwrap();
    let frames = waits.len() + spawn_waits.len();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let stats = |name: &str, v: &mut Vec<Duration>| {
        v.sort();
        if v.is_empty() {
            return;
        }
        let mean = v.iter().map(|d| us(*d)).sum::<f64>() / v.len() as f64;
        let p = |q: f64| us(v[((v.len() - 1) as f64 * q) as usize]);
        println!(
            "{name}: {} frames, mean {mean:.0} µs, median {:.0} µs, p99 {:.0} µs, max {:.0} µs",
            v.len(),
            p(0.5),
            p(0.99),
            p(1.0)
        );
    };
    println!(
        "{}: {locked} pieces, {frames} frames in {:.2} s ({:.0} frames/s with the model's steps)",
        if tcp { "loopback TCP" } else { "named pipes" },
        total.as_secs_f64(),
        frames as f64 / total.as_secs_f64()
    );
    println!(
        "the first frame (the driver starts, plans the first piece): {:.0} µs",
        us(first)
    );
    stats("frames without a new piece", &mut waits);
    stats("the frame after each spawn (the plan)", &mut spawn_waits);
    println!("nestor's answer: {}", line.trim_end());
}
