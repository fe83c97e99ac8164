//! The next pieces' lock sets of one board's first locks, sharing the search each next piece
//! makes on the board before them (`Reach::share_timeline`, for the blind plan).

use super::{Kernel, LockQuery, LockSets};
use crate::game::Pos;
use crate::movegen::reach::{ReachLock, TimelineStart};

impl LockSets {
    /// Keeps the search of `q` (a next piece on the board before the first locks) for
    /// [`LockSets::search_after`]; only timeline searches are kept.
    pub(crate) fn share(&mut self, q: &LockQuery) {
        if let Some(at) = Self::timeline_start(q) {
            self.reach.share_timeline(q.board, at);
        }
    }

    /// [`LockSets::search`] of `q`, whose board is the shared board with `first` locked on it
    /// and `cleared` lines cleared: resumed from the shared search when no line cleared.
    pub(crate) fn search_after(
        &mut self,
        q: &LockQuery,
        first: &Pos,
        cleared: u32,
    ) -> &[ReachLock] {
        let first = (first.x, first.y, first.orientation);
        let resumed = cleared == 0
            && Self::timeline_start(q)
                .is_some_and(|at| self.reach.search_timeline_after(q.board, at, first));
        if resumed {
            return self.reach.locks();
        }
        self.search(q)
    }

    /// Where `q`'s search starts, when the kernel for it is the timeline search.
    fn timeline_start(q: &LockQuery) -> Option<TimelineStart> {
        let kernel = Kernel::choose(&q.start, q.speed, q.moves, q.profile, q.progress, false);
        if kernel != Kernel::ReachTimeline {
            return None;
        }
        let offset = u32::from(q.progress.frames);
        TimelineStart::new(q.start, q.prev, q.speed, q.profile.timeline, offset)
    }
}
