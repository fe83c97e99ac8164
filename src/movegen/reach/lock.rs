//! The lock a bit-set search records: where the piece locks and the frame it first gets there
//! (no path: `Bfs` keeps those).

use crate::game::pos::Pos;

/// A reachable lock: where the piece locks, reached first on frame `frames`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReachLock {
    /// Where the piece locks.
    pub at: Pos,
    /// Frames from the search's start to the lock frame, counting the lock frame.
    pub frames: u16,
}
