//! `nestor replay ROM MOVIE.fm2`: replays a movie from power-on on the real cartridge and
//! prints the final score, lines and level read from RAM, the frames run and whether the
//! game was over.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::Args;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use serde_json::json;

use nestor::game::score::bcd_value;
use nestor::movie::{ChecksumCheck, Replay};
use nestor::nes::observe::RamSnapshot;
use nestor::nes::{AddressMap, Console as _, NesDeck, Rom};
use nestor::ui::ViewEvent;

use super::args::ReplayRomOptions;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The cartridge.
    pub rom: PathBuf,
    /// The FM2 movie.
    pub movie: PathBuf,
    /// Run without a picture (neither the window nor the terminal).
    #[arg(long)]
    pub headless: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many frames (at least 1) [default: the whole movie].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,
    #[command(flatten)]
    pub rom_options: ReplayRomOptions,
}

/// The cartridge, the RAM map and the checked movie, shared by `replay` and `trace`.
pub struct Loaded {
    pub rom: Rom,
    pub map: AddressMap,
    pub replay: Replay,
    pub checksum: ChecksumCheck,
}

/// Loads and cross-checks everything a replay needs; every failure says which file.
pub fn load(rom: &Path, movie: &Path, options: &ReplayRomOptions) -> Result<Loaded> {
    let rom = super::load_rom(rom, options.rom.unknown.allow_unknown_rom)?;
    let map = AddressMap::load_or_default(options.rom.addresses.as_deref())?;
    // Every error of `Replay::load` names the file already.
    let replay = Replay::load(movie)?;
    let checksum = replay
        .check_rom(&rom.prg_chr_md5, options.force)
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

/// Games that topped out during the replay, and the last one's score, lines and level as they
/// stood on the frame its curtain started.
#[derive(Default)]
struct TopOuts {
    games: u32,
    last: Option<(u32, u32, u8)>,
    was: bool,
}

impl TopOuts {
    fn see(&mut self, s: &RamSnapshot) {
        let now = s.topped_out();
        if now && !self.was {
            self.games += 1;
            self.last = Some((bcd_value(&s.score_bcd), bcd_value(&s.lines_bcd), s.level));
        }
        self.was = now;
    }
}

pub fn run(args: &ReplayArgs) -> Result<ExitCode> {
    // Ctrl-C stops the replay; the result so far is printed as usual, and the exit code says
    // it was interrupted.
    let stop = super::interrupt::Interrupt::install();
    let loaded = load(&args.rom, &args.movie, &args.rom_options)?;
    let (mut view, video) = super::view::open_view(
        args.headless,
        &format!("nestor replay: {}", args.movie.display()),
        false,
    );
    let mut deck = NesDeck::new(&loaded.rom, video)?;
    #[cfg(feature = "audio")]
    if let Some(v) = &mut view {
        // Mixing only when a device takes the samples; emulation is the same either way.
        deck.set_audio(v.open_audio());
    }
    let mut topouts = TopOuts::default();
    let movie_frames = loaded.replay.movie().gameplay_frames().len() as u64;
    let limit = args.frames.unwrap_or(u64::MAX).min(movie_frames);
    let frames = match &mut view {
        None => {
            let bar = super::progress::bar(limit, "frames");
            let end = loaded
                .replay
                .run(&mut deck, |f| {
                    bar.inc(1);
                    topouts.see(&RamSnapshot::read(f.ram, &loaded.map));
                    if f.index as u64 + 1 >= limit || stop.requested() {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })?
                .frames;
            bar.finish_and_clear();
            end
        }
        Some(view) => {
            // The view needs each frame, which `Replay::run` keeps inside the console: step
            // the same pads (the movie was checked when loaded) frame by frame here.
            let mut n = 0;
            for pad in loaded.replay.pads().into_iter().take(limit as usize) {
                if stop.requested() {
                    break;
                }
                deck.frame(pad)?;
                n += 1;
                let ram = RamSnapshot::read(deck.ram(), &loaded.map);
                topouts.see(&ram);
                if view.show(&mut deck, &ram, None, None, &[])? == ViewEvent::Quit {
                    break;
                }
            }
            n
        }
    };
    // The terminal back to normal before the result.
    drop(view);
    let last = RamSnapshot::read(deck.ram(), &loaded.map);
    // After a top-out RAM may show the ending's count-up or the next game: report the game as
    // it stood when its curtain started.
    let (score, lines, level) = match topouts.last {
        Some(t) => t,
        None => (
            bcd_value(&last.score_bcd),
            bcd_value(&last.lines_bcd),
            last.level,
        ),
    };
    let game_over = topouts.games > 0;
    if args.json {
        let out = json!({
            "rom": loaded.rom.path.display().to_string(),
            "movie": args.movie.display().to_string(),
            "checksum": match loaded.checksum {
                ChecksumCheck::Match => "match",
                ChecksumCheck::ForcedMismatch => "forced mismatch",
            },
            "frames": frames,
            "movie_frames": movie_frames,
            "score": score,
            "lines": lines,
            "level": level,
            "game_over": game_over,
            "games_over": topouts.games,
            "game_mode": last.game_mode,
            "play_state": last.play_state,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{}: {frames} of {movie_frames} frames replayed; score {score}, lines {lines}, level \
             {level}; {}",
            args.movie.display(),
            match topouts.games {
                0 => "the game was not over".to_string(),
                1 => "the game was over (as it stood at the top-out)".to_string(),
                n => format!("{n} games ended; the last as it stood at its top-out"),
            }
        );
    }
    Ok(if stop.requested() {
        ExitCode::from(super::interrupt::EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestor::game::{Game, PlayState};

    #[test]
    fn top_outs_are_counted_once_with_the_score_at_the_curtain() {
        let mut g = Game::seeded(19, 1);
        g.score = [0x00, 0x50, 0x01]; // 15,000
        let mut t = TopOuts::default();
        t.see(&RamSnapshot::from_game(&g));
        assert_eq!(t.games, 0);
        g.play_state = PlayState::Curtain;
        t.see(&RamSnapshot::from_game(&g));
        g.score = [0, 0, 0]; // e.g. the ending counting the score up again
        t.see(&RamSnapshot::from_game(&g));
        assert_eq!((t.games, t.last), (1, Some((15_000, 0, 19))));
        g.play_state = PlayState::Control;
        t.see(&RamSnapshot::from_game(&g));
        g.play_state = PlayState::Curtain;
        t.see(&RamSnapshot::from_game(&g));
        assert_eq!(t.games, 2);
    }
}
