//! The board rules the pair value applies besides its features: the ceiling load (rule 2),
//! room for every piece at the spawn (rule 3) and a row the spawn can still complete (rule 4).

use crate::game::board::FULL_ROW;
use crate::game::Piece;

/// Rule 2: Σ over filled cells in rows r < `top_rows` of (`top_rows` − r): 7 per cell in row 0
/// down to 1 in row 6 with the default 7 rows.
#[inline]
pub fn ceiling_load(rows: &[u16; 20], top_rows: u32) -> u32 {
    rows.iter()
        .take(top_rows as usize)
        .enumerate()
        .map(|(r, row)| (top_rows - r as u32) * row.count_ones())
        .sum()
}

/// The spawn pivot column (every piece spawns with its pivot at x = 5, y = 0).
const SPAWN_X: i8 = 5;

/// Per piece, the spawn orientation's cells at (5, 0) as masks of visible rows 0 and 1.
const SPAWN_MASKS: [[u16; 2]; Piece::NUM] = spawn_masks();

const fn spawn_masks() -> [[u16; 2]; Piece::NUM] {
    let mut masks = [[0u16; 2]; Piece::NUM];
    let mut p = 0;
    while p < Piece::NUM {
        let cells = Piece::ALL[p].spawn().cells();
        let mut i = 0;
        while i < 4 {
            let (dx, dy) = cells[i];
            masks[p][dy as usize] |= 1 << (SPAWN_X + dx) as u32;
            i += 1;
        }
        p += 1;
    }
    masks
}

/// Rule 3: does every one of the seven pieces fit at its spawn position?
pub fn spawn_room(rows: &[u16; 20]) -> bool {
    SPAWN_MASKS
        .iter()
        .all(|m| rows[0] & m[0] == 0 && rows[1] & m[1] == 0)
}

/// Rule 4: does the empty region connected to the spawn pivot (row 0, column 5) cover every
/// empty cell of at least one row, so that some line could still be completed? Cells move
/// one at a time (not piece-shaped); the rows above row 0 count as filled. Only a filled cell
/// in row 0 can make this false: otherwise row 0 itself is reached whole.
pub fn spawn_region_spans_a_row(rows: &[u16; 20]) -> bool {
    let empty = |r: usize| !rows[r] & FULL_ROW;
    let mut reach = [0u16; 20];
    // The reached set only grows, so a row found spanned stays spanned: return at once.
    let spans = |r: usize, reached: u16| reached != 0 && reached | rows[r] == FULL_ROW;
    reach[0] = fill_row(empty(0) & (1 << SPAWN_X), empty(0));
    if reach[0] == 0 || spans(0, reach[0]) {
        return reach[0] != 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        let order = (0..20).chain((0..20).rev());
        for r in order {
            let mut seed = reach[r];
            if r > 0 {
                seed |= reach[r - 1];
            }
            if r < 19 {
                seed |= reach[r + 1];
            }
            let grown = fill_row(seed & empty(r), empty(r));
            if grown != reach[r] {
                if spans(r, grown) {
                    return true;
                }
                reach[r] = grown;
                changed = true;
            }
        }
    }
    false
}

/// Grows `seed` left and right through the `empty` cells of one row.
fn fill_row(seed: u16, empty: u16) -> u16 {
    let mut x = seed;
    loop {
        let grown = (x | (x << 1) | (x >> 1)) & empty;
        if grown == x {
            return x;
        }
        x = grown;
    }
}
