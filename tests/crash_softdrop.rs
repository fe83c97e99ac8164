//! The soft-drop lever past level 155 (`search::plan::soft_drop`): where only a soft drop makes a
//! clear's frame safe, the planner holds Down for its path's last frames, and the rules model
//! plays that plan exactly and does not crash.

mod common;

use nestor::game::crash::ClearRisk;
use nestor::game::{Board, Game, PadState, Piece, Pos};
use nestor::search::crash_guard::{
    clear_sizes, in_stretch, key_risk, lock_risk, ready_rows, rows_with_holes, ClearSizes,
    CrashGuard, EXCESS_READY_PENALTY, HOLE_ROW_PENALTY, READY_PENALTY, SINGLES_OUT_FROM,
};
use nestor::search::eval::Standard;
use nestor::search::{Plan, Planner, Situation};

/// Level 169 at 1,630 lines (BCD low byte, binary hundreds as a game counts them).
const AT_169: (u8, [u8; 2]) = (169, [0x30, 16]);

/// A planner that leaves the preview shown: the soft-drop lever these tests were written for
/// (the preview's lever: `tests/crash_windows.rs`).
fn shown_planner() -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.crash_guard.no_preview = true;
    p
}

/// The plan from `g`'s state, the planner, the situation and the lines its lock clears.
fn plan_of(g: &Game) -> (Plan, Planner<Standard>, Situation, u32) {
    let s = Situation::of(g);
    let mut planner = shown_planner();
    let plan = planner.plan(&s).expect("a plan");
    let mut after = s.board;
    let cleared = after.lock(plan.lock.x, plan.lock.y, plan.lock.orientation);
    (plan, planner, s, cleared)
}

/// Two rows that lack only column 9, under a flat stack: the I standing in column 9 clears a
/// double, which at level 169 (1,630 lines) may crash with the plain drop and is safe with a
/// soft drop of 2 or more rows; every other lock clears nothing.
const DOUBLE_WELL: [&str; 3] = ["####.####.", "#########.", "#########."];

#[test]
fn the_double_at_169_is_safe_only_with_a_soft_drop() {
    let (level, lines) = AT_169;
    assert_eq!(
        key_risk((2, 10, 0), level, lines, false),
        ClearRisk::MayCrash
    );
    assert!(key_risk((2, 10, 2), level, lines, false).is_safe());
    assert!(key_risk((0, 10, 0), level, lines, false).is_safe());
    // Singles hang there, no other size is safe with the plain drop: a stretch.
    assert!(in_stretch(level, lines, false));
}

#[test]
fn the_planner_holds_down_to_make_the_double_safe_and_the_model_plays_it_exactly() {
    let mut g = common::game_past_155(&DOUBLE_WELL, Piece::I, Piece::O, AT_169);
    let (plan, planner, s, cleared) = plan_of(&g);
    // The I stands in column 9 (pivot x 9, vertical) and clears the two full rows.
    assert_eq!(cleared, 2, "{plan:?}");
    let mut after = s.board;
    after.lock(plan.lock.x, plan.lock.y, plan.lock.orientation);
    let soft = planner.soft.last.expect("a soft drop made the double safe");
    assert!(soft.hold_down_points >= 2, "{soft:?}");
    assert_eq!(planner.soft.count, 1);
    // The plan ends with `frames` frames of Down alone; the frame before holds no Down.
    let n = plan.inputs.len();
    let k = usize::from(soft.frames);
    assert!(plan.inputs[n - k..].iter().all(|&p| p == PadState::DOWN));
    assert!(!plan.inputs[n - k - 1].intersects(PadState::DOWN));
    // Its risk: safe with the soft drop, not with the plain drop.
    let at = (s.level, s.lines);
    assert!(lock_risk(&after, at, cleared, Some(soft.hold_down_points), false).is_safe());
    assert!(!lock_risk(&after, at, cleared, Some(0), false).is_safe());
    // The model plays it exactly: every frame where the plan expects, the lock on the last.
    for (i, (&pad, &pos)) in plan.inputs.iter().zip(&plan.expected).enumerate() {
        let e = g.step(pad);
        assert_eq!(Pos::of(&g.active), Some(pos), "frame {i}");
        assert_eq!(e.locked.is_some(), i + 1 == n, "frame {i}");
        if i + 1 == n {
            assert_eq!(g.active.hold_down_points, soft.hold_down_points);
        }
    }
    // Then the clear's frame: two lines, no crash, not even "may crash".
    let mut seen_clear = false;
    for _ in 0..60 {
        let e = g.step(PadState::NONE);
        assert_eq!(e.crashed, None);
        if e.cleared > 0 {
            assert_eq!(e.cleared, 2);
            assert!(!e.may_crash, "the soft-dropped double's frame may crash");
            seen_clear = true;
            break;
        }
    }
    assert!(seen_clear, "the double was scored");
    assert_eq!(g.line_count(), 1632);
}

#[test]
fn the_same_double_with_the_plain_drop_may_crash_in_the_model() {
    let mut g = common::game_past_155(&DOUBLE_WELL, Piece::I, Piece::O, AT_169);
    let s = Situation::of(&g);
    let mut planner = shown_planner();
    let mut plan = planner.plan(&s).expect("a plan");
    let k = usize::from(planner.soft.last.expect("soft").frames);
    let n = plan.inputs.len();
    for p in &mut plan.inputs[n - k..] {
        *p = PadState::NONE;
    }
    let mut may_crash = false;
    for &pad in plan.inputs.iter().chain([PadState::NONE; 60].iter()) {
        let e = g.step(pad);
        if e.cleared > 0 {
            may_crash = e.may_crash || e.crashed.is_some();
            break;
        }
    }
    assert!(
        may_crash,
        "the plain drop's double is what the lever avoids"
    );
}

/// Below the guard's level the lever is off: the plan has no Down at all.
#[test]
fn below_the_guard_level_no_soft_drop_is_added() {
    let g = common::game_past_155(&DOUBLE_WELL, Piece::I, Piece::O, (139, [0x30, 13]));
    let mut planner = shown_planner();
    let plan = planner.plan(&Situation::of(&g)).expect("a plan");
    assert_eq!(planner.soft.last, None);
    assert!(plan.inputs.iter().all(|p| !p.intersects(PadState::DOWN)));
}

/// Where a soft drop cannot help (a single at 169 lands in the hang band whatever the soft
/// drop), the guard still refuses it while a safe lock exists.
#[test]
fn a_single_that_hangs_is_still_refused() {
    let (level, lines) = AT_169;
    for h in [0, 2, 5] {
        assert!(!key_risk((1, 10, h), level, lines, false).is_safe());
    }
    let g = common::game_past_155(&["#########."], Piece::I, Piece::O, AT_169);
    let (plan, planner, _, cleared) = plan_of(&g);
    assert_eq!(cleared, 0, "{plan:?}");
    assert!(planner.crash_guard.refused > 0);
}

// The well for level 170 (`crash_guard::clear_sizes`, `ready_rows`): the pair value's
// look-ahead to line counts where only triples and tetrises are safe.

/// A board whose bottom rows are `rows` ('#' filled).
fn board_of(rows: &[&str]) -> Board {
    let text: Vec<&str> = std::iter::repeat_n("..........", 20 - rows.len())
        .chain(rows.iter().copied())
        .collect();
    Board::from_text(&text.join("\n")).expect("a board")
}

#[test]
fn ready_rows_count_the_rows_full_but_for_one_open_column() {
    let well = ["#########.", "#########.", "#########.", "##########"];
    assert_eq!(ready_rows(&board_of(&well)), 3);
    // The same well covered at the top: its rows are no longer ready.
    let covered = [
        "........##",
        "#########.",
        "#########.",
        "#########.",
        "##########",
    ];
    assert_eq!(ready_rows(&board_of(&covered)), 0);
    // Two columns open on the rows: no single column clears them.
    let ragged = ["####.####.", "#########.", "##########"];
    assert_eq!(ready_rows(&board_of(&ragged)), 1);
    assert_eq!(ready_rows(&Board::EMPTY), 0);
}

/// Asserts that `field` of `clear_sizes` at each of `seen` (level, lines bytes), with or
/// without the preview, is `want`'s.
fn assert_sizes(
    preview: bool,
    field: impl Fn(&ClearSizes) -> u8,
    seen: [(u8, [u8; 2]); 4],
    want: [u8; 4],
) {
    let got = seen.map(|(level, lines)| field(&clear_sizes(level, lines, preview)));
    assert_eq!(got, want, "{seen:?}");
}

/// Four full rows: a flat stack with no well.
const FULL_ROWS: [&str; 4] = ["##########", "##########", "##########", "##########"];

/// Screens one candidate lock (risk key (0, 10, 0)), safe by 100 cycles, at `decision`
/// (level, lines bytes), as the planner does before it values pairs; then the penalty of a
/// second lock leaving each of `boards`, in their order.
fn penalties_when_safe<const N: usize>(
    g: &mut CrashGuard,
    decision: (u8, [u8; 2]),
    boards: [&Board; N],
) -> [f64; N] {
    let safe = ClearRisk::Safe { margin_cycles: 100 };
    g.screen(decision, 0, 1, |_| (0, 10, 0), |_| safe);
    boards.map(|b| g.second_penalty(decision, 0, b, 0))
}

/// Level 170 (1,640-1,645 lines) allows only tetrises (dispatch windows 3-7 reach 7 cycles
/// below their counted edges): from 1,636 lines (169) the look-ahead sees it and asks for 4
/// ready rows; at 1,600 lines (166) nothing within the look-ahead asks for a big clear.
#[test]
fn the_clear_size_needed_looks_ahead_to_level_170() {
    let seen = [
        (170, [0x40, 16]),
        (169, [0x36, 16]),
        (166, [0x00, 16]),
        (139, [0x40, 13]),
    ];
    assert_sizes(false, |c| c.need, seen, [4, 4, 0, 0]);
}

/// Before level 170 a pair leaving no well for a tetris costs [`READY_PENALTY`] per row
/// missing; a pair leaving one costs nothing; at 166 neither costs anything.
#[test]
fn a_pair_without_a_well_for_level_170_costs_per_missing_row() {
    let well = board_of(&[
        "#########.",
        "#########.",
        "#########.",
        "#########.",
        "##########",
    ]);
    let flat = board_of(&FULL_ROWS);
    let mut g = CrashGuard::default();
    g.no_preview = true;
    let at_169 = penalties_when_safe(&mut g, (169, [0x36, 16]), [&well, &flat]);
    assert_eq!(at_169, [0.0, 4.0 * READY_PENALTY]);
    let at_166 = penalties_when_safe(&mut g, (166, [0x00, 16]), [&flat]);
    assert_eq!(at_166, [0.0]);
}

/// Levels 180-183 (1,748-1,777 lines) allow no double or triple, and tetrises only at some
/// counts: from 1,737 (179) the look-ahead caps the useful well at the largest clear that
/// stays safe; at 1,700 (176) nothing within the look-ahead caps it.
#[test]
fn the_clear_size_cap_looks_ahead_to_the_singles_of_level_180() {
    // 1,750 lines (the hundreds byte binary): level 180, only singles safe.
    let seen = [
        (180, [0x50, 17]),
        (179, [0x37, 17]),
        (176, [0x00, 17]),
        (150, [0x40, 14]),
    ];
    assert_sizes(true, |c| c.cap, seen, [1, 1, 4, 4]);
}

/// Before the singles of level 180 a pair leaving a well deeper than a single costs
/// [`EXCESS_READY_PENALTY`] per ready row above it; a flat stack costs nothing; at 176 the
/// deep well costs nothing.
#[test]
fn a_pair_with_a_deep_well_before_the_singles_costs_per_row_above_the_cap() {
    let well = board_of(&["#########.", "#########.", "#########.", "##########"]);
    let flat = board_of(&FULL_ROWS);
    let mut g = CrashGuard::default();
    let at_180 = penalties_when_safe(&mut g, (180, [0x50, 17]), [&flat, &well]);
    assert_eq!(at_180, [0.0, 2.0 * EXCESS_READY_PENALTY]);
    let at_176 = penalties_when_safe(&mut g, (176, [0x00, 17]), [&well]);
    assert_eq!(at_176, [0.0]);
}

/// The doubles at 181 (1,753 lines: *L* 31,381, 8 cycles inside the hang window's edge) hung
/// the cartridge 4 times in 5; the guard ranks them with the hangs, refused while a lock
/// without a line is safe, even in the stretch of singles.
#[test]
fn a_double_at_the_lowest_hang_seen_ranks_with_the_hangs() {
    let (level, lines) = (181, [0x53, 17]);
    assert!(in_stretch(level, lines, true));
    assert_eq!(key_risk((2, 10, 0), level, lines, true), ClearRisk::Crashes);
    assert!(key_risk((0, 10, 0), level, lines, true).is_safe());
    assert!(key_risk((1, 10, 0), level, lines, true).is_safe());
}

#[test]
fn rows_with_holes_count_each_row_with_a_covered_empty_cell_once() {
    let rows = [
        "....#.....",
        "#.######..",
        "##.####.##",
        "#########.",
        "##########",
    ];
    // The second row's gaps are open from above; the third and fourth rows' are covered.
    assert_eq!(rows_with_holes(&board_of(&rows)), 2);
    assert_eq!(rows_with_holes(&board_of(&["#########.", "##########"])), 0);
    assert_eq!(rows_with_holes(&Board::EMPTY), 0);
}

/// Levels 167-170 (1,619-1,649 lines) allow no single but at 1,639: the look-ahead from 168
/// sees the singles out at every count; from 166 (1,600) only at 1,609.
#[test]
fn the_look_ahead_counts_the_line_counts_without_a_safe_single() {
    assert!(clear_sizes(168, [0x20, 16], true).singles_out >= 12);
    assert!(clear_sizes(166, [0x00, 16], true).singles_out < SINGLES_OUT_FROM);
    assert_eq!(clear_sizes(150, [0x40, 14], true).singles_out, 0);
}

/// Where the singles are out for the counts ahead, a pair leaving rows with holes (which
/// mostly a single clears) costs [`HOLE_ROW_PENALTY`] per such row; at 150 nothing.
#[test]
fn a_pair_leaving_holes_before_the_singles_hang_costs_per_row() {
    let holes = board_of(&["..#.......", "#.######..", "##.#######", "#########."]);
    let clean = board_of(&["#.........", "########..", "#########."]);
    let mut g = CrashGuard::default();
    let [base, with_holes] = penalties_when_safe(&mut g, (168, [0x20, 16]), [&clean, &holes]);
    assert_eq!(with_holes - base, 2.0 * HOLE_ROW_PENALTY);
    let at_150 = penalties_when_safe(&mut g, (150, [0x40, 14]), [&holes]);
    assert_eq!(at_150, [0.0]);
}
