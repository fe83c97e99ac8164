//! The next piece's locks after a first lock in the order first reached, with paths: what the planner
//! decides equal pairs and a hold profile's entry hold on (the search reused within a decision).

use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, MoveSet};
use crate::movegen::{LockQuery, LockSets};
use crate::search::pairs::AfterFirst;

use super::situation::Situation;

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
