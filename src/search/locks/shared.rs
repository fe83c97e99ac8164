//! The next pieces' lock sets of one board's first locks, sharing the search each next piece
//! makes on the board before them (`Reach::share_timeline`, for the blind plan).

use crate::search::eval::Placement;

use super::{Kernel, LockQuery, LockSets};
use crate::search::reach::ReachLock;

impl LockSets {
    /// Keeps the search of `q` (a next piece on the board before the first locks) for
    /// [`LockSets::search_after`]; only timeline searches are kept.
    pub fn share(&mut self, q: &LockQuery) {
        if Self::timeline_kernel(q) {
            self.reach.share_timeline(
                q.board,
                q.start,
                q.prev,
                q.speed,
                q.profile.timeline,
                u32::from(q.progress.frames),
            );
        }
    }

    /// [`LockSets::search`] of `q`, whose board is the shared board with `first` locked on it
    /// and `cleared` lines cleared: resumed from the shared search when no line cleared.
    pub fn search_after(&mut self, q: &LockQuery, first: &Placement, cleared: u32) -> &[ReachLock] {
        if cleared == 0
            && Self::timeline_kernel(q)
            && self.reach.search_timeline_after(
                q.board,
                q.start,
                q.prev,
                q.speed,
                q.profile.timeline,
                u32::from(q.progress.frames),
                (first.x, first.y, first.orientation),
            )
        {
            return self.reach.locks();
        }
        self.search(q)
    }

    fn timeline_kernel(q: &LockQuery) -> bool {
        let kernel = Kernel::choose(&q.start, q.speed, q.moves, q.profile, q.progress, false);
        kernel == Kernel::ReachTimeline
    }
}
