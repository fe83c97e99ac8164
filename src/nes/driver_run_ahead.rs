//! The driver's run-ahead check: a new plan played on a saved copy of the console, a line clear
//! that stops the cartridge there counted and planned around, then back to the saved state.

use super::{Driver, DriverError};
use crate::game::state::PlayState;
use crate::game::PadState;
use crate::nes::console::Console;
use crate::nes::freeze::FreezeWatch;
use crate::nes::observe::RamSnapshot;
use crate::search::eval::{Evaluator, Placement};
use crate::search::follow::line_count;

/// The level from which the driver checks each plan ahead on a copy of the console.
pub const RUN_AHEAD_LEVEL: u8 = 150;

/// Frames the run-ahead plays after the plan's last input, waiting for the next piece: the
/// clear's animation, a stretch of lag, and a second of a stopped frame counter.
const RUN_AHEAD_AFTER: usize = 400;

/// Locks of one piece the run-ahead may refuse before it keeps the plan it has.
pub(super) const RUN_AHEAD_TRIES: usize = 4;

/// The run-ahead check's setting and counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunAhead {
    pub(super) from: Option<u8>,
    checks: u64,
    crashes: u64,
    pub(super) replans: u64,
}

impl Default for RunAhead {
    fn default() -> RunAhead {
        RunAhead {
            from: Some(RUN_AHEAD_LEVEL),
            checks: 0,
            crashes: 0,
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

    /// Plans checked ahead whose lock cleared lines on the copy, and those of them where the
    /// copy crashed (the model's plan did not see the crash).
    pub fn run_ahead(&self) -> (u64, u64) {
        (self.run_ahead.checks, self.run_ahead.crashes)
    }

    /// Plans made again without a lock the run-ahead saw crash.
    pub fn run_ahead_replans(&self) -> u64 {
        self.run_ahead.replans
    }

    /// Plays the plan being followed on the console, then nothing until the next piece is up,
    /// and comes back: a lock that clears lines and stops the frame counter there is a crash
    /// the model did not foresee: its lock is returned. Consoles that cannot save a state are
    /// not checked.
    pub(super) fn look_ahead(&mut self) -> Result<Option<Placement>, DriverError> {
        let Some(f) = self.follower.following() else {
            return Ok(None);
        };
        let lock = f.plan.lock;
        let Some(saved) = self.console.save()? else {
            return Ok(None);
        };
        let inputs = f.plan.inputs[f.cursor..].to_vec();
        let lines = line_count(self.now.lines_bcd);
        let mut before = self.now.clone();
        let mut watch = FreezeWatch::default();
        let (mut cleared, mut crashed) = (false, None);
        for i in 0..inputs.len() + RUN_AHEAD_AFTER {
            let pad = inputs.get(i).copied().unwrap_or(PadState::NONE);
            self.console.frame(pad.without(PadState::START))?;
            let now = RamSnapshot::read(self.console.ram(), &self.map);
            cleared |= line_count(now.lines_bcd) > lines;
            if let Some(freeze) = watch.watch(&before, &now) {
                crashed = Some(freeze.kind);
                break;
            }
            if i >= inputs.len() && now.play_state == PlayState::Control as u8 {
                break; // the next piece is up: the clear went through
            }
            before = now;
        }
        self.console.restore(&saved)?;
        if cleared {
            self.run_ahead.checks += 1;
            if let Some(kind) = crashed {
                self.run_ahead.crashes += 1;
                log::warn!(
                    "frame {}: run-ahead: the plan's clear at level {} stops the cartridge ({}); \
                     the model did not foresee it",
                    self.console.frame_number(),
                    self.now.level,
                    kind.map_or("frozen", |k| k.name())
                );
                return Ok(Some(lock));
            }
        }
        Ok(None)
    }
}
