//! `Reach::search_timeline`: the lock set of a piece pressed on an input timeline with taps
//! only (the `30hz`… `10hz` and `human` profiles), as one bit set of positions per frame.

// Under a pattern timeline and taps, a button pressed on an X frame is released on the next
// frame, which is never an X frame (patterns have no two X frames running, the wrap
// included): so after any X frame nothing is held, and every state of a frame shares its row,
// fall timer, phase and held buttons (none). A frame is then one set of (x, orientation): on
// X frames the union of the nine button sets' moves, on other frames gravity alone. Only the
// first frame sees the start's held buttons (a held button cannot be newly pressed).

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::score::minus;
use crate::movegen::profile::Timeline;

use super::lanes::{turn_a, turn_b, INPUTS, LANES, ROWS};
use super::lock::ReachLock;
use super::state::Reach;

impl Reach {
    /// Every lock reachable from `start` (`prev` held in the last frame) when new presses fall
    /// only on `timeline`'s X frames, counted from frame `offset` of the piece, and every
    /// press is a one-frame tap (no soft drop). `None` for what this search does not model
    /// (an unlimited timeline, soft drop or the first-piece delay active, a start off the
    /// field, a fall timer past the gravity test): the profiled `Bfs` search serves then.
    pub fn search_timeline(
        &mut self,
        board: &Board,
        start: Active,
        prev: PadState,
        speed: u8,
        timeline: Timeline,
        offset: u32,
    ) -> Option<&[ReachLock]> {
        let speed = speed.max(1);
        if timeline == Timeline::Unlimited
            || start.ary != 0
            || start.x >= 10
            || start.y as usize >= BOARD_ROWS
            || start.fall_timer >= speed
            || Orientation::new(start.id).is_none()
        {
            return None;
        }
        self.build(board, start.id);
        self.locks.clear();
        match self.turns {
            4 => self.run_timeline::<4>(start, prev, speed, timeline, offset),
            2 => self.run_timeline::<2>(start, prev, speed, timeline, offset),
            _ => self.run_timeline::<1>(start, prev, speed, timeline, offset),
        }
        Some(&self.locks)
    }

    fn run_timeline<const TURNS: usize>(
        &mut self,
        start: Active,
        prev: PadState,
        speed: u8,
        timeline: Timeline,
        offset: u32,
    ) {
        let mut m = 1u64 << start.x;
        let (mut y, mut fall) = (start.y as usize, start.fall_timer);
        let mut held = prev.0;
        let mut seen = [0u64; ROWS];
        let mut frames: u16 = 0;
        while m != 0 {
            let x_frame = timeline.allows(offset + u32::from(frames));
            fall = fall.wrapping_add(1);
            frames += 1;
            let gravity = !minus(fall, speed);
            let locked = if held == 0 {
                self.union_frame::<TURNS>(&mut m, x_frame, y, gravity)
            } else {
                // The start's held buttons: the classes that hold none of them may press.
                let mut src = [0u64; 9];
                for (s, &input) in src.iter_mut().zip(&INPUTS) {
                    if x_frame && input & held == 0 {
                        *s = m;
                    }
                }
                if !x_frame {
                    src[0] = m;
                }
                let mut out = [0u64; 9];
                let locked = self.frame::<TURNS>(&src, y, gravity, &mut out);
                m = out.iter().fold(0, |a, &o| a | o);
                locked
            };
            self.push_new_locks(&mut seen[y], locked, y, frames);
            held = 0;
            if gravity {
                fall = 0;
                y += 1;
            }
        }
    }

    /// One frame of the set `m` with nothing held: on an X frame, the union of the nine
    /// inputs' moves, which is the shifts' union turned both ways (each step is a union of
    /// ANDs and shifts of its set, so it distributes over the nine classes); on other frames,
    /// gravity alone. Returns the positions that lock (`Reach::frame` with every class).
    #[inline(always)]
    pub(super) fn union_frame<const TURNS: usize>(
        &self,
        m: &mut u64,
        x_frame: bool,
        y: usize,
        gravity: bool,
    ) -> u64 {
        let fit = self.fit[y];
        let mut s = *m;
        if x_frame {
            s |= ((s << 1) & fit) | ((s >> 1) & fit);
            s |= (turn_a::<TURNS>(s) | turn_b::<TURNS>(s)) & fit;
            s &= LANES;
        }
        if !gravity {
            *m = s;
            return 0;
        }
        let below = self.fit[(y + 1).min(ROWS - 1)];
        *m = s & below;
        s & !below
    }
}
