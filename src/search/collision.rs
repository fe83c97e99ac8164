//! Per-piece collision masks built once per search: for each orientation and column, one bit
//! per pivot row where the piece would not fit, so the BFS's collision test is a bit test.

use crate::game::board::{Board, Collide};
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
    /// Fills the masks of `piece`'s orientations on `board` (other orientations stay blocked).
    pub fn build(&mut self, board: &Board, piece: Piece) {
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

    pub fn new(board: &Board, piece: Piece) -> CollisionMap {
        let mut m = CollisionMap::default();
        m.build(board, piece);
        m
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
        for piece in Piece::ALL {
            let m = CollisionMap::new(&b, piece);
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
