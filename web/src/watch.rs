//! Watch mode: the bot plays the rules model by itself, frame by frame, through the same plan
//! follower as `nestor sim`; each decision's explanation and the crash guard's notes are kept.

use nestor::game::score::CRASH_LEVEL;
use nestor::game::state::{Game, PlayState};
use nestor::game::Pos;
use nestor::search::explain::{explain_top, Explanation};
use nestor::search::follow::{Follower, Seen};
use nestor::search::rank::Ranker;
use nestor::search::{Planner, Situation, Standard};
use serde::Serialize;

use crate::analyse::{planner_for, profile_named};
use crate::view::View;

/// What the crash guard did at one decision past level 155.
#[derive(Clone, Serialize)]
pub struct GuardNote {
    pub piece: u32,
    pub level: u8,
    pub lines: u32,
    /// Candidates refused because their clear may crash the cartridge.
    pub refused: usize,
    /// Lines of "may crash" candidates let through under pressure (0: none).
    pub pressure_lines: usize,
    /// No safe clear exists at this level and line count: clears are weighed as a cost.
    pub stretch: bool,
    /// The plan hides the next-piece preview for its line clear (a safer frame).
    pub hide_preview: bool,
}

/// The bot's game.
pub struct Bot {
    pub game: Game,
    planner: Planner<Standard>,
    ranker: Ranker<Standard>,
    follower: Follower,
    frame: u64,
    pub pieces: u32,
    pub decisions: u32,
    /// Explanations of each new decision's top `explain` placements (0: none made).
    pub explain: usize,
    pub explanation: Vec<Explanation>,
    pub guard: Vec<GuardNote>,
    /// Frames the model flagged "may crash" (the NMI may land in the danger band).
    pub may_crash_frames: u32,
}

/// The newest crash-guard notes kept.
const GUARD_NOTES: usize = 50;

impl Bot {
    pub fn new(level: u8, seed: u64, profile: &str, explain: usize) -> Result<Bot, String> {
        let profile = profile_named(profile)?;
        let (planner, ranker) = planner_for(profile)?;
        Ok(Bot {
            game: Game::seeded(level, seed),
            planner,
            ranker,
            follower: Follower::default(),
            frame: 0,
            pieces: 0,
            decisions: 0,
            explain,
            explanation: Vec::new(),
            guard: Vec::new(),
            may_crash_frames: 0,
        })
    }

    pub fn over(&self) -> bool {
        self.game.is_over() || self.game.crashed.is_some()
    }

    /// One frame: plan when a piece is under control without a plan, press its buttons.
    pub fn step(&mut self) {
        if self.over() {
            return;
        }
        let in_control = self.game.play_state == PlayState::Control;
        let deciding = in_control && self.follower.following().is_none();
        let game = &self.game;
        let planned = self
            .follower
            .ensure_plan(&mut self.planner, self.frame, in_control, || {
                Ok::<_, std::convert::Infallible>(game)
            });
        if let Err(never) = planned {
            match never {}
        }
        if deciding && self.follower.following().is_some() {
            self.decided();
        }
        let input = self.follower.pad(in_control);
        let ev = self.game.step(input);
        self.frame += 1;
        let seen = Seen {
            frame: self.frame,
            controlled: in_control,
            in_control: self.game.play_state == PlayState::Control,
            piece: Pos::of(&self.game.active),
        };
        let report = self.follower.seen(input, seen);
        if report.locked.is_some() {
            self.pieces += 1;
        }
        if ev.may_crash {
            self.may_crash_frames += 1;
        }
    }

    /// A new plan was made: count it, explain it, note the crash guard's part past 155.
    fn decided(&mut self) {
        self.decisions += 1;
        if self.explain > 0 {
            let s = Situation::of(&self.game);
            self.explanation = explain_top(&mut self.ranker, &s, self.explain);
        }
        if self.game.level >= CRASH_LEVEL {
            let g = &self.planner.crash_guard;
            let hide_preview = self
                .follower
                .following()
                .is_some_and(|f| f.plan.hide_preview);
            if g.refused > 0 || g.pressure_lines > 0 || g.stretch || hide_preview {
                self.guard.push(GuardNote {
                    piece: self.pieces + 1,
                    level: self.game.level,
                    lines: self.game.line_count(),
                    refused: g.refused,
                    pressure_lines: g.pressure_lines,
                    stretch: g.stretch,
                    hide_preview,
                });
                if self.guard.len() > GUARD_NOTES {
                    self.guard.remove(0);
                }
            }
        }
    }

    /// Runs until `pieces` more pieces have locked, the game ends or `max_frames` pass.
    pub fn run_pieces(&mut self, pieces: u32, max_frames: u32) -> u32 {
        let goal = self.pieces.saturating_add(pieces);
        let mut frames = 0;
        while self.pieces < goal && !self.over() && frames < max_frames {
            self.step();
            frames += 1;
        }
        frames
    }

    /// The game as drawn, with the plan being followed outlined.
    pub fn view(&self) -> View {
        let plan = self.follower.following().map(|f| &f.plan.lock);
        View::of(&self.game, plan)
    }
}
