//! Frame pacing and the viewer's playback controls (pause, fast-forward, speed ×2/÷2), as pure
//! state and arithmetic so they are tested without a window; `Instant` + sleep, no global clock.

use std::time::{Duration, Instant};

/// NTSC NES frame rate (frames per second).
pub const NES_FPS: f64 = 60.0988;
/// Slowest speed factor, as a power of two (1/8).
pub const MIN_SPEED_EXP: i8 = -3;
/// Fastest speed factor, as a power of two (8).
pub const MAX_SPEED_EXP: i8 = 3;
/// When the loop falls further behind than this, the schedule restarts from now instead of
/// rushing frames to catch up.
pub const MAX_LAG: Duration = Duration::from_millis(100);

/// The time one frame should take at `speed` times normal speed.
pub fn frame_period(speed: f64) -> Duration {
    Duration::from_secs_f64(1.0 / (NES_FPS * speed))
}

/// One pacing decision: how long to sleep now, and the next frame's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// How long to sleep now (zero when behind).
    pub sleep: Duration,
    /// The next frame's deadline.
    pub next: Instant,
}

/// Paces against an absolute deadline so rounding never accumulates: sleep until `deadline` if
/// it is ahead; if behind by at most [`MAX_LAG`], don't sleep and keep the schedule (catch up);
/// if further behind (a pause, a slow planner step), restart the schedule from `now`.
pub fn schedule(now: Instant, deadline: Instant, period: Duration) -> Schedule {
    if deadline > now {
        Schedule {
            sleep: deadline - now,
            next: deadline + period,
        }
    } else if now - deadline <= MAX_LAG {
        Schedule {
            sleep: Duration::ZERO,
            next: deadline + period,
        }
    } else {
        Schedule {
            sleep: Duration::ZERO,
            next: now + period,
        }
    }
}

/// Sleeps so that successive `wait` calls are one frame period apart.
#[derive(Clone, Debug, Default)]
pub struct Pacer {
    deadline: Option<Instant>,
}

impl Pacer {
    /// A pacer with no schedule yet: the first `wait` waits one period.
    pub fn new() -> Pacer {
        Pacer::default()
    }

    /// Waits out the rest of this frame at `speed` times normal speed.
    pub fn wait(&mut self, speed: f64) {
        let period = frame_period(speed);
        let now = Instant::now();
        let deadline = *self.deadline.get_or_insert(now + period);
        let s = schedule(now, deadline, period);
        if !s.sleep.is_zero() {
            std::thread::sleep(s.sleep);
        }
        self.deadline = Some(s.next);
    }

    /// Forgets the schedule (after fast-forward or a pause) so no catch-up burst follows.
    pub fn reset(&mut self) {
        self.deadline = None;
    }
}

/// What the person did, as a view (window or terminal) reports it after showing a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewEvent {
    /// Go on to the next frame.
    Continue,
    /// Esc (or q in the terminal), or the window was closed.
    Quit,
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pause or resume (Space in the window).
    TogglePause,
    /// Fast-forward on or off (F in the window).
    ToggleFast,
    /// Double the speed, up to ×8 (= or + in the window).
    Faster,
    /// Halve the speed, down to ×1/8 (- in the window).
    Slower,
    /// Save a picture of the screen (S in the window).
    Screenshot,
    /// Stop viewing (Esc in the window).
    Quit,
}

/// The viewer's playback state (default: running, paced, normal speed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    /// Frames do not advance.
    pub paused: bool,
    /// Fast-forward: no pacing at all.
    pub fast: bool,
    /// Speed factor as a power of two, [`MIN_SPEED_EXP`]..=[`MAX_SPEED_EXP`].
    pub speed_exp: i8,
}

impl Controls {
    /// The speed factor, 1/8..8.
    pub fn speed(&self) -> f64 {
        2f64.powi(i32::from(self.speed_exp))
    }

    /// Applies a playback action; screenshot and quit don't change the state.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::TogglePause => self.paused = !self.paused,
            Action::ToggleFast => self.fast = !self.fast,
            Action::Faster => self.speed_exp = (self.speed_exp + 1).min(MAX_SPEED_EXP),
            Action::Slower => self.speed_exp = (self.speed_exp - 1).max(MIN_SPEED_EXP),
            Action::Screenshot | Action::Quit => {}
        }
    }

    /// A short status text for the picture: "PAUSE", "FAST", "X2", "X1/2"…; empty at normal speed.
    pub fn status(&self) -> String {
        if self.paused {
            "PAUSE".to_string()
        } else if self.fast {
            "FAST".to_string()
        } else if self.speed_exp > 0 {
            format!("X{}", 1u32 << self.speed_exp)
        } else if self.speed_exp < 0 {
            format!("X1/{}", 1u32 << -self.speed_exp)
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn period_is_one_ntsc_frame_times_speed() {
        let p = frame_period(1.0);
        assert!((p.as_secs_f64() - 1.0 / 60.0988).abs() < 1e-9);
        assert!((frame_period(2.0).as_secs_f64() * 2.0 - p.as_secs_f64()).abs() < 1e-9);
        assert!((frame_period(0.125).as_secs_f64() / 8.0 - p.as_secs_f64()).abs() < 1e-9);
    }

    #[test]
    fn ahead_of_schedule_sleeps_until_the_deadline() {
        let t = Instant::now();
        let period = frame_period(1.0);
        let s = schedule(t, t + Duration::from_millis(5), period);
        assert_eq!(s.sleep, Duration::from_millis(5));
        assert_eq!(s.next, t + Duration::from_millis(5) + period);
    }

    #[test]
    fn slightly_late_catches_up_without_drift() {
        let t = Instant::now();
        let period = frame_period(1.0);
        let deadline = t;
        let s = schedule(t + Duration::from_millis(3), deadline, period);
        assert_eq!(s.sleep, Duration::ZERO);
        assert_eq!(s.next, deadline + period, "schedule kept: no drift");
    }

    #[test]
    fn far_behind_restarts_the_schedule() {
        let t = Instant::now();
        let period = frame_period(1.0);
        let now = t + MAX_LAG + Duration::from_millis(1);
        let s = schedule(now, t, period);
        assert_eq!(s.sleep, Duration::ZERO);
        assert_eq!(s.next, now + period);
    }

    #[test]
    fn sixty_frames_sum_to_a_second_on_the_schedule() {
        // Simulated clock: the loop body takes 1 ms; the schedule gives 60.0988 fps exactly.
        let start = Instant::now();
        let period = frame_period(1.0);
        let (mut now, mut deadline) = (start, start + period);
        for _ in 0..601 {
            now += Duration::from_millis(1);
            let s = schedule(now, deadline, period);
            now += s.sleep;
            deadline = s.next;
        }
        let elapsed = (now - start).as_secs_f64();
        assert!((elapsed - 601.0 / 60.0988).abs() < 1e-6, "{elapsed}");
    }

    #[test]
    fn speed_doubles_and_halves_within_limits() {
        let mut c = Controls::default();
        assert_eq!(c.speed(), 1.0);
        c.apply(Action::Faster);
        assert_eq!(c.speed(), 2.0);
        for _ in 0..10 {
            c.apply(Action::Faster);
        }
        assert_eq!(c.speed(), 8.0);
        for _ in 0..20 {
            c.apply(Action::Slower);
        }
        assert_eq!(c.speed(), 0.125);
        assert_eq!(c.status(), "X1/8");
    }

    #[test]
    fn pause_and_fast_toggle() {
        let mut c = Controls::default();
        c.apply(Action::TogglePause);
        assert!(c.paused);
        assert_eq!(c.status(), "PAUSE");
        c.apply(Action::TogglePause);
        c.apply(Action::ToggleFast);
        assert!(!c.paused && c.fast);
        assert_eq!(c.status(), "FAST");
        c.apply(Action::Quit);
        c.apply(Action::Screenshot);
        assert!(c.fast, "quit/screenshot leave the state alone");
    }

    #[test]
    fn pacer_waits_about_a_frame() {
        let mut p = Pacer::new();
        let t = Instant::now();
        for _ in 0..6 {
            p.wait(4.0);
        }
        let e = t.elapsed().as_secs_f64();
        // Six frames at 4× ≈ 25 ms; generous bounds for a busy machine.
        assert!(e >= 0.020, "{e}");
        assert!(e < 0.5, "{e}");
    }
}
