//! Play state 5 (`playState_updateLinesAndStatistics`) with its CPU cycles, and where the
//! frame's late NMI lands: the one routine whose cost grows with the level.

use super::events::{Branch, Events, FrameHint};
use super::game_ram::Game;
use super::play_state::PlayState;
use super::wait::{ShownBlock, Wait};
use crate::game::crash;
use crate::game::crash::CrashKind;
use crate::game::playfield::EMPTY;
use crate::game::score;
use crate::game::timing::{self, Landing};

/// The bytes the NMI's cycle count depends on, as they were before it ran.
#[derive(Clone, Copy)]
pub(super) struct NmiPre {
    pub rng: u16,
    pub frame_counter: u16,
    pub vram_row: u8,
    pub line_clear: bool,
    pub hint: FrameHint,
}

impl Game {
    /// `playState_updateLinesAndStatistics`, with its CPU cycles: the one routine whose cost
    /// grows with the level, so the only place a frame can overrun the next NMI.
    pub(super) fn update_lines_and_score(&mut self, ev: &mut Events, pre: NmiPre) {
        let shown = self.player_block();
        let cleared = self.completed_lines;
        let first_block = (0..10u8).find(|&c| self.field.get(5, c as i16) != EMPTY);
        let mut cycles = timing::music_speed_cycles(first_block);
        if cleared == 0 {
            cycles += timing::LINES_NONE;
        } else {
            cycles += timing::LINES_SETUP + timing::LINE_LOOP * cleared as u32 - 1;
        }
        for _ in 0..cleared {
            let (up, c) = score::add_line_timed(&mut self.lines, &mut self.level);
            ev.level_up |= up;
            cycles += c;
        }
        ev.cleared = cleared;
        cycles += score::add_soft_drop_points(&mut self.score, self.active.hold_down_points);
        self.active.hold_down_points = 0;
        cycles += score::add_clear_points(&mut self.score, cleared, self.level);
        // The NMI before this frame still saw `completedLines` (the tetris flash).
        let nmi = self.nmi_work(pre);
        self.completed_lines = 0;
        self.play_state = PlayState::GoalCheck;
        // `logic` is what the frame runs; `at` the count with the preview shown that puts
        // the late NMI at the same place (they differ only with the preview hidden).
        let full = timing::logic_cycles(nmi, cycles);
        let hidden = self.preview_hidden();
        let (logic, at) = (
            timing::preview_run(full, hidden),
            timing::preview_landing(full, hidden),
        );
        ev.cycles = timing::frame_cycles(nmi, cycles, cleared) - (full - logic);
        ev.lag = timing::lags(ev.cycles);
        self.land(ev, pre, shown, (logic, at));
    }

    /// Where the score frame's late NMI lands (`logic` run, `at` the shown-preview count):
    /// lag, the open audio range, the save loop part done, the crash windows.
    fn land(&mut self, ev: &mut Events, pre: NmiPre, shown: ShownBlock, (logic, at): (u32, u32)) {
        let cleared = ev.cleared;
        let other = pre.hint.branch == Branch::Other;
        // Without the engine's RAM the audio may cost anything the engine can in play: the
        // choice stays the allowance's (inside that range), the frame is open where the range
        // straddles the frame's end.
        let audio = pre.hint.audio.unwrap_or(timing::audio::PLAY_RANGE);
        let (lag, open) = timing::audio_lag(logic, audio, cleared);
        ev.may_lag = open;
        ev.lag = lag != (open && other);
        let logic = at;
        ev.landing = logic;
        let landing = timing::landing(logic);
        if ev.lag || landing != Landing::Done {
            ev.lag = true;
            self.game_mode_state = landing.game_mode_state();
            let before_save = landing == Landing::BeforeSave;
            // An NMI inside `savePlayer1State` leaves the bytes not yet copied at the start.
            let now = self.player_block();
            let shown = shown.partly_saved(now, logic);
            self.wait = Wait::Lag((shown != now).then_some(shown));
            if before_save
                && timing::points_counter_clobbered(logic, shown.digits(), ev.level_up) == Some(0)
            {
                // The NMI's digit write left 0 in the points loop's counter: 255 more
                // iterations, a second lag frame.
                self.wait = Wait::LagTwice(shown);
            }
            if (crash::CONFETTI_MODEL.0..=crash::CONFETTI_MODEL.1).contains(&logic) {
                self.wait = Wait::Confetti;
            }
            let risk = crash::clear_risk(logic, logic);
            ev.may_crash = !risk.is_safe();
            if risk == crash::ClearRisk::Crashes {
                self.crashed = Some(CrashKind::Hang);
                ev.crashed = self.crashed;
            } else if pre.hint.branch != Branch::Model
                && matches!(
                    crash::window_near(logic, crash::SAFETY_MARGIN),
                    Some(crash::Window::Switch(_))
                )
            {
                // The crash branch: the next NMI lands in a dispatch and corrupts its jump,
                // which leaves the game (`Other`) or runs the legal screen's tail.
                self.crashed = Some(if other {
                    CrashKind::Crash
                } else {
                    CrashKind::Demo
                });
                ev.crashed = self.crashed;
                self.wait = Wait::Crashing(crash::crash_shows_next_state(logic));
            }
        }
    }
}
