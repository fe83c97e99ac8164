//! A first lock's pairs valued by an evaluator: alone, each, the best, the ties (the
//! enumerator in `search::pairs` knows boards and locks; this knows values).

use super::{Evaluator, PairOutcome, Prefix};
use crate::game::Board;
use crate::game::Pos;
use crate::movegen::ReachLock;
use crate::search::pairs::AfterFirst;

impl AfterFirst {
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

    /// [`AfterFirst::alone`] from the pass over this board (`prefix`): the same value. The
    /// pass is carried as if the first lock came again onto its own cells (no change), which
    /// holds only when it cleared no line (a clear moved its cells).
    pub fn alone_after<E: Evaluator>(&self, evaluator: &E, prefix: &Prefix) -> Option<f64> {
        if self.lines != 0 {
            return self.alone(evaluator);
        }
        evaluator.evaluate_after(prefix, &self.outcome(self.first, 0, &self.board))
    }

    /// Every pair with a second lock from `seconds`, in their order: `f(value, second, lines
    /// the second cleared, board after both)` for each pair no rule rejects.
    #[inline]
    pub fn each_pair<E: Evaluator>(
        &self,
        evaluator: &E,
        seconds: impl IntoIterator<Item = Pos>,
        mut f: impl FnMut(f64, Pos, u32, &Board),
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
        self.each_pair(evaluator, seconds.iter().map(|l| l.at), |v, _, _, _| {
            n += usize::from(v + offset == target);
        });
        n
    }

    /// The best pair over `seconds`: the first of the lowest value, and its second lock.
    pub fn best_pair<E: Evaluator>(
        &self,
        evaluator: &E,
        seconds: impl IntoIterator<Item = Pos>,
    ) -> Option<(f64, Pos)> {
        self.best_by(seconds, |o| evaluator.evaluate(o))
    }

    /// `best_pair`, valued from the evaluator's pass over this first lock's board
    /// (`Evaluator::prefix`, done once by the caller): for a first lock valued against several
    /// next pieces, where the shared pass pays.
    pub fn best_pair_after<E: Evaluator>(
        &self,
        evaluator: &E,
        prefix: &Prefix,
        seconds: impl IntoIterator<Item = Pos>,
    ) -> Option<(f64, Pos)> {
        self.best_by(seconds, |o| evaluator.evaluate_after(prefix, o))
    }

    /// `f(value, second)` for every pair over `seconds` no rule rejects, valued from
    /// `prefix` as `best_pair_after` values them.
    pub fn each_value_after<E: Evaluator>(
        &self,
        evaluator: &E,
        prefix: &Prefix,
        seconds: impl IntoIterator<Item = Pos>,
        mut f: impl FnMut(f64, Pos),
    ) {
        for second in seconds {
            let (board2, lines2) = self.then(second);
            if let Some(v) =
                evaluator.evaluate_after(prefix, &self.outcome(second, lines2, &board2))
            {
                f(v, second);
            }
        }
    }

    /// The first pair of the lowest `value` over `seconds`, and its second lock.
    #[inline(always)]
    pub(crate) fn best_by(
        &self,
        seconds: impl IntoIterator<Item = Pos>,
        value: impl Fn(&PairOutcome) -> Option<f64>,
    ) -> Option<(f64, Pos)> {
        let mut best: Option<(f64, Pos)> = None;
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
