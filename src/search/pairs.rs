//! The pair enumerator: the board after a first lock and every (first, second) pair over the
//! next piece's locks, locked; `eval::pair_values` values them, for every caller.

use crate::game::board::Board;
use crate::game::score::{add_line, drop_speed};
use crate::game::Pos;

/// The result of locking the current piece, then the next piece.
#[derive(Clone, Copy, Debug)]
pub struct PairOutcome<'a> {
    /// Where the current piece locked.
    pub first: Pos,
    /// Where the next piece locked, on the board the first left.
    pub second: Pos,
    /// Lines the first lock cleared.
    pub lines_first: u32,
    /// Lines the second lock cleared.
    pub lines_second: u32,
    /// The board after both pieces locked and their lines cleared.
    pub board: &'a Board,
    /// The level of the decision. It picks the phase (one phase scores every pair of a
    /// decision: values of different phases do not compare) and the gravity of the reach.
    pub level: u8,
}

/// The level after `cleared` more lines, by the cartridge's own rule.
pub fn level_after(level: u8, lines: [u8; 2], cleared: u32) -> u8 {
    level_and_lines_after(level, lines, cleared).0
}

/// The level and the BCD line count after `cleared` more lines, by the cartridge's own rule.
pub fn level_and_lines_after(level: u8, lines: [u8; 2], cleared: u32) -> (u8, [u8; 2]) {
    let (mut level, mut lines) = (level, lines);
    for _ in 0..cleared {
        add_line(&mut lines, &mut level);
    }
    (level, lines)
}

/// The first lock of a pair and the board it leaves.
#[derive(Clone, Copy, Debug)]
pub struct AfterFirst {
    /// Where the current piece locked.
    pub first: Pos,
    /// The board after the first lock, its lines cleared.
    pub board: Board,
    /// Lines the first lock cleared.
    pub lines: u32,
    /// The decision's level (it picks the evaluation's phase).
    pub level: u8,
    /// The gravity the next piece falls at (after the first lock's level-up, if any).
    pub speed: u8,
}

impl AfterFirst {
    /// Locks `first` on `board` at `level` with `lines` (BCD, for the level-up).
    pub fn new(board: &Board, level: u8, lines: [u8; 2], first: Pos) -> AfterFirst {
        let mut after = *board;
        let cleared = after.lock(first.x, first.y, first.orientation);
        AfterFirst {
            first,
            board: after,
            lines: cleared,
            level,
            speed: drop_speed(level_after(level, lines, cleared)),
        }
    }

    /// `second` locked on the board after the first lock: the board after both and the lines
    /// the second cleared.
    #[inline]
    pub fn then(&self, second: Pos) -> (Board, u32) {
        let mut board2 = self.board;
        let lines2 = board2.lock(second.x, second.y, second.orientation);
        (board2, lines2)
    }

    /// The pair of this first lock and `second`, which cleared `lines_second` and left `board2`.
    #[inline]
    pub fn outcome<'a>(
        &self,
        second: Pos,
        lines_second: u32,
        board2: &'a Board,
    ) -> PairOutcome<'a> {
        PairOutcome {
            first: self.first,
            second,
            lines_first: self.lines,
            lines_second,
            board: board2,
            level: self.level,
        }
    }
}
