//! Where `play` and `replay` show the game: the window (cargo feature `window`), else the
//! terminal, else nothing; and the one message saying how to get the window.

use nestor::game::Pos;
use std::io::{self, IsTerminal};
use std::time::Duration;

use anyhow::{Context as _, Result};
use nestor::nes::observe::RamSnapshot;
use nestor::nes::{NesDeck, Video};
use nestor::search::explain::Explanation;
use nestor::ui::{render_terminal, too_small, Legend, Pacer, TermOptions, TerminalView, ViewEvent};

/// How to get the window, for every command that would open one in a build without it.
#[cfg(not(feature = "window"))]
pub const WINDOW_FEATURE: &str = "not in this build: rebuild with `cargo build --release \
--features window` (nothing to install on most Linux desktops: it loads X11/Wayland at run time)";

/// The error of a command or option that needs the window, in a build without it.
#[cfg(not(feature = "window"))]
pub fn window_needed(what: &str) -> anyhow::Error {
    anyhow::anyhow!("{what} needs the window, {WINDOW_FEATURE}")
}

/// The picture of a running game: the cartridge's in the window, or its board in the terminal.
pub enum View {
    #[cfg(feature = "window")]
    Window(Box<nestor::ui::NesView>),
    Terminal(TermView),
}

/// The view for `play` and `replay` unless `headless`: the window (with the explanation panel
/// when `panel`), else the terminal when stdout is one, else none; says why when not the
/// window. Returns the view and the video mode the emulator needs.
pub fn open_view(headless: bool, title: &str, panel: bool) -> (Option<View>, Video) {
    if headless {
        return (None, Video::Headless);
    }
    // Why there is no window, in full and for the line under the terminal's picture.
    #[cfg(feature = "window")]
    let (why, short) = match nestor::ui::NesView::open_with_panel(title, super::WINDOW_SCALE, panel)
    {
        Ok(v) => {
            eprintln!("window: {}", nestor::ui::NesView::KEYS);
            return (Some(View::Window(Box::new(v))), Video::On);
        }
        Err(e) => (e.to_string(), e.to_string()),
    };
    #[cfg(not(feature = "window"))]
    let (why, short) = {
        let _ = (title, panel);
        (WINDOW_FEATURE, "not in this build: --features window")
    };
    if io::stdout().is_terminal() {
        eprintln!("no window ({why}); drawing in the terminal (q quits)");
        // The screen is cleared when drawing starts: the reason stays in sight under the board.
        match TermView::start(format!("no window ({short}); q quits")) {
            Ok(t) => return (Some(View::Terminal(t)), Video::Headless),
            Err(e) => eprintln!("cannot draw in the terminal: {e:#}"),
        }
    }
    eprintln!("no window ({why}); running headless");
    (None, Video::Headless)
}

impl View {
    /// Opens the default sound device for the window; the terminal is silent.
    #[cfg(feature = "audio")]
    pub fn open_audio(&mut self) -> bool {
        match self {
            View::Window(v) => v.open_audio(),
            View::Terminal(_) => false,
        }
    }

    /// True when the view draws on the terminal that stderr also writes to: the spinner and
    /// the explanation tables on stderr would scribble over the picture.
    pub fn owns_stderr(&self) -> bool {
        matches!(self, View::Terminal(_)) && io::stderr().is_terminal()
    }

    /// The terminal's legend also says what the outline and the PLAN line mean: plans are
    /// shown (`--show-plan`).
    pub fn shows_plans(&mut self) {
        match self {
            View::Terminal(t) => t.legend = Legend::Plan,
            #[cfg(feature = "window")]
            View::Window(_) => {}
        }
    }

    /// Shows the frame just run: the window the cartridge's picture (`deck`'s, with the plan
    /// outlined), the terminal the board in `ram` with `pieces`, the game's count so far;
    /// `top` in the panel or under the board.
    #[cfg_attr(not(feature = "window"), allow(unused_variables))]
    pub fn show(
        &mut self,
        deck: &mut NesDeck,
        ram: &RamSnapshot,
        plan: Option<&Pos>,
        pieces: Option<u32>,
        top: &[Explanation],
    ) -> Result<ViewEvent> {
        match self {
            #[cfg(feature = "window")]
            View::Window(v) => {
                #[cfg(feature = "audio")]
                v.queue_audio(deck.audio_samples());
                Ok(v.show_explained(deck.frame_buffer(), plan, top)?)
            }
            View::Terminal(t) => t.show(ram, plan, pieces, top),
        }
    }
}

/// The board of the cartridge's RAM drawn in the terminal at the console's 60.0988 frames per
/// second (only the lines that change are rewritten); q or Esc stops, Ctrl-C interrupts.
pub struct TermView {
    // Dropped in this order: the cursor comes back while still in raw mode, then the modes.
    view: TerminalView<io::Stdout>,
    keys: RawKeys,
    pacer: Pacer,
    colour: bool,
    /// The last line of the picture.
    note: String,
    legend: Legend,
    /// Log lines held while the picture owns stderr (written when it ends).
    _log: Option<super::log_hold::Hold>,
}

impl TermView {
    fn start(note: String) -> Result<TermView> {
        Ok(TermView {
            view: TerminalView::start(io::stdout()).context("cannot write to the terminal")?,
            keys: RawKeys::start(),
            pacer: Pacer::new(),
            colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            note,
            legend: Legend::Quit,
            _log: io::stderr().is_terminal().then(super::log_hold::hold),
        })
    }

    fn show(
        &mut self,
        ram: &RamSnapshot,
        plan: Option<&Pos>,
        pieces: Option<u32>,
        top: &[Explanation],
    ) -> Result<ViewEvent> {
        if self.keys.quit_pressed() {
            return Ok(ViewEvent::Quit);
        }
        let small = crossterm::terminal::size().ok().and_then(too_small);
        match small {
            Some(why) => self.view.message(&why),
            None => {
                // The newest log line held back shows under the picture instead of over it.
                let note = match super::log_hold::newest_held() {
                    Some(line) => format!("{}\n{line}", self.note),
                    None => self.note.clone(),
                };
                let opts = TermOptions {
                    plan: plan.copied(),
                    pieces,
                    colour: self.colour,
                    legend: self.legend,
                    ..TermOptions::default()
                };
                self.view.draw(&picture(ram, &opts, top, &note))
            }
        }
        .context("cannot write to the terminal")?;
        self.pacer.wait(1.0);
        Ok(ViewEvent::Continue)
    }
}

impl Drop for TermView {
    /// The cursor goes below the picture for what the command prints next (its fields then
    /// show the cursor and leave raw mode).
    fn drop(&mut self) {
        // Best effort: the terminal may already be gone.
        let _ = self.view.finish();
    }
}

/// The terminal's picture of the frame in `ram`: the board with `plan` marked, the tables of
/// `top` under it, then `note`; the title screen and menus, which hold no game, say so instead.
fn picture(ram: &RamSnapshot, opts: &TermOptions, top: &[Explanation], note: &str) -> String {
    let mut text = match ram.to_game() {
        Ok(game) => render_terminal(&game, opts),
        Err(_) => "the cartridge is in its menus\n".to_string(),
    };
    for e in top {
        text.push_str(&e.table());
    }
    text.push_str(note);
    text
}

/// The terminal in raw mode while a game is drawn in it: keys arrive one by one without echo;
/// restored when dropped, on every way out.
pub struct RawKeys {
    on: bool,
}

impl RawKeys {
    pub fn start() -> RawKeys {
        // Without a keyboard on stdin (redirected), keys are simply not read: Ctrl-C and
        // SIGTERM still stop the command through the interrupt flag.
        let on = io::stdin().is_terminal() && crossterm::terminal::enable_raw_mode().is_ok();
        RawKeys { on }
    }

    /// True when q or Esc was pressed since the last call. Ctrl-C (a key in raw mode) is
    /// passed on as the signal it would have been, so that it interrupts as everywhere: the
    /// command's handler (`Interrupt`) sets its flag and the command stops at its next check.
    pub fn quit_pressed(&self) -> bool {
        use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
        while self.on && event::poll(Duration::ZERO).unwrap_or(false) {
            if let Ok(Event::Key(k)) = event::read() {
                if k.kind != KeyEventKind::Press {
                    continue;
                }
                if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
                    // SAFETY: raise only delivers SIGINT to this process, whose handler is
                    // installed by `Interrupt::install` before any view starts.
                    #[cfg(unix)]
                    unsafe {
                        libc::raise(libc::SIGINT);
                    }
                    #[cfg(not(unix))]
                    return true;
                } else if matches!(k.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc) {
                    return true;
                }
            }
        }
        false
    }
}

impl Drop for RawKeys {
    fn drop(&mut self) {
        if self.on {
            let _ = crossterm::terminal::disable_raw_mode();
        }
    }
}

/// A window of nestor's board picture for `play --model-console --model-window` (a test
/// console has no cartridge picture), with the explanation panel when `panel`.
#[cfg(feature = "window")]
pub fn open_board_view(title: &str, panel: bool) -> Result<nestor::ui::NesView> {
    let mut board = nestor::ui::Frame::new(0, 0, [0; 3]);
    let game = nestor::game::Game::seeded(0, 1);
    nestor::ui::render::draw_game_into(&game, &nestor::ui::DrawOptions::default(), &mut board);
    let view = nestor::ui::NesView::open_board(title, 2, (board.width, board.height), panel)?;
    eprintln!("window: {}", nestor::ui::NesView::KEYS);
    Ok(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestor::game::Game;

    /// As `play` draws a frame with `--show-plan`: the plan, the game's pieces, the legend.
    fn play_options(plan: Option<Pos>) -> TermOptions {
        TermOptions {
            plan,
            pieces: Some(12),
            legend: Legend::Plan,
            ..TermOptions::default()
        }
    }

    #[test]
    fn the_picture_is_the_board_in_ram_with_the_plan_pieces_legend_and_note() {
        let game = Game::seeded(18, 7);
        let ram = RamSnapshot::from_game(&game);
        let plan = Pos {
            x: 4,
            y: 18,
            orientation: game.orientation().expect("a piece in play"),
        };
        let text = picture(&ram, &play_options(Some(plan)), &[], "NOTE");
        assert!(text.contains("LEVEL       18"), "{text}");
        assert!(text.contains("PIECES      12"), "as in demo: {text}");
        assert!(text.contains("PLAN piece xCOL yROW"), "{text}");
        assert!(text.contains("PLAN"), "{text}");
        assert!(text.contains("<><><>"), "the plan is marked: {text}");
        assert!(text.trim_end().ends_with("NOTE"), "{text}");
        assert_eq!(
            text.lines().count(),
            23,
            "22 lines of board, the note: {text}"
        );
    }

    #[test]
    fn menus_have_no_board_but_say_so() {
        let mut ram = RamSnapshot::from_game(&Game::seeded(18, 7));
        ram.play_state = 0xEE;
        let text = picture(&ram, &play_options(None), &[], "NOTE");
        assert_eq!(text, "the cartridge is in its menus\nNOTE");
    }
}
