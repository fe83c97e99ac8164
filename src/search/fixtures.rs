//! Fixtures shared by the planner's unit tests (compiled for tests only): the lock searches'
//! boards (`movegen::fixtures`) and an O piece's placement.

pub use crate::movegen::fixtures::*;

use crate::game::Piece;
use crate::game::Pos;

/// The O piece (its one orientation) placed at column `x`, row `y`.
pub fn o_at(x: u8, y: u8) -> Pos {
    Pos {
        x,
        y,
        orientation: Piece::O.spawn(),
    }
}
