//! Every reachable placement of the current piece, ranked as the planner chooses: its pick
//! first, then by two-piece value (a lock is worth its best pair with the next piece).

// The loop is the planner's (`plan.rs`) with the best pair kept per first lock instead of
// overall; a test checks that the top entry is always the planner's choice, so the two cannot
// drift apart. Ties keep the BFS order, as the planner does (it takes the first strictly better).
// The planner's third-piece layer re-ranks its best pairs by an expectation on another scale,
// so when it picks a lock other than the best two-piece one, that pick is put first (the bot's
// choice is "best") and the others keep their two-piece order and values behind it.

use crate::game::Pos;
use std::cmp::Ordering;

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::score::drop_speed;

use super::eval::Evaluator;
use super::pairs::AfterFirst;
use super::plan::{Planner, Situation};
use super::reference::PairSearch;
use crate::movegen::prefix;
use crate::movegen::profile::Profile;
use crate::movegen::LockQuery;
use crate::movegen::MoveSet;

/// One placement of the current piece and what it is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// Where the current piece locks.
    pub lock: Pos,
    /// The best pair value over the next piece's locks (lower is better); `None` when a rule
    /// rejects every pair (the board is not playable after it).
    pub value: Option<f64>,
    /// The next piece's lock in that best pair (`None` without a next piece or a value).
    pub next_lock: Option<Pos>,
    /// 1 for the best value; placements of equal value share a rank.
    pub rank: usize,
    /// Frames from the situation to the lock (first-piece delay included).
    pub frames: u16,
}

/// Every reachable placement of a decision, best first.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// The decision ranked.
    pub situation: Situation,
    /// Every reachable placement, best first.
    pub entries: Vec<Ranked>,
    /// The first entry was put there by the planner's own choice (its third-piece layer, or
    /// the deepest lock when every pair is rejected), not by its two-piece value.
    pub pick_first: bool,
}

/// Lower is better; a rejected placement (`None`) is worse than any value.
pub fn compare_values(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.total_cmp(&b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

impl Ranking {
    /// The best placement (the planner's choice).
    pub fn best(&self) -> Option<&Ranked> {
        self.entries.first()
    }

    /// The entry for this lock, if the move set reaches it.
    pub fn find(&self, lock: &Pos) -> Option<&Ranked> {
        self.entries.iter().find(|e| e.lock == *lock)
    }

    /// The rank a placement of this value would have (other than the planner's pick): 1 + the
    /// placements strictly better, counting a pick put first as better than anything.
    pub fn rank_of_value(&self, value: Option<f64>) -> usize {
        let skip = usize::from(self.pick_first);
        1 + skip
            + self.entries[skip.min(self.entries.len())..]
                .iter()
                .filter(|e| compare_values(e.value, value) == Ordering::Less)
                .count()
    }
}

/// Ranking state reused from one decision to the next (the BFS arrays are allocated once).
pub struct Ranker<E: Evaluator> {
    /// Values the pairs.
    pub evaluator: E,
    /// The bot whose choice ranks first (same evaluator, default look-ahead).
    planner: Planner<E>,
    /// What the searches of the placements and of the next piece may press (the planner's
    /// pick keeps its own default).
    pub moves: MoveSet,
    bfs: PairSearch,
    /// Inputs ending the first-piece delay of the last ranked situation.
    prefix: Vec<PadState>,
    /// The state searched from, after that prefix.
    start: Option<(Active, PadState)>,
}

impl<E: Evaluator + Clone> Ranker<E> {
    /// A ranker with `evaluator`, no soft drop and the `unlimited` profile.
    pub fn new(evaluator: E) -> Ranker<E> {
        Ranker {
            planner: Planner::new(evaluator.clone()),
            evaluator,
            moves: MoveSet::default(),
            bfs: PairSearch::default(),
            prefix: Vec::new(),
            start: None,
        }
    }

    /// Ranks under `profile` (the planner's, whose pick ranks first): the locks it reaches,
    /// its start delay and, before its reaction time, the planner's blind pick first.
    pub fn set_profile(&mut self, profile: Profile) {
        self.planner.profile = profile;
    }

    /// The profile the ranking follows (`unlimited` unless set).
    pub fn profile(&self) -> &Profile {
        &self.planner.profile
    }

    /// The best pair value of locking the current piece at `first` (which need not be
    /// reachable: a player's lock outside the move set is valued the same way), and the next
    /// piece's lock in that pair.
    pub fn value_of(&mut self, s: &Situation, first: &Pos) -> (Option<f64>, Option<Pos>) {
        self.best_pair(s, &AfterFirst::new(&s.board, s.level, s.lines, *first))
    }

    /// The best pair after `after`, its next lock the first of the best value in `Bfs`'s order
    /// (the planner's choice among equal pairs).
    fn best_pair(&mut self, s: &Situation, after: &AfterFirst) -> (Option<f64>, Option<Pos>) {
        let Some(next) = s.next else {
            return (after.alone(&self.evaluator), None);
        };
        let profile = &self.planner.profile;
        let q = LockQuery::spawn(&after.board, next, after.speed, profile, self.moves);
        let seconds = self.bfs.second.search_paths(&q);
        match after.best_pair(&self.evaluator, seconds.iter().map(|l| l.at)) {
            Some((v, second)) => (Some(v), Some(second)),
            None => (None, None),
        }
    }

    /// Ranks every lock of the current piece reachable from `s`. `None` when no piece is
    /// shown or nothing is reachable.
    pub fn rank(&mut self, s: &Situation) -> Option<Ranking> {
        let orientation = Orientation::new(s.active.id)?;
        let speed = drop_speed(s.level);
        let map = self.bfs.first.prepare(&s.board, orientation.piece());
        self.prefix.clear();
        let mut expected = Vec::new();
        let (start, prev, locked) = prefix::start_prefix(
            s.prefix_start(),
            map,
            self.planner.profile.start_delay,
            &mut self.prefix,
            &mut expected,
        );
        self.start = Some((start, prev));
        self.bfs.firsts.clear();
        if locked {
            let lock = Pos::of(&start)?;
            let (value, next_lock) = self.value_of(s, &lock);
            let entries = vec![Ranked {
                lock,
                value,
                next_lock,
                rank: 1,
                frames: self.prefix.len() as u16,
            }];
            return Some(Ranking {
                situation: *s,
                entries,
                pick_first: false,
            });
        }
        let progress = s.progress.then(&self.prefix, s.prev);
        let profile = &self.planner.profile;
        let q = LockQuery::spawn(&s.board, orientation.piece(), speed, profile, self.moves)
            .at(start, prev, progress);
        let firsts = self.bfs.first.search_prepared(&q);
        self.bfs.firsts.extend_from_slice(firsts);
        if self.bfs.firsts.is_empty() {
            return None;
        }
        let mut entries = Vec::with_capacity(self.bfs.firsts.len());
        let firsts = std::mem::take(&mut self.bfs.firsts);
        for l1 in &firsts {
            let lock = l1.at;
            let after = AfterFirst::new(&s.board, s.level, s.lines, lock);
            let (value, next_lock) = self.best_pair(s, &after);
            entries.push(Ranked {
                lock,
                value,
                next_lock,
                rank: 0,
                frames: self.prefix.len() as u16 + l1.frames,
            });
        }
        self.bfs.firsts = firsts;
        // Stable: equal values keep the BFS order, so the first entry is the planner's pick.
        entries.sort_by(|a, b| compare_values(a.value, b.value));
        let mut ranking = Ranking {
            situation: *s,
            entries,
            pick_first: false,
        };
        // The planner's own pick (look-ahead, or the deepest lock when all are rejected).
        let pick = self.planner.plan(s).map(|p| p.lock);
        if let Some(i) = pick.and_then(|p| ranking.entries.iter().position(|e| e.lock == p)) {
            if i > 0 {
                let e = ranking.entries.remove(i);
                ranking.entries.insert(0, e);
                ranking.pick_first = true;
            }
        }
        for i in 0..ranking.entries.len() {
            let v = ranking.entries[i].value;
            ranking.entries[i].rank = if i == 0 && ranking.pick_first {
                1
            } else {
                ranking.rank_of_value(v)
            };
        }
        Some(ranking)
    }

    /// The buttons for every frame from the last ranked situation to `lock` (one of its
    /// entries), as a plan would press them; `None` for a lock the last search did not reach.
    pub fn inputs_to(&self, lock: &Pos) -> Option<Vec<PadState>> {
        let mut inputs = self.prefix.clone();
        if self.bfs.firsts.is_empty() {
            return Some(inputs);
        }
        let l = self.bfs.firsts.iter().find(|l| l.at == *lock)?;
        let (mut path, mut expected) = (Vec::new(), Vec::new());
        self.bfs.first.path(l, &mut path, &mut expected);
        inputs.extend_from_slice(&path);
        Some(inputs)
    }
}

#[cfg(test)]
#[path = "rank_tests.rs"]
mod tests;
