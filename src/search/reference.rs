//! The planner as it was before the path-free next-piece search: both pieces by `Bfs`, masks
//! built position by position. Kept as the oracle the decision-equality test and the bench use.

use crate::game::piece::Orientation;
use crate::game::score::drop_speed;
use crate::game::Pos;

use super::eval::Evaluator;
use super::pairs::AfterFirst;
use super::plan::{Plan, Situation};
use crate::movegen::prefix;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, LockQuery, LockSets, MoveSet};

/// The searches of a two-piece planner with paths for both pieces, allocated once: this
/// planner's and the ranker's (`search::rank`).
pub(crate) struct PairSearch {
    pub first: LockSets,
    pub second: LockSets,
    /// The current piece's locks, in `first`'s order.
    pub firsts: Vec<Lock>,
}

impl Default for PairSearch {
    fn default() -> PairSearch {
        PairSearch {
            // Without the rows search's resume from the empty board: the oracle stays the
            // search as it was.
            first: LockSets::once(),
            second: LockSets::once(),
            firsts: Vec::with_capacity(256),
        }
    }
}

/// The old two-piece planner, same answers as [`Planner`](super::plan::Planner) by construction of the test suite.
pub struct ReferencePlanner<E: Evaluator> {
    /// Values the pairs.
    pub evaluator: E,
    /// What both searches may press (no soft drop by default).
    pub moves: MoveSet,
    bfs: PairSearch,
}

impl<E: Evaluator> ReferencePlanner<E> {
    /// A reference planner with `evaluator`, no soft drop, both searches on the general kernel.
    pub fn new(evaluator: E) -> ReferencePlanner<E> {
        ReferencePlanner {
            evaluator,
            moves: MoveSet::default(),
            bfs: PairSearch {
                first: LockSets::general(),
                second: LockSets::general(),
                ..PairSearch::default()
            },
        }
    }

    /// Plans the current piece. `None` when no piece is shown (orientation id $13) or no lock
    /// is reachable.
    pub fn plan(&mut self, s: &Situation) -> Option<Plan> {
        let orientation = Orientation::new(s.active.id)?;
        let piece = orientation.piece();
        let speed = drop_speed(s.level);
        let map = self.bfs.first.prepare_by_positions(&s.board, piece);
        let mut prefix_inputs = Vec::new();
        let mut prefix_expected = Vec::new();
        let (start, prev, locked) = prefix::end_first_piece_delay(
            s.prefix_start(),
            map,
            &mut prefix_inputs,
            &mut prefix_expected,
        );
        if locked {
            return Plan::locked_early(&start, prefix_inputs, prefix_expected);
        }
        self.bfs.firsts.clear();
        let unlimited = Profile::unlimited();
        let q = LockQuery::spawn(&s.board, piece, speed, unlimited, self.moves).at(
            start,
            prev,
            Default::default(),
        );
        self.bfs
            .firsts
            .extend_from_slice(self.bfs.first.search_prepared(&q));
        if self.bfs.firsts.is_empty() {
            return None;
        }
        let mut best: Option<(f64, usize, Option<Pos>)> = None;
        for (i, l1) in self.bfs.firsts.iter().enumerate() {
            let after = AfterFirst::new(&s.board, s.level, s.lines, l1.at);
            let mut consider = |value: f64, second: Option<Pos>| {
                if best.as_ref().is_none_or(|b| value < b.0) {
                    best = Some((value, i, second));
                }
            };
            let Some(next) = s.next else {
                if let Some(v) = after.alone(&self.evaluator) {
                    consider(v, None);
                }
                continue;
            };
            self.bfs.second.prepare_by_positions(&after.board, next);
            let q = LockQuery::spawn(&after.board, next, after.speed, unlimited, self.moves);
            let seconds = self.bfs.second.search_prepared(&q);
            after.each_pair(
                &self.evaluator,
                seconds.iter().map(|l| l.at),
                |v, second, _, _| consider(v, Some(second)),
            );
        }
        Some(Plan::of_best(
            &self.bfs.first,
            &self.bfs.firsts,
            best,
            prefix_inputs,
            prefix_expected,
        ))
    }
}
