//! `Bfs`'s reusable state (node arrays, visited marks, the kernels' kept nodes) and what every
//! kernel does with it: keys, dominance, lock records, and the BFS loop they share.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::game::active::{Active, Control};
use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Orientation;
use crate::game::pos::Pos;
use crate::movegen::kernel::Kernel;

use super::dense_opens::DenseOpens;
use super::node::{tapped_bits, Lock, Node, Run, Step, CANDIDATES, SLOT};
use super::rows_opens::Opens;

/// What a kernel of the shared BFS loop ([`Bfs::expand`]) decides: which buttons a node may
/// press and whether a state its frame reaches is new (it then pushes it).
pub(super) trait Expansion {
    /// What a node's candidates share, worked out once per node.
    type At: Copy;
    /// Locks keep the best DAS charge their paths find ([`Bfs::record_lock_charged`]).
    fn charged(&self) -> bool;
    fn at(&mut self, bfs: &Bfs, i: usize, n: &Node) -> Self::At;
    fn allows(&self, at: Self::At, n: &Node, held: PadState) -> bool;
    fn falling(&mut self, bfs: &mut Bfs, at: Self::At, step: Step);
}

const LOCK_KEYS: usize = 19 * 10 * 22;
/// (x, y, slot) cells; keys add 3 soft-drop states, Down, fall-timer buckets and 16 tap sets.
const POSITIONS: usize = 10 * 20 * 4;

/// A multiply-shift hasher for the packed `u64` keys (std's SipHash costs more than the frame).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b) ^ self.0.rotate_left(8));
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, k: u64) {
        let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

pub(super) type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Reusable search state: node arrays and "visited at epoch" marks, allocated once.
pub struct Bfs {
    pub(super) nodes: Vec<Node>,
    visited: Vec<u32>,
    /// Per position: (epoch, smallest fall-timer bucket visited) for the waiting rule.
    min_fall: Vec<(u32, u8)>,
    lock_seen: Vec<u32>,
    /// Per lock key, its index in `locks` (valid where `lock_seen` is this epoch).
    lock_index: Vec<u16>,
    pub(super) locks: Vec<Lock>,
    pub(super) epoch: u32,
    /// Per node of a profiled search: the directions pressed so far in the piece.
    pub(super) pressed: Vec<u8>,
    /// Keys visited by a profiled search.
    pub(super) keys: KeySet,
    /// Per dense state, the stamp of the profiled search's depth that last reached it.
    pub(super) depth_seen: Vec<u32>,
    pub(super) depth_base: u32,
    /// Nodes expanded by the last search (for statistics and benchmarks).
    pub expanded: usize,
    /// The one kernel this search runs whatever the start (an oracle's), if any.
    pub(super) only: Option<Kernel>,
    /// The rows search's empty-board nodes per start, to resume from.
    pub(super) opens: Opens,
    /// The dense profiled search's empty-board nodes per spawn start, to resume from.
    pub(super) dense_opens: DenseOpens,
}

impl Default for Bfs {
    fn default() -> Self {
        Self::new()
    }
}

/// Dense key of a node: the position part (x, y, slot, soft-drop state, Down held) and the full
/// key that adds the fall-timer bucket and the tapped buttons held.
#[derive(Clone, Copy)]
pub(super) struct Key {
    pos: usize,
    full: usize,
    /// Soft drop off and Down up: waiting a frame leads to the same position with nothing held.
    plain: bool,
    fall: u8,
}

impl Bfs {
    /// An empty search state that picks its kernel per start and resumes from cached nodes.
    pub fn new() -> Bfs {
        Bfs {
            nodes: Vec::with_capacity(1 << 16),
            visited: Vec::new(),
            min_fall: vec![(0, 0); POSITIONS * 6],
            lock_seen: vec![0; LOCK_KEYS],
            lock_index: vec![0; LOCK_KEYS],
            locks: Vec::with_capacity(256),
            epoch: 0,
            pressed: Vec::new(),
            keys: KeySet::default(),
            depth_seen: Vec::new(),
            depth_base: 0,
            expanded: 0,
            only: None,
            opens: Opens::default(),
            dense_opens: DenseOpens::default(),
        }
    }

    /// A search that always runs the general kernel, as the planner did before the rows
    /// search (the reference planner times and checks against it).
    pub(crate) fn general() -> Bfs {
        Bfs {
            only: Some(Kernel::General),
            ..Bfs::new()
        }
    }

    /// A search that never resumes from the empty board's nodes: for a search made once per
    /// start (`ReachTable::derive`) and for the reference planner, which must not share the
    /// planner's shortcuts.
    pub(crate) fn once() -> Bfs {
        let mut bfs = Bfs::new();
        bfs.opens.off = true;
        bfs.dense_opens.off = true;
        bfs
    }

    /// A search that always runs the keyed kernel (the dense search's oracle in tests).
    #[cfg(test)]
    pub(super) fn keyed() -> Bfs {
        Bfs {
            only: Some(Kernel::Keyed),
            ..Bfs::new()
        }
    }

    pub(super) fn next_epoch(&mut self, speed: u8) {
        let size = POSITIONS * 6 * speed as usize * 16;
        if self.visited.len() < size {
            self.visited = vec![0; size];
            self.min_fall.fill((0, 0));
            self.lock_seen.fill(0);
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.visited.fill(0);
            self.min_fall.fill((0, 0));
            self.lock_seen.fill(0);
            self.epoch = 1;
        }
    }

    #[inline(always)]
    pub(super) fn key(a: &Active, prev: PadState, speed: u8) -> Option<Key> {
        if a.x >= 10 || a.y >= 20 || a.id as usize >= SLOT.len() || a.ary > 2 {
            return None;
        }
        let down = (prev.0 >> 2) as usize & 1;
        let cell = (a.y as usize * 10 + a.x as usize) * 4 + SLOT[a.id as usize] as usize;
        let pos = (cell * 3 + a.ary as usize) * 2 + down;
        let fall = a.fall_timer.min(speed - 1);
        Some(Key {
            pos,
            full: (pos * speed as usize + fall as usize) * 16 + tapped_bits(prev),
            plain: a.ary == 0 && down == 0,
            fall,
        })
    }

    /// True when a visited node's futures include this one's:
    /// - the same key with a subset of its tapped buttons held: under the tap rule fewer held
    ///   buttons allow every press the other allows, with identical results;
    /// - the same position with a smaller fall timer (soft drop off, Down up), when this node
    ///   holds a tapped button: waiting with nothing pressed takes the visited node to this
    ///   fall timer with no button held, which dominates by the first rule. (Nodes with
    ///   nothing held are those waiting steps themselves, so they are not pruned this way.)
    #[inline(always)]
    pub(super) fn dominated(&self, k: &Key, epoch: u32) -> bool {
        if k.plain && k.full & 0x0F != 0 {
            let (e, f) = self.min_fall[k.pos];
            if e == epoch && f < k.fall {
                return true;
            }
        }
        let tapped = k.full & 0x0F;
        let base = k.full & !0x0F;
        let mut s = tapped;
        loop {
            if self.visited[base | s] == epoch {
                return true;
            }
            if s == 0 {
                return false;
            }
            s = (s - 1) & tapped;
        }
    }

    /// True when `n` was reached by pressing nothing from a node with nothing held at the same
    /// spot (soft drop off) and its own frame will not drop: every tap from it then leads where
    /// the same tap from its parent led, with a larger fall timer, which the waiting rule of
    /// [`Bfs::dominated`] prunes anyway. Skipping those taps saves the frame steps.
    #[inline(always)]
    pub(super) fn waited_in_place(&self, n: &Node, speed: u8) -> bool {
        if n.parent == u32::MAX || n.input != PadState::NONE || n.state.ary != 0 {
            return false;
        }
        let p = &self.nodes[n.parent as usize];
        p.prev == PadState::NONE
            && p.state.ary == 0
            && (p.state.x, p.state.y, p.state.id) == (n.state.x, n.state.y, n.state.id)
            && n.state.fall_timer.saturating_add(1) < speed
    }

    /// Keeps the first arrival at a lock (x, y, orientation): BFS order makes it the fastest.
    #[inline(always)]
    pub(super) fn record_lock(&mut self, a: &Active, frames: u16, node: usize, input: PadState) {
        let lk = (a.id as usize * 10 + a.x as usize) * 22 + a.y as usize;
        if lk < LOCK_KEYS && self.lock_seen[lk] != self.epoch {
            self.lock_seen[lk] = self.epoch;
            self.lock_index[lk] = self.locks.len() as u16;
            self.locks.push(Lock {
                at: Pos::new(a.x, a.y, Orientation::of_searched(a.id)),
                frames,
                hold_down_points: a.hold_down_points,
                das: a.das,
                node: node as u32,
                input,
            });
        }
    }

    /// [`Bfs::record_lock`] for a hold profile: a later arrival at a known lock that leaves the
    /// DAS counter charged (16) replaces an uncharged one in place (same place in the order),
    /// so the lock carries the best charge its paths found to the next piece.
    #[inline(always)]
    fn record_lock_charged(&mut self, a: &Active, frames: u16, node: usize, input: PadState) {
        let lk = (a.id as usize * 10 + a.x as usize) * 22 + a.y as usize;
        if lk < LOCK_KEYS && self.lock_seen[lk] == self.epoch {
            if a.das >= 16 {
                let l = &mut self.locks[self.lock_index[lk] as usize];
                if l.das < 16 {
                    l.das = a.das;
                    l.frames = frames;
                    l.hold_down_points = a.hold_down_points;
                    l.node = node as u32;
                    l.input = input;
                }
            }
            return;
        }
        self.record_lock(a, frames, node, input);
    }

    #[inline(always)]
    pub(super) fn visit(&mut self, k: &Key, epoch: u32) {
        self.visited[k.full] = epoch;
        if k.plain {
            let m = &mut self.min_fall[k.pos];
            if m.0 != epoch || k.fall < m.1 {
                *m = (epoch, k.fall);
            }
        }
    }

    /// The BFS loop every kernel but the rows search shares: each node in turn from node
    /// `from` (the nodes before it already expanded), each button set `e` allows from it, one
    /// frame of the rules; a lock is recorded, a falling state handed to `e`.
    #[inline(always)]
    pub(super) fn expand<E: Expansion>(&mut self, e: &mut E, r: &Run, from: usize) {
        // Down is the last three candidates.
        let candidates = if r.moves.soft_drop {
            &CANDIDATES[..]
        } else {
            &CANDIDATES[..9]
        };
        let charged = e.charged();
        let mut i = from;
        while i < self.nodes.len() {
            let n = self.nodes[i];
            let at = e.at(self, i, &n);
            for &c in candidates {
                let held = PadState(c);
                if !e.allows(at, &n, held) {
                    continue;
                }
                let mut a = n.state;
                let b = Buttons::after(held, n.prev);
                let frames = n.frames + 1;
                match a.frame(b, r.speed, r.map) {
                    Control::Locked if charged => self.record_lock_charged(&a, frames, i, held),
                    Control::Locked => self.record_lock(&a, frames, i, held),
                    Control::Falling => {
                        let step = Step {
                            state: a,
                            held,
                            newly: b.newly,
                            parent: i as u32,
                            frames,
                        };
                        e.falling(self, at, step);
                    }
                }
            }
            i += 1;
        }
    }
}
