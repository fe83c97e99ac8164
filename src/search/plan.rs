//! The planner: the current piece's locks and paths, the next piece's locks after each, every
//! pair evaluated (the third piece re-ranks the best), and the chosen first placement's buttons.

use crate::search::clock::Instant;

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::pos::Pos;
use crate::game::score::drop_speed;

use super::crash_guard::{self, CrashGuard};
use super::eval::Evaluator;
pub(crate) use super::pairs::level_after;
use super::pairs::AfterFirst;
use super::third::{self, Lookahead, Pair, PairKey, ThirdPiece};
use crate::movegen::prefix;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, MoveSet};
use crate::movegen::{LockQuery, LockSets};
use soft_drop::SoftLever;

mod after_search;
mod blind;
#[cfg(test)]
mod blind_tests;
mod cache;
#[cfg(test)]
mod carried_tests;
mod carry;
#[cfg(test)]
mod carry_tests;
mod reuse;
#[cfg(test)]
mod reuse_tests;
mod situation;
mod soft_drop;
mod values;
pub use situation::Situation;
use values::{PairSource, Ranking};

/// A decision's best pair: its value, its first lock's index in the first locks and the next
/// piece's lock.
type Best = (f64, usize, Option<Pos>);

/// The chosen placement and how to get there.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// One button byte per frame, from the frame after the situation's to the lock frame.
    pub inputs: Vec<PadState>,
    /// The piece's (x, y, orientation id) at the end of each of those frames.
    pub expected: Vec<Pos>,
    /// Where the piece locks.
    pub lock: Pos,
    /// The next piece's placement in the chosen pair.
    pub next_lock: Option<Pos>,
    /// The pair's evaluation (lower is better); `None` when every pair was rejected.
    pub value: Option<f64>,
    /// Reachable locks of the current piece.
    pub candidates: usize,
    /// Under a reaction time: after this many of `inputs` the plan is made again, with the
    /// next piece seen (the inputs before it do not depend on the next piece).
    pub replan_after: Option<usize>,
    /// The direction to hold from the lock through the entry delay into the next piece (a
    /// hold profile's carried DAS charge: an entry `LockQuery`); nothing otherwise.
    pub entry_hold: PadState,
    /// The lock's play-state-5 frame is safer with the next-piece preview hidden
    /// (`crash_guard::key_preview`): the follower sets $DF so between the lock and that frame.
    pub hide_preview: bool,
}

/// Planner state reused from one decision to the next: the BFS arrays are allocated once; a
/// decision allocates only the plan it returns.
pub struct Planner<E: Evaluator> {
    /// Values the pairs.
    pub evaluator: E,
    /// What the searches may press (no soft drop by default).
    pub moves: MoveSet,
    /// The player's input limits (`unlimited` by default).
    pub profile: Profile,
    /// The current piece's locks with paths.
    first: LockSets,
    /// The next piece's lock sets (path-free).
    seconds: LockSets,
    firsts: Vec<Lock>,
    /// The third-piece layer's settings (three pairs re-ranked by default).
    pub lookahead: Lookahead,
    /// Locks of the current piece the plan must not choose (the driver's run-ahead saw them
    /// crash the cartridge); empty but for such a re-plan.
    pub exclude: Vec<Pos>,
    third: ThirdPiece,
    /// Every acceptable pair of the decision, for the third-piece layer.
    keys: Vec<PairKey>,
    /// The pairs the layer re-ranks (all of them, sorted, when ties need the full sort).
    pairs: Vec<Pair>,
    /// Indices into `keys` of the layer's pairs.
    top: Vec<usize>,
    /// Refuses first locks whose line-clear frame may crash the cartridge.
    pub crash_guard: CrashGuard,
    /// Holds Down at the end of a path whose frame is safe only with a soft drop.
    pub soft: SoftLever,
    /// What a decision may reuse from the one before and within itself (`plan/cache.rs`).
    cache: cache::Cache,
    /// The blind plan's scratch.
    blind: blind::Scratch,
    /// How many first locks blind plans valued from `carried` (`carry_tests` reads it).
    #[cfg(test)]
    pub(crate) carried_values: usize,
    /// Values every pair by the full pass (`carried_tests` compares it with the carried
    /// values).
    #[cfg(test)]
    pub(crate) full_pass_pairs: bool,
}

/// The third-piece layer's pair of a recorded key: both locks played again on the board.
fn pair_of(s: &Situation, firsts: &[Lock], p: &PairKey) -> Pair {
    let first = firsts[p.first as usize].at;
    let after = AfterFirst::new(&s.board, s.level, s.lines, first);
    let (board, lines_second) = after.then(p.second);
    Pair {
        first: p.first as usize,
        value: p.value,
        second: p.second,
        lines_second,
        board,
        speed: drop_speed(level_after(s.level, s.lines, after.lines + lines_second)),
        level: s.level,
        penalty: p.penalty,
    }
}

/// What [`Planner::first_locks`] found: the prefix frames (inputs, positions) before the
/// locks in `firsts`, or the plan of a piece that locked within them.
enum Firsts {
    Found(Vec<PadState>, Vec<Pos>),
    LockedEarly(Plan),
}

impl Plan {
    /// The plan of a piece that locks at `at` within the frames before the search.
    pub(crate) fn locked_early(
        at: &Active,
        inputs: Vec<PadState>,
        expected: Vec<Pos>,
    ) -> Option<Plan> {
        Some(Plan {
            lock: Pos::of(at)?,
            inputs,
            expected,
            next_lock: None,
            value: None,
            candidates: 1,
            replan_after: None,
            entry_hold: PadState::NONE,
            hide_preview: false,
        })
    }

    /// The plan of the best pair `(value, index in firsts, next lock)`; with no pair, the
    /// deepest lock's (see [`Plan::to_lock`]).
    pub(crate) fn of_best(
        first: &LockSets,
        firsts: &[Lock],
        best: Option<(f64, usize, Option<Pos>)>,
        inputs: Vec<PadState>,
        expected: Vec<Pos>,
    ) -> Plan {
        Plan {
            value: best.map(|b| b.0),
            next_lock: best.and_then(|b| b.2),
            ..Plan::to_lock(first, firsts, best.map(|b| b.1), inputs, expected)
        }
    }

    /// The plan to `firsts[index]` (or, for `None`, the deepest lock: when every pair is
    /// rejected, the least bad way to go on) along `first`'s path, after the prefix frames.
    pub(crate) fn to_lock(
        first: &LockSets,
        firsts: &[Lock],
        index: Option<usize>,
        mut inputs: Vec<PadState>,
        mut expected: Vec<Pos>,
    ) -> Plan {
        let index = index.unwrap_or_else(|| {
            (0..firsts.len())
                .max_by_key(|&i| (firsts[i].at.y, std::cmp::Reverse(i)))
                .unwrap_or(0)
        });
        let chosen = firsts[index];
        let (mut path, mut path_expected) = (Vec::new(), Vec::new());
        first.path(&chosen, &mut path, &mut path_expected);
        inputs.extend_from_slice(&path);
        expected.extend_from_slice(&path_expected);
        Plan {
            inputs,
            expected,
            lock: chosen.at,
            next_lock: None,
            value: None,
            candidates: firsts.len(),
            replan_after: None,
            entry_hold: PadState::NONE,
            hide_preview: false,
        }
    }
}

impl<E: Evaluator> Planner<E> {
    /// A planner with `evaluator`, no soft drop and the `unlimited` profile.
    pub fn new(evaluator: E) -> Planner<E> {
        Planner {
            evaluator,
            moves: MoveSet::default(),
            profile: Profile::default(),
            first: LockSets::new(),
            seconds: LockSets::new(),
            lookahead: Lookahead::default(),
            exclude: Vec::new(),
            third: ThirdPiece::default(),
            keys: Vec::with_capacity(2048),
            pairs: Vec::with_capacity(2048),
            top: Vec::with_capacity(16),
            firsts: Vec::with_capacity(256),
            crash_guard: CrashGuard::default(),
            soft: SoftLever::default(),
            cache: cache::Cache::default(),
            blind: blind::Scratch::default(),
            #[cfg(test)]
            carried_values: 0,
            #[cfg(test)]
            full_pass_pairs: false,
        }
    }

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
