//! `nestor assist` in the window (cargo feature `window`): the keyboard (and a gamepad) drive
//! the console, the picture carries nestor's suggestion and the last lock's rating.

use nestor::game::Pos;
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use anyhow::{anyhow, bail, Context, Result};

use nestor::coach::summary::line;
use nestor::coach::{Analyzer, CoachSettings, Observed, Summary};
use nestor::game::Game;
use nestor::game::PadState;
use nestor::io::OutputSet;
use nestor::movie::Movie;
use nestor::nes::{AddressMap, Console, ModelConsole, NesDeck, Video};
use nestor::search::Standard;
use nestor::ui::font::draw_text;
use nestor::ui::keypad::{without_opposites, Keypad};
use nestor::ui::render::{draw_game_into, overlay_plan_on_nes, BACKGROUND, PLAN, TEXT};
use nestor::ui::{save_png, screenshot_path, DrawOptions, Frame, Window};

use super::AssistArgs;
use crate::cli::args::Bot;

/// What the window shows besides the game: the suggestion, the advice and the last rating.
struct Overlay {
    suggestion: Option<Pos>,
    /// Under a reaction delay: the hover, then the taps for the next piece that came.
    advice: String,
    status: String,
}

/// The game in the window: the pads, the recording, the analyser, then the frame loop.
pub(super) fn in_window(
    args: &AssistArgs,
    settings: CoachSettings,
    file: &str,
    keypad: Keypad,
    bot: Bot,
) -> Result<ExitCode> {
    let pads = Pads::open(&settings, file)?;
    let mut inputs = Vec::new();
    for (role, p) in [
        ("ROM", args.cartridge.rom.as_ref()),
        ("settings file", args.settings.settings.as_ref()),
        ("weights file", args.bot.weights.as_ref()),
    ] {
        if let Some(p) = p {
            inputs.push((role, p.as_path()));
        }
    }
    // Checked now, not after the game; kept open to the end (a FIFO's reader waits).
    let _record = args
        .record
        .as_deref()
        .map(|p| OutputSet::new(inputs, args.output.overwrite).file("--record", p))
        .transpose()?;
    let map = AddressMap::default();
    let mut analyzer = Analyzer::new(Standard::new(bot.weights), map.clone(), settings.classes);
    analyzer.set_profile(bot.profile);
    analyzer.set_advice(true);
    match (args.model.model_console, &args.cartridge.rom) {
        (Some(seed), _) => {
            let console = ModelConsole::new(Game::seeded(args.model.model_level, seed), map);
            let window = open(&format!("nestor assist: model console {seed}"), true)?;
            let movie = args.record.as_ref().map(|_| {
                Movie::new_recording(
                    "nestor-model",
                    [0; 16],
                    vec![format!(
                        "nestor assist on the model console: seed {seed}, start level {}",
                        args.model.model_level
                    )],
                )
            });
            let mut game_frame = Frame::new(0, 0, [0; 3]);
            let controls = (keypad, pads);
            play(
                args,
                console,
                window,
                controls,
                analyzer,
                movie,
                |c, o, f| {
                    let opts = DrawOptions {
                        plan: o.suggestion,
                        ..DrawOptions::default()
                    };
                    draw_game_into(c.game(), &opts, &mut game_frame);
                    beside(&game_frame, &o.lines(), f);
                    Ok(())
                },
            )
        }
        (None, Some(rom)) => {
            let rom = nestor::nes::Rom::load(rom, args.unknown_rom.allow_unknown_rom)
                .map_err(|e| anyhow!("{e}"))?;
            let deck = NesDeck::new(&rom, Video::On)
                .with_context(|| format!("cannot start the emulator on {}", rom.path.display()))?;
            let window = open(&format!("nestor assist: {}", rom.name()), false)?;
            let movie = args.record.as_ref().map(|_| {
                Movie::new_recording(
                    rom.name(),
                    rom.prg_chr_md5,
                    vec!["nestor assist: a person played, nestor suggested".into()],
                )
            });
            let controls = (keypad, pads);
            play(args, deck, window, controls, analyzer, movie, |d, o, f| {
                let mut pixels = d.frame_buffer().to_vec();
                if let Some(p) = &o.suggestion {
                    overlay_plan_on_nes(&mut pixels, p)?;
                }
                *f = Frame::from_rgba(256, 240, pixels)?;
                let status = o.status.replace('\n', " ").replace("LAST LOCK ", "");
                draw_text(f, 8, 228, &status, 1, PLAN);
                draw_text(f, 8, 218, &o.advice.replace('\n', " "), 1, PLAN);
                Ok(())
            })
        }
        (None, None) => bail!("`nestor assist` needs a ROM"),
    }
}

impl Overlay {
    /// The advice over the last rating, one short line each.
    fn lines(&self) -> String {
        match (self.advice.is_empty(), self.status.is_empty()) {
            (true, _) => self.status.clone(),
            (false, true) => self.advice.clone(),
            (false, false) => format!("{}\n\n{}", self.advice, self.status),
        }
    }

    /// What one observed frame changes: the suggestion follows the analyser every frame (the
    /// hover gives way to the lock at the reaction frame); a ranked piece brings its advice,
    /// a lock its rating.
    fn note(&mut self, observed: Observed, analyzer: &Analyzer<Standard>) {
        self.suggestion = analyzer.suggestion();
        match observed {
            Observed::Ranked => {
                self.advice = analyzer.advice().map_or(String::new(), |a| {
                    println!("advice: {}", a.line());
                    a.status()
                });
            }
            Observed::Rated => {
                self.advice.clear();
                if let Some(r) = analyzer.ratings().last() {
                    println!("{}", line(r));
                    let loss = r
                        .verdict
                        .loss
                        .map_or("NO PAIR".into(), |l| format!("LOSS {l:.1}"));
                    self.status = format!(
                        "LAST LOCK\nRANK {} OF {}\n{}\n{loss}",
                        r.verdict.rank,
                        r.verdict.placements,
                        r.verdict.class.name().to_uppercase()
                    );
                }
            }
            Observed::GameOver => self.advice.clear(),
            Observed::Nothing => {}
        }
    }
}

/// The gamepads, when nestor is built with the `gamepad` feature and the system offers them.
struct Pads {
    #[cfg(feature = "gamepad")]
    inner: Option<nestor::ui::gamepad::Gamepads>,
}

impl Pads {
    /// Checks the `[pad]` settings and starts gilrs; a system without gamepad input is not an
    /// error (assist says so and plays with the keyboard), nor is a pad missing.
    fn open(settings: &CoachSettings, file: &str) -> Result<Pads> {
        #[cfg(feature = "gamepad")]
        {
            use nestor::ui::gamepad::{Gamepads, PadMap};
            let map =
                PadMap::new(&settings.pad, settings.stick).map_err(|e| anyhow!("{file}: {e}"))?;
            let inner = match Gamepads::open(map) {
                Ok(g) => {
                    let names = g.names();
                    if names.is_empty() {
                        eprintln!("assist: no gamepad connected (one plugged in later works)");
                    } else {
                        eprintln!("assist: gamepad {}", names.join(", "));
                    }
                    Some(g)
                }
                Err(e) => {
                    eprintln!("assist: no gamepad input ({e}); keyboard only");
                    None
                }
            };
            Ok(Pads { inner })
        }
        #[cfg(not(feature = "gamepad"))]
        {
            let _ = (settings, file);
            eprintln!("assist: built without the `gamepad` feature; keyboard only");
            Ok(Pads {})
        }
    }

    /// The NES buttons the pads hold now.
    fn poll(&mut self) -> PadState {
        #[cfg(feature = "gamepad")]
        if let Some(g) = &mut self.inner {
            return g.poll();
        }
        PadState::NONE
    }
}

/// Width of the rating column right of the model's picture.
const STATUS_WIDTH: usize = 150;

/// The model's picture with the last rating written in a column beside it, one word a line.
fn beside(game: &Frame, status: &str, out: &mut Frame) {
    *out = Frame::new(game.width + STATUS_WIDTH, game.height, BACKGROUND);
    for y in 0..game.height {
        for x in 0..game.width {
            if let Some(c) = game.rgb(x, y) {
                out.fill_rect(x, y, 1, 1, c);
            }
        }
    }
    let mut y = 12;
    for (i, l) in status.split('\n').enumerate() {
        draw_text(
            out,
            game.width + 4,
            y,
            l,
            2,
            if i == 0 { TEXT } else { PLAN },
        );
        y += 16;
    }
}

/// The window, or the reason there is none (assist cannot run without one).
fn open(title: &str, model: bool) -> Result<Window> {
    let w = if model {
        let mut f = Frame::new(0, 0, [0; 3]);
        draw_game_into(&Game::seeded(0, 1), &DrawOptions::default(), &mut f);
        Window::open(title, f.width + STATUS_WIDTH, f.height, 2)
    } else {
        Window::open_nes(title, crate::cli::WINDOW_SCALE)
    };
    w.map_err(|e| anyhow!("assist needs a window to play in: {e}"))
}

/// The frame loop: keys → pad → console → analyser → picture, until Esc (or `--frames`).
#[allow(clippy::too_many_arguments)]
fn play<C: Console>(
    args: &AssistArgs,
    mut console: C,
    mut window: Window,
    (keypad, mut pads): (Keypad, Pads),
    mut analyzer: Analyzer<Standard>,
    mut movie: Option<Movie>,
    mut draw: impl FnMut(&mut C, &Overlay, &mut Frame) -> Result<()>,
) -> Result<ExitCode> {
    eprintln!(
        "assist: {}; the yellow outline is nestor's suggestion; S screenshot, Esc quit",
        keypad.describe()
    );
    let mut overlay = Overlay {
        suggestion: None,
        advice: String::new(),
        status: String::new(),
    };
    let mut frame = Frame::new(0, 0, [0; 3]);
    let first = analyzer.observe(console.frame_number(), console.ram());
    overlay.note(first, &analyzer);
    let mut frames = 0u64;
    loop {
        if args.frames.is_some_and(|n| frames >= n) {
            break;
        }
        draw(&mut console, &overlay, &mut frame)?;
        window.present(&frame).context("window")?;
        let input = window.poll();
        if input.quit {
            break;
        }
        if input.screenshot {
            let path = screenshot_path(SystemTime::now());
            match save_png(&frame, &path) {
                Ok(()) => eprintln!("screenshot: {}", path.display()),
                Err(e) => eprintln!("screenshot failed: {e}"),
            }
        }
        // Keyboard and gamepad together: a button is down when either holds it.
        let pad = without_opposites(keypad.pad(&window.held_keys()).union(pads.poll()));
        console.frame(pad)?;
        frames += 1;
        if let Some(m) = &mut movie {
            m.push(pad);
        }
        let observed = analyzer.observe(console.frame_number(), console.ram());
        overlay.note(observed, &analyzer);
        window.pace();
    }
    if let (Some(m), Some(path)) = (&movie, &args.record) {
        save_movie(m, path)?;
    }
    let ratings = analyzer.into_ratings();
    let summary = Summary::new(&ratings, 5);
    let s = nestor::nes::RamSnapshot::read(console.ram(), &AddressMap::default());
    println!(
        "assist: {frames} frames played; score {}, lines {}, level {}",
        nestor::game::score::bcd_value(&s.score_bcd),
        nestor::game::score::bcd_value(&s.lines_bcd),
        s.level
    );
    print!("{}", summary.text(&ratings));
    Ok(ExitCode::SUCCESS)
}

fn save_movie(m: &Movie, path: &Path) -> Result<()> {
    m.save(path)?;
    eprintln!(
        "recorded {} frames in {}",
        m.gameplay_frames().len(),
        path.display()
    );
    Ok(())
}
