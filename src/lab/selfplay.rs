//! The bot playing the rules model by itself, frame by frame: plan at each spawn, press the
//! plan's buttons, check the model follows it. The lean loop behind `nestor sim` and tests.

use super::decision_time::thread_cpu;
use std::sync::atomic::{AtomicBool, Ordering};

use std::convert::Infallible;

use crate::game::pad::PadState;
use crate::game::state::{Events, Game, PlayState};
use crate::game::Pos;
use crate::search::crash_guard::PREFERRED_MARGIN;
use crate::search::eval::Evaluator;
use crate::search::follow::{line_count, Crash, Follower, Seen, Tally};
use crate::search::plan::{Plan, Planner};

pub use super::game_stats::GameStats;
pub use super::until::{End, Until};

/// When to stop a game early.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// End once this many pieces have locked.
    pub max_pieces: Option<u32>,
    /// End once this many frames have run.
    pub max_frames: Option<u64>,
}

/// Drives a `Game` with the planner, one `step` per frame, through the one plan follower.
pub struct SelfPlay<'p, E: Evaluator> {
    /// Plans each piece (its profile is the player's).
    pub planner: &'p mut Planner<E>,
    follower: Follower,
    /// The game's figures so far.
    pub stats: GameStats,
    /// What ends [`SelfPlay::run`] before its top-out.
    pub until: Until,
    /// End the game once it has cleared this many lines.
    pub max_lines: Option<u32>,
}

impl<'p, E: Evaluator> SelfPlay<'p, E> {
    /// Self-play of `game` from its current state, to its top-out, with no line cap.
    pub fn new(planner: &'p mut Planner<E>, game: &Game) -> Self {
        SelfPlay {
            planner,
            follower: Follower::default(),
            stats: GameStats {
                counts: Tally::start(game.score(), line_count(game.lines), game.level),
                start_level: game.start_level,
                ..GameStats::default()
            },
            until: Until::TopOut,
            max_lines: None,
        }
    }

    /// The plan being followed, if any.
    pub fn plan(&self) -> Option<&Plan> {
        self.follower.following().map(|f| &f.plan)
    }

    /// Buttons for the next frame.
    pub fn input(&mut self, game: &Game) -> PadState {
        let in_control = game.play_state == PlayState::Control;
        let frame = self.stats.frames;
        let deciding = in_control && self.follower.following().is_none();
        let cpu = deciding.then(thread_cpu);
        let planned = self
            .follower
            .ensure_plan(self.planner, frame, in_control, || {
                Ok::<_, Infallible>(game)
            });
        if let Err(never) = planned {
            match never {}
        }
        if let (Some(start), Some(_)) = (cpu, self.follower.following()) {
            let past_155 = game.level >= crate::game::score::CRASH_LEVEL;
            self.stats
                .decisions
                .record(thread_cpu().saturating_sub(start), past_155);
        }
        self.follower.pad(in_control)
    }

    /// Steps the game one frame and checks it against the plan.
    pub fn step(&mut self, game: &mut Game) -> Events {
        let input = self.input(game);
        let controlled = game.play_state == PlayState::Control;
        let ev = game.step(input);
        self.stats.frames += 1;
        let seen = Seen {
            frame: self.stats.frames,
            controlled,
            in_control: game.play_state == PlayState::Control,
            piece: Pos::of(&game.active),
        };
        let report = self.follower.seen(input, seen);
        if let Some(d) = report.desync {
            log::warn!(
                "desync at frame {}: expected {:?}, model has {:?}",
                d.frame,
                d.expected,
                d.observed
            );
        }
        if let Some(Pos { x, y, .. }) = report.locked {
            self.stats.locks.push((y, x));
        }
        self.stats
            .counts
            .frame(game.score(), line_count(game.lines), game.level, &report);
        if ev.topped_out {
            self.stats.topped_out = true;
        }
        if ev.may_crash {
            self.stats.may_crash_frames += 1;
        }
        if ev.landing > 0 && thin_margin(ev.landing) {
            self.stats.thin_margin_frames += 1;
        }
        ev
    }

    /// Plays until the curtain starts or a limit is hit.
    pub fn run(self, game: &mut Game, limits: Limits) -> GameStats {
        self.run_or_stop(game, limits, &AtomicBool::new(false))
            .expect("a flag nobody sets never stops the game")
    }

    /// Plays until the game ends (see [`End`]); `None` when `stop` was set first (the game is
    /// unfinished and its figures mean nothing).
    pub fn run_or_stop(
        mut self,
        game: &mut Game,
        limits: Limits,
        stop: &AtomicBool,
    ) -> Option<GameStats> {
        loop {
            if let Some(end) = self.end(game, limits) {
                self.stats.end = end;
                break;
            }
            // Checked every frame: one load is nothing next to a frame of the model.
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            self.step(game);
        }
        let lines = self.stats.lines.max(1) as f64;
        self.stats.tetris_rate = (self.stats.tetrises * 4) as f64 / lines;
        Some(self.stats)
    }

    /// Why the game ends now, if it does.
    fn end(&mut self, game: &Game, limits: Limits) -> Option<End> {
        if let Some(kind) = game.crashed {
            self.stats.crash = Some(Crash {
                kind,
                frame: self.stats.frames,
                level: game.level,
                lines: line_count(game.lines),
            });
            return Some(End::Crashed);
        }
        let s = &self.stats;
        if s.topped_out || game.play_state == PlayState::Curtain || game.is_over() {
            return Some(End::TopOut);
        }
        if self
            .until
            .is_reached(|n| s.reached(n), s.lines, s.lines_at_rebirth.is_some())
        {
            return Some(End::Until);
        }
        if self.max_lines.is_some_and(|m| s.lines >= m) {
            return Some(End::MaxLines);
        }
        if limits.max_pieces.is_some_and(|m| s.pieces >= m) {
            return Some(End::MaxPieces);
        }
        if limits.max_frames.is_some_and(|m| s.frames >= m) {
            return Some(End::MaxFrames);
        }
        None
    }
}

#[cfg(test)]
#[path = "selfplay_tests.rs"]
mod tests;

/// A frame whose late NMI lands at `landing` keeps less than the planner's preferred margin
/// from every window yet is safe.
fn thin_margin(landing: u32) -> bool {
    matches!(
        crate::game::crash::clear_risk(landing, landing),
        crate::game::crash::ClearRisk::Safe { margin_cycles } if margin_cycles < PREFERRED_MARGIN
    )
}
