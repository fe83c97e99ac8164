//! Fixtures shared by the planner's unit tests (compiled for tests only): the lock searches'
//! boards (`movegen::fixtures`), an O piece's placement, a situation after some inputs.

pub use crate::movegen::fixtures::*;

use crate::game::pad::Buttons;
use crate::game::score::drop_speed;
use crate::game::Pos;
use crate::game::{PadState, Piece};
use crate::movegen::profile::PieceProgress;
use crate::movegen::CollisionMap;
use crate::search::Situation;

/// The O piece (its one orientation) placed at column `x`, row `y`.
pub fn o_at(x: u8, y: u8) -> Pos {
    Pos {
        x,
        y,
        orientation: Piece::O.spawn(),
    }
}

/// `s` after `inputs`, played in the model (`piece` is the piece in play).
pub fn after_inputs(s: &Situation, inputs: &[PadState], piece: Piece) -> Situation {
    let map = CollisionMap::new(&s.board, piece);
    let (mut a, mut prev) = (s.active, s.prev);
    for &i in inputs {
        a.frame(Buttons::after(i, prev), drop_speed(s.level), &map);
        prev = i;
    }
    Situation {
        active: a,
        prev,
        progress: PieceProgress::after(inputs, s.prev),
        ..*s
    }
}
