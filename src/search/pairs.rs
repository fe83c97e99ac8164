//! The pair enumerator: the board after a first lock and every (first, second) pair over the
//! next piece's locks, locked and valued; every caller that values pairs goes through it.

use crate::game::board::Board;
use crate::game::score::{add_line, drop_speed};

use super::bfs::Lock;
use super::eval::{Evaluator, PairOutcome, Placement, Prefix};
use super::reach::ReachLock;

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

impl From<&Lock> for Placement {
    fn from(l: &Lock) -> Placement {
        Placement {
            x: l.x,
            y: l.y,
            orientation: l.orientation(),
        }
    }
}

impl From<&ReachLock> for Placement {
    fn from(l: &ReachLock) -> Placement {
        Placement {
            x: l.x,
            y: l.y,
            orientation: l.orientation(),
        }
    }
}

/// The first lock of a pair and the board it leaves.
#[derive(Clone, Copy, Debug)]
pub struct AfterFirst {
    pub first: Placement,
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
    pub fn new(board: &Board, level: u8, lines: [u8; 2], first: Placement) -> AfterFirst {
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

    /// The value of the first lock alone (no next piece known): the pair (first, first) with
    /// no second lines, as the original evaluator scored it.
    pub fn alone<E: Evaluator>(&self, evaluator: &E) -> Option<f64> {
        evaluator.evaluate(&PairOutcome {
            first: self.first,
            second: self.first,
            lines_first: self.lines,
            lines_second: 0,
            board: &self.board,
            level: self.level,
        })
    }

    /// Every pair with a second lock from `seconds`, in their order: `f(value, second, lines
    /// the second cleared, board after both)` for each pair no rule rejects.
    #[inline]
    pub fn each_pair<E: Evaluator>(
        &self,
        evaluator: &E,
        seconds: impl IntoIterator<Item = Placement>,
        mut f: impl FnMut(f64, Placement, u32, &Board),
    ) {
        for second in seconds {
            let (board2, lines2) = self.then(second);
            if let Some(v) = evaluator.evaluate(&self.outcome(second, lines2, &board2)) {
                f(v, second, lines2, &board2);
            }
        }
    }

    /// How many pairs over `seconds` no rule rejects whose value plus `offset` (a first lock's
    /// penalty) is `target`.
    pub fn count_equal<E: Evaluator>(
        &self,
        evaluator: &E,
        seconds: &[ReachLock],
        offset: f64,
        target: f64,
    ) -> usize {
        let mut n = 0;
        self.each_pair(
            evaluator,
            seconds.iter().map(Placement::from),
            |v, _, _, _| {
                n += usize::from(v + offset == target);
            },
        );
        n
    }

    /// `second` locked on the board after the first lock: the board after both and the lines
    /// the second cleared.
    #[inline]
    pub fn then(&self, second: Placement) -> (Board, u32) {
        let mut board2 = self.board;
        let lines2 = board2.lock(second.x, second.y, second.orientation);
        (board2, lines2)
    }

    /// The pair of this first lock and `second`, which cleared `lines_second` and left `board2`.
    #[inline]
    pub fn outcome<'a>(
        &self,
        second: Placement,
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

    /// The best pair over `seconds`: the first of the lowest value, and its second lock.
    pub fn best_pair<E: Evaluator>(
        &self,
        evaluator: &E,
        seconds: impl IntoIterator<Item = Placement>,
    ) -> Option<(f64, Placement)> {
        self.best_by(seconds, |o| evaluator.evaluate(o))
    }

    /// `best_pair`, valued from the evaluator's pass over this first lock's board
    /// (`Evaluator::prefix`, done once by the caller): for a first lock valued against several
    /// next pieces, where the shared pass pays (`benches/README.md`, issue 25's third pass).
    pub fn best_pair_after<E: Evaluator>(
        &self,
        evaluator: &E,
        prefix: &Prefix,
        seconds: impl IntoIterator<Item = Placement>,
    ) -> Option<(f64, Placement)> {
        self.best_by(seconds, |o| evaluator.evaluate_after(prefix, o))
    }

    /// The first pair of the lowest `value` over `seconds`, and its second lock.
    #[inline(always)]
    fn best_by(
        &self,
        seconds: impl IntoIterator<Item = Placement>,
        value: impl Fn(&PairOutcome) -> Option<f64>,
    ) -> Option<(f64, Placement)> {
        let mut best: Option<(f64, Placement)> = None;
        for second in seconds {
            let (board2, lines2) = self.then(second);
            if let Some(v) = value(&self.outcome(second, lines2, &board2)) {
                if best.is_none_or(|b| v < b.0) {
                    best = Some((v, second));
                }
            }
        }
        best
    }
}
