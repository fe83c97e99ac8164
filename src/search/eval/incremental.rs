//! Standard's carried pass: the pairs of a first lock valued from its board's [`Prefix`] and
//! the few rows each second lock fills, the same values bit for bit as the full pass.

use super::prefix::{Prefix, CELLS, DY};
use super::rules::{ceiling_load, spawn_room};
use super::{FirstPass, ReachTable, Standard};
use crate::game::board::{FULL_ROW, HIDDEN_ROWS};
use crate::game::Pos;
use crate::movegen::ReachLock;
use crate::search::pairs::AfterFirst;

impl Standard {
    /// `AfterFirst::best_pair_after` over `seconds`, the same pair and value bit for bit, and
    /// how many pairs have that value (the best included; the planner's tie test): a
    /// second lock that clears no line is valued from `prefix` and its four cells, without
    /// the board after both (no board copy, lock or row masking); the spawn and ceiling rules
    /// are read from the first board when the lock is below the rows they look at.
    pub(super) fn best_carried(
        &self,
        first: FirstPass,
        seconds: &[ReachLock],
    ) -> Option<(f64, Pos, usize)> {
        let mut best: Option<(f64, Pos, usize)> = None;
        self.each_carried(first, seconds, |v, second| {
            if best.is_none_or(|b| v < b.0) {
                best = Some((v, second, 1));
            } else if let Some(b) = best.as_mut().filter(|b| v == b.0) {
                b.2 += 1;
            }
        });
        best
    }

    /// `f(value, second)` for every pair over `seconds` no rule rejects, in their order,
    /// valued as [`Standard::best_carried`] values them (the blind plan keeps them all).
    #[inline(always)]
    pub(super) fn each_carried(
        &self,
        first: FirstPass,
        seconds: &[ReachLock],
        f: impl FnMut(f64, Pos),
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `popcnt` is set only where the CPU has the instruction.
            return unsafe { self.each_carried_popcnt(first, seconds, f) };
        }
        self.each_carried_portable(first, seconds, f)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn each_carried_popcnt(
        &self,
        first: FirstPass,
        seconds: &[ReachLock],
        f: impl FnMut(f64, Pos),
    ) {
        self.each_carried_portable(first, seconds, f)
    }

    #[inline(always)]
    fn each_carried_portable(
        &self,
        FirstPass { after, prefix }: FirstPass,
        seconds: &[ReachLock],
        mut f: impl FnMut(f64, Pos),
    ) {
        let w = self.at(after.level);
        // Rules 3 and 4 for a lock whose cells are all in row 2 or below, the rows 0 and 1
        // being the first board's: spawn room reads rows 0 and 1 only, and with row 0 empty
        // the spawn region spans it (without the ceiling rules only spawn room counts).
        let low_rules = (prefix.rows[0] == 0 || !w.ceiling_rules).then(|| spawn_room(&prefix.rows));
        // The visible rows a lock could make full (`Board::lock`'s test below): no bit outside
        // the ten columns and six cells or more, a lock adding at most four to a row.
        let mut fillable = 0u32;
        for r in 0..20 {
            let row = after.board.rows[r + HIDDEN_ROWS];
            if row & !FULL_ROW == 0 && row.count_ones() >= 6 {
                fillable |= 1 << r;
            }
        }
        // The columns out of reach on the first board, which a lock whose cells no route
        // sweeps leaves as they are.
        // The ceiling load of the first board (rows counted, load), kept by a lock below them.
        let ceiling = w
            .ceiling_rules
            .then(|| (w.top_rows, ceiling_load(&prefix.rows, w.top_rows)));
        let reach = (w.unreachable_columns != 0.0)
            .then(|| self.reach_at(after.level))
            .flatten()
            .map(|t| (t, t.unreachable(&after.board)));
        for l in seconds {
            let second = l.at;
            let rules = (low_rules, ceiling, fillable);
            let v = match self.carried(prefix, after, rules, reach, second) {
                Carried::Value(v) => Some(v),
                Carried::Rejected => None,
                Carried::Cleared => {
                    let (board2, lines2) = after.then(second);
                    self.evaluate_after_portable(prefix, &after.outcome(second, lines2, &board2))
                }
            };
            if let Some(v) = v {
                f(v, second);
            }
        }
    }

    /// The value of `second` after `after` when it clears no line (`evaluate_after`'s).
    #[inline(always)]
    fn carried(
        &self,
        prefix: &Prefix,
        after: &AfterFirst,
        (low_rules, ceiling, fillable): (Option<bool>, Option<(u32, u32)>, u32),
        reach: Option<(&ReachTable, u32)>,
        second: Pos,
    ) -> Carried {
        let id = usize::from(second.orientation.id());
        let y = i32::from(second.y as i8);
        let mut rows = prefix.rows;
        let cells = CELLS[id];
        // Whether a route of the reach table crosses a cell, read as the cells are placed.
        let mut swept = false;
        // The visible rows the lock fills, as bits.
        let mut filled = 0u32;
        for (dx, dy) in cells {
            let r = y + i32::from(dy);
            let bit = 1u16 << (i32::from(second.x) + i32::from(dx));
            if r >= 0 {
                rows[r as usize] |= bit;
                filled |= 1 << r;
            }
            if let Some((table, _)) = reach {
                swept |= table.sweeps((r + HIDDEN_ROWS as i32) as usize, bit);
            }
        }
        if filled & fillable != 0 {
            for (_, dy) in cells {
                let r = y + i32::from(dy);
                // A full row as `Board::lock` sees it (the first board's row unmasked).
                if r >= 0
                    && after.board.rows[r as usize + HIDDEN_ROWS] | rows[r as usize] == FULL_ROW
                {
                    return Carried::Cleared;
                }
            }
        }
        let top = y + i32::from(DY[id].0);
        let playable = match low_rules {
            Some(p) if top >= 2 => p,
            _ => self.playable_rows(&rows, after.level),
        };
        if !playable {
            return Carried::Rejected;
        }
        let outcome = after.outcome(second, 0, &after.board);
        let features = prefix.features_after(&rows, &second);
        // A lock below the rows the ceiling penalty counts leaves the first board's load.
        let ceiling = ceiling.filter(|&(rows_counted, _)| top >= rows_counted as i32);
        let ceiling = ceiling.map(|(_, load)| load);
        Carried::Value(self.value(&outcome, &rows, features, ceiling, |table, _| {
            match reach {
                Some((_, first)) if !swept => first,
                _ => {
                    // The board after both, made only when a route crosses the lock.
                    let mut board2 = after.board;
                    board2.place(second.x, second.y, second.orientation);
                    table.unreachable(&board2)
                }
            }
        }))
    }
}

/// A pair valued from the first board's pass, or why not.
enum Carried {
    Value(f64),
    Rejected,
    /// The second lock clears a line: the full evaluation.
    Cleared,
}
