//! The profile as plain data: a player's input limits (`Profile`, `Shift`) and what follows
//! from them alone (whether it is `unlimited`, its one-line description, the tap table's restart).

use super::adjust::Adjust;
use super::choice::WeightsChoice;
use super::progress::PieceProgress;
use super::timeline::Timeline;
use crate::game::pad::PadState;

/// How directions are pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shift {
    /// Pressed for one frame and released.
    Tap,
    /// Held as long as wanted (DAS auto-repeat included); each direction at most once a piece.
    Hold,
    /// Either.
    Both,
}

impl Shift {
    /// Directions may stay down longer than a frame (the DAS counter matters).
    pub fn holds(self) -> bool {
        self != Shift::Tap
    }
}

/// A player's input limits, plain data shared by the planner, the driver and the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Preset name, or the file's stem.
    pub name: String,
    /// The frames on which a button may be newly pressed.
    pub timeline: Timeline,
    /// Whether directions are tapped, held or both.
    pub shift: Shift,
    /// Frames after a spawn before the plan may depend on the (new) next piece.
    pub reaction: u16,
    /// Frames at the start of a game before the first press.
    pub start_delay: u16,
    /// The weight set this profile plays with (the optional `weights` key; `--weights` wins).
    pub weights: WeightsChoice,
    /// Before the reaction, how many placements (those ranked best: `plan/blind.rs`) the plan
    /// weighs against the seven next pieces; 0 = every one (the optional `blind_placements`).
    pub blind_placements: u16,
    /// How the re-plan at the reaction times its taps (the optional `adjust`).
    pub adjust: Adjust,
}

impl Profile {
    /// Today's move set: no timeline, taps only, no reaction.
    pub fn is_unlimited(&self) -> bool {
        self.timeline == Timeline::Unlimited
            && self.shift == Shift::Tap
            && self.reaction == 0
            && self.start_delay == 0
    }

    /// One line for headers and summaries, e.g. `human (timeline X., tap, reaction 18)`.
    pub fn describe(&self) -> String {
        let shift = match self.shift {
            Shift::Tap => "tap",
            Shift::Hold => "hold",
            Shift::Both => "tap or hold",
        };
        let blind = match self.blind_placements {
            0 => String::new(),
            n => format!(", {n} blind placements"),
        };
        let adjust = match self.adjust {
            Adjust::Continue => String::new(),
            a => format!(", adjust {a}"),
        };
        format!(
            "{} (timeline {}, {shift}, reaction {}, start delay {}{blind}{adjust})",
            self.name, self.timeline, self.reaction, self.start_delay
        )
    }

    /// The frame the tap table restarts at for a plan made after `progress`: under
    /// `restart`, from the reaction on, the reaction or, when later, the spawn table's first
    /// slot after the piece's last tap before it (BetaTetris's `max(reaction, taps[n])`, its
    /// `n` initial taps being always the table's first `n` slots; a path that skipped slots
    /// still waits a full gap after its last tap: benches/README.md); 0 (the spawn's table)
    /// otherwise and under an unlimited timeline.
    pub fn adjust_from(&self, progress: PieceProgress) -> u32 {
        let restarts = self.adjust == Adjust::Restart
            && self.timeline != Timeline::Unlimited
            && progress.frames >= self.reaction;
        if !restarts {
            return 0;
        }
        let next = progress
            .last_tap
            .map_or(0, |f| self.timeline.slot_after(u32::from(f)));
        u32::from(self.reaction).max(next)
    }

    /// The frame the tap table restarts at in a piece played as `inputs` (`prev` held
    /// before): [`Profile::adjust_from`] with the taps of its first `reaction` frames.
    pub fn adjust_from_inputs(&self, inputs: &[PadState], prev: PadState) -> u32 {
        let n = usize::from(self.reaction).min(inputs.len());
        let mut progress = PieceProgress::after(&inputs[..n], prev);
        progress.frames = self.reaction;
        self.adjust_from(progress)
    }
}
