//! The kernels of `Bfs::search_query`: the lock search under a player profile (input timeline,
//! taps or held directions with DAS), over exact controller states deduplicated by a hashed key.

// A state's future depends on: the piece's (x, y, orientation), the fall timer (as
// `min(fall_timer, speed − 1)`, as in the general search), the soft-drop state and whether
// Down is held, which of Left, Right, A, B are held (a held button is not newly pressed), the
// DAS counter when a held direction may go on being held (otherwise the next shift is a new
// press, which resets it, and the counter is never read in this piece), whether it is charged
// (16) under a hold profile (the charge a lock leaves for the next piece: `Lock::das`), the
// timeline's phase (where in the
// period the next frame falls) and, under `Shift::Hold`, the directions already pressed in
// this piece. Nothing else: two states with equal keys reach the same locks. No dominance rule
// is applied beyond that equality (the tap-set and waiting rules of the unlimited search do
// not hold once the phase matters).

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::movegen::profile::{Rules, Shift};

use super::node::{tapped_bits, Lock, Node, Run, Step, SLOT};
use super::state::{Bfs, Expansion};

/// Without soft drop the row and fall timer depend on the frame alone, so states of one BFS
/// depth can only equal states of the same depth: they are told apart by (x, orientation
/// slot, tapped buttons held, DAS counter 0-16 (16 also with nothing held: the charge kept for
/// the next piece), pressed directions), stamped per depth in one
/// dense array instead of hashed.
const DENSE: usize = 10 * 4 * 16 * 17 * 4;

/// The dense index of a state of a depth (see [`DENSE`]); `das` 0-16.
#[inline(always)]
fn dense(a: &Active, held: PadState, holds: bool, pressed: u8) -> usize {
    let das = if holds && (held.0 & 0x03 != 0 || a.das >= 16) {
        a.das as usize
    } else {
        0
    };
    ((((a.x as usize * 4 + SLOT[a.id as usize] as usize) * 16 + tapped_bits(held)) * 17 + das) * 4)
        + pressed as usize
}

/// The profile-dependent part of a key: phase and pressed directions (the rest is the state's).
#[inline(always)]
fn key(a: &Active, prev: PadState, speed: u8, rules: &Rules, phase: u32, pressed: u8) -> u64 {
    let fall = a.fall_timer.min(speed - 1);
    let das = if rules.shift.holds() && (prev.0 & 0x03 != 0 || a.das >= 16) {
        a.das
    } else {
        0
    };
    let held = prev.0 & 0xC7; // A, B, Down, Left, Right
    (a.x as u64)
        | (a.y as u64) << 8
        | (a.id as u64) << 16
        | (fall as u64) << 24
        | (a.ary as u64) << 32
        | (held as u64) << 40
        | (das as u64) << 48
        | ((phase as u64) & 0x3F) << 56
        | (pressed as u64 & 3) << 62
}

impl Rules {
    /// The directions pressed so far at the start (they count only under `Shift::Hold`).
    #[inline(always)]
    fn first_pressed(&self) -> u8 {
        if self.shift == Shift::Hold {
            self.pressed
        } else {
            0
        }
    }

    /// The directions pressed so far after a frame that newly pressed `newly`.
    #[inline(always)]
    fn pressed_after(&self, pressed: u8, newly: PadState) -> u8 {
        if self.shift == Shift::Hold {
            pressed | (newly.0 & 0x03)
        } else {
            0
        }
    }
}

/// A profiled search's rules: the profile's presses, states told apart by `D`.
pub(super) struct Profiled<D> {
    pub rules: Rules,
    pub states: D,
}

/// How a profiled search tells its states apart.
pub(super) trait States {
    /// What the children of node `i` (`n`, on frame `frame` of the piece) share: a depth
    /// stamp, a timeline phase.
    fn tag(&mut self, bfs: &Bfs, i: usize, n: &Node, frame: u32) -> u32;
    /// True, and marked seen, when the child `s` with `pressed` directions is a new state.
    fn first(&mut self, bfs: &mut Bfs, tag: u32, s: &Step, pressed: u8) -> bool;
}

impl<D: States> Expansion for Profiled<D> {
    /// (frame of the piece, directions pressed so far, the children's tag).
    type At = (u32, u8, u32);

    #[inline(always)]
    fn charged(&self) -> bool {
        self.rules.shift.holds()
    }

    #[inline(always)]
    fn at(&mut self, bfs: &Bfs, i: usize, n: &Node) -> Self::At {
        let frame = self.rules.offset + u32::from(n.frames);
        (frame, bfs.pressed[i], self.states.tag(bfs, i, n, frame))
    }

    #[inline(always)]
    fn allows(&self, (frame, pressed, _): Self::At, n: &Node, held: PadState) -> bool {
        self.rules.allows(held, n.prev, frame, pressed)
    }

    #[inline(always)]
    fn falling(&mut self, bfs: &mut Bfs, (_, pressed, tag): Self::At, s: Step) {
        let pressed = self.rules.pressed_after(pressed, s.newly);
        if self.states.first(bfs, tag, &s, pressed) {
            bfs.push_profiled(Node::new(s.state, s.held, s.parent, s.frames), pressed);
        }
    }
}

/// States of one depth told apart by [`dense`], stamped per depth.
pub(super) struct DenseStates {
    holds: bool,
    /// The stamp of depth 0.
    base: u32,
    deepest: u32,
}

impl States for DenseStates {
    #[inline(always)]
    fn tag(&mut self, _: &Bfs, _: usize, n: &Node, _: u32) -> u32 {
        self.deepest = self.deepest.max(u32::from(n.frames) + 1);
        self.base + u32::from(n.frames) + 1
    }

    #[inline(always)]
    fn first(&mut self, bfs: &mut Bfs, stamp: u32, s: &Step, pressed: u8) -> bool {
        if s.state.y >= 22 {
            return false;
        }
        let d = dense(&s.state, s.held, self.holds, pressed);
        let fresh = bfs.depth_seen[d] != stamp;
        bfs.depth_seen[d] = stamp;
        fresh
    }
}

/// States told apart by their hashed [`key`].
struct KeyedStates {
    rules: Rules,
    speed: u8,
    period: u32,
}

impl States for KeyedStates {
    #[inline(always)]
    fn tag(&mut self, _: &Bfs, _: usize, _: &Node, frame: u32) -> u32 {
        self.rules.phase(frame + 1, self.period)
    }

    #[inline(always)]
    fn first(&mut self, bfs: &mut Bfs, phase: u32, s: &Step, pressed: u8) -> bool {
        let a = &s.state;
        if a.x >= 10 || a.y >= 22 || a.ary > 2 {
            return false;
        }
        bfs.keys
            .insert(key(a, s.held, self.speed, &self.rules, phase, pressed))
    }
}

impl Bfs {
    /// A node of a profiled search, with the directions `pressed` so far.
    #[inline(always)]
    fn push_profiled(&mut self, node: Node, pressed: u8) {
        self.nodes.push(node);
        self.pressed.push(pressed);
    }

    /// The roots of a profiled search, one per hold in `r.roots` (fresh nodes and keys).
    pub(super) fn profiled_roots(&mut self, r: &Run) {
        self.pressed.clear();
        self.keys.clear();
        for &prev in r.roots {
            self.push_profiled(
                Node::new(r.start, prev, u32::MAX, 0),
                r.rules.first_pressed(),
            );
        }
    }

    /// The button held at the root a lock of the last search came from (its entry hold).
    pub(crate) fn root_hold(&self, lock: &Lock) -> PadState {
        let mut i = lock.node as usize;
        while self.nodes[i].parent != u32::MAX {
            i = self.nodes[i].parent as usize;
        }
        self.nodes[i].prev
    }

    /// Fresh depth stamps for a dense search (its nodes from `Bfs::profiled_roots` or a
    /// resume).
    pub(super) fn dense_states(&mut self, r: &Run) -> DenseStates {
        if self.depth_seen.len() != DENSE {
            self.depth_seen = vec![0; DENSE];
            self.depth_base = 0;
        }
        // Each depth of this search stamps `base + depth`; the next search starts past them.
        if self.depth_base > u32::MAX - 4096 {
            self.depth_seen.fill(0);
            self.depth_base = 0;
        }
        DenseStates {
            holds: r.rules.shift.holds(),
            base: self.depth_base + 1,
            deepest: 0,
        }
    }

    /// After a dense search: the next one starts past every stamp it used.
    pub(super) fn dense_done(&mut self, states: &DenseStates) {
        self.depth_base = states.base + states.deepest + 1;
    }

    /// The search over hashed keys: any profile, any start.
    pub(super) fn keyed_search(&mut self, r: &Run) {
        self.profiled_roots(r);
        let states = KeyedStates {
            rules: r.rules,
            speed: r.speed,
            period: u32::from(r.rules.timeline.period()),
        };
        if r.start.ary <= 2 {
            let phase = r.rules.phase(r.rules.offset, states.period);
            for &prev in r.roots {
                let k = key(
                    &r.start,
                    prev,
                    r.speed,
                    &r.rules,
                    phase,
                    r.rules.first_pressed(),
                );
                self.keys.insert(k);
            }
        }
        let mut keyed = Profiled {
            rules: r.rules,
            states,
        };
        self.expand(&mut keyed, r, 0);
    }
}
