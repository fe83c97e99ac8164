//! nestor's own picture of a game (no cartridge graphics): an RGBA8 `Frame`, the board with its
//! grid, blocks, active piece, next piece, numbers and planned lock; PNG output; NES plan overlay.

use crate::game::Pos;
use std::io::Write;
use std::path::Path;

use crate::game::palette::{level_colours, master_rgb, WHITE};
use crate::game::playfield::{CURTAIN, EMPTY};
use crate::game::{Game, Orientation, PlayState};

use super::font::{draw_text, text_width, GLYPH_H};
use super::frame::outline_rect_raw;
pub use super::frame::{Frame, RenderError, Rgb};

/// Window and panel background.
pub const BACKGROUND: Rgb = [16, 16, 24];
/// Empty playfield cell.
pub const FIELD: Rgb = [0, 0, 0];
/// Grid lines between cells.
pub const GRID: Rgb = [34, 34, 48];
/// The playfield's outer border.
pub const BORDER: Rgb = [150, 150, 170];
/// Labels and numbers.
pub const TEXT: Rgb = [230, 230, 230];
/// Outline of the planned lock position.
pub const PLAN: Rgb = [255, 220, 0];
/// The game-over curtain ($4F).
pub const CURTAIN_GREY: Rgb = [128, 128, 128];
/// Any other non-empty byte (never written by the game; shown so it stands out).
pub const OTHER_TILE: Rgb = [200, 80, 200];

/// Width of the NES picture in pixels.
pub const NES_WIDTH: usize = 256;
/// Height of the NES picture in pixels.
pub const NES_HEIGHT: usize = 240;
/// Pixel of the top-left corner of playfield cell (row 0, column 0) in the cartridge's picture.
/// From the game's nametable address for row 0 ($20CC: tile row 6, tile column 12) and 8×8
/// tiles, assuming the 256×240 buffer starts at scanline 0 with no scroll. Not checked against
/// a real frame here (no ROM on this machine): verify with a screenshot of `nestor play`.
pub const NES_FIELD_ORIGIN: (usize, usize) = (96, 48);
/// Size of one playfield cell in the cartridge's picture.
pub const NES_CELL: usize = 8;

/// What to draw besides the game itself.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOptions {
    /// Pixels per playfield cell (at least 4).
    pub cell: usize,
    /// Draw grid lines between cells.
    pub grid: bool,
    /// Outline this lock position (`--show-plan`).
    pub plan: Option<Pos>,
    /// Pieces locked so far, shown under the level when known.
    pub pieces: Option<u32>,
    /// A short status line under the numbers ("PAUSE", "FAST", "X2"); empty for none.
    pub status: String,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            cell: 12,
            grid: true,
            plan: None,
            pieces: None,
            status: String::new(),
        }
    }
}

/// Where everything goes for a given cell size (all in frame pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Side of a playfield cell in pixels (at least 4).
    pub cell: usize,
    /// Top-left corner of cell (0, 0), on the grid line.
    pub field: (usize, usize),
    /// Left edge of the side panel.
    pub panel_x: usize,
    /// Pixels per font pixel.
    pub font_scale: usize,
    /// Frame width in pixels.
    pub width: usize,
    /// Frame height in pixels.
    pub height: usize,
}

impl Layout {
    /// The layout for cells of `cell` pixels (raised to 4 if smaller).
    pub fn new(cell: usize) -> Layout {
        let cell = cell.max(4);
        let margin = cell;
        let font_scale = (cell / 6).max(1);
        let panel_w = (5 * cell).max(text_width("0000000", font_scale));
        let panel_x = margin + 10 * cell + 1 + margin;
        Layout {
            cell,
            field: (margin, margin),
            panel_x,
            font_scale,
            width: panel_x + panel_w + margin,
            height: 2 * margin + 20 * cell + 1,
        }
    }

    /// Top-left pixel (on the grid line) of playfield cell (row, col).
    pub fn cell_origin(&self, row: usize, col: usize) -> (usize, usize) {
        (
            self.field.0 + col * self.cell,
            self.field.1 + row * self.cell,
        )
    }

    /// A pixel inside cell (row, col), away from its edges.
    pub fn cell_centre(&self, row: usize, col: usize) -> (usize, usize) {
        let (x, y) = self.cell_origin(row, col);
        (x + self.cell / 2, y + self.cell / 2)
    }

    fn line_height(&self) -> usize {
        (GLYPH_H + 2) * self.font_scale
    }
}

/// How a block looks: its colour and, for tile $7B, the white inside its border.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockLook {
    /// The block's colour.
    pub fill: Rgb,
    /// The colour inside its border, for tile $7B (white); `None` for a solid block.
    pub centre: Option<Rgb>,
}

/// The look of playfield byte `tile` at `level`, or `None` for an empty cell (any byte ≥ $EF).
/// The three block tiles take the level's two colours as the cartridge does
/// ([`level_colours`]): $7B (T, O, I) white inside the first, $7C (Z, L) the second, $7D (J, S)
/// the first.
pub fn block_look(tile: u8, level: u8) -> Option<BlockLook> {
    let [first, second] = level_colours(level).map(master_rgb);
    let solid = |fill| BlockLook { fill, centre: None };
    match tile {
        EMPTY.. => None,
        0x7B => Some(BlockLook {
            fill: first,
            centre: Some(master_rgb(WHITE)),
        }),
        0x7C => Some(solid(second)),
        0x7D => Some(solid(first)),
        CURTAIN => Some(solid(CURTAIN_GREY)),
        _ => Some(solid(OTHER_TILE)),
    }
}

/// The colour at the centre of `tile`'s cell at `level`, or `None` for an empty cell.
pub fn tile_colour(tile: u8, level: u8) -> Option<Rgb> {
    block_look(tile, level).map(|b| b.centre.unwrap_or(b.fill))
}

/// Visible playfield cells (row 0..19, col 0..9) of `orientation` with its pivot at (x, y);
/// `y` is the cartridge's byte, which wraps below 0 for the hidden rows.
pub fn visible_cells(
    x: u8,
    y: u8,
    orientation: Orientation,
) -> impl Iterator<Item = (usize, usize)> {
    orientation.cells().into_iter().filter_map(move |(dx, dy)| {
        let row = i16::from(y as i8) + i16::from(dy);
        let col = i16::from(x) + i16::from(dx);
        ((0..20).contains(&row) && (0..10).contains(&col)).then_some((row as usize, col as usize))
    })
}

/// Draws `game` into a new frame.
pub fn draw_game(game: &Game, opts: &DrawOptions) -> Frame {
    let mut frame = Frame::new(0, 0, BACKGROUND);
    draw_game_into(game, opts, &mut frame);
    frame
}

/// Draws `game` into `frame`, resizing it to the layout (reuses its allocation).
pub fn draw_game_into(game: &Game, opts: &DrawOptions, frame: &mut Frame) {
    let l = Layout::new(opts.cell);
    frame.reset(l.width, l.height, BACKGROUND);
    draw_field(game, opts, &l, frame);
    draw_panel(game, opts, &l, frame);
}

fn draw_block(frame: &mut Frame, l: &Layout, (x, y): (usize, usize), look: BlockLook) {
    frame.fill_rect(x + 1, y + 1, l.cell - 1, l.cell - 1, look.fill);
    if let Some(centre) = look.centre {
        // The cartridge's 8-pixel tile has a 1-pixel border.
        let b = (l.cell / 8).max(1);
        let side = (l.cell - 1).saturating_sub(2 * b);
        frame.fill_rect(x + 1 + b, y + 1 + b, side, side, centre);
    } else if l.cell >= 8 {
        // A small shine, as the cartridge's blocks have.
        let s = l.cell / 6;
        frame.fill_rect(x + 1 + s, y + 1 + s, s, s, [255, 255, 255]);
    }
}

fn piece_look(o: Orientation, level: u8) -> BlockLook {
    block_look(o.tile(), level).unwrap_or(BlockLook {
        fill: OTHER_TILE,
        centre: None,
    })
}

fn draw_field(game: &Game, opts: &DrawOptions, l: &Layout, frame: &mut Frame) {
    let c = l.cell;
    let (fx, fy) = l.field;
    frame.fill_rect(fx, fy, 10 * c + 1, 20 * c + 1, FIELD);
    if opts.grid {
        for k in 1..10 {
            frame.fill_rect(fx + k * c, fy, 1, 20 * c + 1, GRID);
        }
        for k in 1..20 {
            frame.fill_rect(fx, fy + k * c, 10 * c + 1, 1, GRID);
        }
    }
    frame.outline_rect(fx, fy, 10 * c + 1, 20 * c + 1, 1, BORDER);
    for row in 0..20 {
        for col in 0..10 {
            if let Some(look) = block_look(game.field.get(row as i16, col as i16), game.level) {
                draw_block(frame, l, l.cell_origin(row, col), look);
            }
        }
    }
    if !game.is_over() {
        if let Some(o) = game.orientation() {
            let look = piece_look(o, game.level);
            for (row, col) in visible_cells(game.active.x, game.active.y, o) {
                draw_block(frame, l, l.cell_origin(row, col), look);
            }
        }
    }
    if let Some(p) = opts.plan {
        let t = (c / 6).max(1);
        for (row, col) in visible_cells(p.x, p.y, p.orientation) {
            let (x, y) = l.cell_origin(row, col);
            frame.outline_rect(x, y, c + 1, c + 1, t, PLAN);
        }
    }
}

fn draw_panel(game: &Game, opts: &DrawOptions, l: &Layout, frame: &mut Frame) {
    let (c, fs, lh) = (l.cell, l.font_scale, l.line_height());
    let x = l.panel_x;
    let mut y = l.field.1;
    draw_text(frame, x, y, "NEXT", fs, TEXT);
    y += lh;
    let (box_w, box_h) = (5 * c, 3 * c);
    frame.fill_rect(x, y, box_w, box_h, FIELD);
    frame.outline_rect(x, y, box_w, box_h, 1, BORDER);
    if let Some(next) = game.next_piece() {
        let o = next.spawn();
        let (x0, x1, y0, y1) = o.extent();
        let (pw, ph) = ((x1 - x0 + 1) as usize * c, (y1 - y0 + 1) as usize * c);
        let (ox, oy) = (x + (box_w - pw) / 2, y + (box_h - ph) / 2);
        let look = piece_look(o, game.level);
        for (dx, dy) in o.cells() {
            let px = ox + (dx - x0) as usize * c;
            let py = oy + (dy - y0) as usize * c;
            draw_block(frame, l, (px, py), look);
        }
    }
    y += box_h + c;
    let mut rows = vec![
        ("SCORE", format!("{:06}", game.score())),
        ("LINES", format!("{:03}", game.lines())),
        ("LEVEL", format!("{:02}", game.level)),
    ];
    if let Some(p) = opts.pieces {
        rows.push(("PCS", p.to_string()));
    }
    for (label, value) in rows {
        draw_text(frame, x, y, label, fs, TEXT);
        draw_text(frame, x, y + lh, &value, fs, TEXT);
        y += 2 * lh + c / 2;
    }
    if matches!(game.play_state, PlayState::Curtain | PlayState::Ended) {
        draw_text(frame, x, y, "GAME", fs, PLAN);
        draw_text(frame, x, y + lh, "OVER", fs, PLAN);
        y += 2 * lh + c / 2;
    }
    if !opts.status.is_empty() {
        draw_text(frame, x, y, &opts.status, fs, PLAN);
    }
}

/// Outlines the planned lock cells on the cartridge's 256×240 RGBA picture (1-pixel outline of
/// each 8×8 cell at [`NES_FIELD_ORIGIN`], so the tiles beneath stay visible).
pub fn overlay_plan_on_nes(rgba: &mut [u8], placement: &Pos) -> Result<(), RenderError> {
    if rgba.len() != NES_WIDTH * NES_HEIGHT * 4 {
        return Err(RenderError::WrongSize {
            expected_width: NES_WIDTH,
            expected_height: NES_HEIGHT,
            got: rgba.len(),
        });
    }
    let (ox, oy) = NES_FIELD_ORIGIN;
    for (row, col) in visible_cells(placement.x, placement.y, placement.orientation) {
        let r = (ox + col * NES_CELL, oy + row * NES_CELL, NES_CELL, NES_CELL);
        outline_rect_raw(rgba, NES_WIDTH, NES_HEIGHT, r, 1, PLAN);
    }
    Ok(())
}

/// Encodes `frame` as an 8-bit RGBA PNG into `out`.
pub fn encode_png<W: Write>(frame: &Frame, out: W) -> Result<(), png::EncodingError> {
    let mut enc = png::Encoder::new(out, frame.width as u32, frame.height as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    writer.write_image_data(&frame.pixels)?;
    writer.finish()
}

/// Writes `frame` as a PNG file.
pub fn save_png(frame: &Frame, path: &Path) -> Result<(), RenderError> {
    let io = |source| RenderError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut out = crate::io::AtomicFile::create(path, crate::io::Existing::Replace).map_err(io)?;
    encode_png(frame, &mut out).map_err(|source| RenderError::Png {
        path: path.to_path_buf(),
        source,
    })?;
    out.commit().map_err(io)
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
