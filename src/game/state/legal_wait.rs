//! Where the legal screen's tail is parked between NMIs (`LegalWait`): the lead frames, the
//! sleep and the wait for Start, stepped one frame at a time.

use crate::game::pad::PadState;

/// `LEGAL_SLEEP_TIME`: the legal screen's `sleep_for_a_vblanks` and its wait for Start, each
/// 255 frames.
pub const LEGAL_SLEEP: u8 = 255;

/// Frames from the one whose NMI took the corrupted jump to the one that sets `sleepCounter`:
/// the jump enters at `$8220` (`c157-mixed`: RAM's $00/$01 hold it on that frame), in the middle
/// of `bulkCopyToPpu`'s operand, which reads as `lda $6B20`, `tax`, then three
/// `updateAudioWaitForNmi...` calls (the first ends the jump's frame), `memset_page` and the sleep.
pub const LEGAL_LEAD: u8 = 3;

/// Where `gameMode_legalScreen`'s tail is parked between NMIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegalWait {
    /// Frames left before the sleep starts.
    pub lead: u8,
    /// `sleepCounter` ($C3): the NMI counts it down to 0.
    pub sleep: u8,
    /// `generalCounter` ($A8) in `@waitForStartButton`; 0 while the sleep runs.
    pub general: u8,
}

impl LegalWait {
    /// As the jump's frame leaves it (parked in the first of the three waits).
    pub fn entered() -> LegalWait {
        LegalWait {
            lead: LEGAL_LEAD,
            sleep: 0,
            general: 0,
        }
    }

    /// One frame of the tail after its NMI (`newly` as that NMI polled it): `None` once
    /// `inc gameMode` has run (the wait for Start counted out, or Start alone newly pressed).
    pub fn step(self, newly: PadState) -> Option<LegalWait> {
        let mut w = self;
        // The NMI's `dec sleepCounter` stops at 0.
        w.sleep = w.sleep.saturating_sub(1);
        let start = newly.bits() == PadState::START.bits();
        if w.lead > 0 {
            w.lead -= 1;
            if w.lead == 0 {
                w.sleep = LEGAL_SLEEP;
            }
            return Some(w);
        }
        if w.general == 0 {
            if w.sleep > 0 {
                return Some(w);
            }
            // The sleep returned: the counter is set, Start is checked before the first wait.
            w.general = LEGAL_SLEEP;
            return (!start).then_some(w);
        }
        w.general -= 1;
        (w.general != 0 && !start).then_some(w)
    }
}
