//! What one frame of the game reports (`Events`) and what a caller that reads the cartridge's
//! RAM tells the model about a frame beyond the game state (`FrameHint`, `Branch`).

#[cfg(doc)]
use super::game_ram::Game;
use crate::game::crash::CrashKind;
use crate::game::pos::Pos;
#[cfg(doc)]
use crate::game::{crash, timing};

/// What happened in one frame, for the planner's driver, the statistics and the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// A new piece appeared at (5, 0) (this frame is the spawn frame S).
    pub spawned: bool,
    /// The drop failed this frame (frame L): the piece locks at this (x, y, id).
    pub locked: Option<Pos>,
    /// Lines scored this frame (state 5), 1-4.
    pub cleared: u8,
    /// The level went up this frame.
    pub level_up: bool,
    /// The lock test failed: the curtain starts.
    pub topped_out: bool,
    /// The game logic ran this frame (false on NMI-only frames).
    pub logic: bool,
    /// This frame's logic ran past the next NMI: the next frame runs only the NMI (a lag
    /// frame, from about level 145 after a line clear; see [`timing`]).
    pub lag: bool,
    /// Counted CPU cycles of the frame, from its NMI to the point where a late NMI is lost,
    /// audio allowance included, on frames that run play state 5 (0 on the others).
    pub cycles: u32,
    /// Counted cycles of the logic where the next NMI lands (`timing::landing`'s *L*, the
    /// preview's staging accounted), on frames that run play state 5 (0 on the others): its
    /// distance to the danger windows is the frame's margin ([`crash::clear_risk`]).
    pub landing: u32,
    /// The cartridge stopped playing on this frame ([`CrashKind`]); the game is over.
    pub crashed: Option<CrashKind>,
    /// This frame's logic ran into the NMI inside a window ([`crash::DANGER_WINDOWS`]) or
    /// within [`crash::SAFETY_MARGIN`] of one:
    /// a console may crash, hang or lag for long here, depending on what RAM does not hold
    /// (the model plays on: most such frames only lag). A strict count of crashes counts these.
    pub may_crash: bool,
    /// The frame's lag was left open by the range of its audio cost
    /// ([`timing::audio_lag`], only with a [`FrameHint::audio`] count): `lag` is the model's
    /// choice, [`Branch::Other`] takes the other one.
    pub may_lag: bool,
}

/// What a caller that reads the cartridge's RAM (trace verify) tells the model about a frame
/// beyond the game state. [`Game::step`] uses the default: no audio count, the model's branch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameHint {
    /// `updateAudio`'s cycles on this frame, `(min, max)`, from the engine's RAM at the frame's
    /// start ([`timing::audio::audio_cycles`]); `None` keeps the fitted allowance.
    pub audio: Option<(u32, u32)>,
    /// Which outcome an undecided frame ([`Events::may_lag`], [`Events::may_crash`]) takes.
    pub branch: Branch,
    /// The next piece RAM shows at this frame's end, once the game is in the attract demo
    /// ([`CrashKind::Demo`]): the demo's pieces come from a table in ROM, so only a caller that
    /// reads them (trace verify) can play the demo on; without it the model stops there.
    pub demo_next: Option<u8>,
}

/// The outcome of a frame the model cannot decide from what it holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Branch {
    /// The model's own choice: the allowance's lag decision, playing on in a dispatch window.
    #[default]
    Model,
    /// The other one: the other lag decision, or the crash (the NMI after this frame lands in
    /// the dispatch, runs, and the CPU leaves the game).
    Other,
    /// In a dispatch window, the third outcome: the corrupted jump lands in the tail of
    /// `gameMode_legalScreen` (`c157-mixed`: `$8220`), which waits 3 + 255 + 255 frames and
    /// then hands the game to the attract demo ([`CrashKind::Demo`]). Which of the three it is
    /// depends on the instruction of `switch_s_plus_2a` the NMI interrupts and on what the NMI
    /// leaves in $00/$01, which RAM at the frame does not hold.
    LegalScreen,
}
