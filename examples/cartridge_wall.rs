//! Games on the cartridge poked to a level near the 253/255 wall, played to the rebirth with no
//! run-ahead: `cargo run --release --example cartridge_wall -- ROM [GAMES] [LEVEL]` (benches/README.md).
//!
//! Game *N* is dealt as `nestor cartridge` deals it, by (*N*−1)×61 frames on the level menu; at
//! the first frame of play the level is set to LEVEL (default 252), the lines to 3,260 plus ten
//! a level above 252 (what a game from 19 has there), and the score to the cap.

use nestor::nes::{AddressMap, Driver, DriverConfig, NesDeck, Rom, Step, Video};
use nestor::search::{Planner, Standard};

/// A game from the poke to the rebirth is about 3,700 frames; a game that runs far longer has
/// lost its way (a hang the freeze watch did not call).
const FRAME_CAP: u64 = 30_000;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: cartridge_wall ROM [GAMES] [LEVEL (250-255)]";
    let path = args.get(1).ok_or_else(|| anyhow::anyhow!(usage))?;
    let games: u32 = args.get(2).map_or(Ok(10), |s| s.parse())?;
    let level: u8 = args.get(3).map_or(Ok(252), |s| s.parse())?;
    anyhow::ensure!((250..=255).contains(&level), "{usage}");
    let rom = Rom::load(path, false)?;
    let lines = 3260 + (u32::from(level) - 252) * 10;
    let (mut reborn, mut lost) = (0, 0);
    for g in 1..=games {
        let deck = NesDeck::new(&rom, Video::Headless)?;
        let planner = Planner::new(Standard::default());
        let config = DriverConfig { level: 19 };
        let mut d = Driver::new(deck, AddressMap::default(), planner, config)?;
        d.set_run_ahead(None);
        d.set_menu_wait((g - 1) * 61);
        while !d.is_playing() {
            d.step()?;
        }
        d.new_game(|deck| {
            deck.poke(0x64, level);
            deck.poke(0x70, ((lines % 100 / 10) << 4) as u8);
            deck.poke(0x71, (lines / 100) as u8);
            for a in 0x73..=0x75 {
                deck.poke(a, 0x99);
            }
        })?;
        let mut frames = 0u64;
        let end = loop {
            let step = d.step()?;
            frames += 1;
            if d.game().lines_at_rebirth.is_some() {
                reborn += 1;
                break "rebirth".to_string();
            }
            match step {
                Step::Crashed {
                    kind, level, lines, ..
                } => break format!("{kind} at level {level}, {lines} lines"),
                Step::GameOver { level, lines, .. } => {
                    break format!("top-out at level {level}, {lines} lines")
                }
                _ if frames > FRAME_CAP => break "no rebirth by the frame cap".into(),
                _ => {}
            }
        };
        if end != "rebirth" {
            lost += 1;
        }
        println!(
            "game {g}: {end} ({frames} frames, {} desyncs)",
            d.game().desyncs
        );
    }
    println!("rebirth {reborn} of {games}, {lost} lost (no run-ahead, from level {level})");
    Ok(())
}
