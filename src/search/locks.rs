//! "The locks this piece can reach": the path-free entry point the pair enumerator uses
//! ([`LockSets`]), running the kernel [`Kernel::choose`] (in `kernel.rs`) picks.

use crate::game::active::Active;
use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::{Orientation, Piece};

use super::bfs::{Bfs, Lock, MoveSet, Rules, ENTRY_ROOTS};
use super::collision::CollisionMap;
pub use super::kernel::Kernel;
use super::profile::{PieceProgress, Profile};
use super::reach::{Reach, ReachLock};

/// Where a lock search starts and under which rules: a piece (its state at the end of the
/// last frame), the board, the gravity and the player's profile.
#[derive(Clone, Copy, Debug)]
pub struct LockQuery<'a> {
    pub board: &'a Board,
    pub start: Active,
    /// Buttons held in the last frame.
    pub prev: PadState,
    /// Frames per row (`drop_speed(level)`).
    pub speed: u8,
    pub profile: &'a Profile,
    pub moves: MoveSet,
    pub progress: PieceProgress,
    /// At a spawn under a hold profile: the direction held at the start is the player's
    /// choice (kept or pressed through the entry delay), so the locks are those from nothing,
    /// Left or Right held (`Bfs::search_entry`); `prev` is then unused.
    pub entry: bool,
}

impl<'a> LockQuery<'a> {
    /// `piece` at its spawn (nothing held, frame 0 of the piece).
    pub fn spawn(
        board: &'a Board,
        piece: Piece,
        speed: u8,
        profile: &'a Profile,
        moves: MoveSet,
    ) -> LockQuery<'a> {
        LockQuery {
            board,
            start: Active::spawn(piece.spawn().id(), 0, 0),
            prev: PadState::NONE,
            speed,
            profile,
            moves,
            progress: PieceProgress::default(),
            entry: false,
        }
    }

    /// `piece` at its spawn after a lock that left the DAS counter at `das`: under a profile
    /// that holds directions the counter carries (the cartridge keeps $46 through the entry
    /// delay) and the hold at the spawn is chosen ([`LockQuery::entry`]); under taps it is
    /// [`LockQuery::spawn`] (a tap resets the counter before it is read).
    pub fn after_lock(
        board: &'a Board,
        piece: Piece,
        speed: u8,
        profile: &'a Profile,
        moves: MoveSet,
        das: u8,
    ) -> LockQuery<'a> {
        let mut q = LockQuery::spawn(board, piece, speed, profile, moves);
        if profile.shift.holds() {
            q.start.das = das.min(16);
            q.entry = true;
        }
        q
    }

    /// The locks by `bfs` (so in the order first reached, with paths), `map` built for the
    /// query's piece: the order that breaks ties between equal pairs.
    pub fn search_ordered<'b>(&self, bfs: &'b mut Bfs, map: &mut CollisionMap) -> &'b [Lock] {
        let Some(o) = Orientation::new(self.start.id) else {
            return &[];
        };
        map.build(self.board, o.piece());
        if self.entry {
            return bfs.search_entry(self.start, self.speed, map, self.moves, self.profile);
        }
        bfs.search_profiled(
            self.start,
            self.prev,
            self.speed,
            map,
            self.moves,
            self.profile,
            self.progress,
        )
    }
}

/// Reusable searches for [`LockSets::search`]; allocated once.
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
    pub fn new() -> LockSets {
        LockSets {
            reach: Reach::new(),
            bfs: Bfs::new(),
            map: CollisionMap::default(),
            out: Vec::with_capacity(256),
        }
    }

    /// Every lock of the query's piece: the same set as [`Bfs::search_profiled`] (tested), in
    /// the kernel's order, by the fastest kernel [`Kernel::choose`] gives without paths.
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
            x: l.x,
            y: l.y,
            id: l.id,
            frames: l.frames,
        }));
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::score::drop_speed;
    use crate::search::profile::PRESETS;
    use std::collections::BTreeSet;

    #[test]
    fn the_same_set_as_the_profiled_bfs_for_every_preset() {
        let board = crate::search::fixtures::mid_board();
        let mut locks = LockSets::new();
        let mut bfs = Bfs::new();
        for (name, _) in PRESETS {
            let profile = Profile::preset(name).unwrap();
            for level in [18u8, 19, 29] {
                for piece in Piece::ALL {
                    let got: BTreeSet<_> = locks
                        .search(&LockQuery::spawn(
                            &board,
                            piece,
                            drop_speed(level),
                            &profile,
                            MoveSet::default(),
                        ))
                        .iter()
                        .map(|l| (l.x, l.y, l.id))
                        .collect();
                    let map = CollisionMap::new(&board, piece);
                    let want: BTreeSet<_> = bfs
                        .search_profiled(
                            Active::spawn(piece.spawn().id(), 0, 0),
                            PadState::NONE,
                            drop_speed(level),
                            &map,
                            MoveSet::default(),
                            &profile,
                            PieceProgress::default(),
                        )
                        .iter()
                        .map(|l| (l.x, l.y, l.id))
                        .collect();
                    assert_eq!(got, want, "{name} level {level} {piece:?}");
                }
            }
        }
    }
}
