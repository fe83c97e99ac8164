//! The planner: the current piece's locks and paths, the next piece's locks after each, every
//! pair evaluated (the third piece re-ranks the best), and the chosen first placement's buttons.

use crate::search::clock::Instant;

use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::pos::Pos;
use crate::game::score::drop_speed;

use super::crash_guard;
use super::eval::Evaluator;
use super::pairs::AfterFirst;
use super::third::{self, Pair, PairKey};
use crate::movegen::prefix;
use crate::movegen::{Lock, LockQuery};

mod after_search;
mod blind;
#[cfg(test)]
mod blind_tests;
mod blind_third;
#[cfg(test)]
mod blind_third_tests;
mod blind_worth;
mod cache;
#[cfg(test)]
mod carried_tests;
mod carry;
#[cfg(test)]
mod carry_tests;
mod chosen;
mod next_lock;
mod planner;
mod retime;
mod reuse;
#[cfg(test)]
mod reuse_tests;
mod situation;
mod soft_drop;
mod values;

pub use chosen::Plan;
pub use planner::Planner;
use planner::{Best, Firsts};
pub use situation::Situation;
use values::{PairSource, Ranking};

/// The third-piece layer's pair of a recorded key: both locks played again on the board.
fn pair_of(s: &Situation, firsts: &[Lock], p: &PairKey) -> Pair {
    let first = firsts[p.first as usize].at;
    let after = AfterFirst::new(&s.board, s.level, s.lines, first);
    Pair::of(
        &after,
        s.lines,
        (p.first as usize, p.value, p.penalty),
        p.second,
    )
}

impl<E: Evaluator> Planner<E> {
    /// The frames before the search and the current piece's locks after them, in
    /// `self.firsts` (paths in `self.first`). `None` when no piece is shown or no lock is
    /// reachable.
    fn first_locks(&mut self, s: &Situation) -> Option<Firsts> {
        let orientation = Orientation::new(s.active.id)?;
        let map = self.first.prepare(&s.board, orientation.piece());
        let (mut inputs, mut expected) = (Vec::new(), Vec::new());
        let delay = self.profile.start_delay;
        let (start, prev, locked) =
            prefix::start_prefix(s.prefix_start(), map, delay, &mut inputs, &mut expected);
        if locked {
            return Plan::locked_early(&start, inputs, expected).map(Firsts::LockedEarly);
        }
        let progress = s.progress.then(&inputs, s.prev);
        self.soft.root = (start, prev);
        self.firsts.clear();
        let speed = drop_speed(s.level);
        let q = LockQuery::spawn(
            &s.board,
            orientation.piece(),
            speed,
            &self.profile,
            self.moves,
        )
        .at(start, prev, progress);
        self.firsts
            .extend_from_slice(self.first.search_prepared(&q));
        (!self.firsts.is_empty()).then_some(Firsts::Found(inputs, expected))
    }

    /// Plans the current piece. `None` when no piece is shown (orientation id $13) or no lock
    /// is reachable. The stages: the caches this decision may use, the blind plan before the
    /// reaction, the first locks, the crash guard, the pair values, the tie, the third piece's
    /// re-rank and the plan of the best pair.
    pub fn plan(&mut self, s: &Situation) -> Option<Plan> {
        let reuse = self.begin(s);
        if s.progress.frames < self.profile.reaction {
            return self.plan_blind(s, reuse);
        }
        let prefix = match self.first_locks(s)? {
            Firsts::Found(inputs, expected) => (inputs, expected),
            Firsts::LockedEarly(plan) => return Some(plan),
        };
        if !self.drop_excluded() {
            return None;
        }
        let started = Instant::now();
        let lookahead = self.lookahead.top_k > 0 && s.next.is_some();
        let guarded = self.guard(s);
        let source = PairSource::choose(reuse.kept, lookahead, guarded, self.full_pass());
        let ranking = self.pair_values(s, source);
        let best = self.settle_tie(s, ranking);
        let best = self.rerank(s, best, lookahead, started);
        Some(self.plan_of(s, best, prefix))
    }

    /// Whether every pair is valued by the full pass (only a test asks for it).
    #[cfg(test)]
    fn full_pass(&self) -> bool {
        self.full_pass_pairs
    }

    /// Whether every pair is valued by the full pass: never outside the tests.
    #[cfg(not(test))]
    fn full_pass(&self) -> bool {
        false
    }

    /// A new decision: what it may reuse ([`cache::Cache::begin`]); the last plan's soft drop
    /// is forgotten.
    fn begin(&mut self, s: &Situation) -> cache::Reuse {
        self.soft.last = None;
        let piece = Orientation::new(s.active.id).map(|o| o.piece());
        self.cache.begin(s, piece, (&self.profile, self.moves))
    }

    /// Drops the first locks the plan must not choose; false when none is left.
    fn drop_excluded(&mut self) -> bool {
        if self.exclude.is_empty() {
            return true;
        }
        let exclude = &self.exclude;
        self.firsts.retain(|l| !exclude.contains(&l.at));
        !self.firsts.is_empty()
    }

    /// The crash guard's stage: each first lock's risk key (and its soft-drop variant) and
    /// which first locks it allows. Returns whether the guard is on at this level.
    fn guard(&mut self, s: &Situation) -> bool {
        let height = s.board.column_heights().into_iter().max().unwrap_or(0);
        let guarded = !self.crash_guard.off && s.level >= crash_guard::GUARD_FROM_LEVEL;
        let may_shift = self.profile.is_unlimited();
        let fk = (&self.firsts[..], &self.first);
        let preview = self.crash_guard.preview();
        self.soft
            .first_keys(s, guarded.then_some(fk), (may_shift, preview));
        let keys = &self.soft.keys;
        self.crash_guard.screen(
            (s.level, s.lines),
            height,
            self.firsts.len(),
            |i| keys[i],
            |k| crash_guard::key_risk(k, s.level, s.lines, preview),
        );
        guarded
    }

    /// The best pair, its next lock taken in `Bfs`'s order when another next-piece lock of
    /// the best first lock has its value (the path-free search does not keep that order).
    fn settle_tie(&mut self, s: &Situation, r: Ranking) -> Option<Best> {
        match (r.tie, r.best, s.next) {
            (true, Some((v, i, _)), Some(next)) => {
                Some((v, i, self.first_in_bfs_order(s, i, next, v)))
            }
            _ => r.best,
        }
    }

    /// The third piece's stage: the layer re-ranks the best pairs (best two-piece value
    /// first; equal values by their first lock's BFS order) and keeps its expectations of
    /// the chosen first lock for the next piece's blind plan.
    fn rerank(
        &mut self,
        s: &Situation,
        best: Option<Best>,
        lookahead: bool,
        started: Instant,
    ) -> Option<Best> {
        let (true, Some(next)) = (lookahead, s.next) else {
            return best;
        };
        let k = self.lookahead.top_k.min(self.keys.len());
        self.pairs.clear();
        if third::top_k_by_key(&self.keys, k, &mut self.top) {
            let (keys, firsts) = (&self.keys, &self.firsts);
            let pairs = self.top.iter().map(|&j| pair_of(s, firsts, &keys[j]));
            self.pairs.extend(pairs);
        } else {
            let firsts = &self.firsts;
            let pairs = self.keys.iter().map(|p| pair_of(s, firsts, p));
            self.pairs.extend(pairs);
            third::sort_pairs(&mut self.pairs);
        }
        let deadline = self.lookahead.deadline();
        let pairs = &self.pairs[..k];
        let Some(c) = (self.third).choose(
            &self.evaluator,
            pairs,
            next,
            &self.profile,
            started,
            deadline,
        ) else {
            return best;
        };
        let p = &self.pairs[c];
        let at = (next, &self.profile);
        let expectations = &self.third.expectations;
        self.cache
            .keep_expectations(at, &self.pairs[..k], expectations, p.first);
        Some((p.value, p.first, Some(p.second)))
    }

    /// The plan of the best pair (its path, the entry hold, the soft-drop lever, the preview);
    /// with none, every pair rejected: the deepest lock the guard allows, the least bad way
    /// to go on.
    fn plan_of(
        &mut self,
        s: &Situation,
        best: Option<Best>,
        (inputs, expected): (Vec<PadState>, Vec<Pos>),
    ) -> Plan {
        let Some((_, i, second)) = best else {
            let index = (0..self.firsts.len()).max_by_key(|&i| {
                let allowed = self.crash_guard.allows(i);
                (allowed, self.firsts[i].at.y, std::cmp::Reverse(i))
            });
            let plan = Plan::to_lock(&self.first, &self.firsts, index, inputs, expected);
            let fk = (&self.firsts[..], &self.first);
            let plan = self.soft.soften(s, plan, index, fk);
            return self.preview(s, plan, index);
        };
        let entry_hold = match (second, s.next) {
            (Some(second), Some(next)) => self.entry_hold(s, i, next, second),
            _ => PadState::NONE,
        };
        let plan = Plan {
            entry_hold,
            ..Plan::of_best(&self.first, &self.firsts, best, inputs, expected)
        };
        let fk = (&self.firsts[..], &self.first);
        let plan = self.soft.soften(s, plan, Some(i), fk);
        self.preview(s, plan, Some(i))
    }

    /// `plan` (to `firsts[index]`) with the preview state its frame is safer with: the key
    /// the guard screened it by (its Down variant's when it has one).
    fn preview(&self, s: &Situation, mut plan: Plan, index: Option<usize>) -> Plan {
        if let (true, Some(&key)) = (
            self.crash_guard.preview(),
            index.and_then(|i| self.soft.keys.get(i)),
        ) {
            plan.hide_preview = crash_guard::key_preview(key, s.level, s.lines).1;
        }
        plan
    }
}
