//! What a piece has done so far (frames played, directions and taps pressed), for a plan made
//! after its spawn: the reaction re-plan's start and the press rules' offset.

use crate::game::pad::PadState;

/// The buttons a timeline limits: Left, Right, A and B (Down is soft drop, outside profiles).
pub const TIMED: PadState = PadState(0xC3);

/// What a piece has done so far, for a plan made after its spawn (the reaction re-plan).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceProgress {
    /// Frames of this piece already played (0 at its spawn).
    pub frames: u16,
    /// Directions newly pressed so far in this piece (a `hold` profile presses each once).
    pub pressed: PadState,
    /// Frames that newly pressed Left, Right, A or B (one tap of the table each).
    pub taps: u16,
}

impl PieceProgress {
    /// This progress after `inputs` more frames, with `prev` held before them.
    pub fn then(self, inputs: &[PadState], prev: PadState) -> PieceProgress {
        let more = PieceProgress::after(inputs, prev);
        PieceProgress {
            frames: self.frames.saturating_add(more.frames),
            pressed: self.pressed.union(more.pressed),
            taps: self.taps.saturating_add(more.taps),
        }
    }

    /// After `inputs` (the piece's frames from its spawn on), with `prev` held before them.
    pub fn after(inputs: &[PadState], mut prev: PadState) -> PieceProgress {
        let (mut pressed, mut taps) = (PadState::NONE, 0u16);
        for &i in inputs {
            let newly = i.newly_from(prev);
            pressed = pressed.union(newly);
            taps = taps.saturating_add(u16::from(newly.0 & TIMED.0 != 0));
            prev = i;
        }
        PieceProgress {
            frames: inputs.len().min(u16::MAX as usize) as u16,
            pressed: PadState(pressed.0 & 0x03),
            taps,
        }
    }
}
