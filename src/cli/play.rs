//! `nestor play ROM`: the bot plays the real cartridge in tetanes-core through the driver (or,
//! for tests, the rules model), in a window or headless, recording, interruptible, summarised.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};

use nestor::game::Game;
use nestor::lab::until::Until;
use nestor::movegen::profile::Profile;
use nestor::movie::Movie;
use nestor::nes::driver::RUN_AHEAD_LEVEL;
use nestor::nes::settings::PlaySettings;
use nestor::nes::{
    AddressMap, Console, Driver, DriverConfig, DriverError, FaultyPad, MenuError, ModelConsole,
    NesDeck, Step,
};
use nestor::search::explain::Explanation;
use nestor::search::{Planner, Standard};
use nestor::ui::ViewEvent;

use clap::Args;
use nestor::io::{Output, OutputSet};

use super::args::{CartridgePlayArgs, RomArg, ROM_HELP_TEMPLATE};
use super::explain::Explain;
use super::interrupt::Interrupt;
use super::play_finish::{finish, End, Run};
use super::play_settings::Settings;
use super::play_summary::{GameEnd, GameSummary};

#[derive(Args, Debug, Default)]
#[command(
    override_usage = "nestor play [OPTIONS] <ROM>",
    help_template = ROM_HELP_TEMPLATE
)]
pub struct PlayArgs {
    #[command(flatten)]
    pub cartridge: RomArg,
    /// Settings file (TOML, the same keys as these options, `explain` and `overwrite`
    /// included; see config/play.toml). Options given here win over the file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub options: PlaySettings,
    #[command(flatten)]
    pub player: CartridgePlayArgs,
    /// Testing: play the rules model (seeded with SEED) through the same driver instead of a
    /// cartridge; no ROM, no window (unless --model-window). Each further game: the next seed.
    #[cfg_attr(feature = "test-hooks", arg(long, hide = true, value_name = "SEED"))]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    pub model_console: Option<u64>,
    /// Testing: show the model console in a window (nestor's board picture, not the NES's).
    #[cfg_attr(
        feature = "test-hooks",
        arg(long, hide = true, requires = "model_console")
    )]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    pub model_window: bool,
    /// Testing: corrupt this share (0-1) of the frames' pads on the way to the console (a
    /// press dropped, delayed a frame, or a button added); every desync is re-planned.
    #[cfg_attr(
        feature = "test-hooks",
        arg(long, hide = true, value_name = "RATE", value_parser = fault_rate)
    )]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    pub inject_faults: Option<f64>,
    /// Testing: wait this many microseconds after each model-console frame, so that a test can
    /// interrupt a game that is still running however fast the machine is.
    #[cfg_attr(
        feature = "test-hooks",
        arg(
            long,
            hide = true,
            value_name = "MICROSECONDS",
            requires = "model_console"
        )
    )]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    pub model_frame_delay_us: Option<u64>,
}

impl PlayArgs {
    /// The options given on the command line, in the settings file's shape (the shared option
    /// groups under their keys).
    fn given(&self) -> PlaySettings {
        PlaySettings {
            weights: self.player.bot.weights.clone(),
            allow_unknown_rom: self
                .player
                .rom_options
                .unknown
                .allow_unknown_rom
                .then_some(true),
            addresses: self.player.rom_options.addresses.clone(),
            profile: self.player.bot.profile.name.clone(),
            overwrite: self.player.output.overwrite.then_some(true),
            ..self.options.clone()
        }
    }

    /// The options merged with the settings file `file` (named `file_name` in errors): an
    /// option given wins over the file, the file over the defaults.
    pub fn settings(&self, file: PlaySettings, file_name: &str) -> Result<Settings> {
        let args = self.given();
        let level = args.level.or(file.level).unwrap_or(19);
        // The menus offer 0-19; the model console (tests) starts any level up to 29.
        let top = if self.model_console.is_some() { 29 } else { 19 };
        if level > top {
            if args.level.is_some() {
                return Err(super::args::bad_argument(format!(
                    "--level {level}: {}",
                    nestor::nes::settings::LEVELS
                )));
            }
            bail!(
                "{file_name}: `level` = {level}: {}",
                nestor::nes::settings::LEVELS
            );
        }
        let profile =
            self.player
                .bot
                .profile
                .apply(match (&args.profile, &file.profile) {
                    (Some(p), _) => super::profile::resolve(p)?,
                    (None, Some(p)) => super::profile::resolve(p)
                        .with_context(|| format!("{file_name}: `profile`"))?,
                    (None, None) => Profile::default(),
                });
        let explain = args.explain.or(file.explain);
        if explain == Some(0) {
            bail!("{file_name}: `explain` = 0 would explain nothing: give 1 or more");
        }
        let games = args.games.or(file.games).unwrap_or(1);
        if games == 0 {
            bail!("`games` must be at least 1");
        }
        if file.no_run_ahead == Some(true) && file.run_ahead_from.is_some() {
            bail!("{file_name}: `no_run_ahead` = true and `run_ahead_from`: give one of them");
        }
        // An option wins over the file; the file's `no_run_ahead` wins over the default.
        let run_ahead_from = match (args.run_ahead_from, args.no_run_ahead) {
            (Some(l), _) => Some(l),
            (None, Some(true)) => None,
            (None, _) if file.no_run_ahead == Some(true) => None,
            (None, _) => Some(file.run_ahead_from.unwrap_or(RUN_AHEAD_LEVEL)),
        };
        let flag = |given: Option<bool>, file: Option<bool>| given.or(file).unwrap_or(false);
        let until = match (&args.until, &file.until) {
            (Some(t), _) => t
                .parse()
                .map_err(|e| super::args::bad_argument(format!("--until: {e}")))?,
            (None, Some(t)) => t.parse().with_context(|| format!("{file_name}: `until`"))?,
            (None, None) => Until::TopOut,
        };
        Ok(Settings {
            level,
            games,
            pieces: args.pieces.or(file.pieces),
            frames: args.frames.or(file.frames),
            until,
            headless: flag(args.headless, file.headless),
            show_plan: flag(args.show_plan, file.show_plan),
            weights: args.weights.or(file.weights),
            record: args.record.or(file.record),
            json: flag(args.json, file.json),
            allow_unknown_rom: flag(args.allow_unknown_rom, file.allow_unknown_rom),
            addresses: args.addresses.or(file.addresses),
            profile,
            explain,
            overwrite: flag(args.overwrite, file.overwrite),
            run_ahead_from,
        })
    }
}

/// Seed of the fault injector (mixed with the model console's seed).
const FAULT_SEED: u64 = 0x5EED_FA17;

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    // First of all, so that a Ctrl-C or SIGTERM at any moment is answered by saying what was
    // kept (the reads before the loop never block: inputs are regular files).
    let stop = Interrupt::install();
    let (file, file_name) = match &args.config {
        Some(p) => (PlaySettings::load(p)?, p.display().to_string()),
        None => (PlaySettings::default(), "--level".into()),
    };
    let profile_file = args
        .player
        .bot
        .profile
        .name
        .clone()
        .or(file.profile.clone())
        .map(PathBuf::from);
    let mut settings = args.settings(file, &file_name)?;
    // The recording must never replace an input, and an unwritable path fails now, before
    // anything runs.
    let mut record = None;
    if let Some(out) = &settings.record {
        let mut inputs = Vec::new();
        let named = [
            ("ROM", args.cartridge.rom.as_ref()),
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
        // Named where it was given: the option, or the settings file's key.
        let flag = match (&args.options.record, &args.config) {
            (None, Some(config)) => format!("{}: `record` =", config.display()),
            _ => "--record".to_string(),
        };
        record = Some(OutputSet::new(inputs, settings.overwrite).file(&flag, out)?);
    }
    if args.model_console.is_some() {
        #[cfg(not(feature = "window"))]
        if args.model_window {
            return Err(super::view::window_needed("--model-window"));
        }
        settings.headless = !args.model_window;
        if settings.record.is_some() && settings.games > 1 {
            bail!("--record on the model console records one game: use --games 1");
        }
    }
    if settings.show_plan && settings.headless {
        eprintln!("warning: --show-plan outlines the plan in the window; there is none headless");
    }
    // The weights file (option or settings file), else the profile's set.
    let weights = args
        .player
        .bot
        .with_profile_and_file(
            settings.profile.clone(),
            &format!("profile {}", settings.profile.name),
            settings.weights.as_deref(),
            "weights",
        )?
        .weights;
    let standard = Standard::new(weights);
    let explain = settings.explain.map(|n| Explain::new(&standard, n));
    let mut planner = Planner::new(standard);
    planner.profile = settings.profile.clone();
    let session = Session {
        settings,
        record,
        explain,
        rate: args.inject_faults.unwrap_or(0.0),
        stop: &stop,
    };
    match (args.model_console, &args.cartridge.rom) {
        (Some(seed), _) => {
            let delay = std::time::Duration::from_micros(args.model_frame_delay_us.unwrap_or(0));
            play_model(session, seed, planner, delay)
        }
        (None, Some(rom)) => play_rom(rom, session, planner),
        (None, None) => bail!("`nestor play` needs a ROM"),
    }
}

/// What a `play` run is, whatever the console: the merged settings, the checked recording,
/// the explainer, the pad fault rate and Ctrl-C.
struct Session<'a> {
    settings: Settings,
    record: Option<Output>,
    explain: Option<Explain>,
    rate: f64,
    stop: &'a Interrupt,
}

impl Session<'_> {
    /// The movie to record (when `--record` is given) of the console `name` (`md5` its
    /// PRG+CHR digest), its comments saying what ran (`source`).
    fn movie(&self, name: &str, md5: [u8; 16], source: &str) -> Option<Movie> {
        let comments = || self.settings.comments(source);
        self.settings
            .record
            .as_ref()
            .map(|_| Movie::new_recording(name, md5, comments()))
    }

    /// The driver that plays `console`, its pads corrupted at the session's rate
    /// (`fault_seed` seeds which).
    fn driver<C: Console>(
        &self,
        console: C,
        fault_seed: u64,
        map: AddressMap,
        planner: Planner<Standard>,
    ) -> Result<Driver<FaultyPad<C>, Standard>> {
        let mut driver = Driver::new(
            FaultyPad::new(console, self.rate, fault_seed),
            map,
            planner,
            DriverConfig {
                level: self.settings.level,
            },
        )?;
        driver.set_run_ahead(self.settings.run_ahead_from);
        Ok(driver)
    }
}

/// The real cartridge in tetanes-core, through the menus.
fn play_rom(
    path: &std::path::Path,
    mut s: Session,
    planner: Planner<Standard>,
) -> Result<ExitCode> {
    let settings = &s.settings;
    // Rom errors name the file and the problem (missing, not iNES, truncated, mapper, dump).
    // The message already includes the I/O cause; `anyhow!` keeps it from printing twice.
    let rom = super::load_rom(path, settings.allow_unknown_rom).map_err(|e| anyhow!("{e}"))?;
    let map = AddressMap::load_or_default(settings.addresses.as_deref())?;
    let title = format!("nestor: {}", rom.name());
    let (mut view, video) = super::view::open_view(settings.headless, &title, s.explain.is_some());
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
    let mut movie = s.movie(&rom.name(), rom.prg_chr_md5, &rom_comment);
    let mut driver = s.driver(deck, FAULT_SEED, map, planner)?;
    let show_plan = settings.show_plan;
    if let (Some(v), true) = (&mut view, show_plan) {
        v.shows_plans();
    }
    let quiet = view.as_ref().is_some_and(super::view::View::owns_stderr);
    let mut run = drive(
        &mut driver,
        quiet,
        &mut movie,
        &mut s,
        |d, top| {
            let Some(v) = &mut view else {
                return Ok(false);
            };
            let plan = if show_plan {
                d.plan().map(|p| p.lock)
            } else {
                None
            };
            let ram = d.snapshot().clone();
            let pieces = d.game().pieces;
            let deck = d.console_mut().inner_mut();
            Ok(v.show(deck, &ram, plan.as_ref(), Some(pieces), top)? == ViewEvent::Quit)
        },
        |_| Ok(()),
    );
    // The terminal back to normal before the summary.
    drop(view);
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
    finish(
        run,
        &s.settings,
        (movie, s.record),
        rom.path.display().to_string(),
    )
}

/// The rules model through the same driver: no ROM, no menus; each game is a fresh seeded
/// model game (the next seed), started by the driver's `new_game`.
fn play_model(
    mut s: Session,
    seed: u64,
    planner: Planner<Standard>,
    frame_delay: std::time::Duration,
) -> Result<ExitCode> {
    let settings = &s.settings;
    let map = AddressMap::load_or_default(settings.addresses.as_deref())?;
    let level = settings.level;
    let console = ModelConsole::new(Game::seeded(level, seed), map.clone());
    let rom_comment = format!(
        "model console: seed {seed}, start level {level} (replays on nestor's rules model, \
         not on a cartridge)"
    );
    let mut movie = s.movie("nestor-model", [0; 16], &rom_comment);
    let mut driver = s.driver(console, FAULT_SEED ^ seed, map.clone(), planner)?;
    let mut next_seed = seed;
    #[cfg(feature = "window")]
    let mut view = (!settings.headless)
        .then(|| super::view::open_board_view("nestor play: model console", s.explain.is_some()))
        .transpose()?;
    #[cfg(feature = "window")]
    let (mut picture, show_plan) = (nestor::ui::Frame::new(0, 0, [0; 3]), settings.show_plan);
    let run = drive(
        &mut driver,
        false,
        &mut movie,
        &mut s,
        |d, top| {
            #[cfg(feature = "window")]
            if let Some(v) = &mut view {
                let opts = nestor::ui::DrawOptions {
                    plan: d.plan().map(|p| p.lock).filter(|_| show_plan),
                    pieces: Some(d.game().pieces),
                    ..Default::default()
                };
                nestor::ui::render::draw_game_into(d.console().inner().game(), &opts, &mut picture);
                return Ok(v.show_picture(&picture, top)? == ViewEvent::Quit);
            }
            #[cfg(not(feature = "window"))]
            let _ = (d, top);
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
    finish(
        run,
        &s.settings,
        (movie, s.record),
        format!("model console, seed {seed}"),
    )
}

/// The frame loop shared by the cartridge and the model: steps the driver, records what the
/// console really got, shows the frame (`show` returns true to quit), starts the next game
/// (`next_game`) after a game over, and stops on a limit, Ctrl-C or a failure. `quiet`: the
/// terminal shows the game, so no spinner nor tables on stderr.
fn drive<C: Console>(
    driver: &mut Driver<FaultyPad<C>, Standard>,
    quiet: bool,
    movie: &mut Option<Movie>,
    s: &mut Session,
    mut show: impl FnMut(&mut Driver<FaultyPad<C>, Standard>, &[Explanation]) -> Result<bool>,
    mut next_game: impl FnMut(&mut Driver<FaultyPad<C>, Standard>) -> Result<()>,
) -> Run {
    let progress = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        super::progress::spinner()
    };
    let started = Instant::now();
    let mut games = Vec::new();
    let mut frames = 0u64;
    let (settings, stop, explain) = (&s.settings, s.stop, &mut s.explain);
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
        let g = driver.game();
        if driver.is_playing()
            && settings
                .until
                .is_reached(|n| g.reached(n), g.lines, g.lines_at_rebirth.is_some())
        {
            in_progress(driver, &mut games, GameEnd::Reached);
            break End::Reached;
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
            if e.update(driver) && !quiet {
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
        faults: driver.console().faults(),
        run_ahead: driver.run_ahead(),
    }
}

/// `--inject-faults`: a share of frames, 0 to 1.
#[cfg(feature = "test-hooks")]
pub fn fault_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "`{text}` is not a share of frames from 0 to 1 (e.g. 0.01)"
        )),
    }
}
