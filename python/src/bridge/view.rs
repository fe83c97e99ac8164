//! What the agent sees beyond the bare board: the falling piece's cells, the board with it,
//! the placement action's inverse and nestor's own picture of the game as RGB pixels.

use nestor::game::piece::{Orientation, Piece};
use nestor::game::state::{Game, PlayState};
use nestor::ui::render::{draw_game, visible_cells, DrawOptions};

use super::*;

/// The cells (x, y) of orientation `id` with its pivot at (x, y); y may be −2, −1 (hidden rows).
pub fn cells_of(x: u8, y: i8, id: u8) -> Option<[(i16, i16); 4]> {
    let o = Orientation::new(id)?;
    Some(
        o.cells()
            .map(|(dx, dy)| (i16::from(x) + i16::from(dx), i16::from(y) + i16::from(dy))),
    )
}

/// The falling piece's orientation while the player controls it (what the cartridge draws).
fn controlled(g: &Game) -> Option<Orientation> {
    (g.play_state == PlayState::Control && !g.is_over())
        .then(|| Orientation::new(g.active.id))
        .flatten()
}

/// Visible rows 0..19, row-major: 0 empty, 1 locked block, 2 the falling piece.
pub fn write_board_with_piece(g: &Game, out: &mut [u8]) {
    write_board(g, out);
    if let Some(o) = controlled(g) {
        for (row, col) in visible_cells(g.active.x, g.active.y, o) {
            out[row * 10 + col] = 2;
        }
    }
}

/// The orientation id of rotation slot `slot` of `piece` (slot 0 the spawn orientation, then
/// clockwise), None where the piece has fewer distinct orientations.
pub fn orientation_of_slot(piece: Piece, slot: usize) -> Option<u8> {
    let mut o = piece.spawn();
    for _ in 0..slot {
        o = o.cw();
        if o == piece.spawn() {
            return None;
        }
    }
    Some(o.id())
}

/// (x, y, orientation id) of placement action `action` for `piece`.
pub fn placement_of(action: usize, piece: Piece) -> Option<(u8, i8, u8)> {
    if action >= ACTIONS {
        return None;
    }
    let (slot, rest) = (action / 220, action % 220);
    let (row, col) = (rest / 10, rest % 10);
    let id = orientation_of_slot(piece, slot)?;
    Some((col as u8, row as i8 - 2, id))
}

/// nestor's own picture of the game (the board with its falling piece, the next piece and the
/// numbers; no cartridge graphics) at `cell` pixels per cell: (height, width, RGB row-major).
pub fn render_rgb(t: &Tracked, cell: usize) -> (usize, usize, Vec<u8>) {
    let opts = DrawOptions {
        cell,
        ..DrawOptions::default()
    };
    let frame = draw_game(&t.game, &opts);
    let rgb = frame
        .pixels
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (frame.height, frame.width, rgb)
}
