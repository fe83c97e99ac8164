//! Keeps the planner's lock away from play-state-5 frames that may crash the cartridge: each
//! candidate lock's risk from `game::crash`, and which candidates the planner may choose.
//!
//! The planner's `Situation` carries no score: past level 140 (the only levels where a lock
//! can come near the danger band) a game from any start level holds the 999,999 cap, so the
//! guard counts the points loop at the cap. The first lock's risk counts its own path's soft
//! drop; the next piece's lock, whose path is not fixed, counts the plain drop
//! ([`CrashGuard::second_penalty`]); a caller with no path at all covers every soft drop
//! ([`clear_cycles_any_hold`](crate::game::crash::clear_cycles_any_hold)).

use crate::game::board::{Board, FULL_ROW};
use crate::game::crash::ClearRisk;
use crate::search::pairs::level_and_lines_after;

mod risk;
pub use risk::{
    key_grade, key_preview, key_risk, lock_risk, risk_key, thin_margin_cost, RiskKey, HOLD_ANY,
    PREFERRED_MARGIN, THIN_MARGIN_COST,
};

/// Below this level no lock's frame comes within the safety margin of the danger band (the
/// test `nothing_below_level_140_comes_near_the_band` in `game::crash` checks every level,
/// clear and soft drop), so the guard costs nothing there.
pub const GUARD_FROM_LEVEL: u8 = 140;

/// What the pair value adds when the next piece's lock (look-ahead, never refused) may crash:
/// larger than any difference between two boards' values, so that a pair whose two clears are
/// safe always ranks first, yet finite, so that the pairs still rank among themselves when
/// every one is risky.
pub const SECOND_LOCK_PENALTY: f64 = 1.0e6;

/// Stack height (rows) from which, when no safe lock clears a line, the guard lets a tetris
/// whose clear may crash through: without it the stack only grows through a stretch of lines
/// where every clear may crash (levels 166-170 in the broad band: 40 lines) and the game tops
/// out. A tetris burns four lines for one risky frame.
pub const PRESSURE_TETRIS: u8 = 6;

/// Stack height from which any risky clear (the most lines the candidates offer) is let
/// through when no safe lock clears a line: above it the level-29 gravity starts cutting
/// off columns, and a top-out is sure where a "may crash" is only possible.
pub const PRESSURE_ANY: u8 = 10;

/// A key's risk and what its margin costs ([`thin_margin_cost`], [`INSIDE_PENALTY`]).
type KeyCost = (ClearRisk, f64);

/// Which candidate locks the planner may choose: those of the best risk class present
/// (safe, else "may crash", else "crashes"); the rest are refused. One exception keeps the
/// game alive through stretches where no clear is safe: when every safe candidate is a lock
/// without a line and the stack is high ([`PRESSURE_TETRIS`], [`PRESSURE_ANY`]), the "may
/// crash" candidates that clear the most lines are let through too (never a "crashes" one),
/// and counted in [`CrashGuard::risky_allowed`].
#[derive(Clone, Debug, Default)]
pub struct CrashGuard {
    /// Risk class per candidate: 2 safe, 1 may crash, 0 crashes.
    class: Vec<u8>,
    /// Lines each candidate clears.
    lines: Vec<u8>,
    /// What each candidate's margin costs ([`thin_margin_cost`]).
    margin_cost: Vec<f64>,
    /// Risk per [`RiskKey`] within the current decision (most decisions need 2-5).
    memo: Box<[[[Option<KeyCost>; HOLD_ANY + 1]; 11]; 5]>,
    best: u8,
    /// Whether the last [`CrashGuard::screen`] screened (level and `off`).
    active: bool,
    /// Risk class per (first lock's lines, second lock's [`risk_key`]) within the decision.
    memo2: [[[Option<u8>; 11]; 5]; 5],
    /// [`clear_sizes`] per lines the pair clears (0-8) within
    /// the decision.
    memo_need: [Option<ClearSizes>; 9],
    /// Candidates refused by the last [`CrashGuard::screen`].
    pub refused: usize,
    /// Decisions that refused at least one candidate, since the planner was made.
    pub decisions_with_refusals: u64,
    /// Lets every candidate through (for comparisons: what the planner would do unguarded).
    pub off: bool,
    /// Turns the pressure exception off (for measuring what it buys: strict refusal).
    pub strict: bool,
    /// Leaves the next-piece preview shown on every frame (the lever off: what it buys, and
    /// the tests written for the other levers).
    pub no_preview: bool,
    /// Lines of the "may crash" candidates the last screen let through under pressure (0:
    /// none).
    pub pressure_lines: usize,
    /// Decisions whose screen let "may crash" candidates through under pressure.
    pub risky_allowed: u64,
    /// The last screen's level and lines have no safe clear of 1-4 lines on an open board:
    /// every clear there is a risk, so the pair value weighs them as a cost per line rather
    /// than shunning them (which leaves holes and tops out).
    pub stretch: bool,
    /// The last screen let every "may crash" candidate through (a stretch).
    stretch_allowed: bool,
}

/// What a "may crash" lock costs on top of [`STRETCH_PENALTY`] when its frame lands inside a
/// window for some value of the varying terms (distance 0), not only inside the safety
/// margin: the level-181 doubles at *L* 31,380 hung the cartridge 2 times in 3. On 20 games
/// from 19 to the rebirth (seeds 7-26) such doubles fell from 13 to 1, the rebirths went from
/// 19 to 20.
pub const INSIDE_PENALTY: f64 = 60.0;

/// [`INSIDE_PENALTY`] for a "may crash" risk whose key lands inside a window, else 0.
fn inside_cost(r: ClearRisk, k: RiskKey, (level, lines): (u8, [u8; 2]), preview: bool) -> f64 {
    let inside = -i64::from(crate::game::crash::SAFETY_MARGIN);
    if r == ClearRisk::MayCrash && key_grade(k, level, lines, preview) <= inside {
        INSIDE_PENALTY
    } else {
        0.0
    }
}

/// What a "may crash" clear costs per line in a stretch (evaluation units, about one hole of
/// the killscreen weights): 20 games from 19 reach rebirth 15 of 16 times with 20, 2 of 8 with
/// 80 (the bot waits for tetrises it cannot build) and 1 of 8 with 5 (risky singles pile up).
pub const STRETCH_PENALTY: f64 = 20.0;

fn stretch_penalty() -> f64 {
    STRETCH_PENALTY
}

/// Whether `level` and BCD `lines` are in a stretch where the safe locks are too few to play
/// on (row 5 empty, no soft drop): at most one clear size of 1-4 lines is safe (levels 168-170
/// with the narrow windows), or a lock without a line is not (249-255 at some line counts):
/// risky frames are weighed there, not refused. Counting only "no clear size safe" (as first
/// built) left the doubles alone at 168 and the game built holes only singles, which hang
/// there, could clear: 200 games from 19 reach the rebirth 90.5 % of the time against 74 %.
pub fn in_stretch(level: u8, lines: [u8; 2], preview: bool) -> bool {
    let unsafe_lock = |n: usize| !key_risk((n, 10, 0), level, lines, preview).is_safe();
    (1..=4).filter(|&n| !unsafe_lock(n)).count() <= 1 || unsafe_lock(0)
}

/// How many lines ahead [`clear_sizes`] looks: at 169 (1,630-1,639 lines) only the
/// doubles are safe and at 170 (1,640-1,646) only triples and tetrises, so the well for them
/// is built during the doubles-only stretch (games that reached 170 without one topped out).
pub const NEED_LOOKAHEAD: u32 = 12;

/// What the pair value adds per missing ready row ([`ready_rows`]) when the next line counts
/// allow only big clears ([`ClearSizes::need`]), half a hole of the killscreen weights: on
/// 120 games from 19 (seeds 1-120, to level 173) 3 top out with 10 and look-ahead 12, 5 with
/// 15 and look-ahead 8 or 12, 8 with 10 and 8, 20 with 20, 38 with 30, 10 without the rule.
pub const READY_PENALTY: f64 = 10.0;

/// The clear sizes the line counts ahead ask for: at each count from `level`/`lines` to
/// [`NEED_LOOKAHEAD`] lines on (row 5 empty, plain drop or some soft drop), which clear sizes
/// are safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClearSizes {
    /// The smallest clear size (3 or 4) that is the least one safe at some count where no
    /// single or double is safe but a triple or tetris is; 0 when there is no such count.
    pub need: u8,
    /// The largest clear size (1 or 2) that is the largest one safe at some count where no
    /// triple or tetris is safe; 4 when there is no such count.
    pub cap: u8,
    /// Line counts in the look-ahead where some clear is safe but no single is.
    pub singles_out: u8,
}

/// [`ClearSizes`] from `level`/`lines` (BCD) on, one pass over the look-ahead.
pub fn clear_sizes(level: u8, lines: [u8; 2], preview: bool) -> ClearSizes {
    let safe_any = |n: usize, level, lines| {
        (0..HOLD_ANY).any(|h| key_risk((n, 10, h), level, lines, preview).is_safe())
    };
    let mut sizes = ClearSizes {
        need: 0,
        cap: 4,
        singles_out: 0,
    };
    let (mut level, mut lines) = (level, lines);
    for d in 0..=NEED_LOOKAHEAD {
        if d > 0 {
            (level, lines) = level_and_lines_after(level, lines, 1);
        }
        if level < GUARD_FROM_LEVEL {
            continue;
        }
        let safe = [1, 2, 3, 4].map(|n| safe_any(n, level, lines));
        let least = (1..=4).find(|&n| safe[n - 1]);
        let most = (1..=4).rev().find(|&n| safe[n - 1]);
        if let (Some(least), Some(most)) = (least, most) {
            if least >= 2 {
                sizes.singles_out += 1;
            }
            if least >= 3 {
                sizes.need = sizes.need.max(least as u8);
            }
            if most <= 2 {
                sizes.cap = sizes.cap.min(most as u8);
            }
        }
    }
    sizes
}

/// What the pair value adds per ready row ([`ready_rows`]) above [`ClearSizes::cap`] (unless
/// [`ClearSizes::need`] asks for a big clear): a well deeper than the safe clears can use is
/// filled only by a clear that may crash, or capped.
/// At 179-183 (1,737-1,777 lines) no double or triple is safe for 40 lines; games that reached
/// it with a deep well covered it with singles and topped out (3 of 40 games from 19 to 185).
pub const EXCESS_READY_PENALTY: f64 = 10.0;

/// The rows a triple or tetris can clear at once: the most rows, stacked right above a
/// column's top, that are full but for that column.
pub fn ready_rows(board: &Board) -> u8 {
    let rows = board.visible();
    (0..10u8)
        .map(|c| {
            let hole = FULL_ROW & !(1u16 << c);
            let top = rows
                .iter()
                .position(|&r| r & (1 << c) != 0)
                .unwrap_or(rows.len());
            rows[..top].iter().rev().take_while(|&&r| r == hole).count() as u8
        })
        .max()
        .unwrap_or(0)
}

/// What the pair value adds per row with a hole ([`rows_with_holes`]) when singles are unsafe
/// at [`SINGLES_OUT_FROM`] or more of the line counts ahead ([`ClearSizes::singles_out`]):
/// such a row is cleared by a single more often than not, and at 167-170 (1,619-1,649 lines)
/// every single hangs. 400 games from 19 to level 175 (seeds 1-400): 21 top-outs at 168-172
/// without the rule, 2 with 10 and 3 counts (3 with 10 and 6 counts, 8 with 20 and 6).
pub const HOLE_ROW_PENALTY: f64 = 10.0;

/// How many of the [`NEED_LOOKAHEAD`] line counts ahead must forbid singles before
/// [`HOLE_ROW_PENALTY`] applies.
pub const SINGLES_OUT_FROM: u8 = 3;

/// Rows holding an empty cell with a filled cell somewhere above it in its column.
pub fn rows_with_holes(board: &Board) -> u8 {
    let mut covered = 0u16;
    let mut n = 0;
    for &r in board.visible() {
        if !r & covered & FULL_ROW != 0 {
            n += 1;
        }
        covered |= r;
    }
    n
}

impl CrashGuard {
    /// Screens `n` candidates (not below [`GUARD_FROM_LEVEL`]) on a board whose stack is
    /// `height` rows: `key(i)` is candidate `i`'s [`risk_key`], `risk(key)` the risk of that
    /// key (called once per distinct key).
    pub fn screen(
        &mut self,
        (level, lines): (u8, [u8; 2]),
        height: u8,
        n: usize,
        mut key: impl FnMut(usize) -> RiskKey,
        mut risk: impl FnMut(RiskKey) -> ClearRisk,
    ) {
        self.class.clear();
        self.lines.clear();
        self.margin_cost.clear();
        self.refused = 0;
        self.best = 2;
        self.pressure_lines = 0;
        self.active = !self.off && level >= GUARD_FROM_LEVEL;
        self.stretch = false;
        self.stretch_allowed = false;
        if !self.active {
            return;
        }
        self.stretch = !self.strict && in_stretch(level, lines, self.preview());
        *self.memo = [[[None; HOLD_ANY + 1]; 11]; 5];
        self.memo2 = [[[None; 11]; 5]; 5];
        self.memo_need = [None; 9];
        let preview = self.preview();
        for i in 0..n {
            let k = key(i);
            let memo = &mut self.memo[k.0.min(4)][k.1.min(10)][k.2.min(HOLD_ANY)];
            let (r, cost) = *memo.get_or_insert_with(|| {
                let r = risk(k);
                (
                    r,
                    thin_margin_cost(r) + inside_cost(r, k, (level, lines), preview),
                )
            });
            self.class.push(risk::class(r));
            self.margin_cost.push(cost);
            self.lines.push(k.0.min(4) as u8);
        }
        self.best = self.class.iter().copied().max().unwrap_or(2);
        if self.stretch && self.best == 2 {
            // Every clear here is a risk: the "may crash" ones compete by value, with a
            // cost per line ([`CrashGuard::first_penalty`]).
            self.best = 1;
            self.stretch_allowed = true;
        } else if self.best == 2 && !self.strict && height >= PRESSURE_TETRIS {
            let safe_clear = (0..n).any(|i| self.class[i] == 2 && self.lines[i] > 0);
            let risky_most = (0..n)
                .filter(|&i| self.class[i] == 1)
                .map(|i| self.lines[i])
                .max()
                .unwrap_or(0);
            if !safe_clear && (risky_most == 4 || (risky_most > 0 && height >= PRESSURE_ANY)) {
                self.pressure_lines = risky_most as usize;
                self.risky_allowed += 1;
            }
        }
        self.refused = (0..n).filter(|&i| !self.allows(i)).count();
        if self.refused > 0 {
            self.decisions_with_refusals += 1;
        }
    }

    /// The penalty of a pair whose second lock (on the board after the first, which cleared
    /// `first_cleared` lines) leaves `board2` and clears `cleared` lines, for the decision at
    /// `level` with BCD `lines`: [`SECOND_LOCK_PENALTY`] if its clear may crash, twice that if
    /// it crashes, 0 if it is safe or the last [`CrashGuard::screen`] did not screen.
    #[inline]
    pub fn second_penalty(
        &mut self,
        (level, lines): (u8, [u8; 2]),
        first_cleared: u32,
        board2: &Board,
        cleared: u32,
    ) -> f64 {
        if !self.active {
            return 0.0;
        }
        let first = first_cleared.min(4) as usize;
        let preview = self.preview();
        // The next lock's path is not fixed yet; its own screen will use the path's soft drop.
        // Counted without one (at gravity 1 the fastest paths bring none): counting every soft
        // drop would flag levels where only the plain drop is safe (247-248 without a line,
        // doubles at 168) and steer the pairs away from the one safe lock.
        let k = risk_key(board2, cleared, Some(0));
        let memo = &mut self.memo2[first][k.0][k.1];
        let class = *memo.get_or_insert_with(|| {
            let (level2, lines2) = level_and_lines_after(level, lines, first_cleared);
            match key_risk(k, level2, lines2, preview) {
                ClearRisk::Safe { .. } => 2,
                ClearRisk::MayCrash => 1,
                ClearRisk::Crashes => 0,
            }
        });
        let per_lock = if self.stretch {
            stretch_penalty() / f64::from(cleared.max(1))
        } else {
            SECOND_LOCK_PENALTY
        };
        let total = (first + k.0).min(8);
        let ClearSizes {
            need,
            cap,
            singles_out,
        } = *self.memo_need[total].get_or_insert_with(|| {
            let (level2, lines2) = level_and_lines_after(level, lines, total as u32);
            clear_sizes(level2, lines2, preview)
        });
        let hole_rows = if singles_out >= SINGLES_OUT_FROM {
            f64::from(rows_with_holes(board2))
        } else {
            0.0
        };
        let ready = if need >= 3 || cap <= 2 {
            ready_rows(board2)
        } else {
            0
        };
        let unready = if need >= 3 {
            f64::from(need.saturating_sub(ready))
        } else {
            0.0
        };
        // Where big clears are needed within the look-ahead, the well is wanted (need wins).
        let excess = if cap <= 2 && need < 3 {
            f64::from(ready.saturating_sub(cap))
        } else {
            0.0
        };
        f64::from(2 - class) * per_lock
            + unready * READY_PENALTY
            + excess * EXCESS_READY_PENALTY
            + hole_rows * HOLE_ROW_PENALTY
    }

    /// What the pair value adds for candidate `i` itself: in a stretch with no safe clear,
    /// a "may crash" clear costs the stretch penalty per line (so four lines in one risky
    /// frame beat four risky singles); a safe lock, what its thin margin costs
    /// ([`thin_margin_cost`]); elsewhere 0 (the refusal does the work).
    #[inline]
    pub fn first_penalty(&self, i: usize) -> f64 {
        match self.class.get(i) {
            Some(&c) if self.stretch_allowed && c < 2 => {
                stretch_penalty() / f64::from(self.lines[i].max(1)) + self.margin_cost[i]
            }
            Some(_) => self.margin_cost[i],
            None => 0.0,
        }
    }

    /// Whether the planner may hide the next-piece preview for a lock's frame
    /// ([`key_preview`]).
    pub fn preview(&self) -> bool {
        !self.no_preview
    }

    /// May the planner choose candidate `i`?
    #[inline]
    pub fn allows(&self, i: usize) -> bool {
        self.class.get(i).is_none_or(|&c| {
            c >= self.best
                || (c == 1
                    && self.pressure_lines > 0
                    && usize::from(self.lines[i]) == self.pressure_lines)
        })
    }

    /// Was candidate `i` let through by the pressure exception (its clear may crash)?
    #[inline]
    pub fn risky(&self, i: usize) -> bool {
        self.class.get(i).is_some_and(|&c| c < 2)
    }
}

#[cfg(test)]
mod tests;
