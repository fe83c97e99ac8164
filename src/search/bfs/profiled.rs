//! `Bfs::search_profiled`: the lock search under a player profile (input timeline, taps or
//! held directions with DAS), over exact controller states deduplicated by a hashed key.

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

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::game::active::{Active, Control};
use crate::game::pad::PadState;
use crate::search::collision::CollisionMap;
use crate::search::kernel::Kernel;
use crate::search::profile::{PieceProgress, Profile, Shift, Timeline};

use super::{tapped_bits, Bfs, Lock, MoveSet, Node, CANDIDATES, SLOT};

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

/// The holds a piece may start with when the entry delay was the player's (nothing first: the
/// order ties are broken in).
pub const ENTRY_ROOTS: [PadState; 3] = [PadState::NONE, PadState::LEFT, PadState::RIGHT];

pub(super) type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// The press rules of a profile, as the search applies them frame by frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    pub timeline: Timeline,
    pub shift: Shift,
    /// Frames of the piece played before the search's first frame.
    pub offset: u32,
    /// Directions already newly pressed in this piece (they count under `Shift::Hold`).
    pub pressed: u8,
}

impl Rules {
    pub(crate) fn new(profile: &Profile, progress: PieceProgress) -> Rules {
        Rules {
            timeline: profile.timeline,
            shift: profile.shift,
            offset: u32::from(progress.frames),
            pressed: progress.pressed.0 & 0x03,
        }
    }

    /// May `held` follow `prev` on frame `frame` of the piece, with `pressed` directions
    /// already pressed? (Down is checked by the caller: it is outside profiles.)
    #[inline(always)]
    pub fn allows(&self, held: PadState, prev: PadState, frame: u32, pressed: u8) -> bool {
        let newly = held.0 & !prev.0;
        let timed = newly & 0xC3;
        if timed != 0 && !self.timeline.allows(frame) {
            return false;
        }
        // A and B are always tapped: held only on the frame they are pressed.
        if held.0 & 0xC0 & prev.0 != 0 {
            return false;
        }
        let dir = held.0 & 0x03;
        if dir & prev.0 != 0 && !self.shift.holds() {
            return false;
        }
        if self.shift == Shift::Hold && newly & 0x03 & pressed != 0 {
            return false;
        }
        true
    }
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

impl Bfs {
    /// A new profiled search at `speed` (≥ 1): fresh marks, nodes, locks and keys.
    fn begin_profiled(&mut self, speed: u8) {
        self.next_epoch(speed);
        self.nodes.clear();
        self.locks.clear();
        self.pressed.clear();
        self.keys.clear();
    }

    /// Every lock reachable from `start` (`prev` held in the last frame) under `profile`,
    /// `progress` being what the piece already did (zero at its spawn). The one entry point
    /// for "locks reachable under a profile": the `unlimited` timeline with taps is
    /// [`Bfs::search`] itself (its fast paths, bit for bit); anything else is the keyed search.
    /// Reaction time and start delay do not change what is reachable: the planner applies them.
    #[allow(clippy::too_many_arguments)]
    pub fn search_profiled(
        &mut self,
        start: Active,
        prev: PadState,
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
        profile: &Profile,
        progress: PieceProgress,
    ) -> &[Lock] {
        let kernel = Kernel::choose(&start, speed, moves, profile, progress, true);
        if matches!(kernel, Kernel::Rows | Kernel::General) {
            return self.search(start, prev, speed, map, moves);
        }
        let rules = Rules::new(profile, progress);
        self.search_from_roots(kernel, start, &[prev], speed, map, moves, rules)
    }

    /// The locks of a piece at its spawn under a profile that holds directions, the DAS
    /// counter `start.das` carried from the last piece, when the direction held at the spawn
    /// is the player's choice (pressed or kept through the entry delay, where a press does not
    /// touch the counter): one search from three roots, nothing, Left or Right held. A lock's
    /// root is [`Bfs::root_hold`]; its path (`Bfs::path`) starts on the piece's first frame.
    /// Without holds (or soft drop) it is [`Bfs::search_profiled`] with nothing held.
    pub fn search_entry(
        &mut self,
        start: Active,
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
        profile: &Profile,
    ) -> &[Lock] {
        let progress = PieceProgress::default();
        let kernel = Kernel::choose(&start, speed, moves, profile, progress, true);
        if !profile.shift.holds() || !matches!(kernel, Kernel::Dense | Kernel::Keyed) {
            return self.search_profiled(
                start,
                PadState::NONE,
                speed,
                map,
                moves,
                profile,
                progress,
            );
        }
        let rules = Rules::new(profile, progress);
        self.search_from_roots(kernel, start, &ENTRY_ROOTS, speed, map, moves, rules)
    }

    /// A fresh profiled search from one root per hold in `roots`, by the dense search when
    /// `kernel` is [`Kernel::Dense`], by the keyed one otherwise.
    #[allow(clippy::too_many_arguments)]
    fn search_from_roots(
        &mut self,
        kernel: Kernel,
        start: Active,
        roots: &[PadState],
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
        rules: Rules,
    ) -> &[Lock] {
        let speed = speed.max(1);
        self.begin_profiled(speed);
        if kernel == Kernel::Dense {
            self.dense_search(start, roots, speed, map, rules);
        } else {
            self.keyed_search(start, roots, speed, map, moves, rules);
        }
        self.expanded = self.nodes.len();
        &self.locks
    }

    /// A node of a profiled search: `state` after `held` was pressed on frame `frames`, from
    /// node `parent` (`u32::MAX` for a root, `held` being then the hold before the start), with
    /// the directions `pressed` so far.
    #[inline(always)]
    fn push_profiled(
        &mut self,
        state: Active,
        held: PadState,
        parent: u32,
        frames: u16,
        pressed: u8,
    ) {
        self.nodes.push(Node {
            state,
            prev: held,
            parent,
            input: held,
            frames,
        });
        self.pressed.push(pressed);
    }

    /// The button held at the root a lock of the last search came from (its entry hold).
    pub fn root_hold(&self, lock: &Lock) -> PadState {
        let mut i = lock.node as usize;
        while self.nodes[i].parent != u32::MAX {
            i = self.nodes[i].parent as usize;
        }
        self.nodes[i].prev
    }

    /// [`Bfs::search_profiled`] always by the hashed key (the dense search's oracle in tests).
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_profiled_keyed(
        &mut self,
        start: Active,
        prev: PadState,
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
        profile: &Profile,
        progress: PieceProgress,
    ) -> &[Lock] {
        let rules = Rules::new(profile, progress);
        self.search_from_roots(Kernel::Keyed, start, &[prev], speed, map, moves, rules)
    }

    /// The keyed search for a start [`Bfs::search_profiled`] found dense: the same nodes in
    /// the same order, deduplicated by depth.
    fn dense_search(
        &mut self,
        start: Active,
        roots: &[PadState],
        speed: u8,
        map: &CollisionMap,
        rules: Rules,
    ) {
        if self.depth_seen.len() != DENSE {
            self.depth_seen = vec![0; DENSE];
            self.depth_base = 0;
        }
        // Each depth of this search stamps `base + depth`; the next search starts past them.
        if self.depth_base > u32::MAX - 4096 {
            self.depth_seen.fill(0);
            self.depth_base = 0;
        }
        let base = self.depth_base + 1;
        let holds = rules.shift.holds();
        let hold_once = rules.shift == Shift::Hold;
        let pressed0 = if hold_once { rules.pressed } else { 0 };
        for &prev in roots {
            self.push_profiled(start, prev, u32::MAX, 0, pressed0);
        }
        let mut i = 0;
        let mut deepest = 0u32;
        while i < self.nodes.len() {
            let n = self.nodes[i];
            let pressed = self.pressed[i];
            let frame = rules.offset + u32::from(n.frames);
            let stamp = base + u32::from(n.frames) + 1;
            deepest = deepest.max(u32::from(n.frames) + 1);
            for &c in &CANDIDATES[..9] {
                let held = PadState(c);
                if !rules.allows(held, n.prev, frame, pressed) {
                    continue;
                }
                let mut a = n.state;
                let newly = held.newly_from(n.prev);
                let pressed = if hold_once {
                    pressed | (newly.0 & 0x03)
                } else {
                    0
                };
                match a.frame(held, newly, speed, map) {
                    Control::Locked if holds => self.record_lock_charged(&a, n.frames + 1, i, held),
                    Control::Locked => self.record_lock(&a, n.frames + 1, i, held),
                    Control::Falling => {
                        if a.y >= 22 {
                            continue;
                        }
                        let d = dense(&a, held, holds, pressed);
                        if self.depth_seen[d] != stamp {
                            self.depth_seen[d] = stamp;
                            self.push_profiled(a, held, i as u32, n.frames + 1, pressed);
                        }
                    }
                }
            }
            i += 1;
        }
        self.depth_base = base + deepest + 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn keyed_search(
        &mut self,
        start: Active,
        roots: &[PadState],
        speed: u8,
        map: &CollisionMap,
        moves: MoveSet,
        rules: Rules,
    ) {
        let period = u32::from(rules.timeline.period());
        let pressed0 = if rules.shift == Shift::Hold {
            rules.pressed
        } else {
            0
        };
        for &prev in roots {
            if start.ary <= 2 {
                self.keys.insert(key(
                    &start,
                    prev,
                    speed,
                    &rules,
                    rules.offset % period,
                    pressed0,
                ));
            }
            self.push_profiled(start, prev, u32::MAX, 0, pressed0);
        }
        let holds = rules.shift.holds();
        let mut i = 0;
        while i < self.nodes.len() {
            let n = self.nodes[i];
            let pressed = self.pressed[i];
            let frame = rules.offset + u32::from(n.frames);
            let phase = (frame + 1) % period;
            for &c in &CANDIDATES {
                let held = PadState(c);
                if c & 0x04 != 0 && !moves.soft_drop {
                    continue;
                }
                if !rules.allows(held, n.prev, frame, pressed) {
                    continue;
                }
                let mut a = n.state;
                let newly = held.newly_from(n.prev);
                let pressed = if rules.shift == Shift::Hold {
                    pressed | (newly.0 & 0x03)
                } else {
                    0
                };
                match a.frame(held, newly, speed, map) {
                    Control::Locked if holds => self.record_lock_charged(&a, n.frames + 1, i, held),
                    Control::Locked => self.record_lock(&a, n.frames + 1, i, held),
                    Control::Falling => {
                        if a.x >= 10 || a.y >= 22 || a.ary > 2 {
                            continue;
                        }
                        if self
                            .keys
                            .insert(key(&a, held, speed, &rules, phase, pressed))
                        {
                            self.push_profiled(a, held, i as u32, n.frames + 1, pressed);
                        }
                    }
                }
            }
            i += 1;
        }
    }
}
