//! The planner as it was before the path-free next-piece search: both pieces by `Bfs`, masks
//! built position by position. Kept as the oracle the decision-equality test and the bench use.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::score::drop_speed;

use super::bfs::{Bfs, Lock, MoveSet};
use super::collision::CollisionMap;
use super::eval::{Evaluator, Placement};
use super::pairs::AfterFirst;
use super::plan::{placement, Plan, Planner, Situation};

/// The old two-piece planner, same answers as [`Planner`] by construction of the test suite.
pub struct ReferencePlanner<E: Evaluator> {
    pub evaluator: E,
    pub moves: MoveSet,
    first: Bfs,
    second: Bfs,
    map1: CollisionMap,
    map2: CollisionMap,
    firsts: Vec<Lock>,
}

impl<E: Evaluator> ReferencePlanner<E> {
    pub fn new(evaluator: E) -> ReferencePlanner<E> {
        ReferencePlanner {
            evaluator,
            moves: MoveSet::default(),
            first: Bfs::new(),
            second: Bfs::new(),
            map1: CollisionMap::default(),
            map2: CollisionMap::default(),
            firsts: Vec::with_capacity(256),
        }
    }

    /// Plans the current piece. `None` when no piece is shown (orientation id $13) or no lock
    /// is reachable.
    pub fn plan(&mut self, s: &Situation) -> Option<Plan> {
        let orientation = Orientation::new(s.active.id)?;
        let piece = orientation.piece();
        let speed = drop_speed(s.level);
        self.map1.build_by_positions(&s.board, piece);
        let mut prefix_inputs = Vec::new();
        let mut prefix_expected = Vec::new();
        let (start, prev, locked) = Planner::<E>::end_first_piece_delay(
            s,
            &self.map1,
            &mut prefix_inputs,
            &mut prefix_expected,
        );
        if locked {
            return Plan::locked_early(&start, prefix_inputs, prefix_expected);
        }
        self.firsts.clear();
        self.firsts.extend_from_slice(
            self.first
                .search_general(start, prev, speed, &self.map1, self.moves),
        );
        if self.firsts.is_empty() {
            return None;
        }
        let mut best: Option<(f64, usize, Option<Placement>)> = None;
        for (i, l1) in self.firsts.iter().enumerate() {
            let after = AfterFirst::new(&s.board, s.level, s.lines, placement(l1));
            let mut consider = |value: f64, second: Option<Placement>| {
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
            self.map2.build_by_positions(&after.board, next);
            let spawn = Active::spawn(next.spawn().id(), 0, 0);
            let seconds = self.second.search_general(
                spawn,
                PadState::NONE,
                after.speed,
                &self.map2,
                self.moves,
            );
            after.each_pair(
                &self.evaluator,
                seconds.iter().map(Placement::from),
                |v, second, _, _| consider(v, Some(second)),
            );
        }
        Some(Plan::of_best(
            &self.first,
            &self.firsts,
            best,
            prefix_inputs,
            prefix_expected,
        ))
    }
}
