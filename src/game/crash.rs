//! How a game ends without a top-out on the real cartridge: the CPU leaves the game (a crash)
//! or the line-clear frame's logic never finishes while the NMI runs on (a hang).

use std::fmt;

/// Which way the cartridge stopped playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrashKind {
    /// The NMI landed where it corrupts the jump address: the CPU runs into zero page and
    /// nothing in RAM changes any more (the frame counter stops).
    Crash,
    /// The logic never finishes its frame: the NMI still runs (frame counter and RNG move),
    /// the play state never changes.
    Hang,
    /// The corrupted jump ran into the legal screen's tail (`Wait::LegalScreen`): after its two
    /// waits `inc gameMode` hands the game to the attract demo, whose buttons and pieces are not
    /// the player's (`c157-mixed`).
    Demo,
}

impl CrashKind {
    /// The word used in summaries, JSON and CSV.
    pub fn name(self) -> &'static str {
        match self {
            CrashKind::Crash => "crash",
            CrashKind::Hang => "hang",
            CrashKind::Demo => "demo",
        }
    }

    /// What the cartridge did, for a sentence: "the cartridge crashed at frame ...".
    pub fn past(self) -> &'static str {
        match self {
            CrashKind::Crash => "crashed",
            CrashKind::Hang => "hung",
            CrashKind::Demo => "fell into the attract demo",
        }
    }
}

impl fmt::Display for CrashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

use super::score;
use super::timing::{self, NmiWork};

/// What the coming play-state-5 frame does to the cartridge, for every value of the terms
/// that vary between emulators and consoles (see [`clear_risk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClearRisk {
    /// No value of the varying terms brings the NMI within [`SAFETY_MARGIN`] of a window
    /// ([`DANGER_WINDOWS`]); `margin_cycles` is the distance to the nearest one
    /// (≥ [`SAFETY_MARGIN`]).
    Safe {
        /// Cycles from the frame's counted logic range to the nearest window.
        margin_cycles: u32,
    },
    /// The NMI can land in a window where the traces show crashes, long lags or hangs
    /// (which of those, or none, depends on what RAM does not hold).
    MayCrash,
    /// Every traced frame with these counted cycles hung the game.
    Crashes,
}

impl ClearRisk {
    /// True for [`ClearRisk::Safe`].
    pub fn is_safe(self) -> bool {
        matches!(self, ClearRisk::Safe { .. })
    }

    /// Orders risks for a chooser: safe ones by margin, then "may crash", then "crashes".
    pub fn rank(self) -> i64 {
        match self {
            ClearRisk::Safe { margin_cycles } => margin_cycles as i64,
            ClearRisk::MayCrash => -1,
            ClearRisk::Crashes => -2,
        }
    }
}

/// Where the eight `switch_s_plus_2a` dispatches of the main loop's passes through
/// `gameModeState` 5-8 lie relative to each other, in cycles (TetrisGYM `src/modes/crash.asm`,
/// `switchTable` read in reverse: 60, 102, 60, 101, 60, 119, 60). The first entry is the
/// dispatch the NMI reaches with the largest overrun; each one later in the frame is reached
/// with that many fewer counted cycles.
pub const SWITCH_OFFSETS: [u32; 8] = [0, 60, 162, 222, 323, 383, 502, 562];

/// The cycles (TetrisGYM's count) at which an NMI landing in the first dispatch corrupts the
/// jump: 29,739-29,744 and 29,750-29,768 (between them the NMI leaves the pointer alone).
/// The window's two parts are merged here: the gap is narrower than the varying terms.
pub const GYM_WINDOW: (u32, u32) = (29_739, 29_768);

/// Counted logic cycles *L* (`timing::logic_cycles`) minus TetrisGYM's count for the same
/// frame, before the varying terms: fitted on the traces, the only values for which every
/// traced crash lands in a window for some value of the varying terms and no frame that
/// played on lands in one for every value (save `c157-mixed` t=322, which lagged 514 frames:
/// the corrupted jump came back). See docs/crash.md.
pub const GYM_OFFSET: (u32, u32) = (637, 638);

/// The terms that vary from frame to frame and that RAM does not fix, summed (TetrisGYM's
/// "random factors"): which cycle of the spin loop's last instruction the NMI returned to
/// (0-2), the frame length parity (0-1), which of the loop's two instructions it returned to
/// (0 or 3), the OAM DMA alignment (0-1). The RNG bit is counted in *L*.
pub const VARYING_CYCLES: u32 = 7;

/// How far below the counted lower edge of a dispatch window the cartridge was still seen to
/// crash, beyond the varying terms, in the windows of the passes through `gameModeState` 6-8
/// ([`Window::Switch`] 3-7): two games of `nestor cartridge --from-level 150` on tetanes-core
/// crashed at *L* = 29,972 (a single, preview hidden: 14 below window 5's counted edge) and
/// 30,130 (a double: 17 below window 3's), where other frames with the same RAM-visible terms
/// played on, and FCEUX crashed at 29,860 (7 below window 6's). What varies is not in RAM (the
/// count agrees with TetrisGYM's to a few cycles there), so those windows reach this much
/// lower and [`SAFETY_MARGIN`] is kept from the lowered edge. Windows 0-2 keep their counted
/// edges: at the wall (levels 253-255) 91 frames 2-6 cycles below them played on in ten
/// cartridge games, and moving them too made the planner crash 8 games of 10 there. One crash
/// was seen above a window: 5 cycles above window 6 at 253 (preview hidden, two soft-drop
/// rows), inside the margin.
pub const SPREAD_BELOW: u32 = 7;

/// A dispatch window in *L*: every *L* for which some value of the varying terms puts the NMI
/// in it, reaching [`SPREAD_BELOW`] lower from window `k` = 3 on.
const fn switch_window(k: usize) -> (u32, u32) {
    let spread = if k >= 3 { SPREAD_BELOW } else { 0 };
    let offset = SWITCH_OFFSETS[k];
    (
        GYM_WINDOW.0 + GYM_OFFSET.0 - VARYING_CYCLES - spread - offset,
        GYM_WINDOW.1 + GYM_OFFSET.1 - offset,
    )
}

/// The NMI lands in `stageSpriteForNextPiece`'s sprite data ("confetti", next box shown):
/// the main loop spins with the graphics corrupted until the frame counter's low byte is 255
/// or a button is held, then plays on (`c160`: lags of 66, 230, 6 frames; `p162`: 2, 10, 126,
/// 130, 214, 106; one frame when Left or A was held). TetrisGYM's band (29,845-30,184 in its
/// count) mapped to *L* with [`GYM_OFFSET`] and [`VARYING_CYCLES`], and widened to the
/// model's measured band ([`CONFETTI_MODEL`]).
pub const CONFETTI_BAND: (u32, u32) = (29_845 + GYM_OFFSET.0 - VARYING_CYCLES, 30_846);

/// Where the model plays the confetti lag (measured on tetanes-core: middles of the gaps
/// between the last one-frame lag without a button held, 30,469, and the first confetti,
/// 30,540; the last confetti, 30,812, and the next one-frame lag, 30,880).
pub const CONFETTI_MODEL: (u32, u32) = (30_505, 30_846);

/// The lowest *L* seen to hang the cartridge: nestor's game poked to level 150 on tetanes-core
/// hung at level 181 (1,783 and 1,787 lines, a single each) at 31,380-31,381, where
/// TetrisGYM's band mapped with [`GYM_OFFSET`] starts at 31,395; the same *L* played on once,
/// so the varying terms decide there. Frames at 31,356-31,357 played on (6 of 6).
pub const HANG_LOWEST_SEEN: u32 = 31_380;

/// The NMI lands in the confetti code's other entry ("infinite confetti"): the logic never
/// finishes, the NMI runs on (a hang). TetrisGYM's band (30,765-31,193) mapped to *L*, its
/// lower edge moved down to what the cartridge showed ([`HANG_LOWEST_SEEN`], less the
/// varying terms: another phase of them may hang a frame that much lower).
pub const HANG_WINDOW: (u32, u32) = (HANG_LOWEST_SEEN - VARYING_CYCLES, 31_193 + GYM_OFFSET.1);

/// Every window, ascending: the eight dispatches, the confetti band, the hang window. Outside
/// them the NMI lands where it does no harm: in the last state's wait, between dispatches, in
/// the sprite staging, before `savePlayer1State` (the lines or level shown a frame late) or
/// in the points loop.
pub const DANGER_WINDOWS: [(u32, u32); 10] = [
    switch_window(7),
    switch_window(6),
    switch_window(5),
    switch_window(4),
    switch_window(3),
    switch_window(2),
    switch_window(1),
    switch_window(0),
    CONFETTI_BAND,
    HANG_WINDOW,
];

/// The hull of [`DANGER_WINDOWS`]: below and above it nothing but a fit or a one-frame lag
/// was ever seen. Only the windows inside it are dangerous; the gaps between them are safe.
pub const DANGER_BAND: (u32, u32) = (DANGER_WINDOWS[0].0, DANGER_WINDOWS[9].1);

/// The part of [`HANG_WINDOW`] where the NMI lands in it for every value of the varying terms
/// (TetrisGYM's band shifted by both ends of [`GYM_OFFSET`], 7 cycles narrower): the model
/// ends the game there as a hang. All three traced hangs fall inside (`p168-0` 31,492,
/// `p183-1` 31,631, `c170-well` 31,765) and no other traced frame does (31,221 and 31,853
/// lag one frame). No button was held in the three hangs: whether one ends it, as it ends
/// the confetti lag, is not traced.
pub const HANG_BAND: (u32, u32) = (
    30_765 + GYM_OFFSET.1,
    31_193 + GYM_OFFSET.0 - VARYING_CYCLES,
);

/// Cycles a placement must keep from every window to count as safe: the difference between
/// emulators (and consoles) in where the NMI lands, which the windows do not hold. Measured:
/// FCEUX crashed nestor's game at *L* = 29,860 (frame 140,534), 7 cycles below the lowest *L*
/// of its window on tetanes-core, where 15 traced frames played on; two 7-cycle instructions.
pub const SAFETY_MARGIN: u32 = 14;

/// Which window an *L* falls in, if any (without the safety margin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Window {
    /// The `k`-th dispatch (0 = the one reached with the largest overrun).
    Switch(u8),
    /// The confetti band ([`CONFETTI_BAND`]): a lag with corrupted graphics, then play goes on.
    Confetti,
    /// The hang window ([`HANG_WINDOW`]): the logic never finishes.
    Hang,
}

/// The window `logic` (counted cycles *L*) falls in.
pub fn window(logic: u32) -> Option<Window> {
    let i = DANGER_WINDOWS
        .iter()
        .position(|&(a, b)| (a..=b).contains(&logic))?;
    Some(window_at(i))
}

/// The window at index `i` of [`DANGER_WINDOWS`].
fn window_at(i: usize) -> Window {
    match i {
        0..=7 => Window::Switch(7 - i as u8),
        8 => Window::Confetti,
        _ => Window::Hang,
    }
}

/// The window nearest `logic` when it lies within `margin` cycles of it (inside counts as 0):
/// where a frame the safety margin leaves open may crash, and which window it would be.
pub fn window_near(logic: u32, margin: u32) -> Option<Window> {
    let (i, d) = DANGER_WINDOWS
        .iter()
        .map(|&(a, b)| {
            if logic < a {
                a - logic
            } else {
                logic.saturating_sub(b)
            }
        })
        .enumerate()
        .min_by_key(|&(_, d)| d)?;
    (d <= margin).then(|| window_at(i))
}

/// What RAM shows after a crash in the dispatch window `logic` falls in: `gameModeState` one
/// more than the pass the NMI landed in when the window is the first of its pass's two
/// dispatches (`Window::Switch` 0, 2, 4, 6), unchanged in the second. Measured, not counted:
/// the traced crashes in the first dispatches (`p255-0`, `p255-1`, `c255-rebirth-b` in
/// dispatch 1, `p252-0`, `p252-1` in 3, `p249-0`, `p249-1` in 7) show the next state on the
/// frame of the crashing NMI, those in the second (`c156-well`, `p156-1`, nestor's game, all in
/// dispatch 6) the same state; where the wild jump goes from there is not followed.
pub fn crash_shows_next_state(logic: u32) -> bool {
    matches!(window_near(logic, SAFETY_MARGIN), Some(Window::Switch(k)) if k % 2 == 0)
}

/// Distance in cycles from `lo..=hi` to the nearest window (0 when they overlap).
pub fn window_distance(lo: u32, hi: u32) -> u32 {
    DANGER_WINDOWS
        .iter()
        .map(|&(a, b)| if hi < a { a - hi } else { lo.saturating_sub(b) })
        .min()
        .unwrap_or(u32::MAX)
}

/// Outcome of a play-state-5 frame whose logic counts `lo..=hi` cycles (audio excluded):
/// safe when the whole range keeps [`SAFETY_MARGIN`] from every window, so a range that
/// falls in a gap between windows is safe.
pub fn clear_risk(lo: u32, hi: u32) -> ClearRisk {
    if lo >= HANG_BAND.0 && hi <= HANG_BAND.1 {
        return ClearRisk::Crashes;
    }
    let margin = window_distance(lo, hi);
    if margin >= SAFETY_MARGIN {
        ClearRisk::Safe {
            margin_cycles: margin,
        }
    } else {
        ClearRisk::MayCrash
    }
}

/// What decides the cost of the coming play-state-5 frame once a lock is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClearInput {
    /// Level ($64) before the clear.
    pub level: u8,
    /// BCD lines [$70, $71] before the clear.
    pub lines: [u8; 2],
    /// BCD score [$73, $74, $75] before the clear.
    pub score: [u8; 3],
    /// Rows the lock completes (0-4).
    pub cleared: u8,
    /// Soft-drop rows of the locking piece ($6F).
    pub hold_down_points: u8,
    /// First filled column of row 5 after the rows are removed (`updateMusicSpeed`).
    pub row5_first_block: Option<u8>,
}

/// The counted logic cycles (audio excluded) of the play-state-5 frame, as `(min, max)` over
/// the terms the lock does not fix: the RNG's feedback bit on that frame and, for a tetris,
/// whether the flash's sound write runs (frame counter ≡ 0 mod 8). The flash itself always
/// runs before a tetris's frame: the NMI whose animation step ends the clear (counter ≡ 0
/// mod 4) still sees `completedLines` = 4.
pub fn clear_cycles(input: &ClearInput) -> (u32, u32) {
    let mut lines = input.lines;
    let mut level = input.level;
    let mut sc = input.score;
    let mut c = timing::music_speed_cycles(input.row5_first_block);
    if input.cleared == 0 {
        c += timing::LINES_NONE;
    } else {
        c += timing::LINES_SETUP + timing::LINE_LOOP * input.cleared as u32 - 1;
    }
    for _ in 0..input.cleared {
        c += score::add_line_timed(&mut lines, &mut level).1;
    }
    c += score::add_soft_drop_points(&mut sc, input.hold_down_points);
    c += score::add_clear_points(&mut sc, input.cleared, level);
    // The NMI before it: the last animation step blanking the rows, or (no line) the first
    // playfield copy after the row check (rows 0-3).
    let nmi = |rng_bit: bool, sound: bool| {
        let work = if input.cleared == 0 {
            NmiWork {
                rows: 4,
                rng_bit,
                ..NmiWork::default()
            }
        } else {
            NmiWork {
                line_clear: true,
                rows: input.cleared,
                rng_bit,
                tetris_flash: (input.cleared == 4).then_some(sound),
                ..NmiWork::default()
            }
        };
        timing::logic_cycles(work, c)
    };
    (nmi(false, false), nmi(true, true))
}

/// [`clear_risk`] of [`clear_cycles`].
pub fn lock_risk(input: &ClearInput) -> ClearRisk {
    let (lo, hi) = clear_cycles(input);
    clear_risk(lo, hi)
}

/// Most soft-drop rows a piece can bring (`hold_down_points` counts rows dropped, at most
/// the 20 visible rows).
pub const MAX_HOLD_DOWN_POINTS: u8 = 20;

/// [`clear_cycles`] over every soft drop the lock may come with (`hold_down_points` 0 and
/// 2-20; 1 scores like 0), for a chooser that has not fixed the path yet.
pub fn clear_cycles_any_hold(input: &ClearInput) -> (u32, u32) {
    let mut range = clear_cycles(&ClearInput {
        hold_down_points: 0,
        ..*input
    });
    for h in 2..=MAX_HOLD_DOWN_POINTS {
        let (lo, hi) = clear_cycles(&ClearInput {
            hold_down_points: h,
            ..*input
        });
        range = (range.0.min(lo), range.1.max(hi));
    }
    range
}

#[cfg(test)]
mod tests;
