//! The piece under control, frame by frame since its spawn, as the driver pressed it: what a
//! plan made after the spawn (the reaction re-plan, a desync's re-plan) counts its progress from.

use crate::game::PadState;
use crate::movegen::profile::PieceProgress;

/// The pads of the piece under control, from its first frame (the plan's `inputs[0]` at its
/// spawn) on. Re-plans inside the piece do not restart it: only a new piece does.
#[derive(Clone, Debug, Default)]
pub struct PieceLog {
    /// A piece is being logged (from the plan made at its spawn to its lock).
    live: bool,
    /// Buttons held in the frame before the piece's first.
    prev: PadState,
    /// One pad per frame of the piece played so far (its capacity is reused piece to piece).
    inputs: Vec<PadState>,
}

impl PieceLog {
    /// A piece is being logged.
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// A new piece at its spawn, with `prev` held in the frame before its first.
    pub fn start(&mut self, prev: PadState) {
        self.live = true;
        self.prev = prev;
        self.inputs.clear();
    }

    /// One more frame of the piece, with `pad` pressed.
    pub fn push(&mut self, pad: PadState) {
        if self.live {
            self.inputs.push(pad);
        }
    }

    /// The piece locked, or the game ended: the next plan starts a new piece.
    pub fn end(&mut self) {
        self.live = false;
    }

    /// What the piece has done so far (zero when no piece is logged).
    pub fn progress(&self) -> PieceProgress {
        if self.live {
            PieceProgress::after(&self.inputs, self.prev)
        } else {
            PieceProgress::default()
        }
    }

    /// The pads of the piece so far.
    pub fn inputs(&self) -> &[PadState] {
        if self.live {
            &self.inputs
        } else {
            &[]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_counts_from_its_start_until_it_ends() {
        let mut log = PieceLog::default();
        log.push(PadState::LEFT);
        assert_eq!(log.progress(), PieceProgress::default(), "no piece yet");
        log.start(PadState::RIGHT);
        for pad in [PadState::RIGHT, PadState::NONE, PadState::LEFT, PadState::A] {
            log.push(pad);
        }
        // Right was held from before the piece: not pressed in it; Left was.
        let p = log.progress();
        assert_eq!((p.frames, p.pressed), (4, PadState::LEFT));
        assert_eq!(log.inputs().len(), 4);
        log.end();
        assert_eq!(log.progress(), PieceProgress::default());
        log.start(PadState::NONE);
        assert!(log.inputs().is_empty(), "a new piece starts empty");
    }
}
