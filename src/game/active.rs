//! One frame of the controlled piece (playState 1): shift with DAS, rotate, then drop with
//! gravity, soft drop and the first-piece delay, in the cartridge's order (nes-tetris.md §5).

use super::board::Collide;
use super::pad::{Buttons, PadState};
use super::score::minus;

/// DAS counter value after a blocked shift, and the initial auto-repeat delay.
pub const DAS_RESET: u8 = 16;
/// DAS counter value after an auto-repeat shift (16 − 10 = 6 frames between repeats).
pub const DAS_DELAY: u8 = 10;
/// `autorepeatY` at game start: −96, the first piece's delay.
pub const FIRST_PIECE_DELAY: u8 = 0xA0;

/// The controlled piece and the counters that drive it, as the cartridge keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Active {
    /// Pivot column ($60); unsigned, as the game's `dec` makes 0 − 1 = 255.
    pub x: u8,
    /// Pivot row ($61).
    pub y: u8,
    /// Orientation id ($62): $00-$12, or $13 when hidden.
    pub id: u8,
    /// Frames since the last drop ($65).
    pub fall_timer: u8,
    /// DAS counter `autorepeatX` ($66).
    pub das: u8,
    /// Soft-drop state `autorepeatY` ($6E), signed: negative during the first-piece delay.
    pub ary: u8,
    /// Rows moved by the current soft drop ($6F).
    pub hold_down_points: u8,
}

/// What one frame of piece control did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The piece is still falling (it may have moved).
    Falling,
    /// A drop failed: the piece locks at its current (x, y, id).
    Locked,
}

impl Active {
    /// The spawn state: (5, 0), fall timer 0, soft drop off, DAS kept.
    pub fn spawn(id: u8, das: u8, hold_down_points: u8) -> Active {
        Active {
            x: 5,
            y: 0,
            id,
            fall_timer: 0,
            das,
            ary: 0,
            hold_down_points,
        }
    }

    /// A whole gameplay frame of playState 1: state 2's fall-timer increment, then
    /// [`Active::control`]. This is the frame the planner searches over.
    #[inline]
    pub fn frame<C: Collide>(&mut self, b: Buttons, speed: u8, field: &C) -> Control {
        self.fall_timer = self.fall_timer.wrapping_add(1);
        self.control(b, speed, field)
    }

    /// `playerControlsActiveTetrimino`: shift, rotate, drop.
    #[inline]
    pub fn control<C: Collide>(&mut self, b: Buttons, speed: u8, field: &C) -> Control {
        self.shift(b, field);
        self.rotate(b.newly, field);
        self.drop(b, speed, field)
    }

    /// `shift_tetrimino`.
    #[inline]
    pub fn shift<C: Collide>(&mut self, Buttons { held, newly }: Buttons, field: &C) {
        if held.intersects(PadState::DOWN) {
            return;
        }
        if newly.intersects(PadState::LEFT_RIGHT) {
            self.das = 0;
        } else if !held.intersects(PadState::LEFT_RIGHT) {
            return;
        } else {
            self.das = self.das.wrapping_add(1);
            if minus(self.das, DAS_RESET) {
                return;
            }
            self.das = DAS_DELAY;
        }
        // Right wins when both are held.
        let x = if held.intersects(PadState::RIGHT) {
            self.x.wrapping_add(1)
        } else {
            self.x.wrapping_sub(1)
        };
        if field.fits(x, self.y, self.id) {
            self.x = x;
        } else {
            self.das = DAS_RESET;
        }
    }

    /// `rotate_tetrimino`: newly pressed A turns clockwise, else newly pressed B counter-clockwise.
    #[inline]
    pub fn rotate<C: Collide>(&mut self, newly: PadState, field: &C) {
        let Some(o) = super::piece::Orientation::new(self.id) else {
            return;
        };
        let to = if newly.intersects(PadState::A) {
            o.cw()
        } else if newly.intersects(PadState::B) {
            o.ccw()
        } else {
            return;
        };
        if field.fits(self.x, self.y, to.id()) {
            self.id = to.id();
        }
    }

    /// `drop_tetrimino`.
    #[inline]
    pub fn drop<C: Collide>(&mut self, b: Buttons, speed: u8, field: &C) -> Control {
        let Buttons { held, newly } = b;
        if self.ary & 0x80 != 0 {
            if !newly.intersects(PadState::DOWN) {
                self.ary = self.ary.wrapping_add(1);
                return Control::Falling;
            }
            self.ary = 0;
        }
        if self.ary == 0 {
            if !held.intersects(PadState::LEFT_RIGHT)
                && newly.0 & PadState::DPAD.0 == PadState::DOWN.0
            {
                self.ary = 1;
            }
        } else if held.0 & PadState::DPAD.0 != PadState::DOWN.0 {
            self.ary = 0;
            self.hold_down_points = 0;
        } else {
            self.ary = self.ary.wrapping_add(1);
            if self.ary >= 3 {
                self.ary = 1;
                self.hold_down_points = self.hold_down_points.wrapping_add(1);
                return self.step_down(field);
            }
        }
        // Gravity: fallTimer − dropSpeed compared as a signed byte.
        if !minus(self.fall_timer, speed) {
            return self.step_down(field);
        }
        Control::Falling
    }

    #[inline]
    fn step_down<C: Collide>(&mut self, field: &C) -> Control {
        self.fall_timer = 0;
        let y = self.y.wrapping_add(1);
        if field.fits(self.x, y, self.id) {
            self.y = y;
            Control::Falling
        } else {
            Control::Locked
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::score::drop_speed;

    const T: u8 = 0x02;

    /// A T played frame by frame on `board` at `speed` frames a row, `prev` the buttons held
    /// in the last frame.
    struct Play {
        a: Active,
        prev: PadState,
        board: Board,
        speed: u8,
    }

    impl Play {
        /// The T at its spawn with the DAS counter at `das`, `prev` held before, at speed 2.
        fn new(das: u8, prev: PadState) -> Play {
            Play {
                a: Active::spawn(T, das, 0),
                prev,
                board: Board::EMPTY,
                speed: 2,
            }
        }

        /// [`Play::new`] in the first piece's delay (no gravity until Down or its end).
        fn delayed(das: u8) -> Play {
            let mut p = Play::new(das, PadState::NONE);
            p.a.ary = FIRST_PIECE_DELAY;
            p
        }

        /// One frame with `held` held.
        fn press(&mut self, held: PadState) -> Control {
            let b = Buttons::after(held, self.prev);
            self.prev = held;
            self.a.frame(b, self.speed, &self.board)
        }
    }

    #[test]
    fn das_against_a_wall_moves_at_16_then_every_6_and_parks_at_16() {
        let mut p = Play::delayed(0); // no gravity while we watch DAS
        let mut moved_on = vec![];
        for f in 1..=60 {
            let x0 = p.a.x;
            p.press(PadState::LEFT);
            if p.a.x != x0 {
                moved_on.push(f);
            }
        }
        // Press on frame 1 moves at once, then 17, 23, 29 ... until x=1 (T down spans x-1..x+1).
        assert_eq!(moved_on, vec![1, 17, 23, 29]);
        assert_eq!(p.a.x, 1);
        assert_eq!(p.a.das, DAS_RESET, "blocked against the wall");
        // Each further held frame retries: das 17 → 10 → blocked → 16.
        p.press(PadState::LEFT);
        assert_eq!(p.a.das, DAS_RESET);
        // A tap into the wall also leaves 16.
        p.press(PadState::NONE);
        p.press(PadState::LEFT);
        assert_eq!((p.a.x, p.a.das), (1, DAS_RESET));
    }

    #[test]
    fn down_blocks_shifting_and_keeps_das() {
        let mut p = Play::delayed(7);
        p.press(PadState::LEFT | PadState::DOWN);
        assert_eq!((p.a.x, p.a.das), (5, 7));
    }

    #[test]
    fn rotation_blocked_by_a_hidden_row_cell() {
        // T down at (5,0) turning A → T left $03 puts a cell at (5,-1).
        let mut p = Play::delayed(0);
        p.board.set(-1, 5);
        p.press(PadState::A);
        assert_eq!(p.a.id, T, "blocked by (5,-1)");
        p.press(PadState::NONE);
        p.press(PadState::B);
        assert_eq!(p.a.id, T, "T right also needs (5,-1)");
        // One column left, the turn's top cell is (4,-1): free.
        p.press(PadState::LEFT);
        p.press(PadState::A);
        assert_eq!((p.a.x, p.a.id), (4, 0x03));
    }

    #[test]
    fn soft_drop_arming_blocked_by_held_left() {
        let mut p = Play::new(0, PadState::LEFT);
        p.press(PadState::LEFT | PadState::DOWN);
        assert_eq!(p.a.ary, 0, "Left held: not armed");
        let mut p = Play::new(0, PadState::NONE);
        p.press(PadState::DOWN);
        assert_eq!(p.a.ary, 1, "armed");
        assert_eq!(p.a.y, 0, "frame t arms only; fall timer 1 < 2");
        p.press(PadState::DOWN);
        assert_eq!((p.a.ary, p.a.y), (2, 1), "t+1 runs gravity (fall timer 2)");
        p.press(PadState::DOWN);
        assert_eq!(
            (p.a.ary, p.a.y, p.a.hold_down_points),
            (1, 2, 1),
            "t+2 soft step"
        );
        p.press(PadState::DOWN | PadState::UP);
        assert_eq!((p.a.ary, p.a.hold_down_points), (0, 0), "Up cancels");
    }

    #[test]
    fn first_piece_delay_ends_with_down_only() {
        let mut p = Play::delayed(0);
        for _ in 0..8 {
            p.press(PadState::A);
            p.press(PadState::LEFT);
        }
        assert_eq!(p.a.y, 0);
        assert!(p.a.ary & 0x80 != 0);
        // Down newly pressed on frame 17: delay over, gravity fires at once (fall timer 17 ≥ 2).
        p.press(PadState::DOWN);
        assert_eq!((p.a.y, p.a.ary, p.a.fall_timer), (1, 1, 0));

        // Without Down the delay runs out after 96 frames; frame 97 drops.
        let mut p = Play::delayed(0);
        p.speed = drop_speed(19);
        for _ in 0..96 {
            p.press(PadState::NONE);
        }
        assert_eq!((p.a.y, p.a.ary), (0, 0));
        p.press(PadState::NONE);
        assert_eq!(p.a.y, 1);
    }

    #[test]
    fn level_19_piece_locks_on_active_frame_38_at_row_18() {
        let mut p = Play::new(0, PadState::NONE);
        let mut f = 0;
        loop {
            f += 1;
            if p.press(PadState::NONE) == Control::Locked {
                break;
            }
        }
        assert_eq!((f, p.a.y), (38, 18));
    }
}
