//! `Rules`: a profile's press rules as the lock search applies them frame by frame (when a
//! button may be newly pressed, held, or pressed again), shared by the BFS and the reach tables.

use super::limits::{Profile, Shift};
use super::progress::PieceProgress;
use super::timeline::Timeline;
use crate::game::pad::PadState;

/// The press rules of a profile, as the search applies them frame by frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    pub timeline: Timeline,
    pub shift: Shift,
    /// Frames of the piece played before the search's first frame.
    pub offset: u32,
    /// Directions already newly pressed in this piece (they count under `Shift::Hold`).
    pub pressed: u8,
    /// The frame of the piece the tap table restarts at (0: the spawn's table throughout;
    /// `Profile::adjust_from`).
    pub from: u32,
}

impl Rules {
    pub(crate) fn new(profile: &Profile, progress: PieceProgress) -> Rules {
        Rules {
            timeline: profile.timeline,
            shift: profile.shift,
            offset: u32::from(progress.frames),
            pressed: progress.pressed.0 & 0x03,
            from: profile.adjust_from(progress),
        }
    }

    /// The timeline's phase on frame `frame` of the piece, for telling states apart: the
    /// restarted table's from `from` on; before it (frames with no tap of the spawn's table
    /// left before `from`, fewer than a period) values past the period, one a frame (the key
    /// keeps 6 bits: distinct for periods up to 32, the presets' being at most 13).
    #[inline(always)]
    pub(crate) fn phase(&self, frame: u32, period: u32) -> u32 {
        if frame >= self.from {
            (frame - self.from) % period
        } else {
            period + (self.from - frame - 1)
        }
    }

    /// May `held` follow `prev` on frame `frame` of the piece, with `pressed` directions
    /// already pressed? (Down is checked by the caller: it is outside profiles.)
    #[inline(always)]
    pub fn allows(&self, held: PadState, prev: PadState, frame: u32, pressed: u8) -> bool {
        let newly = held.0 & !prev.0;
        let timed = newly & 0xC3;
        if timed != 0 && !self.timeline.allows_from(frame, self.from) {
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
