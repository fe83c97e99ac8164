//! What a piece has done so far (frames played, directions pressed, its last tap), for a plan made
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
    /// The last frame (from the spawn) that newly pressed Left, Right, A or B: a tap of the
    /// table (`None`: no tap yet).
    pub last_tap: Option<u16>,
}

impl PieceProgress {
    /// This progress after `inputs` more frames, with `prev` held before them.
    pub fn then(self, inputs: &[PadState], prev: PadState) -> PieceProgress {
        let more = PieceProgress::after(inputs, prev);
        PieceProgress {
            frames: self.frames.saturating_add(more.frames),
            pressed: self.pressed.union(more.pressed),
            last_tap: more
                .last_tap
                .map(|f| f.saturating_add(self.frames))
                .or(self.last_tap),
        }
    }

    /// After `inputs` (the piece's frames from its spawn on), with `prev` held before them.
    pub fn after(inputs: &[PadState], mut prev: PadState) -> PieceProgress {
        let (mut pressed, mut last_tap) = (PadState::NONE, None);
        for (f, &i) in inputs.iter().enumerate() {
            let newly = i.newly_from(prev);
            pressed = pressed.union(newly);
            if newly.0 & TIMED.0 != 0 {
                last_tap = Some(f.min(u16::MAX as usize) as u16);
            }
            prev = i;
        }
        PieceProgress {
            frames: inputs.len().min(u16::MAX as usize) as u16,
            pressed: PadState(pressed.0 & 0x03),
            last_tap,
        }
    }
}
