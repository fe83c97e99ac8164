//! The timeline lock sets of the blind plan's next pieces, shared across first locks: each
//! piece's search on the board before the first lock, resumed on the board after it.

// A first lock that clears no line only adds four cells: the fit masks after it are the
// reference board's with the positions those cells block taken out, so they equal the
// reference's down to the highest such position, and every frame above it (a frame at row y
// reads rows y and y + 1) is the reference's frame. The search resumes from the last of those,
// with the locks found before it, and ends as a full search on the board after the lock would:
// the same locks in the same order (tested against `Reach::search_timeline`).

use crate::game::board::Board;
use crate::game::piece::Orientation;
use crate::game::score::minus;

use super::lanes::ROWS;
use super::shared::{Step, TimelineStart};
use super::state::Reach;

impl Reach {
    /// Searches from `at` on `board` and keeps the search as its piece's reference for
    /// [`Reach::search_timeline_after`].
    pub fn share_timeline(&mut self, board: &Board, at: TimelineStart) {
        let p = at.piece();
        self.build(board, at.start.id);
        let mut steps = std::mem::take(&mut self.shared.pieces[p].steps);
        steps.clear();
        self.locks.clear();
        let from = Step {
            m: 1u64 << at.start.x,
            seen: 0,
            y: at.start.y,
            fall: at.start.fall_timer,
            frames: 0,
            locks: 0,
        };
        self.run_steps_turns(from, &at, Some(&mut steps));
        let r = &mut self.shared.pieces[p];
        r.key = Some(at);
        r.board = *board;
        r.fit.clear();
        r.fit.extend_from_slice(&self.fit);
        (r.ids, r.turns) = (self.ids, self.turns);
        r.steps = steps;
        r.locks.clear();
        r.locks.extend_from_slice(&self.locks);
    }

    /// `search_timeline` from `at` on `board`, which is the reference board of
    /// [`Reach::share_timeline`] with `first` locked on it and no line cleared: the same locks
    /// in the same order, in [`Reach::locks`]. False when `board` is not that or there is no
    /// reference for this start (search in full then).
    pub fn search_timeline_after(
        &mut self,
        board: &Board,
        at: TimelineStart,
        first: (u8, u8, Orientation),
    ) -> bool {
        let p = at.piece();
        let r = &self.shared.pieces[p];
        if r.key != Some(at) {
            return false;
        }
        let (x, y, o) = first;
        let mut expected = r.board;
        expected.place(x, y, o);
        if expected != *board {
            return false;
        }
        self.fit.copy_from_slice(&r.fit);
        (self.ids, self.turns) = (r.ids, r.turns);
        // The positions the first lock's cells block, per orientation slot.
        let mut same = ROWS;
        for (cx, cy) in o.cells() {
            let (col, row) = (
                i32::from(x) + i32::from(cx),
                i32::from(y as i8) + i32::from(cy),
            );
            for (s, &so) in self.ids.iter().enumerate().take(self.turns) {
                for (dx, dy) in so.cells() {
                    let (px, py) = (col - i32::from(dx), row - i32::from(dy));
                    if (0..10).contains(&px) && (0..ROWS as i32).contains(&py) {
                        self.fit[py as usize] &= !(1u64 << (16 * s + px as usize));
                        same = same.min(py as usize);
                    }
                }
            }
        }
        let r = &self.shared.pieces[p];
        // The first step is the start itself, on any board.
        let Some(&from) = r
            .steps
            .iter()
            .rfind(|f| usize::from(f.y) + 1 < same)
            .or(r.steps.first())
        else {
            return false;
        };
        self.locks.clear();
        self.locks
            .extend_from_slice(&self.shared.pieces[p].locks[..usize::from(from.locks)]);
        self.run_steps_turns(from, &at, None);
        true
    }

    fn run_steps_turns(&mut self, from: Step, at: &TimelineStart, record: Option<&mut Vec<Step>>) {
        let run = match self.turns {
            4 => Self::run_steps::<4>,
            2 => Self::run_steps::<2>,
            _ => Self::run_steps::<1>,
        };
        run(self, from, at, record);
    }

    /// `run_timeline` with nothing held, from the state `from`; with `record`, keeps the state
    /// before every frame.
    fn run_steps<const TURNS: usize>(
        &mut self,
        from: Step,
        at: &TimelineStart,
        mut record: Option<&mut Vec<Step>>,
    ) {
        let (speed, timeline, offset) = (at.speed, at.timeline, at.offset);
        let Step {
            mut m,
            mut seen,
            mut fall,
            mut frames,
            ..
        } = from;
        let mut y = usize::from(from.y);
        while m != 0 {
            if let Some(steps) = record.as_deref_mut() {
                steps.push(Step {
                    m,
                    seen,
                    y: y as u8,
                    fall,
                    frames,
                    locks: self.locks.len() as u16,
                });
            }
            let x_frame = timeline.allows(offset + u32::from(frames));
            fall = fall.wrapping_add(1);
            frames += 1;
            let gravity = !minus(fall, speed);
            let locked = self.union_frame::<TURNS>(&mut m, x_frame, y, gravity);
            self.push_new_locks(&mut seen, locked, y, frames);
            if gravity {
                (fall, seen) = (0, 0);
                y += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::active::Active;
    use crate::game::pad::PadState;
    use crate::game::piece::Piece;
    use crate::game::score::drop_speed;
    use crate::movegen::fixtures::boards::{ROOF, TALL, TWO_CAVES};
    use crate::movegen::fixtures::with_empty;
    use crate::movegen::profile::Timeline;

    #[test]
    fn resumed_after_a_first_lock_gives_the_full_search_in_order() {
        let mut shared = Reach::new();
        let mut full = Reach::new();
        let mut resumed = 0;
        for board in with_empty(&[ROOF, TWO_CAVES, TALL]) {
            for (level, timeline) in [
                (19u8, "X."),
                (18, "X..."),
                (29, "X....X...X..."),
                (8, "X.."),
            ] {
                let timeline = Timeline::parse(timeline).unwrap();
                let speed = drop_speed(level);
                for next in Piece::ALL {
                    let start = Active::spawn(next.spawn().id(), 0, 0);
                    let none = PadState::NONE;
                    let at = TimelineStart::new(start, none, speed, timeline, 0).unwrap();
                    shared.share_timeline(&board, at);
                    // Every lock of every piece on the board as the first lock.
                    for first in Piece::ALL {
                        let s = Active::spawn(first.spawn().id(), 0, 0);
                        let firsts = full
                            .search_timeline(&board, s, none, speed, timeline, 0)
                            .unwrap()
                            .to_vec();
                        for l in firsts {
                            let mut after = board;
                            if after.lock(l.at.x, l.at.y, l.at.orientation) != 0 {
                                continue;
                            }
                            let want = full
                                .search_timeline(&after, start, none, speed, timeline, 0)
                                .unwrap()
                                .to_vec();
                            let first = (l.at.x, l.at.y, l.at.orientation);
                            // Not the reference board with this lock: no answer.
                            assert!(!shared.search_timeline_after(&board, at, first));
                            assert!(shared.search_timeline_after(&after, at, first));
                            assert_eq!(shared.locks(), &want[..], "{next:?} after {l:?}");
                            resumed += 1;
                        }
                    }
                }
            }
        }
        assert!(resumed > 5_000, "{resumed}");
    }
}
