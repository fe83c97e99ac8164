//! `nestor demo`: the bot plays one game in the rules model (no ROM), through the same driver
//! as `nestor play` on a model-backed console, drawn in the terminal or a window, or reported
//! as plain progress lines when stdout is not a terminal.

use clap::Args;

use super::args::BotArgs;
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use nestor::game::Game;
use nestor::nes::{AddressMap, Driver, DriverConfig, GameCounts, ModelConsole, Step};
use nestor::search::{Planner, Standard};
use nestor::ui::{render_terminal, too_small, Legend, Pacer, TermOptions, TerminalView};

use super::explain::Explain;
use super::interrupt::Interrupt;
use super::view::RawKeys;

#[cfg(feature = "window")]
#[path = "demo_window.rs"]
mod window;

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// Seed for the piece sequence [default: a random one].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draw as fast as possible instead of at 60 frames per second.
    #[arg(long)]
    pub fast: bool,
    /// Draw in a window instead of the terminal (needs the cargo feature `window`).
    #[arg(long)]
    pub window: bool,
    /// Stop after this many pieces (at least 1) [default: the whole game].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub pieces: Option<u32>,
    /// Show the top N placements of each decision with their values split by feature
    /// (terminal: under the board; window: key E toggles a side panel) [default N: 3].
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3", value_parser = super::explain::parse_count)]
    pub explain: Option<usize>,
    #[command(flatten)]
    pub bot: BotArgs,
}

/// Fastest redraw rate when the game runs unpaced (terminal or window fast-forward).
const MAX_REDRAW: Duration = Duration::from_micros(16_640);

/// One game in progress: the driver on the model console, and when to stop.
struct Demo {
    driver: Driver<ModelConsole, Standard>,
    max_pieces: Option<u32>,
    frames: u64,
    topped_out: bool,
    explain: Option<Explain>,
}

impl Demo {
    fn game(&self) -> &Game {
        self.driver.console().game()
    }

    fn stats(&self) -> &GameCounts {
        self.driver.game()
    }

    /// The piece limit was reached or the curtain is down.
    fn finished(&self) -> bool {
        self.max_pieces.is_some_and(|m| self.stats().pieces >= m) || self.game().is_over()
    }

    fn step(&mut self) -> Result<()> {
        if !self.finished() {
            if let Step::GameOver { .. } = self.driver.step()? {
                self.topped_out = true;
            }
            self.frames += 1;
            if let Some(e) = &mut self.explain {
                e.update(&self.driver);
            }
        }
        Ok(())
    }

    fn plan(&self) -> Option<nestor::game::Pos> {
        self.driver.plan().map(|p| p.lock)
    }
}

/// How the game was shown, for the summary.
enum Ending {
    Finished,
    Quit,
}

pub fn run(args: &DemoArgs) -> Result<ExitCode> {
    #[cfg(not(feature = "window"))]
    if args.window {
        return Err(super::view::window_needed("--window"));
    }
    // The weights error already names the file and the cause; print it once, unchained.
    let bot = args.bot.resolve()?;
    let (weights, profile) = (bot.weights, bot.profile);
    let seed = args.seed.unwrap_or_else(time_seed);
    let console = ModelConsole::new(Game::seeded(args.level, seed), AddressMap::default());
    let standard = Standard::new(weights);
    let explain = args.explain.map(|n| Explain::new(&standard, n));
    let mut planner = Planner::new(standard);
    planner.profile = profile;
    let driver = Driver::new(
        console,
        AddressMap::default(),
        planner,
        DriverConfig { level: args.level },
    )?;
    let mut demo = Demo {
        driver,
        max_pieces: args.pieces,
        frames: 0,
        topped_out: false,
        explain,
    };
    if let Some(e) = &mut demo.explain {
        e.update(&demo.driver);
    }
    let tty = io::stdout().is_terminal();
    #[cfg(feature = "window")]
    let ending = match args.window.then(|| window::open(&demo)) {
        Some(Ok(w)) => Some(window::play(&mut demo, w, args.fast)?),
        Some(Err(e)) => {
            let instead = if tty { "the terminal" } else { "plain text" };
            eprintln!("--window: {e}; drawing in {instead} instead");
            None
        }
        None => None,
    };
    #[cfg(not(feature = "window"))]
    let ending = None;
    let ending = match ending {
        Some(e) => e,
        None if tty => terminal_loop(&mut demo, args.fast)?,
        None => plain_loop(&mut demo)?,
    };
    print_summary(&demo, seed, args.level, &ending);
    // q or Esc is the demo's own way out (0); a signal is an interruption, as everywhere.
    Ok(if super::interrupt::Interrupt::install().requested() {
        ExitCode::from(super::interrupt::EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

/// A seed from the clock, for runs without `--seed` (printed in the summary).
fn time_seed() -> u64 {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    d.as_secs().wrapping_mul(1_000_000_007) ^ u64::from(d.subsec_nanos())
}

fn term_options(demo: &Demo, colour: bool) -> TermOptions {
    TermOptions {
        plan: demo.plan(),
        pieces: Some(demo.stats().pieces),
        status: String::new(),
        colour,
        legend: Legend::Plan,
    }
}

/// Animated terminal view: one redraw per frame at 60.0988 fps, or unpaced with `--fast`
/// (redrawn at most about 60 times a second so the terminal keeps up). `q`, Esc, Ctrl-C or
/// SIGTERM end it with the terminal restored; a terminal too small for the picture is told so.
fn terminal_loop(demo: &mut Demo, fast: bool) -> Result<Ending> {
    let colour = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let stop = Interrupt::install();
    // Declared before the view, so dropped after it: the cursor comes back in raw mode, then
    // the terminal's modes, then the log lines held while drawing are written.
    let _log = io::stderr().is_terminal().then(super::log_hold::hold);
    let keys = RawKeys::start();
    let mut view = TerminalView::start(io::stdout()).context("cannot write to the terminal")?;
    let mut pacer = Pacer::new();
    let mut last_draw: Option<Instant> = None;
    let ending = loop {
        if stop.requested() || keys.quit_pressed() {
            break Ending::Quit;
        }
        let done = demo.finished();
        if !fast || done || last_draw.is_none_or(|t| t.elapsed() >= MAX_REDRAW) {
            let small = crossterm::terminal::size().ok().and_then(too_small);
            match small {
                Some(why) => view.message(&why),
                None => {
                    let mut text = render_terminal(demo.game(), &term_options(demo, colour));
                    if let Some(e) = &demo.explain {
                        text.push_str(&e.text().replace('\n', "\x1b[K\n"));
                    }
                    if let Some(line) = super::log_hold::newest_held() {
                        text.push_str(&line);
                        text.push('\n');
                    }
                    view.draw(&text)
                }
            }
            .context("cannot write to the terminal")?;
            last_draw = Some(Instant::now());
        }
        if done {
            break Ending::Finished;
        }
        demo.step()?;
        if !fast {
            pacer.wait(1.0);
        }
    };
    view.finish().context("cannot write to the terminal")?;
    Ok(ending)
}

/// No terminal (CI, a pipe): no animation, a few progress lines and the final board.
fn plain_loop(demo: &mut Demo) -> Result<Ending> {
    let every = demo.max_pieces.map_or(100, |m| (m / 4).max(1));
    let mut reported = 0;
    if let Some(e) = &demo.explain {
        print!("frame 0:\n{}", e.text());
    }
    while !demo.finished() {
        let before = demo.explain.as_ref().and_then(|e| e.planned_at);
        demo.step()?;
        if let Some(e) = demo.explain.as_ref().filter(|e| e.planned_at != before) {
            if let Some(at) = e.planned_at {
                print!("frame {at}:\n{}", e.text());
            }
        }
        let s = demo.stats();
        if s.pieces >= reported + every {
            reported = s.pieces;
            println!(
                "pieces {:>5}  score {:>7}  lines {:>4}  level {:>2}",
                s.pieces, s.score, s.lines, s.level
            );
        }
    }
    print!(
        "{}",
        render_terminal(demo.game(), &term_options(demo, false))
    );
    Ok(Ending::Finished)
}

fn print_summary(demo: &Demo, seed: u64, start_level: u8, ending: &Ending) {
    let s = demo.stats();
    let how = match ending {
        Ending::Quit => "stopped by the user".to_string(),
        Ending::Finished if demo.topped_out => "topped out".to_string(),
        Ending::Finished => match demo.max_pieces {
            Some(m) if s.pieces >= m => format!("stopped after {m} pieces"),
            _ => "finished".to_string(),
        },
    };
    let tetris_rate = f64::from(s.tetrises * 4) / f64::from(s.lines.max(1));
    println!("demo (seed {seed}, start level {start_level}): {how}");
    println!(
        "  profile      {}",
        demo.driver.planner().profile.describe()
    );
    println!("  score        {}", s.score);
    println!("  lines        {}", s.lines);
    println!("  level        {}", s.level);
    println!("  pieces       {}", s.pieces);
    println!(
        "  tetris rate  {:.1}% ({} {})",
        100.0 * tetris_rate,
        s.tetrises,
        if s.tetrises == 1 {
            "tetris"
        } else {
            "tetrises"
        }
    );
    println!("  frames       {}", demo.frames);
    if s.desyncs > 0 {
        println!("  desyncs      {}", s.desyncs);
    }
}
