//! The planner's pair-values stage: where a decision's pair values come from (kept, carried,
//! fresh or guarded), chosen once in [`PairSource`], and the best pair they rank ([`Ranking`]).

use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::{Lock, LockQuery};

use super::super::eval::Evaluator;
use super::super::pairs::AfterFirst;
use super::planner::Planner;
use super::reuse;
use super::situation::Situation;

/// Where one decision's pair values come from, chosen once before the first lock is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PairSource {
    /// The blind plan just before valued this decision's pairs: replay them where it kept a
    /// first lock's (the same pairs in the same order); the others are valued as `valuing`.
    pub kept: bool,
    pub valuing: Valuing,
    /// The third-piece layer re-ranks the best pairs: every pair's key is recorded.
    pub lookahead: bool,
}

/// How the pairs of a first lock not kept are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Valuing {
    /// No pair list to keep and no second-lock penalty: each first lock's best pair alone,
    /// valued without its board (`Evaluator::best_pair_after_ties`), with its tie count.
    Carried,
    /// Every pair's value kept for the layer, none needing its board: the carried values (bit
    /// for bit `each_pair`'s) from one pass per first lock.
    Fresh,
    /// Every pair locked and fully valued, the crash guard's second-lock penalty added (or the
    /// full pass the tests compare the carried values against).
    Guarded,
}

impl PairSource {
    /// The source for a decision: `kept` when a blind plan's pairs serve it, `lookahead` when
    /// the layer re-ranks, `guarded` when the crash guard screens, `full_pass` for the tests.
    pub fn choose(kept: bool, lookahead: bool, guarded: bool, full_pass: bool) -> PairSource {
        let valuing = if !lookahead && !guarded {
            Valuing::Carried
        } else if !guarded && !full_pass {
            Valuing::Fresh
        } else {
            Valuing::Guarded
        };
        PairSource {
            kept: kept && !guarded,
            valuing,
            lookahead,
        }
    }

    fn carried(self) -> bool {
        self.valuing == Valuing::Carried
    }
}

/// The best pair so far: `(value, index in firsts, next lock)`, whether another next-piece
/// lock of the best first lock has its value too, and (carried values) its tie count.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ranking {
    pub best: Option<(f64, usize, Option<Pos>)>,
    pub tie: bool,
    best_ties: usize,
}

impl Ranking {
    /// One pair of first lock `i` (whose guard penalty is `first_penalty`) valued `value`.
    fn consider(&mut self, i: usize, first_penalty: f64, value: f64, second: Option<Pos>) {
        let value = value + first_penalty;
        if self.best.as_ref().is_some_and(|b| value == b.0 && i == b.1) {
            self.tie = true;
        }
        if self.best.as_ref().is_none_or(|b| value < b.0) {
            self.tie = false;
            self.best = Some((value, i, second));
        }
    }

    /// `ties` pairs of first lock `i` share its best value (carried values only).
    fn count_ties(&mut self, i: usize, ties: usize) {
        if self.best.is_some_and(|b| b.1 == i) {
            self.best_ties = ties;
        }
    }
}

impl<E: Evaluator> Planner<E> {
    /// Values every pair of the first locks the guard allows, from `source`; the ranking of
    /// the best (its tie settled from the count where values were carried).
    pub(super) fn pair_values(&mut self, s: &Situation, source: PairSource) -> Ranking {
        self.keys.clear();
        let mut r = Ranking::default();
        for i in 0..self.firsts.len() {
            if self.crash_guard.allows(i) {
                self.value_first_lock(s, source, i, &mut r);
            }
        }
        if let (true, Some(_), Some(_)) = (source.carried(), r.best, s.next) {
            r.tie = r.best_ties > 1;
        }
        r
    }

    /// The pairs of first lock `i` into `r`: alone without a next piece, else kept or valued.
    fn value_first_lock(&mut self, s: &Situation, src: PairSource, i: usize, r: &mut Ranking) {
        let l1 = self.firsts[i];
        let after = AfterFirst::new(&s.board, s.level, s.lines, l1.at);
        let first_penalty = self.crash_guard.first_penalty(i);
        let Some(next) = s.next else {
            if let Some(v) = after.alone(&self.evaluator) {
                r.consider(i, first_penalty, v, None);
            }
            return;
        };
        let mut consider = |v: f64, second| r.consider(i, first_penalty, v, second);
        // Valued by the blind plan just before: the same pairs in the same order.
        let pairs = src.kept.then(|| self.cache.kept_pairs(l1.at, next));
        if let Some(pairs) = pairs.flatten() {
            let at = (src.carried(), src.lookahead, i, first_penalty);
            let ties = reuse::replay(pairs, at, &mut self.keys, &mut consider);
            if src.carried() {
                r.count_ties(i, ties);
            }
            return;
        }
        self.value_searched(s, src, (i, &l1, first_penalty), (&after, next), r);
    }

    /// First lock `i`'s pairs over the next piece's lock set, valued as `src` says.
    fn value_searched(
        &mut self,
        s: &Situation,
        src: PairSource,
        (i, l1, first_penalty): (usize, &Lock, f64),
        (after, next): (&AfterFirst, Piece),
        r: &mut Ranking,
    ) {
        // Only the next piece's lock set matters (the pair's first-lock order, which breaks
        // ties, comes from the first search), so the path-free search serves. Under a hold
        // profile the next piece starts with this lock's DAS counter and the hold the entry
        // delay leaves (chosen with the pair, `entry_hold`).
        let seconds = self.seconds.search(&LockQuery::after_lock(
            &after.board,
            next,
            after.speed,
            &self.profile,
            self.moves,
            l1.das,
        ));
        let mut consider = |v: f64, second| r.consider(i, first_penalty, v, second);
        let at = (src.lookahead, i, first_penalty);
        match src.valuing {
            Valuing::Carried => {
                let evaluator = &self.evaluator;
                let found = evaluator.with_first_pass(after, |first| {
                    evaluator.best_pair_after_ties(first, seconds)
                });
                if let Some((v, second, ties)) = found {
                    consider(v, Some(second));
                    // No first penalty here (the guard is off), so the count is the tie's.
                    r.count_ties(i, ties);
                }
            }
            Valuing::Fresh => {
                let (evaluator, keys) = (&self.evaluator, &mut self.keys);
                evaluator.with_first_pass(after, |first| {
                    evaluator.each_pair_after(first, seconds, |v, second| {
                        // `each_pair`'s callback adds the unguarded penalty, 0.0, the same way.
                        reuse::take_pair((v + 0.0, 0.0, second), at, keys, &mut consider);
                    })
                });
            }
            Valuing::Guarded => {
                let (keys, guard) = (&mut self.keys, &mut self.crash_guard);
                after.each_pair(
                    &self.evaluator,
                    seconds.iter().map(|l| l.at),
                    |v, second, lines2, board2| {
                        // The next lock's clear counts too (0 below the guard's level).
                        let penalty =
                            guard.second_penalty((s.level, s.lines), after.lines, board2, lines2);
                        reuse::take_pair((v + penalty, penalty, second), at, keys, &mut consider);
                    },
                );
            }
        }
    }
}
