//! Frames per second of the bot loop: the driver against the bare console it drives.
//! `cargo run --release --example emu_speed [-- ROM [FRAMES]]` (see benches/README.md).

use std::hint::black_box;
use std::time::Instant;

use nestor::game::{Game, PadState};
use nestor::lab::selfplay::{Limits, SelfPlay};
use nestor::nes::{
    AddressMap, Console, Driver, DriverConfig, ModelConsole, NesDeck, RamSnapshot, Rom, Video,
};
use nestor::search::{Planner, Standard};

fn per_frame_us(secs: f64, frames: u64) -> f64 {
    secs * 1e6 / frames.max(1) as f64
}

/// The driver on the rules model against the model-only self-play loop on the same games
/// (identical plans and frames), and the bare frame cost of each console without planning.
fn model(seeds: u64, pieces: u32) {
    let (mut t_self, mut t_drv, mut frames) = (0.0, 0.0, 0u64);
    for seed in 1..=seeds {
        let mut planner = Planner::new(Standard::default());
        let mut game = Game::seeded(19, seed);
        let t = Instant::now();
        let limits = Limits {
            max_pieces: Some(pieces),
            max_frames: None,
        };
        let stats = SelfPlay::new(&mut planner, &game).run(&mut game, limits);
        t_self += t.elapsed().as_secs_f64();
        let console = ModelConsole::new(Game::seeded(19, seed), AddressMap::default());
        let mut d = Driver::new(
            console,
            AddressMap::default(),
            Planner::new(Standard::default()),
            DriverConfig { level: 19 },
        )
        .expect("in play");
        let t = Instant::now();
        for _ in 0..stats.frames {
            d.step().expect("model frames do not fail");
        }
        t_drv += t.elapsed().as_secs_f64();
        assert_eq!(
            d.console().game(),
            &game,
            "driver and self-play must play alike"
        );
        frames += stats.frames;
    }
    println!("rules model, {seeds} games of up to {pieces} pieces at level 19, {frames} frames:");
    println!(
        "  self-play on Game:        {:8.2} µs/frame ({:.0} frames/s)",
        per_frame_us(t_self, frames),
        frames as f64 / t_self
    );
    println!(
        "  Driver on ModelConsole:   {:8.2} µs/frame ({:.0} frames/s)",
        per_frame_us(t_drv, frames),
        frames as f64 / t_drv
    );
    println!(
        "  driver + RAM overhead:    {:8.2} µs/frame",
        per_frame_us(t_drv - t_self, frames)
    );
    // Without planning: one frame of the bare model, and of the model console plus the RAM read
    // the driver does every frame.
    let n = 200_000u64;
    let mut g = Game::seeded(19, 7);
    let t = Instant::now();
    for i in 0..n {
        if g.is_over() {
            g = Game::seeded(19, i);
        }
        black_box(g.step(PadState::NONE));
    }
    let bare = t.elapsed().as_secs_f64();
    let map = AddressMap::default();
    let mut c = ModelConsole::new(Game::seeded(19, 7), map.clone());
    let t = Instant::now();
    for i in 0..n {
        if c.game().is_over() {
            c = ModelConsole::new(Game::seeded(19, i), map.clone());
        }
        c.frame(PadState::NONE).expect("model");
        black_box(RamSnapshot::read(c.ram(), &map));
    }
    let console = t.elapsed().as_secs_f64();
    println!(
        "  no planning: Game::step {:.3} µs/frame; ModelConsole::frame + RamSnapshot::read {:.3} µs/frame",
        per_frame_us(bare, n),
        per_frame_us(console, n)
    );
}

/// The driver on the cartridge (menus, then play) against the bare `clock_frame` loop.
fn rom(path: &str, frames: u64) -> Result<(), Box<dyn std::error::Error>> {
    let rom = Rom::load(path, false)?;
    let mut deck = NesDeck::new(&rom, Video::Headless)?;
    let t = Instant::now();
    for _ in 0..frames {
        deck.frame(PadState::NONE)?;
    }
    let raw = t.elapsed().as_secs_f64();
    let deck = NesDeck::new(&rom, Video::Headless)?;
    let mut d = Driver::new(
        deck,
        AddressMap::default(),
        Planner::new(Standard::default()),
        DriverConfig { level: 19 },
    )?;
    let t = Instant::now();
    let mut games = 0;
    for _ in 0..frames {
        if let nestor::nes::Step::GameOver { .. } = d.step()? {
            games += 1;
        }
    }
    let drv = t.elapsed().as_secs_f64();
    println!("cartridge {path}, {frames} frames from power-on:");
    println!(
        "  clock_frame loop:   {:8.1} µs/frame ({:.0} frames/s)",
        per_frame_us(raw, frames),
        frames as f64 / raw
    );
    println!(
        "  Driver (play -h):   {:8.1} µs/frame ({:.0} frames/s), {} pieces, {} game(s) over, {} desyncs",
        per_frame_us(drv, frames),
        frames as f64 / drv,
        d.total().pieces,
        games,
        d.total().desyncs
    );
    println!("  driver / raw time:  {:.3}", drv / raw);
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    model(5, 300);
    if let Some(path) = args.first() {
        let frames = args.get(1).and_then(|f| f.parse().ok()).unwrap_or(30_000);
        if let Err(e) = rom(path, frames) {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    } else {
        println!("(pass the Tetris ROM to also time the cartridge: emu_speed ROM [FRAMES])");
    }
}
