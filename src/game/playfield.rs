//! The cartridge's playfield page $0400-$04FF byte for byte, with its address wrap-around,
//! so rows −1/−2 live where the game keeps them (nes-tetris.md §2.3, §4).

use super::board::{Board, Collide, BOARD_ROWS, HIDDEN_ROWS};
use super::piece::CELLS;

/// Empty cell ($EF). Any byte ≥ $EF counts as empty in the collision test.
pub const EMPTY: u8 = 0xEF;
/// Game-over curtain tile.
pub const CURTAIN: u8 = 0x4F;

/// Offset of cell (row, col) in the page: `(10*row + col) mod 256`, row −2..19 (or 20, 21).
#[inline]
pub const fn offset(row: i16, col: i16) -> usize {
    ((10 * row + col) as u16 & 0xFF) as usize
}

/// The whole $0400 page, as the game addresses it.
#[derive(Clone, PartialEq, Eq)]
pub struct Playfield {
    /// Tile bytes at `offset(row, col)`; a byte ≥ $EF is empty.
    pub page: [u8; 256],
}

impl Default for Playfield {
    fn default() -> Self {
        Self::new()
    }
}

impl Playfield {
    /// All $EF, as at game start.
    pub const fn new() -> Playfield {
        Playfield { page: [EMPTY; 256] }
    }

    /// The tile at (row, col), wrapping as the game's address does.
    #[inline]
    pub fn get(&self, row: i16, col: i16) -> u8 {
        self.page[offset(row, col)]
    }

    /// Writes `tile` at (row, col), wrapping as the game's address does.
    #[inline]
    pub fn set(&mut self, row: i16, col: i16, tile: u8) {
        self.page[offset(row, col)] = tile;
    }

    /// Writes the four cells of orientation `id` at (x, y), as `lockTetrimino` does.
    pub fn write_piece(&mut self, x: u8, y: u8, id: u8, tile: u8) {
        for (dx, dy) in CELLS[id as usize] {
            self.set(y as i16 + dy as i16, x as i16 + dx as i16, tile);
        }
    }

    /// True when no byte of `row` is exactly $EF (the row check's own test).
    pub fn row_complete(&self, row: u8) -> bool {
        (0..10).all(|c| self.get(row as i16, c) != EMPTY)
    }

    /// Removes `row` (0..19): rows above move down one, row 0 becomes empty; rows −1/−2 stay.
    pub fn remove_row(&mut self, row: u8) {
        // Rows past 21 only come from nonsense states (a poked y); stay inside the page.
        let end = (row as usize * 10).min(256 - 10);
        self.page.copy_within(0..end, 10);
        self.page[0..10].fill(EMPTY);
    }

    /// Occupancy of rows −2..19 as bit rows.
    pub fn board(&self) -> Board {
        let mut b = Board::EMPTY;
        for r in 0..BOARD_ROWS {
            let row = r as i16 - HIDDEN_ROWS as i16;
            let mut bits = 0u16;
            for c in 0..10 {
                if self.get(row, c) < EMPTY {
                    bits |= 1 << c;
                }
            }
            b.rows[r] = bits;
        }
        b
    }

    /// A playfield whose rows −2..19 hold $7B where `board` is filled.
    pub fn from_board(board: &Board) -> Playfield {
        let mut p = Playfield::new();
        for r in 0..BOARD_ROWS {
            let row = r as i16 - HIDDEN_ROWS as i16;
            for c in 0..10 {
                if board.rows[r] & (1 << c) != 0 {
                    p.set(row, c, 0x7B);
                }
            }
        }
        p
    }
}

impl Collide for Playfield {
    /// `isPositionValid`: rows −2..19, columns 0..9 (x is unsigned), cell byte ≥ $EF.
    #[inline]
    fn fits(&self, x: u8, y: u8, id: u8) -> bool {
        for (dx, dy) in CELLS[id as usize] {
            let row = y.wrapping_add(dy as u8).wrapping_add(2);
            if row >= 22 {
                return false;
            }
            let col = x.wrapping_add(dx as u8);
            if col >= 10 {
                return false;
            }
            if self.get(row as i16 - 2, col as i16) < EMPTY {
                return false;
            }
        }
        true
    }
}

impl std::fmt::Debug for Playfield {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Playfield {{")?;
        for row in -2..20i16 {
            let s: String = (0..10)
                .map(|c| match self.get(row, c) {
                    EMPTY.. => '.',
                    0x7B => '1',
                    0x7C => '2',
                    0x7D => '3',
                    _ => '#',
                })
                .collect();
            writeln!(f, "  {row:>3} {s}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::piece::Orientation;

    #[test]
    fn hidden_rows_sit_at_the_top_of_the_page() {
        assert_eq!(offset(-1, 0), 0xF6);
        assert_eq!(offset(-2, 0), 0xEC);
        assert_eq!(offset(19, 9), 0xC7);
    }

    #[test]
    fn removing_a_row_shifts_visible_rows_only() {
        let mut p = Playfield::new();
        p.set(-1, 6, 0x7B);
        p.set(0, 0, 0x7C);
        for c in 0..10 {
            p.set(5, c, 0x7D);
        }
        assert!(p.row_complete(5));
        p.remove_row(5);
        assert_eq!(p.get(-1, 6), 0x7B, "hidden rows never shift");
        assert_eq!(p.get(0, 0), EMPTY, "row 0 refilled");
        assert_eq!(p.get(1, 0), 0x7C, "row 0 moved down");
        assert!(!p.row_complete(5));
    }

    #[test]
    fn removing_a_nonsense_row_stays_inside_the_page() {
        let mut p = Playfield::new();
        p.set(3, 3, 0x7B);
        p.remove_row(200);
        assert_eq!(p.get(4, 3), 0x7B);
    }

    #[test]
    fn collision_treats_ff_as_empty_and_checks_walls() {
        let mut p = Playfield::new();
        let t = Orientation::new(2).unwrap();
        assert!(p.fits(5, 0, t.id()));
        assert!(!p.fits(0, 0, t.id()), "cell at x=-1");
        assert!(!p.fits(9, 0, t.id()), "cell at x=10");
        assert!(!p.fits(5, 19, t.id()), "cell at row 20");
        p.set(1, 5, 0xFF);
        assert!(p.fits(5, 0, t.id()));
        p.set(1, 5, 0x7B);
        assert!(!p.fits(5, 0, t.id()));
        // Vertical I at y=0 reaches row -2; at y=... row -3 is out.
        assert!(p.fits(3, 1, 0x11));
        p.set(-2, 3, 0x7B);
        assert!(
            !p.fits(3, 0, 0x11),
            "hidden-row block stops a vertical I at y=0"
        );
        assert!(p.fits(3, 2, 0x11));
    }
}
