//! Down variants of a path past level 155: its last frames hold Down alone, so that its lock
//! brings soft-drop points and its line-clear frame moves (the planner's soft-drop lever).
//!
//! At gravity 1 (level 29 on) a held Down does not make the piece fall faster: every frame
//! drops one row either way, but every second one is a soft-drop step, which `holdDownPoints`
//! counts and `addHoldDownPoints` later adds to the score in the line-clear frame. That
//! frame's cycle count moves with it (`game::crash`), so a clear whose frame may crash with
//! the plain drop can be safe with a soft drop, on the same path, positions and lock frame.
//! Every variant is played frame by frame with the model's own `Active::frame` and kept only
//! when each frame ends where the plain path's does and it locks on the same frame: the plan
//! stays exact by construction.

use crate::game::active::{Active, Control};
use crate::game::board::Collide;
use crate::game::pad::{Buttons, PadState};
use crate::game::pos::Pos;

/// The Down variant chosen for a lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Softened {
    /// Frames the path's presses were moved earlier (0: the path's own timing).
    pub shift: u16,
    /// Frames at the end of the path that hold Down alone.
    pub frames: u16,
    /// The `holdDownPoints` the lock then brings.
    pub hold_down_points: u8,
}

/// Scratch space for [`SoftDrop::rescue`] (reused from one decision to the next).
#[derive(Clone, Debug, Default)]
pub(crate) struct SoftDrop {
    /// The plain path (set by the caller), then the last variant played.
    pub(crate) inputs: Vec<PadState>,
    pub(crate) expected: Vec<Pos>,
    variant: Vec<PadState>,
    played: Vec<Pos>,
}

impl SoftDrop {
    /// The best Down variant of the path in `self.inputs` / `self.expected` (played from
    /// `root` with `prev` held the frame before, at `speed` on `map`): the one whose lock's
    /// `grade(hold_down_points)` (the crash guard's grade) is highest and above the plain
    /// path's, the fewest Down frames among equals (a "may crash" frame moved farther from
    /// the windows counts: at 253 a lock without a line lands 3 cycles below a window plain,
    /// 6 with 2-7 soft-drop rows). The path's own timing is tried first; with `may_shift`, its presses moved to
    /// its first frames too (the BFS's paths at gravity 1 fall first and move late, which
    /// leaves too few falling frames at the end for a soft drop of 2 rows). `None` when no
    /// variant is safe.
    pub(crate) fn rescue(
        &mut self,
        root: (Active, PadState),
        speed: u8,
        map: &impl Collide,
        may_shift: bool,
        mut grade: impl FnMut(u8) -> i64,
    ) -> Option<Softened> {
        let n = self.inputs.len();
        let &lock = self.expected.last()?;
        if n != self.expected.len() {
            return None;
        }
        let lead = self
            .inputs
            .iter()
            .take_while(|&&p| p == PadState::NONE)
            .count();
        let trail = self
            .inputs
            .iter()
            .rev()
            .take_while(|&&p| p == PadState::NONE)
            .count();
        let (plain_das, plain_hold) = self.play(root, speed, map, 0, 0, lock)?;
        let plain = grade(plain_hold);
        let shifts = if may_shift && lead > 0 && lead < n {
            [0, lead]
        } else {
            [0, 0]
        };
        for (t, &shift) in shifts.iter().enumerate() {
            if t > 0 && shift == 0 {
                break;
            }
            let mut best: Option<(i64, Softened)> = None;
            let mut last_hold = None;
            // Only frames where nothing is pressed can hold Down instead (a held Left/Right
            // would block the soft drop's start and its shift would be lost).
            for k in 2..=(trail + shift).min(n) {
                let Some((das, hold)) = self.play(root, speed, map, shift, k, lock) else {
                    continue;
                };
                if das != plain_das || last_hold == Some(hold) {
                    continue;
                }
                last_hold = Some(hold);
                let g = grade(hold);
                if g > plain && best.is_none_or(|(m, _)| g > m) {
                    let soft = Softened {
                        shift: u16::try_from(shift).ok()?,
                        frames: u16::try_from(k).ok()?,
                        hold_down_points: hold,
                    };
                    best = Some((g, soft));
                }
            }
            if let Some((_, soft)) = best {
                return Some(soft);
            }
        }
        None
    }

    /// Plays the path with its presses moved `shift` frames earlier and its last `frames`
    /// frames holding Down alone, into `self.variant` / `self.played`: the DAS counter and
    /// `holdDownPoints` at the lock, if it locks at `lock` on the path's last frame.
    fn play(
        &mut self,
        (root, prev): (Active, PadState),
        speed: u8,
        map: &impl Collide,
        shift: usize,
        frames: usize,
        lock: Pos,
    ) -> Option<(u8, u8)> {
        let n = self.inputs.len();
        self.variant.clear();
        self.variant.extend_from_slice(&self.inputs[shift..]);
        self.variant.resize(n, PadState::NONE);
        for p in &mut self.variant[n - frames..] {
            *p = PadState::DOWN;
        }
        self.played.clear();
        let (mut a, mut before) = (root, prev);
        for (j, &held) in self.variant.iter().enumerate() {
            let c = a.frame(Buttons::after(held, before), speed, map);
            before = held;
            self.played.push(Pos::of_searched(&a));
            if (c == Control::Locked) != (j + 1 == n) {
                return None;
            }
        }
        (Pos::of(&a) == Some(lock)).then_some((a.das, a.hold_down_points))
    }

    /// Plays `soft` on the path in `self.inputs` and writes the variant's frames over the last
    /// frames of `inputs` / `expected` (the plan, whose path they end). False (the plan left
    /// as it was) when the variant does not lock where the path does.
    pub(crate) fn apply(
        &mut self,
        root: (Active, PadState),
        speed: u8,
        map: &impl Collide,
        soft: Softened,
        (inputs, expected): (&mut [PadState], &mut [Pos]),
    ) -> bool {
        let n = self.inputs.len();
        let (Some(&lock), true) = (self.expected.last(), inputs.len() >= n) else {
            return false;
        };
        let played = self.play(
            root,
            speed,
            map,
            usize::from(soft.shift),
            usize::from(soft.frames),
            lock,
        );
        if played.map(|p| p.1) != Some(soft.hold_down_points) {
            return false;
        }
        let from = inputs.len() - n;
        inputs[from..].copy_from_slice(&self.variant);
        expected[from..].copy_from_slice(&self.played);
        true
    }
}
