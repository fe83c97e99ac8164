//! The bot playing the rules model by itself, frame by frame: plan at each spawn, press the
//! plan's buttons, check the model follows it. The lean loop behind `nestor sim` and tests.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::pad::PadState;
use crate::game::score::CRASH_LEVEL;
use crate::game::state::{Events, Game, PlayState};

use crate::search::eval::Evaluator;
use crate::search::plan::{Plan, Planner, Situation};
use crate::search::profile::PieceProgress;

pub use super::until::{End, Until};

/// Statistics of one game.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameStats {
    pub score: u32,
    pub lines: u32,
    pub level: u8,
    pub start_level: u8,
    /// Score when level 29 was first reached (None if never).
    pub score_at_29: Option<u32>,
    /// Lines when level 29 was first reached (None if never; 0 for a game started there).
    pub lines_at_29: Option<u32>,
    /// The score reached 999,999 before level 29.
    pub maxed_before_29: bool,
    pub pieces: u32,
    pub tetrises: u32,
    /// Lines cleared by tetrises / all lines.
    pub tetris_rate: f64,
    pub frames: u64,
    /// Frames where the model did not follow the plan (must stay 0).
    pub desyncs: u32,
    /// Lock (row, column) of every piece, in order.
    #[serde(skip)]
    pub locks: Vec<(u8, u8)>,
    pub topped_out: bool,
    /// Why the game ended.
    pub end: End,
}

impl GameStats {
    /// Lines cleared from the level-29 transition on (None if the game never reached 29).
    pub fn lines_after_29(&self) -> Option<u32> {
        self.lines_at_29.map(|at| self.lines - at)
    }

    /// The game reached `level` (the crash level counts as reached when the game stopped there).
    pub fn reached(&self, level: u8) -> bool {
        self.level >= level
    }
}

/// When to stop a game early.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_pieces: Option<u32>,
    pub max_frames: Option<u64>,
}

/// Drives a `Game` with the planner, one `step` per frame.
pub struct SelfPlay<'p, E: Evaluator> {
    pub planner: &'p mut Planner<E>,
    plan: Option<Plan>,
    cursor: usize,
    /// The planner found nothing for this piece: wait for the next one instead of
    /// searching again every frame.
    stuck: bool,
    /// The buttons of the current piece's frames so far, and those held before its first:
    /// what a plan made in flight (the reaction re-plan, a desync) counts from.
    piece_inputs: Vec<PadState>,
    spawn_prev: PadState,
    pub stats: GameStats,
    /// What ends [`SelfPlay::run`] before its top-out.
    pub until: Until,
    /// End the game once it has cleared this many lines.
    pub max_lines: Option<u32>,
}

impl<'p, E: Evaluator> SelfPlay<'p, E> {
    pub fn new(planner: &'p mut Planner<E>, game: &Game) -> Self {
        SelfPlay {
            planner,
            plan: None,
            cursor: 0,
            stuck: false,
            piece_inputs: Vec::with_capacity(64),
            spawn_prev: PadState::NONE,
            stats: GameStats {
                start_level: game.start_level,
                ..GameStats::default()
            },
            until: Until::TopOut,
            max_lines: None,
        }
    }

    /// The plan being followed, if any.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Buttons for the next frame.
    pub fn input(&mut self, game: &Game) -> PadState {
        if game.play_state != PlayState::Control {
            return PadState::NONE;
        }
        if self.piece_inputs.is_empty() && self.plan.is_none() {
            self.spawn_prev = game.held;
        }
        let replan = self
            .plan
            .as_ref()
            .is_some_and(|p| p.replan_after == Some(self.cursor));
        if replan || (self.plan.is_none() && !self.stuck) {
            let situation = Situation {
                progress: PieceProgress::after(&self.piece_inputs, self.spawn_prev),
                ..Situation::of(game)
            };
            self.plan = self.planner.plan(&situation);
            self.stuck = self.plan.is_none();
            self.cursor = 0;
        }
        self.plan
            .as_ref()
            .and_then(|p| p.inputs.get(self.cursor).copied())
            .unwrap_or(PadState::NONE)
    }

    /// Steps the game one frame and checks it against the plan.
    pub fn step(&mut self, game: &mut Game) -> Events {
        let input = self.input(game);
        let controlled = game.play_state == PlayState::Control;
        let ev = game.step(input);
        self.stats.frames += 1;
        if controlled {
            self.piece_inputs.push(input);
        }
        if controlled {
            if let Some(plan) = &self.plan {
                let now = (game.active.x, game.active.y, game.active.id);
                if plan.expected.get(self.cursor) != Some(&now) {
                    self.stats.desyncs += 1;
                    log::warn!(
                        "desync at frame {}: expected {:?}, model has {:?}",
                        self.stats.frames,
                        plan.expected.get(self.cursor),
                        now
                    );
                    self.plan = None; // re-plan from the observed state
                } else {
                    self.cursor += 1;
                }
            }
        }
        if let Some((x, y, _)) = ev.locked {
            self.stats.pieces += 1;
            self.stats.locks.push((y, x));
            self.plan = None;
            self.stuck = false;
            self.piece_inputs.clear();
        }
        if ev.cleared == 4 {
            self.stats.tetrises += 1;
        }
        if game.level >= 29 && self.stats.score_at_29.is_none() {
            self.stats.score_at_29 = Some(game.score());
            self.stats.lines_at_29 = Some(game.lines());
        }
        if ev.topped_out {
            self.stats.topped_out = true;
        }
        self.stats.score = game.score();
        if self.stats.score >= 999_999 && self.stats.score_at_29.is_none() && game.level < 29 {
            self.stats.maxed_before_29 = true;
        }
        self.stats.lines = game.lines();
        self.stats.level = game.level;
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
        if game.level >= 29 && self.stats.score_at_29.is_none() {
            self.stats.score_at_29 = Some(game.score());
            self.stats.lines_at_29 = Some(game.lines());
        }
        self.stats.level = game.level;
        self.stats.lines = game.lines();
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
    fn end(&self, game: &Game, limits: Limits) -> Option<End> {
        let s = &self.stats;
        if s.topped_out || game.play_state == PlayState::Curtain || game.is_over() {
            return Some(End::TopOut);
        }
        if game.level >= CRASH_LEVEL {
            return Some(End::CrashLevel);
        }
        let until = match self.until {
            Until::TopOut => false,
            Until::Level(n) => game.level >= n,
            Until::Lines(n) => s.lines >= n,
        };
        if until {
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
