//! What the coach says while a piece falls under a reaction delay: where to hover until the
//! next piece is seen, then the taps from there to the lock for the next piece that came.

// The hover is the same whatever comes next (the blind plan never reads it), so a person can
// be shown it from the spawn; the taps depend on the next piece, which the coach knows from RAM
// but the player has not taken in yet: they are shown as the answer to the piece that came.

use crate::game::piece::Piece;
use crate::game::Pos;
use crate::search::adjust::{taps_in_words, Adjustment, Adjustments};
use crate::search::explain::PlacementView;

/// One piece's advice, counted from the frame it was ranked on.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    adjustments: Adjustments,
    /// Which of `adjustments.by_next` is the next piece shown at the spawn.
    taken: usize,
}

impl Advice {
    /// The advice for the next piece `next`; `None` when `adjustments` has none for it.
    pub fn new(adjustments: Adjustments, next: Piece) -> Option<Advice> {
        let taken = adjustments.by_next.iter().position(|a| a.next == next)?;
        Some(Advice { adjustments, taken })
    }

    /// The hover and every next piece's adjustment.
    pub fn adjustments(&self) -> &Adjustments {
        &self.adjustments
    }

    /// The adjustment for the next piece that came.
    pub fn taken(&self) -> &Adjustment {
        &self.adjustments.by_next[self.taken]
    }

    /// Frames from the ranked frame to the reaction frame.
    pub fn hover_frames(&self) -> u64 {
        self.adjustments.hover_inputs.len() as u64
    }

    /// Where the piece should be heading `frames` frames after the ranked frame: the hover
    /// until the reaction frame, then the lock for the next piece that came.
    pub fn target(&self, frames: u64) -> Pos {
        if frames < self.hover_frames() {
            self.adjustments.hover
        } else {
            self.taken().lock
        }
    }

    /// The taps from the hover for the next piece that came, in words ("2 R, 1 A").
    pub fn taps(&self) -> String {
        taps_in_words(&self.taken().inputs, self.adjustments.held)
    }

    /// One line for the terminal: "hover x 5 y 7 o 02 (frame 18), then for the I: 2 R →
    /// x 7 y 18 o 11".
    pub fn line(&self) -> String {
        let at = |p: &Pos| PlacementView::from(p).words();
        format!(
            "hover {} (frame {}), then for the {}: {} → {}",
            at(&self.adjustments.hover),
            self.hover_frames(),
            self.taken().next.letter(),
            self.taps(),
            at(&self.taken().lock)
        )
    }

    /// For a narrow column, one short line each: "HOVER", then "THEN 2 R" (or "THEN STAY").
    pub fn status(&self) -> String {
        let taps = self.taps();
        let then = if taps == "none" { "STAY".into() } else { taps };
        format!("HOVER\nTHEN {}", then.to_uppercase())
    }
}
