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
}

impl CrashKind {
    /// The word used in summaries, JSON and CSV.
    pub fn name(self) -> &'static str {
        match self {
            CrashKind::Crash => "crash",
            CrashKind::Hang => "hang",
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
    /// No value of the varying terms brings the NMI into the danger band; `margin_cycles` is
    /// the distance to it (≥ [`SAFETY_MARGIN`]).
    Safe { margin_cycles: u32 },
    /// The NMI can land in the band where the traces show crashes, hangs and long lags
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

/// The danger band, in counted logic cycles (audio excluded): from the first landing inside
/// the main loop's dispatch passes ($A7 = 8, after `savePlayer1State`) to the middle of the
/// gap between the last traced hang (31,765) and the first harmless lag above it (31,853).
/// Every crash (29,872-30,371), hang (31,492-31,765) and long lag (30,229-30,812) of the
/// traces lies inside; no frame outside it did anything but fit or lag one frame.
pub const DANGER_BAND: (u32, u32) = (timing::LANDING_EDGES[0] + 1, 31_809);

/// Where all three traced hangs fell (`c170-well` 31,765, `p168-0` 31,492, `p183-1` 31,631)
/// and nothing else was seen; widened to the last harmless lag below (31,221) and the band's
/// top. Three observations: "crashes" here means "every time so far".
pub const HANG_BAND: (u32, u32) = (31_480, 31_770);

/// Cycles a placement must keep from the danger band to count as safe. The band's edges are
/// the middles of measured gaps 45-88 cycles wide, so the real edge can lie ±44 from ours; on
/// top of that the terms RAM does not fix: the frame length parity (29,780 or 29,781 cycles),
/// the OAM DMA alignment (513 or 514), where the spin loop `lda`/`beq` was when the NMI came
/// (0-6) and the NMI placement difference between emulators ("an instruction or two", ≤ 14).
/// 44 + 1 + 1 + 6 + 14 = 66, rounded up.
pub const SAFETY_MARGIN: u32 = 72;

/// Outcome of a play-state-5 frame whose logic counts `lo..=hi` cycles (audio excluded).
pub fn clear_risk(lo: u32, hi: u32) -> ClearRisk {
    let (a, b) = DANGER_BAND;
    if lo >= HANG_BAND.0 && hi <= HANG_BAND.1 {
        return ClearRisk::Crashes;
    }
    let margin = if hi < a {
        a - hi
    } else if lo > b {
        lo - b
    } else {
        return ClearRisk::MayCrash;
    };
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
    /// Level, lines (BCD [$70, $71]) and score (BCD) before the clear.
    pub level: u8,
    pub lines: [u8; 2],
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
/// whether the flash's sound write runs (frame counter ≡ 4 mod 8).
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
