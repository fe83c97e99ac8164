//! `nestor play ROM`: the bot plays the real cartridge in tetanes-core through the driver (or,
//! for tests, the rules model), in a window or headless, recording, interruptible, summarised.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use nestor::game::Game;
use nestor::movie::{Header, Movie};
use nestor::nes::settings::PlaySettings;
use nestor::nes::{
    AddressMap, Console, Driver, DriverConfig, DriverError, FaultyPad, MenuError, ModelConsole,
    NesDeck, Step,
};
use nestor::search::explain::Explanation;
use nestor::search::profile::Profile;
use nestor::search::{Planner, Standard, Weights};
use nestor::ui::ViewEvent;

use super::explain::Explain;
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};
use super::play_summary::{GameEnd, GameSummary, Summary, Totals};
use crate::PlayArgs;

/// Seed of the fault injector (mixed with the model console's seed).
const FAULT_SEED: u64 = 0x5EED_FA17;

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
    #[serde(serialize_with = "super::profile::serialize")]
    profile: Profile,
}

impl Settings {
    fn merge(args: &PlayArgs, file: PlaySettings, file_name: &str) -> Result<Settings> {
        let level = args.level.or(file.level).unwrap_or(19);
        // The menus offer 0-19; the model console (tests) starts any level up to 29.
        let top = if args.model_console.is_some() { 29 } else { 19 };
        if level > top {
            let from = if args.level.is_some() {
                "--level"
            } else {
                file_name
            };
            bail!("{from}: `level` = {level}: an A-type game starts at level 0-19");
        }
        let profile = match (&args.profile, &file.profile) {
            (Some(p), _) => super::profile::resolve(p)?,
            (None, Some(p)) => {
                super::profile::resolve(p).with_context(|| format!("{file_name}: `profile`"))?
            }
            (None, None) => Profile::default(),
        };
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
            profile,
        })
    }

    /// One line per setting, for the movie's comments. Files are named without their folders:
    /// a movie is shared, the user's directory layout is not.
    fn comments(&self, rom: &str) -> Vec<String> {
        let name = |p: &PathBuf| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        };
        let mut c = vec![
            format!(
                "nestor play: A-type, start level {}, {} game(s)",
                self.level, self.games
            ),
            rom.to_string(),
        ];
        let weights = self.weights.as_ref().map_or("built-in".into(), name);
        c.push(format!("weights {weights}"));
        c.push(Header::profile_comment(&self.profile));
        if let Some(p) = self.pieces {
            c.push(format!("stopped after {p} pieces"));
        }
        if let Some(f) = self.frames {
            c.push(format!("stopped after {f} frames"));
        }
        c
    }
}

/// How the run ended.
enum End {
    /// Every game asked for was played.
    Done,
    /// A limit or the window's Esc.
    Stopped,
    Interrupted,
    Failed(anyhow::Error),
}

/// What the loop leaves: the games, the frames run and why it ended.
struct Run {
    games: Vec<GameSummary>,
    frames: u64,
    seconds: f64,
    end: End,
}

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let (file, file_name) = match &args.config {
        Some(p) => (PlaySettings::load(p)?, p.display().to_string()),
        None => (PlaySettings::default(), "--level".into()),
    };
    let profile_file = args
        .profile
        .clone()
        .or(file.profile.clone())
        .map(PathBuf::from);
    let mut settings = Settings::merge(args, file, &file_name)?;
    // The recording must never replace an input, and an unwritable path fails now, before
    // anything runs.
    if let Some(out) = &settings.record {
        let mut inputs = Vec::new();
        let named = [
            ("ROM", args.rom.as_ref()),
            ("settings file", args.config.as_ref()),
            ("weights file", settings.weights.as_ref()),
            ("addresses file", settings.addresses.as_ref()),
            ("profile file", profile_file.as_ref()),
        ];
        for (role, p) in named {
            if let Some(p) = p {
                inputs.push((role, p.as_path()));
            }
        }
        super::output::check_output("--record", out, &inputs)?;
    }
    if args.model_console.is_some() {
        settings.headless = !args.model_window;
        if settings.record.is_some() && settings.games > 1 {
            bail!("--record on the model console records one game: use --games 1");
        }
    }
    if settings.show_plan && settings.headless {
        eprintln!("warning: --show-plan outlines the plan in the window; there is none headless");
    }
    let weights = match &settings.weights {
        Some(p) => Weights::load(p)?,
        None => Weights::default_set(),
    };
    let standard = Standard::new(weights);
    let explain = args.explain.map(|n| Explain::new(&standard, n));
    let mut planner = Planner::new(standard);
    planner.profile = settings.profile.clone();
    let stop = Interrupt::install();
    let rate = args.inject_faults.unwrap_or(0.0);
    match (args.model_console, &args.rom) {
        (Some(seed), _) => {
            let delay = std::time::Duration::from_micros(args.model_frame_delay_us.unwrap_or(0));
            play_model(settings, seed, planner, explain, rate, delay, &stop)
        }
        (None, Some(rom)) => play_rom(rom, settings, planner, explain, rate, &stop),
        (None, None) => bail!("`nestor play` needs a ROM"),
    }
}

/// The real cartridge in tetanes-core, through the menus.
fn play_rom(
    path: &std::path::Path,
    settings: Settings,
    planner: Planner<Standard>,
    explain: Option<Explain>,
    rate: f64,
    stop: &Interrupt,
) -> Result<ExitCode> {
    // Rom errors name the file and the problem (missing, not iNES, truncated, mapper, dump).
    // The message already includes the I/O cause; `anyhow!` keeps it from printing twice.
    let rom = super::load_rom(path, settings.allow_unknown_rom).map_err(|e| anyhow!("{e}"))?;
    let map = match &settings.addresses {
        Some(p) => AddressMap::load(p)?,
        None => AddressMap::default(),
    };
    let title = format!("nestor: {}", rom.name());
    let (mut view, video) = super::open_view(settings.headless, &title, explain.is_some());
    let deck = NesDeck::new(&rom, video)
        .with_context(|| format!("cannot start the emulator on {}", rom.path.display()))?;
    #[cfg(feature = "audio")]
    let mut deck = deck;
    #[cfg(feature = "audio")]
    if let Some(v) = &mut view {
        // Mixing only when a device takes the samples; emulation is the same either way.
        deck.set_audio(v.open_audio());
    }
    let rom_comment = format!(
        "rom {} ({})",
        rom.file_name(),
        rom.known.unwrap_or("unknown dump, --allow-unknown-rom")
    );
    let mut movie = settings.record.as_ref().map(|_| {
        Movie::new_recording(rom.name(), rom.prg_chr_md5, settings.comments(&rom_comment))
    });
    let mut driver = Driver::new(
        FaultyPad::new(deck, rate, FAULT_SEED),
        map,
        planner,
        DriverConfig {
            level: settings.level,
        },
    )?;
    let show_plan = settings.show_plan;
    let mut run = drive(
        &mut driver,
        &settings,
        &mut movie,
        stop,
        explain,
        |d, top| {
            let Some(v) = &mut view else {
                return Ok(false);
            };
            #[cfg(feature = "audio")]
            v.queue_audio(d.console_mut().inner_mut().audio_samples());
            let plan = if show_plan {
                d.plan().map(|p| p.lock)
            } else {
                None
            };
            let frame = d.console_mut().inner_mut().frame_buffer();
            Ok(v.show_explained(frame, plan.as_ref(), top)? == ViewEvent::Quit)
        },
        |_| Ok(()),
    );
    if let End::Failed(e) = &mut run.end {
        // A cartridge accepted with --allow-unknown-rom whose menus never behave as Tetris's.
        let menus = matches!(
            e.downcast_ref::<DriverError>(),
            Some(DriverError::Menu(MenuError::Timeout { .. }))
        );
        if menus && rom.known.is_none() {
            let taken = std::mem::replace(e, anyhow!(""));
            *e = taken.context(format!(
                "{} does not look like Tetris (U) [!]",
                rom.path.display()
            ));
        }
    }
    let faults = driver.console().faults();
    finish(
        run,
        (faults, driver.run_ahead()),
        &settings,
        movie,
        rom.path.display().to_string(),
    )
}

/// The rules model through the same driver: no ROM, no menus; each game is a fresh seeded
/// model game (the next seed), started by the driver's `new_game`.
fn play_model(
    settings: Settings,
    seed: u64,
    planner: Planner<Standard>,
    explain: Option<Explain>,
    rate: f64,
    frame_delay: std::time::Duration,
    stop: &Interrupt,
) -> Result<ExitCode> {
    let map = match &settings.addresses {
        Some(p) => AddressMap::load(p)?,
        None => AddressMap::default(),
    };
    let level = settings.level;
    let console = ModelConsole::new(Game::seeded(level, seed), map.clone());
    let rom_comment = format!(
        "model console: seed {seed}, start level {level} (replays on nestor's rules model, \
         not on a cartridge)"
    );
    let mut movie = settings
        .record
        .as_ref()
        .map(|_| Movie::new_recording("nestor-model", [0; 16], settings.comments(&rom_comment)));
    let mut driver = Driver::new(
        FaultyPad::new(console, rate, FAULT_SEED ^ seed),
        map.clone(),
        planner,
        DriverConfig { level },
    )?;
    let mut next_seed = seed;
    let mut view = (!settings.headless)
        .then(|| super::open_board_view("nestor play: model console", explain.is_some()))
        .transpose()?;
    let mut picture = nestor::ui::Frame::new(0, 0, [0; 3]);
    let show_plan = settings.show_plan;
    let run = drive(
        &mut driver,
        &settings,
        &mut movie,
        stop,
        explain,
        |d, top| {
            if let Some(v) = &mut view {
                let opts = nestor::ui::DrawOptions {
                    plan: d.plan().map(|p| p.lock).filter(|_| show_plan),
                    pieces: Some(d.game().pieces),
                    ..Default::default()
                };
                nestor::ui::render::draw_game_into(d.console().inner().game(), &opts, &mut picture);
                return Ok(v.show_picture(&picture, top)? == ViewEvent::Quit);
            }
            if !frame_delay.is_zero() {
                std::thread::sleep(frame_delay);
            }
            Ok(false)
        },
        |d| {
            next_seed = next_seed.wrapping_add(1);
            let game = Game::seeded(level, next_seed);
            let m = map.clone();
            d.new_game(|c| *c.inner_mut() = ModelConsole::new(game, m))
                .map_err(Into::into)
        },
    );
    let faults = driver.console().faults();
    finish(
        run,
        (faults, driver.run_ahead()),
        &settings,
        movie,
        format!("model console, seed {seed}"),
    )
}

/// The frame loop shared by the cartridge and the model: steps the driver, records what the
/// console really got, shows the frame (`show` returns true to quit), starts the next game
/// (`next_game`) after a game over, and stops on a limit, Ctrl-C or a failure.
fn drive<C: Console>(
    driver: &mut Driver<FaultyPad<C>, Standard>,
    settings: &Settings,
    movie: &mut Option<Movie>,
    stop: &Interrupt,
    mut explain: Option<Explain>,
    mut show: impl FnMut(&mut Driver<FaultyPad<C>, Standard>, &[Explanation]) -> Result<bool>,
    mut next_game: impl FnMut(&mut Driver<FaultyPad<C>, Standard>) -> Result<()>,
) -> Run {
    let progress = super::progress::spinner();
    let started = Instant::now();
    let mut games = Vec::new();
    let mut frames = 0u64;
    let in_progress = |d: &Driver<FaultyPad<C>, Standard>, games: &mut Vec<GameSummary>, end| {
        if d.is_playing() {
            games.push(GameSummary::new(d.game(), end));
        }
    };
    let end = loop {
        if stop.requested() {
            in_progress(driver, &mut games, GameEnd::Interrupted);
            break End::Interrupted;
        }
        if settings.frames.is_some_and(|f| frames >= f)
            || settings.pieces.is_some_and(|p| driver.total().pieces >= p)
        {
            in_progress(driver, &mut games, GameEnd::Stopped);
            break End::Stopped;
        }
        let ran_before = driver.console().frame_number();
        let step = driver.step();
        // Recorded before any error so the movie shows the frame that failed, but only when
        // the frame really ran (an error can come before the emulator does), and with the pad
        // the console got (faults included), so the movie replays what happened.
        if driver.console().frame_number() != ran_before {
            frames += 1;
            if let Some(m) = movie {
                m.push(driver.console().applied());
            }
        }
        let step = match step {
            Ok(s) => s,
            Err(e) => {
                in_progress(driver, &mut games, GameEnd::Failed);
                break End::Failed(e.into());
            }
        };
        if let Some(e) = explain.as_mut() {
            if e.update(driver) {
                e.print(frames, settings.json);
            }
        }
        match show(driver, explain.as_ref().map_or(&[], |e| &e.top[..])) {
            Ok(false) => {}
            Ok(true) => {
                in_progress(driver, &mut games, GameEnd::Stopped);
                break End::Stopped;
            }
            Err(e) => break End::Failed(e),
        }
        if let Step::Crashed { .. } = step {
            // The console plays no more: the run ends with this game.
            games.push(GameSummary::new(driver.game(), GameEnd::Crashed));
            break End::Done;
        }
        if let Step::GameOver { .. } = step {
            games.push(GameSummary::new(driver.game(), GameEnd::ToppedOut));
            if driver.games_over() >= settings.games {
                break End::Done;
            }
            if let Err(e) = next_game(driver) {
                break End::Failed(e);
            }
        }
        if frames.is_multiple_of(30) {
            let g = driver.game();
            let fps = frames as f64 / started.elapsed().as_secs_f64().max(1e-9);
            progress.set_message(format!(
                "game {} | level {} | pieces {} | lines {} | score {} | desyncs {} | {fps:.0} fps",
                games.len() + 1,
                g.level,
                g.pieces,
                g.lines,
                g.score,
                driver.total().desyncs
            ));
            progress.tick();
        }
    };
    progress.finish_and_clear();
    Run {
        games,
        frames,
        seconds: started.elapsed().as_secs_f64(),
        end,
    }
}

/// Saves the movie, prints the summary (also after a failure or an interruption: everything
/// up to there) and turns the end into the exit code or the error.
fn finish(
    run: Run,
    (faults, run_ahead): (u64, (u64, u64)),
    settings: &Settings,
    movie: Option<Movie>,
    rom: String,
) -> Result<ExitCode> {
    if let (Some(m), Some(path)) = (&movie, &settings.record) {
        m.save(path)?;
        if !matches!(run.end, End::Done | End::Stopped) {
            eprintln!(
                "kept the {} frames recorded so far in {}",
                m.gameplay_frames().len(),
                path.display()
            );
        }
    }
    let total_lines: u32 = run.games.iter().map(|g| g.lines).sum();
    let tetrises: u32 = run.games.iter().map(|g| g.tetrises).sum();
    let last = run.games.last();
    let summary = Summary {
        rom,
        profile: settings.profile.describe(),
        score: last.map_or(0, |g| g.score),
        lines: last.map_or(0, |g| g.lines),
        level: last.map_or(settings.level, |g| g.level),
        frames: run.frames,
        totals: Totals {
            games: run.games.len(),
            pieces: run.games.iter().map(|g| g.pieces).sum(),
            lines: total_lines,
            tetrises,
            tetris_rate: if total_lines == 0 {
                0.0
            } else {
                f64::from(tetrises * 4) / f64::from(total_lines)
            },
            desyncs: run.games.iter().map(|g| g.desyncs).sum(),
            faults_injected: faults,
            run_ahead_checks: run_ahead.0,
            run_ahead_disagreements: run_ahead.1,
            frames: run.frames,
            seconds: run.seconds,
            frames_per_second: run.frames as f64 / run.seconds.max(1e-9),
        },
        games: run.games,
        record: settings.record.clone(),
        settings,
    };
    summary.print(settings.json)?;
    match run.end {
        End::Done | End::Stopped => Ok(ExitCode::SUCCESS),
        End::Interrupted => Ok(ExitCode::from(EXIT_INTERRUPTED)),
        End::Failed(e) => Err(e),
    }
}

/// `--inject-faults`: a share of frames, 0 to 1.
pub fn fault_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "`{text}` is not a share of frames from 0 to 1 (e.g. 0.01)"
        )),
    }
}
