//! The next piece's locks after a first lock in the order first reached, with paths: what the planner
//! decides equal pairs and a hold profile's entry hold on (the search reused within a decision).

use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, MoveSet};
use crate::movegen::{LockQuery, LockSets};
use crate::search::eval::Evaluator;
use crate::search::pairs::AfterFirst;

use super::{Planner, Situation};

/// The search, allocated once, and what the last search was of.
#[derive(Default)]
pub(super) struct AfterSearch {
    locks: LockSets,
    /// (board, level, lines, first lock, next piece) of the search `locks` holds, within the
    /// current decision: a tie and the entry hold of the same pair search once.
    last: Option<(Board, u8, [u8; 2], Lock, Piece)>,
}

impl AfterSearch {
    /// A new decision: the profile or moves may have changed since the last search.
    pub(super) fn forget(&mut self) {
        self.last = None;
    }

    /// The board after `first` and the next piece's locks on it from `first`'s DAS counter.
    pub(super) fn run(
        &mut self,
        s: &Situation,
        first: &Lock,
        next: Piece,
        (profile, moves): (&Profile, MoveSet),
    ) -> (AfterFirst, &[Lock]) {
        let after = AfterFirst::new(&s.board, s.level, s.lines, first.at);
        let key = (s.board, s.level, s.lines, *first, next);
        if self.last == Some(key) {
            return (after, self.locks.found());
        }
        let q = LockQuery::after_lock(&after.board, next, after.speed, profile, moves, first.das);
        let locks = self.locks.search_paths(&q);
        // No lock: maybe no search either (a start with no piece), so nothing to reuse.
        self.last = (!locks.is_empty()).then_some(key);
        (after, locks)
    }

    /// The direction held at the root of the last search's path to `lock`.
    pub(super) fn root_hold(&self, lock: &Lock) -> PadState {
        self.locks.root_hold(lock)
    }
}

impl<E: Evaluator> Planner<E> {
    /// The next piece's first lock, in the order first reached, that gives the pair with first lock
    /// `firsts[i]` the value `value`: the old planner's choice among equal pairs.
    pub(super) fn first_in_bfs_order(
        &mut self,
        s: &Situation,
        i: usize,
        next: Piece,
        value: f64,
    ) -> Option<Pos> {
        let search = (&self.profile, self.moves);
        let (after, seconds) = self.cache.after_first(s, &self.firsts[i], next, search);
        let mut found = None;
        let guard = &mut self.crash_guard;
        after.each_pair(
            &self.evaluator,
            seconds.iter().map(|l| l.at),
            |v, second, lines2, board2| {
                let v = v + guard.second_penalty((s.level, s.lines), after.lines, board2, lines2);
                if found.is_none() && v == value {
                    found = Some(second);
                }
            },
        );
        found
    }

    /// Under a hold profile, the direction to hold through the entry delay after
    /// `firsts[i]` so that `next` can reach `second` with the DAS counter the lock leaves:
    /// the hold of the fastest path to it (nothing when that needs none).
    pub(super) fn entry_hold(
        &mut self,
        s: &Situation,
        i: usize,
        next: Piece,
        second: Pos,
    ) -> PadState {
        if !self.profile.shift.holds() {
            return PadState::NONE;
        }
        let search = (&self.profile, self.moves);
        let (_, seconds) = self.cache.after_first(s, &self.firsts[i], next, search);
        match seconds.iter().find(|l| l.at == second).copied() {
            Some(l) => self.cache.root_hold(&l),
            None => PadState::NONE,
        }
    }
}
