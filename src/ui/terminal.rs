//! The terminal view: the board, next piece, numbers and planned lock as one ANSI-coloured
//! `String` (a pure function), and `TerminalView`, which redraws it in place and restores the terminal.

use crate::game::Pos;
use std::fmt::Write as _;
use std::io::{self, Write};

use crate::game::playfield::{CURTAIN, EMPTY};
use crate::game::{Game, PlayState};

use super::render::visible_cells;

/// Hide the cursor.
pub const HIDE_CURSOR: &str = "\x1b[?25l";
/// Show the cursor.
pub const SHOW_CURSOR: &str = "\x1b[?25h";
/// Move the cursor to the top-left corner.
pub const HOME: &str = "\x1b[H";
/// Clear the screen.
pub const CLEAR: &str = "\x1b[2J";
/// Reset colours.
pub const RESET: &str = "\x1b[0m";

/// What to show besides the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TermOptions {
    /// The bot's planned lock position, marked `[]`.
    pub plan: Option<Pos>,
    /// Pieces locked so far.
    pub pieces: Option<u32>,
    /// A status line under the numbers.
    pub status: String,
    /// ANSI colours (off: plain ASCII, for `NO_COLOR` and dumb terminals).
    pub colour: bool,
    /// The legend at the foot of the panel.
    pub legend: Legend,
}

/// What the legend at the foot of the panel says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legend {
    /// No legend.
    #[default]
    None,
    /// How to quit.
    Quit,
    /// What the outline and the PLAN line mean, and how to quit (whenever plans are shown,
    /// so that it does not come and go with the plan).
    Plan,
}

/// The legend's lines, each narrow enough for the panel ([`MIN_SIZE`]); the first starts with
/// the planned cells' mark.
pub const LEGEND: [&str; 3] = [" the planned lock", "PLAN piece xCOL yROW", "q quits"];

/// What one board cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Block(u8),
}

/// xterm-256 background colour of a tile.
fn ansi_colour(tile: u8) -> u8 {
    match tile {
        0x7B => 33,
        0x7C => 202,
        0x7D => 70,
        CURTAIN => 244,
        _ => 165,
    }
}

fn push_cell(out: &mut String, cell: Cell, planned: bool, colour: bool) {
    match (cell, colour) {
        (Cell::Empty, true) if planned => out.push_str("\x1b[1;38;5;226m[]\x1b[0m"),
        (Cell::Empty, true) => out.push_str("\x1b[38;5;238m .\x1b[0m"),
        (Cell::Block(t), true) => {
            let mark = if planned { "[]" } else { "  " };
            let _ = write!(out, "\x1b[38;5;16;48;5;{}m{mark}\x1b[0m", ansi_colour(t));
        }
        (Cell::Empty, false) => out.push_str(if planned { "<>" } else { " ." }),
        (Cell::Block(t), false) => out.push_str(match (t, planned) {
            (_, true) => "[]",
            (CURTAIN, false) => "::",
            _ => "##",
        }),
    }
}

/// The board (rows 0..19) with the active piece placed on it.
fn cells(game: &Game) -> [[Cell; 10]; 20] {
    let mut grid = [[Cell::Empty; 10]; 20];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let t = game.field.get(r as i16, c as i16);
            if t < EMPTY {
                *cell = Cell::Block(t);
            }
        }
    }
    if !game.is_over() {
        if let Some(o) = game.orientation() {
            for (r, c) in visible_cells(game.active.x, game.active.y, o) {
                grid[r][c] = Cell::Block(o.tile());
            }
        }
    }
    grid
}

/// The side panel, one entry per board line (fewer is fine).
fn panel(game: &Game, opts: &TermOptions) -> Vec<String> {
    let mut lines = vec!["NEXT".to_string()];
    let mut next = [[false; 4]; 2];
    let next_o = game.next_piece().map(|p| p.spawn());
    if let Some(o) = next_o {
        let (x0, _, y0, _) = o.extent();
        for (dx, dy) in o.cells() {
            let (c, r) = ((dx - x0) as usize, (dy - y0) as usize);
            if r < 2 && c < 4 {
                next[r][c] = true;
            }
        }
    }
    for row in next {
        let mut s = String::new();
        for filled in row {
            let cell = match (filled, next_o) {
                (true, Some(o)) => Cell::Block(o.tile()),
                _ => Cell::Empty,
            };
            if cell == Cell::Empty {
                s.push_str("  ");
            } else {
                push_cell(&mut s, cell, false, opts.colour);
            }
        }
        lines.push(s);
    }
    lines.push(String::new());
    lines.push(format!("SCORE  {:>7}", game.score()));
    lines.push(format!("LINES  {:>7}", game.lines()));
    lines.push(format!("LEVEL  {:>7}", game.level));
    if let Some(p) = opts.pieces {
        lines.push(format!("PIECES {p:>7}"));
    }
    if let Some(p) = opts.plan {
        lines.push(format!(
            "PLAN   {} x{} y{}",
            p.orientation.piece().letter(),
            p.x,
            p.y as i8
        ));
    }
    if matches!(game.play_state, PlayState::Curtain | PlayState::Ended) {
        lines.push(String::new());
        lines.push("GAME OVER".to_string());
    }
    if !opts.status.is_empty() {
        lines.push(String::new());
        lines.push(opts.status.clone());
    }
    // The mark of a planned empty cell, as `push_cell` draws it.
    let mark = if opts.colour { "[]" } else { "<>" };
    let legend: Vec<String> = match opts.legend {
        Legend::None => Vec::new(),
        Legend::Quit => vec![LEGEND[2].to_string()],
        Legend::Plan => vec![
            format!("{mark}{}", LEGEND[0]),
            LEGEND[1].to_string(),
            LEGEND[2].to_string(),
        ],
    };
    if !legend.is_empty() {
        // At the foot of the panel, under whatever the lines above say.
        let foot = 22 - legend.len();
        if lines.len() < foot {
            lines.resize(foot, String::new());
        } else {
            lines.push(String::new());
        }
        lines.extend(legend);
    }
    lines
}

/// Draws the game as 22 text lines: a framed 10×20 board (two characters per cell), the
/// next piece and the numbers beside it, the planned lock marked `[]`. Every line ends by
/// resetting colours and clearing to the end of the line, so redrawing in place leaves no debris.
pub fn render_terminal(game: &Game, opts: &TermOptions) -> String {
    let grid = cells(game);
    let planned: Vec<(usize, usize)> = opts
        .plan
        .map(|p| visible_cells(p.x, p.y, p.orientation).collect())
        .unwrap_or_default();
    let side = panel(game, opts);
    let eol = if opts.colour { "\x1b[0m\x1b[K\n" } else { "\n" };
    let mut out = String::with_capacity(4096);
    let side_at = |i: usize| side.get(i).map_or("", String::as_str);
    let _ = write!(out, "+{}+  {}{eol}", "-".repeat(20), side_at(0));
    for (r, row) in grid.iter().enumerate() {
        out.push('|');
        for (c, cell) in row.iter().enumerate() {
            push_cell(&mut out, *cell, planned.contains(&(r, c)), opts.colour);
        }
        let _ = write!(out, "|  {}{eol}", side_at(r + 1));
    }
    let _ = write!(out, "+{}+  {}{eol}", "-".repeat(20), side_at(21));
    out
}

/// The smallest terminal the picture fits: 22 lines (plus one for the cursor) and the board
/// with its side panel.
pub const MIN_SIZE: (u16, u16) = (46, 23);

/// Draws frames in place on a terminal: hides the cursor and clears the screen on start, then
/// rewrites only the lines that changed since the last frame (one game is some 30,000 frames;
/// redrawing everything each time wrote over 100 MB), and shows the cursor again when dropped
/// (normal exit, `q`, Ctrl-C, an error or a panic: the demo handles Ctrl-C and SIGTERM itself
/// so that this always runs).
pub struct TerminalView<W: Write> {
    out: W,
    /// The lines on the screen now (`None` after a message: everything is redrawn).
    shown: Option<Vec<String>>,
    /// A message is on the screen instead of the picture.
    message_up: bool,
}

impl<W: Write> TerminalView<W> {
    /// Hides the cursor and clears the screen.
    pub fn start(mut out: W) -> io::Result<TerminalView<W>> {
        write!(out, "{HIDE_CURSOR}{CLEAR}{HOME}")?;
        out.flush()?;
        Ok(TerminalView {
            out,
            shown: None,
            message_up: false,
        })
    }

    /// Replaces the picture with `text` (from [`render_terminal`]), writing only the lines
    /// that differ from the picture on the screen, each at its own row.
    pub fn draw(&mut self, text: &str) -> io::Result<()> {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        self.message_up = false;
        let old = self.shown.take();
        if old.is_none() {
            write!(self.out, "{CLEAR}")?;
        }
        let old = old.unwrap_or_default();
        for (row, line) in lines.iter().enumerate() {
            if old.get(row) != Some(line) {
                // Rows count from 1; the line is cleared past its end.
                write!(self.out, "\x1b[{};1H{line}\x1b[K", row + 1)?;
            }
        }
        if lines.len() < old.len() {
            write!(self.out, "\x1b[{};1H\x1b[J", lines.len() + 1)?;
        }
        self.shown = Some(lines);
        self.out.flush()
    }

    /// Replaces the picture with a message (e.g. that the terminal is too small); the next
    /// `draw` repaints everything.
    pub fn message(&mut self, text: &str) -> io::Result<()> {
        if self.message_up {
            // Already up: do not flicker.
            return Ok(());
        }
        write!(self.out, "{CLEAR}{HOME}{text}")?;
        self.shown = None;
        self.message_up = true;
        self.out.flush()
    }

    /// Moves the cursor below the picture (for the lines printed after the game).
    pub fn finish(&mut self) -> io::Result<()> {
        let rows = self.shown.as_ref().map_or(1, Vec::len);
        write!(self.out, "\x1b[{};1H", rows + 1)?;
        self.out.flush()
    }
}

impl<W: Write> Drop for TerminalView<W> {
    fn drop(&mut self) {
        // Best effort: the terminal may already be gone.
        let _ = write!(self.out, "{RESET}{SHOW_CURSOR}");
        let _ = self.out.flush();
    }
}

/// Whether the terminal is too small for the picture: `Some(message)` saying so.
pub fn too_small(size: (u16, u16)) -> Option<String> {
    let (w, h) = size;
    let (need_w, need_h) = MIN_SIZE;
    (w < need_w || h < need_h).then(|| {
        format!(
            "The terminal is {w}x{h}; the picture needs {need_w}x{need_h}. Enlarge it (the game \
             goes on meanwhile), or press q to quit."
        )
    })
}

#[cfg(test)]
#[path = "terminal_tests.rs"]
mod tests;
