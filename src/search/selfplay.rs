//! The bot playing the rules model by itself, frame by frame: plan at each spawn, press the
//! plan's buttons, check the model follows it. The lean loop behind `nestor sim` and tests.

use crate::game::pad::PadState;
use crate::game::state::{Events, Game, PlayState};

use super::eval::Evaluator;
use super::plan::{Plan, Planner, Situation};

/// Statistics of one game.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameStats {
    pub score: u32,
    pub lines: u32,
    pub level: u8,
    pub start_level: u8,
    /// Score when level 29 was first reached (None if never).
    pub score_at_29: Option<u32>,
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
    pub stats: GameStats,
    /// End [`SelfPlay::run`] when level 29 is reached.
    pub stop_at_29: bool,
}

impl<'p, E: Evaluator> SelfPlay<'p, E> {
    pub fn new(planner: &'p mut Planner<E>, game: &Game) -> Self {
        SelfPlay {
            planner,
            plan: None,
            cursor: 0,
            stuck: false,
            stats: GameStats {
                start_level: game.start_level,
                ..GameStats::default()
            },
            stop_at_29: false,
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
        if self.plan.is_none() && !self.stuck {
            self.plan = self.planner.plan(&Situation::of(game));
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
        }
        if ev.cleared == 4 {
            self.stats.tetrises += 1;
        }
        if ev.level_up && game.level == 29 && self.stats.score_at_29.is_none() {
            self.stats.score_at_29 = Some(game.score());
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
    pub fn run(mut self, game: &mut Game, limits: Limits) -> GameStats {
        if game.level >= 29 && self.stats.score_at_29.is_none() {
            self.stats.score_at_29 = Some(game.score());
        }
        loop {
            self.step(game);
            if self.stats.topped_out || game.play_state == PlayState::Curtain {
                break;
            }
            if self.stop_at_29 && self.stats.score_at_29.is_some() {
                break;
            }
            if limits.max_pieces.is_some_and(|m| self.stats.pieces >= m)
                || limits.max_frames.is_some_and(|m| self.stats.frames >= m)
            {
                break;
            }
        }
        let lines = self.stats.lines.max(1) as f64;
        self.stats.tetris_rate = (self.stats.tetrises * 4) as f64 / lines;
        self.stats
    }
}
