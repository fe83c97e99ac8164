//! The dense profiled search's nodes on the empty board kept per spawn start: what a search's
//! nodes depend on (`Key`), where its depths start (`Mark`), and the ring a `Bfs` owns.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::movegen::collision::CollisionMap;
use crate::movegen::profile::Rules;
use crate::movegen::ring::Ring;

use super::node::{Node, Run};

/// Starts kept: the seven pieces at two gravities, each with a few DAS counters or timelines.
pub(super) const OPEN_KEYS: usize = 32;

/// Starts met once and not kept: a start is kept when met again while still listed here.
/// Under a hold profile the next piece's start carries the first lock's DAS counter, so most
/// starts of the entry-hold search (`plan/after_search.rs`) come once: keeping each would
/// copy its nodes and evict a start that comes back.
const MET_KEYS: usize = 64;

/// What a search's nodes depend on besides the board: start, root holds, gravity, rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    start: Active,
    roots: [PadState; 3],
    n_roots: usize,
    speed: u8,
    rules: Rules,
}

impl Key {
    pub(super) fn of(r: &Run) -> Key {
        let mut roots = [PadState::NONE; 3];
        roots[..r.roots.len()].copy_from_slice(r.roots);
        Key {
            start: r.start,
            roots,
            n_roots: r.roots.len(),
            speed: r.speed,
            rules: r.rules,
        }
    }
}

/// Where a depth of a kept search starts: its first node, its row, and how many locks were
/// recorded before it was expanded.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    pub(super) start: usize,
    pub(super) y: u8,
    pub(super) locks: usize,
}

/// One start's nodes shared with the empty board's search, depth by depth.
pub(super) struct Open {
    pub(super) key: Key,
    /// The empty board's map, which a board is compared with.
    pub(super) map: CollisionMap,
    pub(super) nodes: Vec<Node>,
    pub(super) pressed: Vec<u8>,
    /// The kept depths: every node of each (`nodes` ends with the last one's).
    pub(super) marks: Vec<Mark>,
    /// No deeper depth is shared with the empty board's search on any board (a lock came).
    pub(super) complete: bool,
}

/// The nodes the last few spawn starts share with the empty board (allocated as starts come).
#[derive(Default)]
pub(super) struct DenseOpens {
    pub(super) opens: Ring<Open>,
    /// Starts met once, not kept (a ring of `MET_KEYS`).
    met: Vec<Key>,
    met_next: usize,
    /// Never keep nor resume (`Bfs::once`).
    pub(super) off: bool,
    /// The marks of the last search that kept its nodes (reused).
    pub(super) marks: Vec<Mark>,
    /// Searches that kept a new entry, grew one, resumed from one (what the tests cover).
    #[cfg(test)]
    pub(super) counts: [usize; 3],
}

impl DenseOpens {
    /// True when `key` (not kept) was met before; else it is listed as met.
    pub(super) fn met_again(&mut self, key: Key) -> bool {
        if let Some(m) = self.met.iter().position(|k| *k == key) {
            self.met.swap_remove(m);
            self.met_next = self.met_next.min(self.met.len());
            return true;
        }
        if self.met.len() < MET_KEYS {
            self.met.push(key);
        } else {
            self.met[self.met_next] = key;
            self.met_next = (self.met_next + 1) % MET_KEYS;
        }
        false
    }
}
