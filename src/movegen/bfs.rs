//! The per-frame gamepad-state BFS: nodes are (x, y, orientation, fall timer, soft-drop state,
//! previous buttons), edges are one frame of the rules model's own `Active::frame`.
//!
//! The move set is what a fast human does at 30 Hz on a real controller: Left/Right and A/B
//! are tapped (pressed one frame, released before they are pressed again), Down may be held,
//! and opposite directions are never pressed together (a D-pad cannot). Because a direction is
//! never held two frames running, the DAS counter is never read, so it is not part of the key:
//! two nodes with equal keys have the same future. The fall timer is keyed as
//! `min(fall_timer, speed − 1)`, since every larger value drops on the next gravity test.

use crate::game::active::{Active, Control};
use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Orientation;
use crate::game::pos::Pos;

use super::collision::CollisionMap;
use super::kernel::Kernel;
pub use super::kernel::MoveSet;
use super::profile::{PieceProgress, Profile};

#[cfg(test)]
mod completeness;
mod profiled;
mod profiled_resume;
mod rows;
mod rows_resume;

use super::profile::Rules;
pub use profiled::ENTRY_ROOTS;

/// A reachable lock: the piece locks at `at` on frame `frames` (1 = the first searched frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    /// Where the piece locks.
    pub at: Pos,
    /// Frames from the search's start to the lock frame, counting the lock frame.
    pub frames: u16,
    /// Soft-drop rows counted for points at the lock.
    pub hold_down_points: u8,
    /// The DAS counter ($46) at the end of the lock frame: the cartridge carries it to the next
    /// piece unchanged (nes-tetris.md §5.1), along the lock's path; the profiled searches
    /// prefer a charged arrival (16) at a lock under a hold profile.
    pub das: u8,
    node: u32,
    input: PadState,
}

#[derive(Clone, Copy)]
struct Node {
    state: Active,
    prev: PadState,
    parent: u32,
    input: PadState,
    frames: u16,
}

impl Node {
    /// `state` after `held` was pressed on frame `frames`, from node `parent` (`u32::MAX` for
    /// a root, `held` being then the hold before the start).
    #[inline(always)]
    fn new(state: Active, held: PadState, parent: u32, frames: u16) -> Node {
        Node {
            state,
            prev: held,
            parent,
            input: held,
            frames,
        }
    }
}

/// A search's start and rules, as every kernel reads them.
struct Run<'a> {
    start: Active,
    /// One root per hold before the start (several for a spawn's chosen entry hold).
    roots: &'a [PadState],
    /// Frames per row, at least 1.
    speed: u8,
    map: &'a CollisionMap,
    moves: MoveSet,
    rules: Rules,
}

/// A state a node's frame reached, still falling.
#[derive(Clone, Copy)]
struct Step {
    state: Active,
    held: PadState,
    newly: PadState,
    parent: u32,
    frames: u16,
}

/// What a kernel of the shared BFS loop ([`Bfs::expand`]) decides: which buttons a node may
/// press and whether a state its frame reaches is new (it then pushes it).
trait Expansion {
    /// What a node's candidates share, worked out once per node.
    type At: Copy;
    /// Locks keep the best DAS charge their paths find ([`Bfs::record_lock_charged`]).
    fn charged(&self) -> bool;
    fn at(&mut self, bfs: &Bfs, i: usize, n: &Node) -> Self::At;
    fn allows(&self, at: Self::At, n: &Node, held: PadState) -> bool;
    fn falling(&mut self, bfs: &mut Bfs, at: Self::At, step: Step);
}

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

/// Orientation id → slot 0..3 within its piece.
const SLOT: [u8; 19] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0, 0, 1, 0, 1, 2, 3, 0, 1];
const LOCK_KEYS: usize = 19 * 10 * 22;
/// (x, y, slot) cells; keys add 3 soft-drop states, Down, fall-timer buckets and 16 tap sets.
const POSITIONS: usize = 10 * 20 * 4;

/// Candidate button sets per frame, in tie-break order (fewer presses first).
const CANDIDATES: [u8; 12] = [
    0x00, // nothing
    0x02, // Left
    0x01, // Right
    0x80, // A
    0x40, // B
    0x82, // Left + A
    0x81, // Right + A
    0x42, // Left + B
    0x41, // Right + B
    0x04, // Down
    0x84, // Down + A
    0x44, // Down + B
];

/// Reusable search state: node arrays and "visited at epoch" marks, allocated once.
pub struct Bfs {
    nodes: Vec<Node>,
    visited: Vec<u32>,
    /// Per position: (epoch, smallest fall-timer bucket visited) for the waiting rule.
    min_fall: Vec<(u32, u8)>,
    lock_seen: Vec<u32>,
    /// Per lock key, its index in `locks` (valid where `lock_seen` is this epoch).
    lock_index: Vec<u16>,
    locks: Vec<Lock>,
    epoch: u32,
    /// Per node of a profiled search: the directions pressed so far in the piece.
    pressed: Vec<u8>,
    /// Keys visited by a profiled search.
    keys: profiled::KeySet,
    /// Per dense state, the stamp of the profiled search's depth that last reached it.
    depth_seen: Vec<u32>,
    depth_base: u32,
    /// Nodes expanded by the last search (for statistics and benchmarks).
    pub expanded: usize,
    /// The one kernel this search runs whatever the start (an oracle's), if any.
    only: Option<Kernel>,
    /// The rows search's empty-board nodes per start, to resume from.
    opens: rows_resume::Opens,
    /// The dense profiled search's empty-board nodes per spawn start, to resume from.
    dense_opens: profiled_resume::DenseOpens,
}

impl Default for Bfs {
    fn default() -> Self {
        Self::new()
    }
}

/// Held-button bits that matter to the key: Right, Left, B, A (tapped) → bits 0-3.
#[inline(always)]
fn tapped_bits(p: PadState) -> usize {
    ((p.0 & 0x03) | ((p.0 >> 4) & 0x0C)) as usize
}

/// Dense key of a node: the position part (x, y, slot, soft-drop state, Down held) and the full
/// key that adds the fall-timer bucket and the tapped buttons held.
#[derive(Clone, Copy)]
struct Key {
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
            keys: profiled::KeySet::default(),
            depth_seen: Vec::new(),
            depth_base: 0,
            expanded: 0,
            only: None,
            opens: rows_resume::Opens::default(),
            dense_opens: profiled_resume::DenseOpens::default(),
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

    fn next_epoch(&mut self, speed: u8) {
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
    fn key(a: &Active, prev: PadState, speed: u8) -> Option<Key> {
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
    fn dominated(&self, k: &Key, epoch: u32) -> bool {
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
    fn waited_in_place(&self, n: &Node, speed: u8) -> bool {
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
    fn record_lock(&mut self, a: &Active, frames: u16, node: usize, input: PadState) {
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
    fn visit(&mut self, k: &Key, epoch: u32) {
        self.visited[k.full] = epoch;
        if k.plain {
            let m = &mut self.min_fall[k.pos];
            if m.0 != epoch || k.fall < m.1 {
                *m = (epoch, k.fall);
            }
        }
    }

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

    /// The BFS loop every kernel but the rows search shares: each node in turn from node
    /// `from` (the nodes before it already expanded), each button set `e` allows from it, one
    /// frame of the rules; a lock is recorded, a falling state handed to `e`.
    #[inline(always)]
    fn expand<E: Expansion>(&mut self, e: &mut E, r: &Run, from: usize) {
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
