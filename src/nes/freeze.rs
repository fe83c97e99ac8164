//! Telling a frozen game from a live one by its RAM: the frame counter stuck, nothing but the
//! counter moving, or RAM that no longer describes a game, for a second of emulated time.

use super::observe::RamSnapshot;

/// Play frames that RAM may look frozen before the driver calls it a crash: one second of
/// emulated time. In a live game the NMI moves the frame counter and the RNG and reads the
/// controller every frame, and the main loop moves the piece or animation state (the fall
/// timer alone counts every frame under control); a lag frame (level 145 and up) or the $07
/// half-speed quirk hold the main loop's work back for one frame at a time only.
pub const FREEZE_FRAMES: u32 = 60;

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
    /// signs has lasted `FREEZE_FRAMES` frames.
    pub(crate) fn see(&mut self, before: &RamSnapshot, now: &RamSnapshot) -> Option<String> {
        let mut same = before.clone();
        same.frame_counter = now.frame_counter;
        same.rng = now.rng;
        same.held = now.held;
        same.newly = now.newly;
        let bump = |n: u32, stuck: bool| if stuck { n + 1 } else { 0 };
        self.counter = bump(self.counter, now.frame_counter == before.frame_counter);
        self.state = bump(self.state, same == *now);
        let problems = now.problems();
        self.nonsense = bump(self.nonsense, !problems.is_empty());
        if self.counter >= FREEZE_FRAMES {
            Some("the frame counter stopped".into())
        } else if self.state >= FREEZE_FRAMES {
            Some("the game loop stopped (only the NMI's frame counter and RNG move)".into())
        } else if self.nonsense >= FREEZE_FRAMES {
            let p: Vec<String> = problems.iter().map(|b| b.to_string()).collect();
            Some(format!("RAM no longer describes a game ({})", p.join("; ")))
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
}
