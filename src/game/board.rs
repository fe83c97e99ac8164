//! The planner's compact playfield: 22 bit rows (hidden rows −2, −1, then 0..19), bit c = column c,
//! with the collision test, locking, line clears and the column profile the evaluation reads.

use super::piece::{Orientation, CELLS};

/// Rows above the visible field that take part in collisions (−2 and −1).
pub const HIDDEN_ROWS: usize = 2;
/// Hidden rows plus the 20 visible rows.
pub const BOARD_ROWS: usize = 22;
/// A row with all ten columns filled.
pub const FULL_ROW: u16 = 0x3FF;

/// Answers the cartridge's `isPositionValid` for orientation id `id` with its pivot at (x, y).
pub trait Collide {
    /// Whether orientation `id` fits with its pivot at column `x`, row `y` (−2..19, wrapping `u8`).
    fn fits(&self, x: u8, y: u8, id: u8) -> bool;
}

/// Occupancy of rows −2..19; `rows[r]` is row `r − 2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// One bit row per row −2..19 (`rows[0]` is row −2); bit c is column c.
    pub rows: [u16; BOARD_ROWS],
}

impl Board {
    /// No cell filled.
    pub const EMPTY: Board = Board {
        rows: [0; BOARD_ROWS],
    };

    /// Parses 20 (visible) or 22 (hidden first) lines of `#`/`.` (any other non-`.` is filled).
    pub fn from_text(text: &str) -> Option<Board> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let skip = match lines.len() {
            20 => HIDDEN_ROWS,
            22 => 0,
            _ => return None,
        };
        let mut b = Board::EMPTY;
        for (i, line) in lines.iter().enumerate() {
            if line.chars().count() != 10 {
                return None;
            }
            for (c, ch) in line.chars().enumerate() {
                if ch != '.' {
                    b.rows[skip + i] |= 1 << c;
                }
            }
        }
        Some(b)
    }

    /// Is (row, col) filled? Row −2..19.
    #[inline]
    pub fn filled(&self, row: i8, col: u8) -> bool {
        self.rows[(row + HIDDEN_ROWS as i8) as usize] & (1 << col) != 0
    }

    /// Fills (row, col); row −2..19.
    #[inline]
    pub fn set(&mut self, row: i8, col: u8) {
        self.rows[(row + HIDDEN_ROWS as i8) as usize] |= 1 << col;
    }

    /// The 20 visible rows.
    #[inline]
    pub fn visible(&self) -> &[u16] {
        &self.rows[HIDDEN_ROWS..]
    }

    /// Adds the piece's cells (no validity check).
    pub fn place(&mut self, x: u8, y: u8, o: Orientation) {
        for (dx, dy) in o.cells() {
            self.set(y as i8 + dy, (x as i8 + dx) as u8);
        }
    }

    /// Removes every full visible row at once, as the four-frame row check ends up doing
    /// (rows −1/−2 never shift); returns how many were removed.
    pub fn clear_lines(&mut self) -> u32 {
        let mut kept = [0u16; 20];
        let mut n = 0usize;
        for r in (HIDDEN_ROWS..BOARD_ROWS).rev() {
            if self.rows[r] != FULL_ROW {
                n += 1;
                kept[20 - n] = self.rows[r];
            }
        }
        let cleared = 20 - n;
        self.rows[HIDDEN_ROWS..].copy_from_slice(&kept);
        cleared as u32
    }

    /// Places the piece and clears lines; returns the number of lines.
    pub fn lock(&mut self, x: u8, y: u8, o: Orientation) -> u32 {
        self.place(x, y, o);
        // Most locks fill no row: skip the row-by-row copy (the planner locks every pair).
        if self.visible().contains(&FULL_ROW) {
            self.clear_lines()
        } else {
            0
        }
    }

    /// Height of every column (20 = filled at row 0; 0 = empty), hidden rows ignored.
    pub fn column_heights(&self) -> [u8; 10] {
        let mut h = [0u8; 10];
        for (c, hc) in h.iter_mut().enumerate() {
            for (i, &row) in self.visible().iter().enumerate() {
                if row & (1 << c) != 0 {
                    *hc = (20 - i) as u8;
                    break;
                }
            }
        }
        h
    }

    /// Filled cells in the visible rows.
    pub fn count_cells(&self) -> u32 {
        self.visible().iter().map(|r| r.count_ones()).sum()
    }

    /// True when no row (hidden ones included) holds a cell.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }
}

impl Collide for Board {
    #[inline]
    fn fits(&self, x: u8, y: u8, id: u8) -> bool {
        for (dx, dy) in CELLS[id as usize] {
            let row = y.wrapping_add(dy as u8).wrapping_add(2);
            let col = x.wrapping_add(dx as u8);
            if row >= BOARD_ROWS as u8 || col >= 10 {
                return false;
            }
            if self.rows[row as usize] & (1 << col) != 0 {
                return false;
            }
        }
        true
    }
}

impl std::fmt::Debug for Board {
    /// Prints the rows in `from_text` syntax (hidden rows first) so a failing board pastes into a test.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board::from_text(\"")?;
        for row in self.rows {
            let s: String = (0..10)
                .map(|c| if row & (1 << c) != 0 { '#' } else { '.' })
                .collect();
            writeln!(f, "{s}")?;
        }
        write!(f, "\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::playfield::Playfield;

    fn sample() -> Board {
        Board::from_text(
            "..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n..........\n..........\n..........\n\
             ..#.......\n###.#..##.\n####.####.\n#########.\n#########.",
        )
        .unwrap()
    }

    #[test]
    fn text_round_trip_and_heights() {
        let b = sample();
        assert_eq!(b.column_heights(), [4, 4, 5, 3, 4, 3, 3, 4, 4, 0]);
        assert_eq!(b.count_cells(), 33);
        let again = Board::from_text(
            format!("{b:?}")
                .trim_start_matches("Board::from_text(\"")
                .trim_end_matches("\")"),
        )
        .unwrap();
        assert_eq!(again, b);
    }

    #[test]
    fn vertical_i_clears_two_lines_and_hidden_rows_stay() {
        let mut b = sample();
        b.set(-1, 4);
        let i = Orientation::new(0x11).unwrap();
        assert!(b.fits(9, 18, 0x11));
        assert!(!b.fits(9, 19, 0x11));
        assert_eq!(b.lock(9, 18, i), 2);
        assert!(b.filled(-1, 4));
        assert_eq!(b.column_heights()[9], 2);
    }

    #[test]
    fn bit_board_and_playfield_agree_on_every_position() {
        let b = sample();
        let p = Playfield::from_board(&b);
        assert_eq!(p.board(), b);
        for id in 0..19u8 {
            for x in 0..=255u8 {
                for y in 0..22u8 {
                    assert_eq!(b.fits(x, y, id), p.fits(x, y, id), "id {id} x {x} y {y}");
                }
            }
        }
    }
}
