//! A lock's risk from what it leaves (its [`RiskKey`]), with the next-piece preview's lever:
//! the preview hidden ($DF) for the lock's play-state-5 frame when that makes it safer.
//!
//! Hiding the preview costs the bot nothing: it reads the next piece from RAM ($BF, valid
//! either way). The follower presses Select between the lock and that frame
//! (`search::follow`), so every lock can have either state.

use crate::game::board::Board;
use crate::game::crash::{
    clear_cycles, clear_cycles_any_hold, clear_risk, window_distance, ClearInput, ClearRisk,
    HANG_BAND, HANG_LOWEST_SEEN, SAFETY_MARGIN,
};
use crate::game::timing::preview_landing;

/// The score the guard assumes (see the module doc).
const SCORE_CAP: [u8; 3] = [0x99; 3];

/// [`RiskKey`]'s soft drop when the path is not fixed yet (the next piece's lock): every soft
/// drop is covered ([`clear_cycles_any_hold`]).
pub const HOLD_ANY: usize = crate::game::crash::MAX_HOLD_DOWN_POINTS as usize + 1;

/// What a lock's risk depends on once the decision's level and lines are fixed: the lines it
/// clears (0-4), row 5's first block after the clear (column, or 10 for none) and the
/// soft-drop points its path brings ([`HOLD_ANY`] when the path is not fixed).
pub type RiskKey = (usize, usize, usize);

/// The [`RiskKey`] of a lock leaving `board_after` and clearing `cleared` lines, its path
/// bringing `hold_down_points` (`None`: any path).
pub fn risk_key(board_after: &Board, cleared: u32, hold_down_points: Option<u8>) -> RiskKey {
    let first = (0..10u8).find(|&c| board_after.filled(5, c)).unwrap_or(10);
    let hold = hold_down_points
        .map(usize::from)
        .filter(|&h| h < HOLD_ANY)
        .unwrap_or(HOLD_ANY);
    (cleared.min(4) as usize, first as usize, hold)
}

/// The risk of a [`RiskKey`] from `level` and BCD `lines`: with the preview in the state that
/// makes it safer when `preview` (the lever is used, [`key_preview`]), else shown.
pub fn key_risk(key: RiskKey, level: u8, lines: [u8; 2], preview: bool) -> ClearRisk {
    if preview {
        key_preview(key, level, lines).0
    } else {
        shown_risk(key, level, lines).0
    }
}

/// The risk of a [`RiskKey`] and whether the preview must be hidden for it: hidden only when
/// that ranks strictly better than shown, or both may crash and hidden lands farther from
/// every window (a frame safe with the preview shown keeps it).
pub fn key_preview(key: RiskKey, level: u8, lines: [u8; 2]) -> (ClearRisk, bool) {
    let (risk, hidden, _) = graded(key, level, lines);
    (risk, hidden)
}

/// Orders the risks of keys finer than [`ClearRisk::rank`]: a "may crash" frame farther from
/// every window ranks above a nearer one (safe frames by margin, then "may crash" ones by
/// distance, then "crashes"), with the preview lever used as in [`key_preview`].
pub fn key_grade(key: RiskKey, level: u8, lines: [u8; 2], preview: bool) -> i64 {
    let (risk, distance) = if preview {
        let (r, _, d) = graded(key, level, lines);
        (r, d)
    } else {
        let (r, (lo, hi)) = shown_risk(key, level, lines);
        (r, window_distance(lo, hi))
    };
    match risk {
        ClearRisk::Safe { margin_cycles } => i64::from(margin_cycles),
        ClearRisk::MayCrash => i64::from(distance) - i64::from(SAFETY_MARGIN),
        ClearRisk::Crashes => -i64::from(SAFETY_MARGIN) - 1,
    }
}

/// [`key_preview`] with the chosen state's distance from the nearest window.
fn graded(key: RiskKey, level: u8, lines: [u8; 2]) -> (ClearRisk, bool, u32) {
    let (shown, (lo, hi)) = shown_risk(key, level, lines);
    let shown_distance = window_distance(lo, hi);
    if shown.is_safe() {
        return (shown, false, shown_distance);
    }
    let (hlo, hhi) = (preview_landing(lo, true), preview_landing(hi, true));
    let hidden = range_risk(hlo, hhi);
    let hidden_distance = window_distance(hlo, hhi);
    // Two "may crash" frames are not alike: one inside a window crashes for most values of
    // the varying terms, one a few cycles outside only where emulators differ (at 255 a
    // lock without a line lands inside dispatch 1 shown, 10 cycles below dispatch 6 hidden:
    // on the cartridge, games poked to 252 then passed 255 in 4 of 7 where they had in 0
    // of 10).
    let farther = class(hidden) == 1 && class(shown) == 1 && hidden_distance > shown_distance;
    if class(hidden) > class(shown) || farther {
        (hidden, true, hidden_distance)
    } else {
        (shown, false, shown_distance)
    }
}

/// The risk of a [`RiskKey`] with the preview shown, and its landing range.
fn shown_risk(key: RiskKey, level: u8, lines: [u8; 2]) -> (ClearRisk, (u32, u32)) {
    let input = ClearInput {
        level,
        lines,
        score: SCORE_CAP,
        cleared: key.0 as u8,
        hold_down_points: key.2.min(HOLD_ANY - 1) as u8,
        row5_first_block: (key.1 < 10).then_some(key.1 as u8),
    };
    let (lo, hi) = if key.2 >= HOLD_ANY {
        clear_cycles_any_hold(&input)
    } else {
        clear_cycles(&input)
    };
    (range_risk(lo, hi), (lo, hi))
}

/// The margin (cycles from the nearest danger window) a safe lock's frame is given no cost
/// under. [`SAFETY_MARGIN`](crate::game::crash::SAFETY_MARGIN) (14) covers what the traces and
/// FCEUX showed between emulators; consoles differ by their power-on alignment too, so among
/// safe locks the planner prefers a wider one. 30 cycles is about the middle of the narrowest
/// gaps between two windows (58-75 cycles between the windows, 30-48 with the margin taken off
/// both sides).
pub const PREFERRED_MARGIN: u32 = 30;

/// What a safe lock at [`SAFETY_MARGIN`](crate::game::crash::SAFETY_MARGIN) costs (evaluation
/// units, falling linearly to 0 at [`PREFERRED_MARGIN`]): a quarter of a risky line in a
/// stretch, so a thin margin breaks near-ties and never outweighs a hole.
pub const THIN_MARGIN_COST: f64 = 5.0;

/// The cost of a lock's risk for its margin: > 0 only for a safe lock closer than
/// [`PREFERRED_MARGIN`] to a window.
pub fn thin_margin_cost(risk: ClearRisk) -> f64 {
    let floor = crate::game::crash::SAFETY_MARGIN;
    match risk {
        ClearRisk::Safe { margin_cycles: m } if m < PREFERRED_MARGIN => {
            THIN_MARGIN_COST * f64::from(PREFERRED_MARGIN - m.max(floor))
                / f64::from(PREFERRED_MARGIN - floor)
        }
        _ => 0.0,
    }
}

/// 2 safe, 1 may crash, 0 crashes.
pub(super) fn class(r: ClearRisk) -> u8 {
    match r {
        ClearRisk::Safe { .. } => 2,
        ClearRisk::MayCrash => 1,
        ClearRisk::Crashes => 0,
    }
}

/// The risk of the landing range `lo..=hi` (counted with the preview shown).
fn range_risk(lo: u32, hi: u32) -> ClearRisk {
    // A range reaching into the hang band can hang for sure (all traced frames there hung):
    // the guard ranks it with the hangs, below every other "may crash". So does one reaching
    // the lowest hang seen: the cartridge hung 4 times in 5 at 31,380-31,381 (the doubles at
    // 181), which the model leaves open.
    if lo <= HANG_BAND.1 && hi >= HANG_LOWEST_SEEN {
        return ClearRisk::Crashes;
    }
    clear_risk(lo, hi)
}

/// The risk of locking to `board_after` (the board with the piece placed and its `cleared`
/// rows removed) from `level` and BCD `lines`, by a path bringing `hold_down_points` soft-drop
/// points (`None`: any path), the preview lever used when `preview` ([`key_risk`]).
pub fn lock_risk(
    board_after: &Board,
    (level, lines): (u8, [u8; 2]),
    cleared: u32,
    hold_down_points: Option<u8>,
    preview: bool,
) -> ClearRisk {
    key_risk(
        risk_key(board_after, cleared, hold_down_points),
        level,
        lines,
        preview,
    )
}
