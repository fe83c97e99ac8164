//! `nestor play ROM`: the bot plays the real cartridge in tetanes-core through the driver, in
//! a window or headless, with a settings file, an FM2 recording, progress and a summary.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use nestor::movie::Movie;
use nestor::nes::settings::PlaySettings;
use nestor::nes::{AddressMap, Console as _, Driver, DriverConfig, GameCounts, NesDeck, Rom, Step};
use nestor::ui::ViewEvent;

use nestor::search::{Planner, Standard, Weights};

use crate::PlayArgs;

/// Every setting, after the file and the options are merged.
#[derive(Debug, Serialize)]
struct Settings {
    level: u8,
    games: u32,
    pieces: Option<u32>,
    frames: Option<u64>,
    headless: bool,
    show_plan: bool,
    weights: Option<PathBuf>,
    record: Option<PathBuf>,
    json: bool,
    allow_unknown_rom: bool,
    addresses: Option<PathBuf>,
}

impl Settings {
    fn merge(args: &PlayArgs, file: PlaySettings, file_name: &str) -> Result<Settings> {
        let level = args.level.or(file.level).unwrap_or(19);
        if level > 19 {
            bail!("{file_name}: `level` = {level}: an A-type game starts at level 0-19");
        }
        let games = args.games.or(file.games).unwrap_or(1);
        if games == 0 {
            bail!("`games` must be at least 1");
        }
        Ok(Settings {
            level,
            games,
            pieces: args.pieces.or(file.pieces),
            frames: args.frames.or(file.frames),
            headless: args.headless || file.headless.unwrap_or(false),
            show_plan: args.show_plan || file.show_plan.unwrap_or(false),
            weights: args.weights.clone().or(file.weights),
            record: args.record.clone().or(file.record),
            json: args.json || file.json.unwrap_or(false),
            allow_unknown_rom: args.allow_unknown_rom || file.allow_unknown_rom.unwrap_or(false),
            addresses: args.addresses.clone().or(file.addresses),
        })
    }

    /// One line per setting, for the movie's comments.
    fn comments(&self, rom: &Rom) -> Vec<String> {
        let mut c = vec![
            format!(
                "nestor play: A-type, start level {}, {} game(s)",
                self.level, self.games
            ),
            format!(
                "rom {} ({})",
                rom.path.display(),
                rom.known.unwrap_or("unknown dump, --allow-unknown-rom")
            ),
        ];
        let weights = self
            .weights
            .as_ref()
            .map_or("built-in".into(), |p| p.display().to_string());
        c.push(format!("weights {weights}"));
        if let Some(p) = self.pieces {
            c.push(format!("stopped after {p} pieces"));
        }
        if let Some(f) = self.frames {
            c.push(format!("stopped after {f} frames"));
        }
        c
    }
}

/// One game in the summary.
#[derive(Debug, Serialize)]
struct GameSummary {
    score: u32,
    lines: u32,
    level: u8,
    pieces: u32,
    tetris_rate: f64,
    desyncs: u32,
    /// False when a limit stopped the run during this game.
    finished: bool,
}

impl GameSummary {
    fn new(c: &GameCounts, finished: bool) -> GameSummary {
        GameSummary {
            score: c.score,
            lines: c.lines,
            level: c.level,
            pieces: c.pieces,
            tetris_rate: c.tetris_rate(),
            desyncs: c.desyncs,
            finished,
        }
    }
}

/// The run's summary (`--json` prints it as is).
#[derive(Debug, Serialize)]
struct Summary {
    rom: String,
    settings: Settings,
    /// The last game's score, lines and level.
    score: u32,
    lines: u32,
    level: u8,
    pieces: u32,
    tetris_rate: f64,
    desyncs: u32,
    frames: u64,
    seconds: f64,
    frames_per_second: f64,
    games: Vec<GameSummary>,
    record: Option<PathBuf>,
}

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let (file, file_name) = match &args.config {
        Some(p) => (PlaySettings::load(p)?, p.display().to_string()),
        None => (PlaySettings::default(), "--level".into()),
    };
    let settings = Settings::merge(args, file, &file_name)?;
    // Rom errors name the file and the problem (missing, not iNES, truncated, mapper, dump).
    // The message already includes the I/O cause; `anyhow!` keeps it from printing twice.
    let rom = Rom::load(&args.rom, settings.allow_unknown_rom).map_err(|e| anyhow!("{e}"))?;
    let map = match &settings.addresses {
        Some(p) => AddressMap::load(p)?,
        None => AddressMap::default(),
    };
    let weights = match &settings.weights {
        Some(p) => Weights::load(p)?,
        None => Weights::default_set(),
    };
    let (mut view, video) = super::open_view(settings.headless, &format!("nestor: {}", rom.name()));
    let deck = NesDeck::new(&rom, video)
        .with_context(|| format!("cannot start the emulator on {}", rom.path.display()))?;
    #[cfg(feature = "audio")]
    let mut deck = deck;
    #[cfg(feature = "audio")]
    if let Some(v) = &mut view {
        // Mixing only when a device takes the samples; emulation is the same either way.
        deck.set_audio(v.open_audio());
    }
    let mut movie = settings
        .record
        .as_ref()
        .map(|_| Movie::new_recording(rom.name(), rom.prg_chr_md5, settings.comments(&rom)));
    if let (Some(m), Some(path)) = (&movie, &settings.record) {
        // An unwritable --record path fails now, not after the game.
        m.save(path)?;
    }
    let standard = Standard::new(weights);
    let mut explain = args
        .explain
        .map(|n| super::explain::Explain::new(&standard, n));
    let mut driver = Driver::new(
        deck,
        map,
        Planner::new(standard),
        DriverConfig {
            level: settings.level,
        },
    )?;
    let progress = super::progress::spinner();
    let started = Instant::now();
    let mut games = Vec::new();
    let mut frames = 0u64;
    loop {
        if settings.frames.is_some_and(|f| frames >= f)
            || settings.pieces.is_some_and(|p| driver.total().pieces >= p)
        {
            if driver.is_playing() {
                games.push(GameSummary::new(driver.game(), false));
            }
            break;
        }
        let ran_before = driver.console().frame_number();
        let step = driver.step();
        if let Some(m) = &mut movie {
            // Recorded before any error so the movie shows the frame that failed, but only
            // when the frame really ran (an error can come before the emulator does).
            if driver.console().frame_number() != ran_before {
                m.push(driver.last_pad());
            }
        }
        let step = match step {
            Ok(s) => s,
            Err(e) => {
                progress.finish_and_clear();
                // Keep what was recorded: the movie shows how the run got there.
                if let (Some(m), Some(path)) = (&movie, &settings.record) {
                    m.save(path)?;
                    eprintln!(
                        "recorded {} frames up to the failure in {}",
                        m.frames.len(),
                        path.display()
                    );
                }
                return Err(e).with_context(|| format!("at frame {}", frames + 1));
            }
        };
        frames += 1;
        if let Some(e) = &mut explain {
            if e.update(&driver) {
                eprint!("frame {frames}:\n{}", e.text());
            }
        }
        if let Some(v) = &mut view {
            #[cfg(feature = "audio")]
            v.queue_audio(driver.console_mut().audio_samples());
            let plan = if settings.show_plan {
                driver.plan().map(|p| p.lock)
            } else {
                None
            };
            if v.show(driver.console_mut().frame_buffer(), plan.as_ref())? == ViewEvent::Quit {
                if driver.is_playing() {
                    games.push(GameSummary::new(driver.game(), false));
                }
                break;
            }
        }
        if let Step::GameOver { .. } = step {
            games.push(GameSummary::new(driver.game(), true));
            if driver.games_over() >= settings.games {
                break;
            }
        }
        if frames.is_multiple_of(30) {
            let g = driver.game();
            let fps = frames as f64 / started.elapsed().as_secs_f64().max(1e-9);
            progress.set_message(format!(
                "game {} | pieces {} | lines {} | score {} | desyncs {} | {fps:.0} fps",
                games.len() + 1,
                g.pieces,
                g.lines,
                g.score,
                driver.total().desyncs
            ));
            progress.tick();
        }
    }
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if let (Some(m), Some(path)) = (&movie, &settings.record) {
        m.save(path)?;
    }
    let total = driver.total();
    let last = games.last();
    let summary = Summary {
        rom: rom.path.display().to_string(),
        score: last.map_or(0, |g| g.score),
        lines: last.map_or(0, |g| g.lines),
        level: last.map_or(settings.level, |g| g.level),
        pieces: total.pieces,
        tetris_rate: {
            let lines: u32 = games.iter().map(|g| g.lines).sum();
            let tetris_lines = total.tetrises * 4;
            if lines == 0 {
                0.0
            } else {
                f64::from(tetris_lines) / f64::from(lines)
            }
        },
        desyncs: total.desyncs,
        frames,
        seconds,
        frames_per_second: frames as f64 / seconds.max(1e-9),
        games,
        record: settings.record.clone(),
        settings,
    };
    if summary.settings.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_summary(s: &Summary) {
    for (i, g) in s.games.iter().enumerate() {
        println!(
            "game {}: score {}, lines {}, level {}, pieces {}, tetris rate {:.1}%, desyncs {}{}",
            i + 1,
            g.score,
            g.lines,
            g.level,
            g.pieces,
            g.tetris_rate * 100.0,
            g.desyncs,
            if g.finished { "" } else { " (stopped)" }
        );
    }
    println!(
        "score {}, lines {}, level {}, pieces {}, tetris rate {:.1}%, desyncs {}",
        s.score,
        s.lines,
        s.level,
        s.pieces,
        s.tetris_rate * 100.0,
        s.desyncs
    );
    println!(
        "{} frames in {:.2} s: {:.0} frames per second ({:.1}x real time)",
        s.frames,
        s.seconds,
        s.frames_per_second,
        s.frames_per_second / 60.0988
    );
    if let Some(r) = &s.record {
        println!("recorded {}", r.display());
    }
}
