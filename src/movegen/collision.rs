//! Per-piece collision masks built once per search: for each orientation and column, one bit
//! per pivot row where the piece would not fit, so the BFS's collision test is a bit test.

use crate::game::board::{Board, Collide, BOARD_ROWS, FULL_ROW};
use crate::game::piece::{Orientation, Piece};

/// Pivot rows covered by the masks (0..=21; `fits` answers false beyond).
const ROWS: u8 = 22;

/// `blocked[id][x]` has bit y set when orientation `id` does not fit with its pivot at (x, y).
#[derive(Clone)]
pub struct CollisionMap {
    blocked: [[u32; 10]; Orientation::NUM],
}

impl Default for CollisionMap {
    fn default() -> Self {
        CollisionMap {
            blocked: [[u32::MAX; 10]; Orientation::NUM],
        }
    }
}

impl CollisionMap {
    /// Fills the masks of `piece`'s orientations on `board` (other orientations stay blocked):
    /// per cell, the column's occupancy shifted to pivot rows, OR-ed (rows past the board and
    /// columns off the field block).
    pub fn build(&mut self, board: &Board, piece: Piece) {
        self.blocked = [[u32::MAX; 10]; Orientation::NUM];
        // Bit r of `cols[c]`: row r of the board (−2 + r) is filled at column c, or r ≥ 22.
        let mut cols = [!0u64 << BOARD_ROWS; 10];
        for (r, &row) in board.rows.iter().enumerate() {
            let mut bits = row & FULL_ROW;
            while bits != 0 {
                cols[bits.trailing_zeros() as usize] |= 1 << r;
                bits &= bits - 1;
            }
        }
        for o in Orientation::all().filter(|o| o.piece() == piece) {
            let cells = o.cells();
            for x in 0..10i8 {
                let mut mask = 0u64;
                for &(dx, dy) in &cells {
                    let c = x + dx;
                    if !(0..10).contains(&c) {
                        mask = u64::MAX;
                        break;
                    }
                    mask |= cols[c as usize] >> (dy + 2);
                }
                self.blocked[o.id() as usize][x as usize] = mask as u32 | !((1u32 << ROWS) - 1);
            }
        }
    }

    /// [`CollisionMap::build`] by testing every position with `Board::fits` (the definition
    /// the bit-column build is tested against; the reference planner uses it).
    pub fn build_by_positions(&mut self, board: &Board, piece: Piece) {
        self.blocked = [[u32::MAX; 10]; Orientation::NUM];
        for o in Orientation::all().filter(|o| o.piece() == piece) {
            for x in 0..10u8 {
                let mut mask = u32::MAX;
                for y in 0..ROWS {
                    if board.fits(x, y, o.id()) {
                        mask &= !(1 << y);
                    }
                }
                self.blocked[o.id() as usize][x as usize] = mask;
            }
        }
    }

    /// The masks of `piece`'s orientations on `board` ([`CollisionMap::build`]).
    pub fn new(board: &Board, piece: Piece) -> CollisionMap {
        let mut m = CollisionMap::default();
        m.build(board, piece);
        m
    }
}

impl CollisionMap {
    /// The first pivot row where `self` and `other` fit some orientation or column
    /// differently (22 when they agree on every row).
    pub(crate) fn first_difference(&self, other: &CollisionMap) -> u8 {
        let mut first = u32::from(ROWS);
        for (a, b) in self.blocked.iter().zip(&other.blocked) {
            for (m, n) in a.iter().zip(b) {
                first = first.min((m ^ n).trailing_zeros());
            }
        }
        first as u8
    }
}

impl Collide for CollisionMap {
    #[inline(always)]
    fn fits(&self, x: u8, y: u8, id: u8) -> bool {
        if x >= 10 || y >= ROWS || id as usize >= Orientation::NUM {
            return false;
        }
        self.blocked[id as usize][x as usize] & (1 << y) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_board_everywhere() {
        let board = Board::from_text(
            "..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n..........\n..........\n..#.......\n\
             ..#.......\n###.#..##.\n####.####.\n#########.\n#########.",
        )
        .unwrap();
        let mut b = board;
        b.set(-1, 5);
        b.set(-2, 0);
        for piece in Piece::ALL {
            let m = CollisionMap::new(&b, piece);
            let mut by_positions = CollisionMap::default();
            by_positions.build_by_positions(&b, piece);
            assert_eq!(m.blocked, by_positions.blocked, "{piece:?}");
            for o in Orientation::all().filter(|o| o.piece() == piece) {
                for x in 0..=255u8 {
                    // Pivot rows the game can hold (y never decreases from 0; the 8-bit
                    // row test would wrap for y ≥ 254, which no piece reaches).
                    for y in 0..=40u8 {
                        assert_eq!(m.fits(x, y, o.id()), b.fits(x, y, o.id()), "{o:?} {x} {y}");
                    }
                }
            }
        }
    }
}
