//! `nestor replay ROM MOVIE.fm2`: replays a movie from power-on on the real cartridge and
//! prints the final score, lines and level read from RAM, the frames run and whether the
//! game was over.

use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use serde_json::json;

use nestor::game::score::bcd_value;
use nestor::movie::{ChecksumCheck, Replay};
use nestor::nes::observe::RamSnapshot;
use nestor::nes::{AddressMap, Console as _, NesDeck, Rom, Video};
use nestor::ui::{NesView, ViewEvent};

/// The cartridge, the RAM map and the checked movie, shared by `replay` and `trace`.
pub struct Loaded {
    pub rom: Rom,
    pub map: AddressMap,
    pub replay: Replay,
    pub checksum: ChecksumCheck,
}

/// Loads and cross-checks everything a replay needs; every failure says which file.
pub fn load(
    rom: &Path,
    movie: &Path,
    allow_unknown_rom: bool,
    addresses: Option<&Path>,
    force: bool,
) -> Result<Loaded> {
    let rom = Rom::load(rom, allow_unknown_rom)?;
    let map = match addresses {
        Some(p) => AddressMap::load(p)?,
        None => AddressMap::default(),
    };
    let replay = Replay::load(movie)?;
    let checksum = replay
        .check_rom(&rom.prg_chr_md5, force)
        .with_context(|| format!("{}", movie.display()))?;
    if checksum == ChecksumCheck::ForcedMismatch {
        eprintln!(
            "warning: {}: the movie's romChecksum is not this ROM's; replaying anyway (--force)",
            movie.display()
        );
    }
    Ok(Loaded {
        rom,
        map,
        replay,
        checksum,
    })
}

pub fn run(args: &crate::ReplayArgs) -> Result<ExitCode> {
    let loaded = load(
        &args.rom,
        &args.movie,
        args.allow_unknown_rom,
        args.addresses.as_deref(),
        args.force,
    )?;
    let mut view = if args.headless {
        None
    } else {
        match NesView::open(&format!("nestor replay: {}", args.movie.display()), 3) {
            Ok(v) => {
                eprintln!("window: {}", NesView::KEYS);
                Some(v)
            }
            Err(e) => {
                eprintln!("no window ({e}); replaying headless");
                None
            }
        }
    };
    let video = if view.is_some() {
        Video::On
    } else {
        Video::Headless
    };
    let mut deck = NesDeck::new(&loaded.rom, video)?;
    #[cfg(feature = "audio")]
    if let Some(v) = &mut view {
        // Mixing only when a device takes the samples; emulation is the same either way.
        deck.set_audio(v.open_audio());
    }
    let mut game_over = false;
    let frames = match &mut view {
        None => {
            let bar = super::progress::bar(loaded.replay.pads().len() as u64, "frames");
            let end = loaded
                .replay
                .run(&mut deck, |f| {
                    bar.inc(1);
                    game_over |= RamSnapshot::read(f.ram, &loaded.map).topped_out();
                    ControlFlow::Continue(())
                })?
                .frames;
            bar.finish_and_clear();
            end
        }
        Some(view) => {
            // The window needs the picture, which `Replay::run` keeps inside the console: step
            // the same pads (the movie was checked when loaded) frame by frame here.
            let mut n = 0;
            for pad in loaded.replay.pads() {
                deck.frame(pad)?;
                n += 1;
                game_over |= RamSnapshot::read(deck.ram(), &loaded.map).topped_out();
                #[cfg(feature = "audio")]
                view.queue_audio(deck.audio_samples());
                if view.show(deck.frame_buffer(), None)? == ViewEvent::Quit {
                    break;
                }
            }
            n
        }
    };
    let last = RamSnapshot::read(deck.ram(), &loaded.map);
    let (score, lines) = (bcd_value(&last.score_bcd), bcd_value(&last.lines_bcd));
    if args.json {
        let out = json!({
            "rom": loaded.rom.path.display().to_string(),
            "movie": args.movie.display().to_string(),
            "checksum": match loaded.checksum {
                ChecksumCheck::Match => "match",
                ChecksumCheck::ForcedMismatch => "forced mismatch",
            },
            "frames": frames,
            "score": score,
            "lines": lines,
            "level": last.level,
            "game_over": game_over,
            "game_mode": last.game_mode,
            "play_state": last.play_state,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{}: {} frames replayed; score {score}, lines {lines}, level {}; {}",
            args.movie.display(),
            frames,
            last.level,
            if game_over {
                "the game was over"
            } else {
                "the game was not over"
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
