//! The whole A-type game as the cartridge runs it, one NMI plus one game-logic pass per frame:
//! play states 1-10 with their exact waits, the line-clear animation, the curtain, the $07 quirk.

use super::active::{Active, Control, FIRST_PIECE_DELAY};
use super::board::{Board, Collide};
use super::crash::CrashKind;
use super::pad::{Buttons, PadState};
use super::piece::{Orientation, Piece, HIDDEN_ID};
use super::playfield::{Playfield, CURTAIN, EMPTY};
use super::pos::Pos;
use super::rng::{self, Picker};
use super::score::{self, drop_speed, minus};
use super::timing::NmiWork;

mod events;
mod game_ram;
mod legal;
mod legal_wait;
mod play_state;
mod score_frame;
mod wait;
pub use events::{Branch, Events, FrameHint};
pub use game_ram::Game;
pub use legal_wait::{LegalWait, LEGAL_LEAD, LEGAL_SLEEP};
pub use play_state::PlayState;
use score_frame::NmiPre;
pub use wait::{ShownBlock, Wait};

/// Block-tile → byte for boards given as text (`1` $7B, `2` $7C, `3` $7D, other filled $7B).
pub fn tile_from_char(c: char) -> u8 {
    match c {
        '.' => EMPTY,
        '2' => 0x7C,
        '3' => 0x7D,
        '#' => CURTAIN,
        _ => 0x7B,
    }
}

impl Game {
    /// A fresh A-type game as `initGameState` leaves it: empty page, first two picks, the
    /// first-piece delay armed; `rng`, `spawn_count` and `frame_counter` as the menus left them.
    pub fn new(start_level: u8, rng: u16, spawn_count: u8, frame_counter: u16) -> Game {
        let mut picker = Picker {
            rng,
            spawn_id: 0,
            spawn_count,
        };
        let current = picker.pick();
        picker.rng = rng::step(picker.rng);
        let next = picker.pick();
        let mut active = Active::spawn(current, 0, 0);
        active.ary = FIRST_PIECE_DELAY;
        Game {
            field: Playfield::new(),
            active,
            play_state: PlayState::Control,
            next,
            level: start_level,
            start_level,
            lines: [0; 2],
            score: [0; 3],
            picker,
            frame_counter,
            held: PadState::NONE,
            newly: PadState::NONE,
            vram_row: 0,
            completed_lines: 0,
            completed_rows: [0; 4],
            line_index: 0,
            row_y: 0,
            curtain_row: 0,
            game_mode_state: 2,
            wait: Wait::None,
            crashed: None,
            display_next_piece: 0,
        }
    }

    /// A game started from a 64-bit seed (for simulations): the seed is mixed (SplitMix64) into
    /// a point of the LFSR's cycle (the reset seed stepped 0..32766 times, as the menus would),
    /// the pick counter and the frame counter, so every seed gives its own reproducible pieces.
    pub fn seeded(start_level: u8, seed: u64) -> Game {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let rng = (0..z % 32767).fold(rng::RESET_SEED, |v, _| rng::step(v));
        Game::new(start_level, rng, (z >> 16) as u8, (z >> 24) as u16)
    }

    /// Lines cleared, both bytes decoded as BCD: the trace schema's `lines` (1,600 lines and up
    /// read wrong there; [`Game::line_count`] is the real count).
    pub fn lines(&self) -> u32 {
        score::bcd_value(&self.lines)
    }

    /// Lines cleared as the cartridge counts them (the hundreds byte in binary).
    pub fn line_count(&self) -> u32 {
        score::line_count(self.lines)
    }

    /// Score, decoded from BCD.
    pub fn score(&self) -> u32 {
        score::bcd_value(&self.score)
    }

    /// The current piece's orientation, when one is shown.
    pub fn orientation(&self) -> Option<Orientation> {
        Orientation::new(self.active.id)
    }

    /// The next piece.
    pub fn next_piece(&self) -> Option<Piece> {
        Piece::from_spawn_id(self.next)
    }

    /// Occupancy of rows −2..19 for the planner.
    pub fn board(&self) -> Board {
        self.field.board()
    }

    /// The next-piece preview is hidden ($DF ≠ 0).
    pub fn preview_hidden(&self) -> bool {
        self.display_next_piece != 0
    }

    /// True once the curtain has come down (the model stops here: menus are not modelled).
    pub fn is_over(&self) -> bool {
        if self.crashed.is_some() {
            return true;
        }
        match self.play_state {
            PlayState::Ended => true,
            PlayState::Curtain => self.curtain_row == 20,
            _ => false,
        }
    }

    /// Frames per row at the current level.
    pub fn drop_speed(&self) -> u8 {
        drop_speed(self.level)
    }

    /// Runs one frame with `input` on the controller: the NMI, then (unless the main loop is
    /// parked) the game logic, states 2-8.
    pub fn step(&mut self, input: PadState) -> Events {
        self.step_with(input, FrameHint::default())
    }

    /// [`Game::step`] with what the caller knows from RAM ([`FrameHint`]).
    pub fn step_with(&mut self, input: PadState, hint: FrameHint) -> Events {
        let mut ev = Events::default();
        match self.crashed {
            // The CPU has left the game: nothing in RAM changes any more, except that the NMI
            // after the crashing frame (the one that lands in the dispatch) still runs.
            Some(CrashKind::Crash) => {
                if let Wait::Crashing(next) = self.wait {
                    self.nmi(input);
                    self.wait = Wait::None;
                    if next {
                        self.game_mode_state += 1;
                    }
                }
                return ev;
            }
            // The logic never finishes; only the NMI runs.
            Some(CrashKind::Hang) => {
                self.nmi(input);
                return ev;
            }
            Some(CrashKind::Demo) => {
                if let Some(ev) = self.step_legal(input, hint) {
                    return ev;
                }
            }
            None => {}
        }
        let pre = NmiPre {
            rng: self.picker.rng,
            frame_counter: self.frame_counter,
            vram_row: self.vram_row,
            line_clear: self.play_state == PlayState::LineClear,
            hint,
        };
        self.nmi(input);
        match self.wait {
            Wait::QuirkNmi => {
                // States 7 and 8 run after the extra NMI; 8 sets $A7 back to 2.
                self.wait = Wait::None;
                self.game_mode_state = 2;
                return ev;
            }
            Wait::Lag(_) => {
                // The late logic reached its wait after this NMI set the flag it then cleared.
                self.wait = Wait::None;
                self.game_mode_state = 2;
                return ev;
            }
            Wait::LagTwice(shown) => {
                self.wait = Wait::Lag(Some(shown));
                ev.lag = true;
                return ev;
            }
            Wait::Confetti => {
                if self.frame_counter & 0xFF == 0xFF || self.held != PadState::NONE {
                    self.wait = Wait::None;
                    self.game_mode_state = 2;
                } else {
                    ev.lag = true;
                }
                return ev;
            }
            Wait::Ending | Wait::Crashing(_) | Wait::LegalScreen(_) => return ev,
            Wait::None => {}
        }
        ev.logic = true;
        // State 2.
        self.active.fall_timer = self.active.fall_timer.wrapping_add(1);
        if self.newly.contains(PadState::SELECT) {
            self.display_next_piece ^= 1;
        }
        // State 4: the play-state handler.
        self.run_play_state(&mut ev, pre);
        if self.wait == Wait::Ending {
            self.game_mode_state = 4;
            return ev;
        }
        if ev.lag || ev.crashed.is_some() {
            // `update_lines_and_score` set `wait` and `game_mode_state` to where the NMI landed.
            return ev;
        }
        // After state 6 the main loop waits for an extra NMI when held is exactly $07.
        if self.held.bits() == 0x07 {
            self.wait = Wait::QuirkNmi;
            self.game_mode_state = 7;
        } else {
            self.game_mode_state = 2;
        }
        ev
    }

    /// The NMI: playfield copy or line-clear animation, frame counter, RNG, controller poll.
    fn nmi(&mut self, input: PadState) {
        if self.play_state == PlayState::LineClear {
            // The animation acts when the counter, before this NMI's increment, is ≡ 0 mod 4.
            if self.frame_counter & 3 == 0 {
                self.row_y = self.row_y.wrapping_add(1);
                if !minus(self.row_y, 5) {
                    self.play_state = PlayState::Score;
                }
            }
            self.vram_row = 0;
        } else {
            for _ in 0..4 {
                if !minus(self.vram_row, 21) {
                    break;
                }
                self.vram_row = self.vram_row.wrapping_add(1);
                if !minus(self.vram_row, 20) {
                    self.vram_row = 0x20;
                }
            }
        }
        self.frame_counter = self.frame_counter.wrapping_add(1);
        self.picker.rng = rng::step(self.picker.rng);
        self.newly = input.newly_from(self.held);
        self.held = input;
    }

    /// What the NMI that just ran did, as far as its cycle count depends on it, worked out from
    /// the state it started from (`pre`) only on the frames that need it (play state 5).
    fn nmi_work(&self, pre: NmiPre) -> NmiWork {
        let mut work = NmiWork {
            rng_bit: ((pre.rng >> 8) ^ pre.rng) & 2 != 0,
            line_clear: pre.line_clear,
            ..NmiWork::default()
        };
        if self.completed_lines == 4 && pre.frame_counter & 3 == 0 {
            work.tetris_flash = Some(pre.frame_counter & 7 == 0);
        }
        if pre.line_clear {
            if pre.frame_counter & 3 == 0 {
                work.rows = self.completed_rows.iter().filter(|&&r| r != 0).count() as u8;
            }
        } else {
            let mut v = pre.vram_row;
            for _ in 0..4 {
                if !minus(v, 21) {
                    break;
                }
                v = v.wrapping_add(1);
                work.rows += 1;
                if !minus(v, 20) {
                    v = 0x20;
                    work.copy_done = true;
                }
            }
        }
        work
    }

    fn run_play_state(&mut self, ev: &mut Events, pre: NmiPre) {
        match self.play_state {
            PlayState::Control => {
                let speed = drop_speed(self.level);
                let control = self.active.control(
                    Buttons {
                        held: self.held,
                        newly: self.newly,
                    },
                    speed,
                    &self.field,
                );
                if control == Control::Locked {
                    self.play_state = PlayState::Lock;
                    self.update_vram_row();
                    ev.locked = Pos::of(&self.active);
                }
            }
            PlayState::Lock => self.lock(ev),
            PlayState::RowCheck => self.check_row(),
            PlayState::LineClear | PlayState::Noop | PlayState::Ended => {}
            PlayState::Score => self.update_lines_and_score(ev, pre),
            PlayState::GoalCheck | PlayState::Garbage | PlayState::Increment => {
                self.play_state = self.play_state.next();
            }
            PlayState::Spawn => self.spawn(ev, pre.hint),
            PlayState::Curtain => self.curtain(),
        }
    }

    /// `updatePlayfield`: the NMI must redraw from two rows above the piece.
    fn update_vram_row(&mut self) {
        let y = self.active.y.wrapping_sub(2);
        let r0 = if y & 0x80 != 0 { 0 } else { y };
        if minus(r0, self.vram_row) {
            self.vram_row = r0;
        }
    }

    fn screen_copied(&self) -> bool {
        !minus(self.vram_row, 0x20)
    }

    fn lock(&mut self, ev: &mut Events) {
        let a = self.active;
        if !self.field.fits(a.x, a.y, a.id) {
            self.play_state = PlayState::Curtain;
            self.curtain_row = 0xF0;
            ev.topped_out = true;
            return;
        }
        if !self.screen_copied() {
            return;
        }
        let tile = Orientation::new(a.id).map_or(EMPTY, Orientation::tile);
        self.field.write_piece(a.x, a.y, a.id, tile);
        self.line_index = 0;
        self.update_vram_row();
        self.play_state = PlayState::RowCheck;
    }

    fn check_row(&mut self) {
        if !self.screen_copied() {
            return;
        }
        let y = self.active.y.wrapping_sub(2);
        let base = if y & 0x80 != 0 { 0 } else { y };
        let row = base.wrapping_add(self.line_index);
        let i = (self.line_index & 3) as usize;
        if self.field.row_complete(row) {
            self.completed_lines = self.completed_lines.wrapping_add(1);
            self.completed_rows[i] = row;
            self.field.remove_row(row);
            self.active.id = HIDDEN_ID;
        } else {
            self.completed_rows[i] = 0;
        }
        self.line_index = self.line_index.wrapping_add(1);
        if minus(self.line_index, 4) {
            return;
        }
        self.vram_row = 0;
        self.row_y = 0;
        self.play_state = if self.completed_lines == 0 {
            PlayState::Score
        } else {
            PlayState::LineClear
        };
    }

    /// The fields play state 5 changes, as the model holds them (the working block at $40).
    fn player_block(&self) -> ShownBlock {
        ShownBlock {
            play_state: self.play_state,
            level: self.level,
            lines: self.lines,
            score: self.score,
            completed_lines: self.completed_lines,
            hold_down_points: self.active.hold_down_points,
        }
    }

    /// What RAM's player block shows for the fields play state 5 changes, when it is not the
    /// model's state: at the end of a frame the NMI interrupted before `savePlayer1State`.
    pub fn shown_block(&self) -> Option<ShownBlock> {
        match self.wait {
            Wait::Lag(shown) => shown,
            Wait::LagTwice(shown) => Some(shown),
            _ => None,
        }
    }

    fn spawn(&mut self, ev: &mut Events, hint: FrameHint) {
        if !self.screen_copied() {
            return;
        }
        self.active = Active::spawn(self.next, self.active.das, self.active.hold_down_points);
        // The demo's `chooseNextTetrimino` reads its table in ROM and leaves the picker alone.
        self.next = match hint.demo_next {
            Some(next) if self.in_demo() => next,
            _ => self.picker.pick(),
        };
        self.play_state = PlayState::Control;
        ev.spawned = true;
    }

    /// `updateGameOverCurtain`: one tick every fourth frame (counter after this NMI's increment).
    fn curtain(&mut self) {
        if self.curtain_row == 20 {
            if self.score[2] >= 0x03 {
                self.wait = Wait::Ending;
            } else if self.newly.bits() == PadState::START.bits() {
                self.play_state = PlayState::Ended;
                self.newly = PadState::NONE;
            }
            return;
        }
        if self.frame_counter & 3 != 0 {
            return;
        }
        if self.curtain_row & 0x80 == 0 {
            let row = self.curtain_row as i16;
            for c in 0..10 {
                self.field.set(row, c, CURTAIN);
            }
            self.active.id = HIDDEN_ID;
            self.vram_row = self.curtain_row;
        }
        self.curtain_row = self.curtain_row.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests;
