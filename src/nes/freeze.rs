//! Telling a frozen game from a live one by its RAM: the frame counter stuck, nothing but the
//! counter moving, or RAM that no longer describes a game, for a second of emulated time.

use super::modes::GAME_MODE_DEMO;
use super::observe::RamSnapshot;
use crate::game::CrashKind;

/// Play frames that RAM may look frozen before the driver calls it a crash: one second of
/// emulated time. In a live game the NMI moves the frame counter and the RNG and reads the
/// controller every frame, and the main loop moves the piece or animation state (the fall
/// timer alone counts every frame under control); a lag frame (level 145 and up) or the $07
/// half-speed quirk hold the main loop's work back for one frame at a time only.
pub const FREEZE_FRAMES: u32 = 60;

/// From this level a line clear's logic can overrun the next NMI for long stretches (the
/// traces past 155: `c157-mixed` lags 515 frames in a row and plays on), so only the NMI's work
/// moving is not a hang until it has lasted [`HANG_FRAMES`].
pub const LONG_LAG_LEVEL: u8 = 145;

/// Play frames with only the NMI's work moving before the driver calls it a hang from
/// [`LONG_LAG_LEVEL`] on: twice the longest lag seen in the traces, rounded up.
pub const HANG_FRAMES: u32 = 1200;

/// What a frozen game looks like: how the cartridge stopped, if it is one of the ways a
/// cartridge stops (`None`: RAM no longer describes a game), and since how many frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Freeze {
    pub kind: Option<CrashKind>,
    pub what: String,
    pub frames: u32,
}

/// Consecutive play frames with the frame counter unchanged, with nothing changed but what
/// the NMI changes (the counter, the RNG, the controller bytes: the main loop is stuck), and
/// with RAM not describing a game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FreezeWatch {
    counter: u32,
    state: u32,
    nonsense: u32,
}

impl FreezeWatch {
    /// Takes one play frame (RAM before and after it); says what it saw once one of the
    /// signs has lasted `FREEZE_FRAMES` frames (`HANG_FRAMES` for a stuck loop from
    /// `LONG_LAG_LEVEL`): the frame counter stopped is a crash, the loop stuck a hang.
    #[cfg(test)]
    pub(crate) fn see(&mut self, before: &RamSnapshot, now: &RamSnapshot) -> Option<String> {
        self.watch(before, now).map(|f| f.what)
    }

    /// [`FreezeWatch::see`], with the kind of stop.
    pub(crate) fn watch(&mut self, before: &RamSnapshot, now: &RamSnapshot) -> Option<Freeze> {
        let mut same = before.clone();
        same.frame_counter = now.frame_counter;
        same.rng = now.rng;
        same.held = now.held;
        same.newly = now.newly;
        // The frames only the NMI moved, this one included, before this frame resets it.
        let waited = self.state + 1;
        let bump = |n: u32, stuck: bool| if stuck { n + 1 } else { 0 };
        self.counter = bump(self.counter, now.frame_counter == before.frame_counter);
        self.state = bump(self.state, same == *now);
        let problems = now.problems();
        self.nonsense = bump(self.nonsense, !problems.is_empty());
        let hang_frames = if before.level >= LONG_LAG_LEVEL {
            HANG_FRAMES
        } else {
            FREEZE_FRAMES
        };
        let freeze = |kind, what: String, frames| Some(Freeze { kind, what, frames });
        if before.in_play() && now.game_mode == GAME_MODE_DEMO {
            // A line clear's jump that went astray into the legal screen's tail: its two
            // waits (514 frames, only the NMI moving) end in the attract demo, whose buttons
            // and pieces are the cartridge's own (docs/crash.md). The game is lost.
            let what = "the game fell into the attract demo (gameMode 4 -> 5)".into();
            return freeze(Some(CrashKind::Demo), what, waited);
        }
        if self.counter >= FREEZE_FRAMES {
            let what = "the frame counter stopped".into();
            freeze(Some(CrashKind::Crash), what, self.counter)
        } else if self.state >= hang_frames {
            let what = "the game loop stopped (only the NMI's frame counter and RNG move)".into();
            freeze(Some(CrashKind::Hang), what, self.state)
        } else if self.nonsense >= FREEZE_FRAMES {
            let p: Vec<String> = problems.iter().map(|b| b.to_string()).collect();
            let what = format!("RAM no longer describes a game ({})", p.join("; "));
            freeze(None, what, self.nonsense)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn each_sign_is_reported_after_a_second_and_not_before() {
        let live = |i: u16| {
            let mut g = Game::seeded(19, 3);
            g.frame_counter = i;
            g.active.fall_timer = (i % 7) as u8;
            RamSnapshot::from_game(&g)
        };
        let mut w = FreezeWatch::default();
        for i in 1..1000u16 {
            assert_eq!(w.see(&live(i - 1), &live(i)), None);
        }
        // Everything stops.
        let mut w = FreezeWatch::default();
        let frozen = live(5);
        for _ in 1..FREEZE_FRAMES {
            assert_eq!(w.see(&frozen, &frozen), None);
        }
        assert!(w.see(&frozen, &frozen).unwrap().contains("frame counter"));
        // Only the NMI's work goes on.
        let mut w = FreezeWatch::default();
        let mut seen = None;
        for i in 1..=FREEZE_FRAMES as u16 {
            let (mut a, mut b) = (live(5), live(5));
            a.frame_counter = i - 1;
            b.frame_counter = i;
            a.rng = i.wrapping_mul(7919);
            b.rng = a.rng ^ 0x0200;
            seen = w.see(&a, &b);
            assert!(seen.is_none() || i == FREEZE_FRAMES as u16);
        }
        assert!(seen.unwrap().contains("game loop stopped"));
        // Nonsense in RAM while the counter runs.
        let mut w = FreezeWatch::default();
        let mut seen = None;
        for i in 1..=FREEZE_FRAMES as u16 {
            let (a, mut b) = (live(i - 1), live(i));
            b.play_state = 0xEE;
            seen = w.see(&a, &b);
        }
        assert!(seen.unwrap().contains("no longer describes a game"), "");
    }

    #[test]
    fn a_stopped_counter_is_a_crash_and_a_long_stuck_loop_past_145_a_hang() {
        let at = |level: u8, i: u16| {
            let mut g = Game::seeded(19, 3);
            g.level = level;
            g.frame_counter = i;
            g.picker.rng = i.wrapping_mul(7919);
            RamSnapshot::from_game(&g)
        };
        let frozen = at(157, 5);
        let mut w = FreezeWatch::default();
        let seen = (0..FREEZE_FRAMES).find_map(|_| w.watch(&frozen, &frozen));
        assert_eq!(
            seen.map(|f| (f.kind, f.frames)),
            Some((Some(CrashKind::Crash), 60))
        );
        // Only the NMI moving: a lag at 157 may last hundreds of frames; a hang is longer.
        let mut w = FreezeWatch::default();
        let mut first = None;
        for i in 1..=HANG_FRAMES as u16 {
            if let Some(f) = w.watch(&at(157, i - 1), &at(157, i)) {
                first = Some((i, f));
                break;
            }
        }
        let (i, f) = first.expect("a hang is reported");
        assert_eq!((i as u32, f.kind), (HANG_FRAMES, Some(CrashKind::Hang)));
        // Below the long-lag levels a stuck loop is a hang after a second, as before.
        let mut w = FreezeWatch::default();
        let seen = (1..=FREEZE_FRAMES as u16).find_map(|i| w.watch(&at(60, i - 1), &at(60, i)));
        assert_eq!(seen.map(|f| f.kind), Some(Some(CrashKind::Hang)));
    }

    #[test]
    fn the_legal_screens_wait_then_the_demo_is_a_demo_crash_dated_to_the_wait() {
        let at = |i: u16, mode: u8| {
            let mut g = Game::seeded(19, 3);
            g.level = 157;
            g.frame_counter = i;
            g.picker.rng = i.wrapping_mul(7919);
            let mut r = RamSnapshot::from_game(&g);
            r.game_mode = mode;
            r
        };
        let mut w = FreezeWatch::default();
        // The 514 frames of the two waits: only the NMI moves, shorter than a hang.
        for i in 1..=513u16 {
            assert_eq!(w.watch(&at(i - 1, 4), &at(i, 4)), None, "frame {i}");
        }
        let f = w
            .watch(&at(513, 4), &at(514, 5))
            .expect("the demo ends the game");
        assert_eq!((f.kind, f.frames), (Some(CrashKind::Demo), 514));
        assert!(f.what.contains("attract demo"), "{}", f.what);
        // Not a play frame that leaves play another way (the menus after a reset).
        let mut w = FreezeWatch::default();
        assert_eq!(w.watch(&at(0, 4), &at(1, 1)), None);
    }
}
