//! "The locks this piece can reach": the one entry into move generation ([`LockSets`]), a
//! lock query answered without paths or with them, by the kernel [`Kernel::choose`] picks.

use crate::game::piece::Orientation;

use super::bfs::{Bfs, Lock, ENTRY_ROOTS};
use super::collision::CollisionMap;
use super::kernel::{Kernel, LockQuery};
use super::profile::Rules;
use super::reach::{Reach, ReachLock};

mod paths;
mod shared;

impl LockQuery<'_> {
    /// The locks by `bfs` (so in the order first reached, with paths), `map` built for the
    /// query's piece: the order that breaks ties between equal pairs.
    fn search_ordered<'b>(&self, bfs: &'b mut Bfs, map: &mut CollisionMap) -> &'b [Lock] {
        let Some(o) = Orientation::new(self.start.id) else {
            return &[];
        };
        map.build(self.board, o.piece());
        bfs.search_query(self, map)
    }
}

/// Reusable searches for a lock query, allocated once: [`LockSets::search`] without paths,
/// [`LockSets::search_paths`] with the buttons to each lock (`locks/paths.rs`). An instance
/// keeps the resume caches of the searches it made, so each planner search has its own.
pub struct LockSets {
    reach: Reach,
    bfs: Bfs,
    map: CollisionMap,
    out: Vec<ReachLock>,
}

impl Default for LockSets {
    fn default() -> Self {
        Self::new()
    }
}

impl LockSets {
    /// Empty searches, their buffers allocated.
    pub fn new() -> LockSets {
        LockSets::with(Bfs::new())
    }

    /// Searches whose path search always runs the general kernel (the reference planner).
    pub(crate) fn general() -> LockSets {
        LockSets::with(Bfs::general())
    }

    /// Searches whose path search never resumes from the empty board's nodes: for an oracle
    /// that must not share the planner's shortcuts.
    pub(crate) fn once() -> LockSets {
        LockSets::with(Bfs::once())
    }

    fn with(bfs: Bfs) -> LockSets {
        LockSets {
            reach: Reach::new(),
            bfs,
            map: CollisionMap::default(),
            out: Vec::with_capacity(256),
        }
    }

    /// Every lock of the query's piece: the same set as the per-frame BFS (`Bfs::search_query`,
    /// tested), in the kernel's order, by the fastest kernel the kernel choice gives without
    /// paths.
    pub fn search(&mut self, q: &LockQuery) -> &[ReachLock] {
        let kernel = Kernel::choose(&q.start, q.speed, q.moves, q.profile, q.progress, false);
        let found = match kernel {
            Kernel::ReachBits => self.reach.search(q.board, q.start, q.prev, q.speed),
            Kernel::ReachTimeline => self.reach.search_timeline(
                q.board,
                q.start,
                q.prev,
                q.speed,
                q.profile.timeline,
                u32::from(q.progress.frames),
            ),
            Kernel::ReachHold => {
                let roots = if q.entry {
                    &ENTRY_ROOTS[..]
                } else {
                    std::slice::from_ref(&q.prev)
                };
                let rules = Rules::new(q.profile, q.progress);
                self.reach
                    .search_hold(q.board, q.start, roots, q.speed, rules)
            }
            _ => None,
        };
        // `choose` gives the bit sets only for starts they model, so they always answer.
        if let Some(locks) = found {
            return locks;
        }
        let locks = q.search_ordered(&mut self.bfs, &mut self.map);
        self.out.clear();
        self.out.extend(locks.iter().map(|l| ReachLock {
            at: l.at,
            frames: l.frames,
        }));
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::piece::Piece;
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::MoveSet;
    use crate::movegen::profile::{Profile, PRESETS};
    use std::collections::BTreeSet;

    /// The lock sets are built millions of times a second: a place inside a lock costs no
    /// more than the three bytes it replaced.
    #[test]
    fn locks_stay_as_small_as_with_raw_fields() {
        assert_eq!(std::mem::size_of::<crate::game::Pos>(), 3);
        assert_eq!(std::mem::size_of::<ReachLock>(), 6);
        assert_eq!(std::mem::size_of::<crate::movegen::Lock>(), 12);
    }

    #[test]
    fn the_same_set_as_the_profiled_bfs_for_every_preset() {
        let board = crate::movegen::fixtures::mid_board();
        let mut locks = LockSets::new();
        let mut bfs = Bfs::new();
        for (name, _) in PRESETS {
            let profile = Profile::preset(name).unwrap();
            for level in [18u8, 19, 29] {
                for piece in Piece::ALL {
                    let q = LockQuery::spawn(
                        &board,
                        piece,
                        drop_speed(level),
                        &profile,
                        MoveSet::default(),
                    );
                    let got: BTreeSet<_> = locks
                        .search(&q)
                        .iter()
                        .map(|l| (l.at.x, l.at.y, l.at.id()))
                        .collect();
                    let map = CollisionMap::new(&board, piece);
                    let want: BTreeSet<_> = bfs
                        .search_query(&q, &map)
                        .iter()
                        .map(|l| (l.at.x, l.at.y, l.at.id()))
                        .collect();
                    assert_eq!(got, want, "{name} level {level} {piece:?}");
                }
            }
        }
    }
}
