//! The lock set of a piece from its spawn under a player profile, by the fastest search that
//! models it exactly: the next piece of every pair, the third piece, the blind plan's seven.

use crate::game::active::Active;
use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::Piece;

use super::bfs::{Bfs, MoveSet};
use super::collision::CollisionMap;
use super::profile::{PieceProgress, Profile, Shift, Timeline};
use super::reach::{Reach, ReachLock};

/// Reusable searches for [`SpawnLocks::search`]; allocated once.
pub struct SpawnLocks {
    reach: Reach,
    bfs: Bfs,
    map: CollisionMap,
    out: Vec<ReachLock>,
}

impl Default for SpawnLocks {
    fn default() -> Self {
        Self::new()
    }
}

impl SpawnLocks {
    pub fn new() -> SpawnLocks {
        SpawnLocks {
            reach: Reach::new(),
            bfs: Bfs::new(),
            map: CollisionMap::default(),
            out: Vec::with_capacity(256),
        }
    }

    /// Every lock of `piece` from its spawn (nothing held, frame 0 of the piece) on `board`
    /// at `speed` under `profile`: the same set as [`Bfs::search_profiled`] (tested), in no
    /// particular order. Unlimited taps use the unlimited bit-set search, other tap timelines
    /// the timeline bit sets, holds and soft drop the profiled BFS.
    pub fn search(
        &mut self,
        board: &Board,
        piece: Piece,
        speed: u8,
        profile: &Profile,
        moves: MoveSet,
    ) -> &[ReachLock] {
        let spawn = Active::spawn(piece.spawn().id(), 0, 0);
        let taps = profile.shift == Shift::Tap && !moves.soft_drop;
        if taps && profile.timeline == Timeline::Unlimited {
            if let Some(l) = self.reach.search(board, spawn, PadState::NONE, speed) {
                return l;
            }
        } else if taps {
            if let Some(l) =
                self.reach
                    .search_timeline(board, spawn, PadState::NONE, speed, profile.timeline, 0)
            {
                return l;
            }
        }
        self.map.build(board, piece);
        let locks = self.bfs.search_profiled(
            spawn,
            PadState::NONE,
            speed,
            &self.map,
            moves,
            profile,
            PieceProgress::default(),
        );
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
        let board = Board::from_text(
            "..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n..........\n..........\n..........\n\
             ..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
             #########.\n####.####.\n#########.\n#########.\n#########.",
        )
        .unwrap();
        let mut locks = SpawnLocks::new();
        let mut bfs = Bfs::new();
        for (name, _) in PRESETS {
            let profile = Profile::preset(name).unwrap();
            for level in [18u8, 19, 29] {
                for piece in Piece::ALL {
                    let got: BTreeSet<_> = locks
                        .search(
                            &board,
                            piece,
                            drop_speed(level),
                            &profile,
                            MoveSet::default(),
                        )
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
