//! The per-frame gamepad-state BFS: nodes are (x, y, orientation, fall timer, soft-drop state,
//! previous buttons), edges are one frame of the rules model's own `Active::frame`.
//!
//! The move set is what a fast human does at 30 Hz on a real controller: Left/Right and A/B
//! are tapped (pressed one frame, released before they are pressed again), Down may be held,
//! and opposite directions are never pressed together (a D-pad cannot). Because a direction is
//! never held two frames running, the DAS counter is never read, so it is not part of the key:
//! two nodes with equal keys have the same future. The fall timer is keyed as
//! `min(fall_timer, speed − 1)`, since every larger value drops on the next gravity test.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::pos::Pos;

use super::collision::CollisionMap;
use super::kernel::{Kernel, LockQuery};
use super::profile::{PieceProgress, Profile, Rules};

#[cfg(test)]
mod completeness;
mod dense_opens;
mod node;
mod profiled;
mod profiled_resume;
mod rows;
mod rows_opens;
mod rows_resume;
mod rows_shape;
mod state;

pub use super::kernel::MoveSet;
pub use node::Lock;
use node::{Node, Run, Step};
pub use state::Bfs;
use state::Expansion;

/// The holds a piece may start with when the entry delay was the player's (nothing first: the
/// order ties are broken in).
pub const ENTRY_ROOTS: [PadState; 3] = [PadState::NONE, PadState::LEFT, PadState::RIGHT];

/// The general search's rules: taps only, and its dominance rules ([`Bfs::dominated`]).
struct General {
    speed: u8,
    epoch: u32,
}

impl Expansion for General {
    /// The node waited in place ([`Bfs::waited_in_place`]).
    type At = bool;

    #[inline(always)]
    fn charged(&self) -> bool {
        false
    }

    #[inline(always)]
    fn at(&mut self, bfs: &Bfs, _: usize, n: &Node) -> bool {
        bfs.waited_in_place(n, self.speed)
    }

    #[inline(always)]
    fn allows(&self, waited: bool, n: &Node, held: PadState) -> bool {
        // Taps only: a button held last frame must be released before it is pressed again.
        // After a plain wait, a tap on this no-drop frame only repeats, one fall-timer step
        // later, what the same tap from the previous frame reached (dominated).
        held.0 & 0xC3 & n.prev.0 == 0 && !(waited && held.0 & 0xC3 != 0 && held.0 & 0x04 == 0)
    }

    #[inline(always)]
    fn falling(&mut self, bfs: &mut Bfs, _: bool, s: Step) {
        let Some(k) = Bfs::key(&s.state, s.held, self.speed) else {
            return;
        };
        if !bfs.dominated(&k, self.epoch) {
            bfs.visit(&k, self.epoch);
            bfs.nodes
                .push(Node::new(s.state, s.held, s.parent, s.frames));
        }
    }
}

impl Bfs {
    /// Searches every lock reachable from `start` (the state at the end of the last frame, with
    /// `prev` the buttons held in it). Locks come out in the order first reached, each with the
    /// fewest frames. The first-piece delay must already be over (`ary` 0..2).
    pub(crate) fn search(
        &mut self,
        start: Active,
        prev: PadState,
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
    ) -> &[Lock] {
        let unlimited = Profile::unlimited();
        let progress = PieceProgress::default();
        let kernel = Kernel::choose(&start, speed, moves, unlimited, progress, true);
        let run = Run {
            start,
            roots: &[prev],
            speed: speed.max(1),
            map,
            moves,
            rules: Rules::new(unlimited, progress),
        };
        self.run(kernel, &run)
    }

    /// A fresh search by `kernel` (or by this search's only kernel).
    fn run(&mut self, kernel: Kernel, r: &Run) -> &[Lock] {
        self.next_epoch(r.speed);
        self.nodes.clear();
        self.locks.clear();
        match self.only.unwrap_or(kernel) {
            Kernel::Rows => self.rows_search(r),
            Kernel::Dense => self.dense_search(r),
            Kernel::Keyed => self.keyed_search(r),
            _ => self.general_search(r),
        }
        self.expanded = self.nodes.len();
        &self.locks
    }

    /// The search over full keys, for any start (soft drop, first-piece delay, in flight).
    fn general_search(&mut self, r: &Run) {
        let epoch = self.epoch;
        for &prev in r.roots {
            if let Some(k) = Self::key(&r.start, prev, r.speed) {
                self.visit(&k, epoch);
            }
            self.nodes.push(Node::new(r.start, prev, u32::MAX, 0));
        }
        let mut general = General {
            speed: r.speed,
            epoch,
        };
        self.expand(&mut general, r, 0);
    }

    /// Every lock reachable from the query's start under its profile, with paths, in the order
    /// first reached (`map` is the query's piece's on its board): the kernel behind
    /// `LockSets::search_paths`, the face above reaches it through. The `unlimited` timeline with taps runs
    /// `Bfs::search`'s kernels (its fast paths, bit for bit); anything else the profiled
    /// search, by dense keys where the kernel choice allows, by hashed keys otherwise.
    /// An entry query ([`LockQuery::entry`]) under a hold profile searches from three roots,
    /// nothing, Left or Right held: a lock's root is `Bfs::root_hold`; its path (`Bfs::path`)
    /// starts on the piece's first frame. Reaction time and start delay do not change what
    /// is reachable: the planner applies them.
    pub fn search_query(&mut self, q: &LockQuery, map: &CollisionMap) -> &[Lock] {
        let kernel = Kernel::choose(&q.start, q.speed, q.moves, q.profile, q.progress, true);
        let prev = if q.entry { PadState::NONE } else { q.prev };
        let roots = if q.entry
            && q.profile.shift.holds()
            && matches!(kernel, Kernel::Dense | Kernel::Keyed)
        {
            &ENTRY_ROOTS[..]
        } else {
            std::slice::from_ref(&prev)
        };
        let run = Run {
            start: q.start,
            roots,
            speed: q.speed.max(1),
            map,
            moves: q.moves,
            rules: Rules::new(q.profile, q.progress),
        };
        self.run(kernel, &run)
    }

    /// The locks of the last search.
    pub fn locks(&self) -> &[Lock] {
        &self.locks
    }

    /// The buttons for every frame to `lock`, and the piece's (x, y, id) at the end of each.
    pub fn path(&self, lock: &Lock, inputs: &mut Vec<PadState>, expected: &mut Vec<Pos>) {
        inputs.clear();
        expected.clear();
        inputs.push(lock.input);
        expected.push(lock.at);
        // Up to the search's root (a search may have several: see `Bfs::search_query`).
        let mut i = lock.node;
        while self.nodes[i as usize].parent != u32::MAX {
            let n = &self.nodes[i as usize];
            inputs.push(n.input);
            expected.push(Pos::of_searched(&n.state));
            i = n.parent;
        }
        inputs.reverse();
        expected.reverse();
    }
}

/// Read-only view of the last search's states, for features derived from the BFS
/// (`movegen::reach`); kept apart from the search itself.
impl Bfs {
    /// Every state the last search kept, in the order reached (so by frames), as
    /// (state, index of the state it came from, frames since the start). The start is index 0
    /// and is its own parent.
    pub(crate) fn reached(&self) -> impl Iterator<Item = (Active, usize, u16)> + '_ {
        self.nodes.iter().map(|n| {
            let parent = if n.parent == u32::MAX {
                0
            } else {
                n.parent as usize
            };
            (n.state, parent, n.frames)
        })
    }
}
