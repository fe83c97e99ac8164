//! The driver's run-ahead check: a new plan played on a saved copy of the console and on the
//! rules model beside it, a clear that stops the copy planned around, the two outcomes compared.

use super::{Driver, DriverError};
use crate::game::state::{FrameHint, PlayState};
use crate::game::timing::audio::{audio_cycles, AUDIO_RAM, AUDIO_RAM_LEN};
use crate::game::Pos;
use crate::game::{CrashKind, Game, PadState};
use crate::nes::console::Console;
use crate::nes::freeze::FreezeWatch;
use crate::nes::observe::RamSnapshot;
use crate::search::crash_guard::{key_risk, risk_key};
use crate::search::eval::Evaluator;
use crate::search::follow::line_count;

/// The level from which the driver checks each plan ahead on a copy of the console.
pub const RUN_AHEAD_LEVEL: u8 = 150;

/// Frames the run-ahead plays after the plan's last input, waiting for the next piece: the
/// clear's animation, a stretch of lag, and a second of a stopped frame counter.
const RUN_AHEAD_AFTER: usize = 400;

/// Locks of one piece the run-ahead may refuse before it keeps the plan it has.
pub(super) const RUN_AHEAD_TRIES: usize = 16;

/// What the run-ahead check counted over a run (`play`'s summary shows it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunAheadCounts {
    /// Plans checked ahead whose lock cleared lines on the copy, or stopped it.
    pub checks: u64,
    /// Those where the copy crashed or hung (the lock's frame cleared lines or not: past
    /// level 249 a lock without a line can land in a window too): each was planned around.
    pub crashes: u64,
    /// Those whose outcome the rules model left open (`Events::may_crash`): a crash there
    /// does not contradict the model.
    pub open: u64,
    /// Those where the model decided the outcome (plays on, or crashes) and the copy showed
    /// the other: the model is wrong there.
    pub disagreements: u64,
}

/// A run's counts from its games' (or its jobs').
impl std::ops::Add for RunAheadCounts {
    type Output = RunAheadCounts;

    fn add(self, other: RunAheadCounts) -> RunAheadCounts {
        RunAheadCounts {
            checks: self.checks + other.checks,
            crashes: self.crashes + other.crashes,
            open: self.open + other.open,
            disagreements: self.disagreements + other.disagreements,
        }
    }
}

impl std::ops::AddAssign for RunAheadCounts {
    fn add_assign(&mut self, other: RunAheadCounts) {
        *self = *self + other;
    }
}

impl std::iter::Sum for RunAheadCounts {
    fn sum<I: Iterator<Item = RunAheadCounts>>(counts: I) -> RunAheadCounts {
        counts.fold(RunAheadCounts::default(), |a, b| a + b)
    }
}

/// What the rules model said of a plan's frames, played beside the copy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ModelVerdict {
    /// Some frame's outcome was left open (it may crash).
    pub(super) open: bool,
    /// The model ended the game (a hang, or a crash it is sure of).
    pub(super) crashed: bool,
}

impl ModelVerdict {
    /// True when the copy's outcome contradicts the model: an open frame agrees with both.
    pub(super) fn disagrees(self, copy_crashed: bool) -> bool {
        !self.open && self.crashed != copy_crashed
    }
}

/// The run-ahead check's setting and counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunAhead {
    pub(super) from: Option<u8>,
    /// Count what the copy shows but keep every plan (the game a console plays without it).
    pub(super) watch: bool,
    counts: RunAheadCounts,
    pub(super) replans: u64,
}

impl Default for RunAhead {
    fn default() -> RunAhead {
        RunAhead {
            from: Some(RUN_AHEAD_LEVEL),
            watch: false,
            counts: RunAheadCounts::default(),
            replans: 0,
        }
    }
}

impl<C: Console, E: Evaluator> Driver<C, E> {
    /// Turns the run-ahead check on from `level` (`None`: off). On by default from
    /// [`RUN_AHEAD_LEVEL`].
    pub fn set_run_ahead(&mut self, level: Option<u8>) {
        self.run_ahead.from = level;
    }

    /// With `watch`, the run-ahead check counts what the copy shows (crashes, open frames,
    /// disagreements) but never plans again: the game is the one a console plays without it,
    /// and the counts check the model's verdict on every clear.
    pub fn set_run_ahead_watch(&mut self, watch: bool) {
        self.run_ahead.watch = watch;
    }

    /// What the run-ahead check counted so far.
    pub fn run_ahead(&self) -> RunAheadCounts {
        self.run_ahead.counts
    }

    /// Plans made again without a lock the run-ahead saw crash.
    pub fn run_ahead_replans(&self) -> u64 {
        self.run_ahead.replans
    }

    /// Plays the plan being followed on the console, then nothing until the next piece is up,
    /// and comes back: a lock that clears lines and stops the frame counter there is a crash:
    /// its lock is returned. The rules model plays the same pads from the same RAM beside the
    /// copy, its audio counted from the copy's RAM as `trace verify` counts it, and a clear
    /// whose outcome it decided otherwise is a disagreement. Consoles that cannot save a
    /// state are not checked.
    pub(super) fn look_ahead(&mut self) -> Result<Option<Pos>, DriverError> {
        let Some(f) = self.follower.following() else {
            return Ok(None);
        };
        let lock = f.plan.lock;
        // A snapshot the model cannot read (never seen in play) leaves the outcome open.
        let mut model = self.now.to_game().ok();
        if !may_stop_the_cartridge(model.as_ref(), lock) {
            return Ok(None);
        }
        let Some(saved) = self.console.save()? else {
            return Ok(None);
        };
        let inputs = f.plan.inputs[f.cursor..].to_vec();
        // From the lock to the next spawn the game holds the plan's entry buttons (a charged
        // DAS, Select when the preview's state must change for the lock's frame): so does the
        // copy, or its play-state-5 frame is another one.
        let entry = f.plan.entry_hold;
        let lines = line_count(self.now.lines_bcd);
        let mut before = self.now.clone();
        let mut watch = FreezeWatch::default();
        let (mut cleared, mut crashed, mut next_up, mut over) = (false, None, false, false);
        let mut verdict = ModelVerdict {
            open: model.is_none(),
            crashed: false,
        };
        for i in 0..inputs.len() + RUN_AHEAD_AFTER {
            let pad = inputs.get(i).copied().unwrap_or(entry);
            let pad = pad.without(PadState::START);
            if let Some(g) = model.as_mut().filter(|g| g.crashed.is_none()) {
                step_model(g, pad, self.console.ram(), &mut verdict);
            }
            self.console.frame(pad)?;
            let now = RamSnapshot::read(self.console.ram(), &self.map);
            // `completedLines` is set by the row check, before a hang can keep the new line
            // count from RAM.
            cleared |= line_count(now.lines_bcd) > lines || now.completed_lines > 0;
            if let Some(freeze) = watch.watch(&before, &now) {
                crashed = Some(freeze.kind);
                break;
            }
            if i >= inputs.len() && now.play_state == PlayState::Control as u8 {
                next_up = true;
                break; // the next piece is up: the lock's frame went through
            }
            if now.play_state == PlayState::Curtain as u8 {
                over = true;
                break; // a top-out: no state-5 frame to check
            }
            before = now;
        }
        self.console.restore(&saved)?;
        if crashed.is_none() && !next_up && !over {
            // No next piece long after the lock (the longest lag that plays on, confetti's,
            // is 256 frames): the logic never finished (a hang, or the legal screen's waits
            // on the way to the demo), which the freeze watch names only after longer.
            crashed = Some(Some(CrashKind::Hang));
        }
        // A lock without a line is checked too when it stops the copy: from level 249 its
        // frame can land in a dispatch window like a clear's.
        if !cleared && crashed.is_none() {
            return Ok(None);
        }
        let counts = &mut self.run_ahead.counts;
        counts.checks += 1;
        counts.open += u64::from(verdict.open);
        if verdict.disagrees(crashed.is_some()) {
            counts.disagreements += 1;
            log::warn!(
                "frame {}: run-ahead: at level {} the model says the clear {}, the copy {}",
                self.console.frame_number(),
                self.now.level,
                if verdict.crashed {
                    "crashes"
                } else {
                    "plays on"
                },
                if crashed.is_some() {
                    "crashed"
                } else {
                    "played on"
                },
            );
        }
        let Some(kind) = crashed else {
            return Ok(None);
        };
        counts.crashes += 1;
        log::info!(
            "frame {}: run-ahead: the plan's clear at level {} stops the cartridge ({}, the \
             model {}): planned around",
            self.console.frame_number(),
            self.now.level,
            kind.map_or("frozen", |k| k.name()),
            if verdict.open {
                "left it open"
            } else {
                "did not foresee it"
            },
        );
        Ok(Some(lock))
    }
}

/// Whether `lock`, on `game` (the RAM as the model reads it; `None`: unreadable), can stop
/// the cartridge: it clears lines, or the model does not call its frame safe for every soft
/// drop and preview state (a lock without a line comes near a window at 247-255 only). The others are not played ahead:
/// past level 150 about two locks in three clear nothing, and each check plays the
/// piece's frames once more.
fn may_stop_the_cartridge(game: Option<&Game>, lock: Pos) -> bool {
    let Some(game) = game else {
        return true;
    };
    let mut board = game.board();
    if board.lock(lock.x, lock.y, lock.orientation) > 0 {
        return true;
    }
    let key = risk_key(&board, 0, None);
    [false, true]
        .iter()
        .any(|&preview| !key_risk(key, game.level, game.lines, preview).is_safe())
}

/// One frame of the model beside the copy: its audio cost from the copy's sound RAM at the
/// frame's start (a range where RAM does not fix it), the model's own branch on open frames.
fn step_model(g: &mut Game, pad: PadState, ram: &[u8], verdict: &mut ModelVerdict) {
    let hint = FrameHint {
        audio: ram
            .get(AUDIO_RAM..AUDIO_RAM + AUDIO_RAM_LEN)
            .and_then(audio_cycles),
        ..FrameHint::default()
    };
    let ev = g.step_with(pad, hint);
    // The hang band is a crash the model is sure of, not an open frame.
    verdict.open |= ev.may_crash && ev.crashed.is_none();
    verdict.crashed |= ev.crashed.is_some();
}

#[cfg(test)]
mod tests {
    use super::{ModelVerdict, RunAheadCounts};

    #[test]
    fn a_run_s_counts_are_its_games_counts_summed() {
        let c = |checks, crashes, open, disagreements| RunAheadCounts {
            checks,
            crashes,
            open,
            disagreements,
        };
        let games = [c(5, 1, 2, 0), c(7, 3, 0, 1), c(0, 0, 0, 0)];
        assert_eq!(
            games.iter().copied().sum::<RunAheadCounts>(),
            c(12, 4, 2, 1)
        );
        let mut run = c(1, 1, 1, 1);
        run += c(2, 0, 3, 4);
        assert_eq!(run, c(3, 1, 4, 5));
        assert_eq!(std::iter::empty().sum::<RunAheadCounts>(), c(0, 0, 0, 0));
    }

    #[test]
    fn an_open_frame_agrees_with_both_outcomes_a_decided_one_with_its_own() {
        let v = |open, crashed| ModelVerdict { open, crashed };
        assert!(!v(true, false).disagrees(true));
        assert!(!v(true, false).disagrees(false));
        assert!(!v(false, false).disagrees(false));
        assert!(v(false, false).disagrees(true));
        assert!(!v(false, true).disagrees(true));
        assert!(v(false, true).disagrees(false));
    }
}
