//! What the page draws of a game, as one JSON object: the field's cells by look, the falling
//! piece, an outlined placement, the counters and the level's colours (the cartridge's).

use nestor::game::palette::{level_colours, master_rgb, BACKDROP, WHITE};
use nestor::game::piece::Orientation;
use nestor::game::state::Game;
use nestor::game::Pos;
use serde::Serialize;

/// One game as the page draws it.
#[derive(Serialize)]
pub struct View {
    /// 200 characters, row 0 first: `.` empty, `w` tile $7B (white inside the first colour),
    /// `b` tile $7C (the second colour), `a` tile $7D (the first colour), `x` any other byte.
    pub cells: String,
    /// The falling piece's visible cells (row, column) and its look letter.
    pub active: Vec<(u8, u8)>,
    pub active_look: char,
    /// The outlined placement's visible cells (the bot's planned lock, or assist's).
    pub outline: Vec<(u8, u8)>,
    pub next: Option<char>,
    pub level: u8,
    pub lines: u32,
    pub score: u32,
    /// CSS colours: backdrop, white, the level's first and second colour.
    pub colours: [String; 4],
    pub over: bool,
    /// "crash", "hang" or "demo" when the model says the cartridge stopped there.
    pub crashed: Option<&'static str>,
}

/// The look letter of playfield byte `tile` (as `ui::render::block_look` draws it natively).
fn look(tile: u8) -> char {
    match tile {
        0x7B => 'w',
        0x7C => 'b',
        0x7D => 'a',
        t if t >= 0xEF => '.',
        _ => 'x',
    }
}

/// Visible cells (row 0..19, column 0..9) of `o` with its pivot at (x, y); `y` wraps below 0
/// for the hidden rows, as the cartridge's byte does.
pub fn cells_of(x: u8, y: u8, o: Orientation) -> Vec<(u8, u8)> {
    o.cells()
        .into_iter()
        .filter_map(|(dx, dy)| {
            let row = i16::from(y as i8) + i16::from(dy);
            let col = i16::from(x) + i16::from(dx);
            ((0..20).contains(&row) && (0..10).contains(&col)).then_some((row as u8, col as u8))
        })
        .collect()
}

/// The CSS colour of NES master-palette `index`.
pub fn css(index: u8) -> String {
    let [r, g, b] = master_rgb(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The four colours of `level`'s blocks.
pub fn colours(level: u8) -> [String; 4] {
    let [first, second] = level_colours(level);
    [css(BACKDROP), css(WHITE), css(first), css(second)]
}

impl View {
    /// `game` with `outline` outlined.
    pub fn of(game: &Game, outline: Option<&Pos>) -> View {
        let cells = game.field.page[..200].iter().map(|&t| look(t)).collect();
        let orientation = (!game.is_over()).then(|| game.orientation()).flatten();
        let (active, active_look) = match orientation {
            Some(o) => (cells_of(game.active.x, game.active.y, o), look(o.tile())),
            None => (Vec::new(), '.'),
        };
        View {
            cells,
            active,
            active_look,
            outline: outline.map_or_else(Vec::new, |p| cells_of(p.x, p.y, p.orientation)),
            next: game.next_piece().map(|p| p.letter()),
            level: game.level,
            lines: game.line_count(),
            score: game.score(),
            colours: colours(game.level),
            over: game.is_over() || game.crashed.is_some(),
            crashed: game.crashed.map(|c| c.name()),
        }
    }
}
