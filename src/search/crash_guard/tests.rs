//! The crash guard's refusals, stretch costs and pair penalties on hand-built boards at the
//! levels past 140 where a line-clear frame may crash.

use super::*;
use crate::game::piece::{Orientation, Piece};
use crate::search::eval::Standard;
use crate::search::plan::{Planner, Situation};

/// Level 157, 1,571 lines (the hundreds byte binary, as a game counts them): a single
/// lands the NMI in the dispatch passes where `c156-well` and `p156-1` crashed, while a
/// lock without a line is safe. Row 19 lacks only column 9: an I standing there clears it.
fn situation() -> Situation {
    at_157(&["#########."], Piece::I, Piece::O)
}

/// A planner that leaves the preview shown: the levers these tests were written for
/// (the preview's own tests: `tests/crash_windows.rs`).
pub(super) fn shown_planner() -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.crash_guard.no_preview = true;
    p
}

fn risk_of(s: &Situation, x: u8, y: u8, o: Orientation) -> ClearRisk {
    let mut b = s.board;
    let n = b.lock(x, y, o);
    lock_risk(&b, (s.level, s.lines), n, None, false)
}

#[test]
fn the_planner_refuses_a_clear_that_may_crash_when_a_safe_one_exists() {
    let s = situation();
    let mut greedy = shown_planner();
    greedy.crash_guard.off = true;
    let g = greedy.plan(&s).expect("a plan");
    let gr = risk_of(&s, g.lock.x, g.lock.y, g.lock.orientation);
    let mut guarded = shown_planner();
    let p = guarded.plan(&s).expect("a plan");
    let pr = risk_of(&s, p.lock.x, p.lock.y, p.lock.orientation);
    assert!(pr.is_safe(), "guarded choice {:?}: {pr:?}", p.lock);
    assert!(guarded.crash_guard.refused > 0);
    assert_eq!(guarded.crash_guard.decisions_with_refusals, 1);
    // The board is built so that the unguarded choice is the single that may crash.
    assert_eq!(gr, ClearRisk::MayCrash, "greedy choice {:?}", g.lock);
    assert_ne!(p.lock, g.lock);
}

#[test]
fn below_the_guard_level_nothing_is_screened() {
    let mut s = situation();
    s.level = GUARD_FROM_LEVEL - 1;
    let mut planner = shown_planner();
    planner.plan(&s).expect("a plan");
    assert_eq!(planner.crash_guard.refused, 0);
}

/// Level 157, 1,571 lines: a single may crash there, a double is safe. The current O
/// clears nothing anywhere; the next I can take the single in column 9 (rows 18-19 lack
/// only column 9 on row 19). Unguarded, the pair's second lock is that single; guarded,
/// the pair value counts its risk and the plan goes for a second lock whose clear is safe.
fn second_lock_situation(rows: &[&str]) -> Situation {
    at_157(rows, Piece::O, Piece::I)
}

/// `piece` at its spawn, `next` to come, at level 157 with 1,571 lines, on a board whose
/// bottom rows are `rows` ('#' filled).
fn at_157(rows: &[&str], piece: Piece, next: Piece) -> Situation {
    let mut board = Board::EMPTY;
    let top = 20 - rows.len() as i8;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '#' {
                board.set(top + r as i8, c as u8);
            }
        }
    }
    crate::search::Situation::at_spawn(board, piece, 157, [0x71, 0x0F], Some(next))
}

/// The risk of the plan's second lock after its first.
fn second_risk(s: &Situation, p: &crate::search::plan::Plan) -> ClearRisk {
    let mut b = s.board;
    let n1 = b.lock(p.lock.x, p.lock.y, p.lock.orientation);
    let second = p.next_lock.expect("a pair");
    let n2 = b.lock(second.x, second.y, second.orientation);
    let (level, lines) = crate::search::pairs::level_and_lines_after(s.level, s.lines, n1);
    lock_risk(&b, (level, lines), n2, None, false)
}

/// Level 181 at 1,783 lines, where the cartridge hung on a double: only singles are safe
/// (a stretch), and the double reaches the lowest hang seen, so it ranks with the hangs and is
/// refused while a lock without a line is safe.
#[test]
fn in_a_stretch_a_clear_reaching_the_lowest_hang_seen_is_refused() {
    let (level, lines) = (181, [0x83, 17]);
    assert!(in_stretch(level, lines, true));
    let keys = [(2, 10, 0), (0, 10, 0)];
    let mut g = CrashGuard::default();
    g.screen(
        (level, lines),
        0,
        2,
        |i| keys[i],
        |k| key_risk(k, level, lines, true),
    );
    assert_eq!(key_risk(keys[0], level, lines, true), ClearRisk::Crashes);
    assert!(!g.allows(0) && g.allows(1));
}

/// In a stretch, a "may crash" clear whose frame lands inside a dispatch window costs the
/// inside penalty on top of the stretch's cost per line; one beside a window only the latter.
#[test]
fn in_a_stretch_a_clear_inside_a_window_costs_more_than_one_beside_it() {
    let inside = -i64::from(crate::game::crash::SAFETY_MARGIN);
    let (mut lines, mut level) = ([0u8; 2], 19u8);
    let mut seen = [false; 2];
    for _ in 0..3_300 {
        crate::game::score::add_line(&mut lines, &mut level);
        if level < 155 || !in_stretch(level, lines, true) {
            continue;
        }
        for n in 1..=4 {
            let k = (n, 10, 0);
            if key_risk(k, level, lines, true) != ClearRisk::MayCrash {
                continue;
            }
            let mut g = CrashGuard::default();
            let keys = [k, (0, 10, 0)];
            g.screen(
                (level, lines),
                0,
                2,
                |i| keys[i],
                |k| key_risk(k, level, lines, true),
            );
            let stretch = STRETCH_PENALTY / n as f64;
            let is_inside = key_grade(k, level, lines, true) <= inside;
            let extra = if is_inside { INSIDE_PENALTY } else { 0.0 };
            assert_eq!(
                g.first_penalty(0),
                stretch + extra,
                "{level} {lines:?} {k:?}"
            );
            seen[usize::from(is_inside)] = true;
        }
    }
    assert_eq!(seen, [true, true], "both kinds occur in a game from 19");
}

#[test]
fn only_the_best_class_present_is_allowed() {
    let mut g = CrashGuard {
        no_preview: true,
        ..CrashGuard::default()
    };
    let risks = [ClearRisk::MayCrash, ClearRisk::Crashes, ClearRisk::MayCrash];
    g.screen((200, [0, 0x19]), 0, 3, |i| (0, i, 0), |k| risks[k.1]);
    assert_eq!((g.allows(0), g.allows(1), g.allows(2)), (true, false, true));
    assert_eq!(g.refused, 1);
    let risks = [ClearRisk::MayCrash, ClearRisk::Safe { margin_cycles: 80 }];
    g.screen((200, [0, 0x19]), 0, 2, |i| (0, i, 0), |k| risks[k.1]);
    assert_eq!((g.allows(0), g.allows(1)), (false, true));
    assert_eq!(g.decisions_with_refusals, 2);
}

/// Among safe locks a thin margin costs a little, falling to nothing at the preferred
/// margin; a lock at the preferred margin and a far one cost the same.
#[test]
fn among_safe_locks_a_thin_margin_costs_a_little() {
    let mut g = CrashGuard::default();
    let risks = [14, 22, PREFERRED_MARGIN, 400].map(|m| ClearRisk::Safe { margin_cycles: m });
    g.screen((200, [0, 0x19]), 0, 4, |i| (0, i, 0), |k| risks[k.1]);
    let cost: Vec<f64> = (0..4).map(|i| g.first_penalty(i)).collect();
    assert_eq!(cost, [THIN_MARGIN_COST, THIN_MARGIN_COST / 2.0, 0.0, 0.0]);
    assert!((0..4).all(|i| g.allows(i)));
}

/// Where no clear of 1-4 lines (or no lock without a line) is safe, a "may crash"
/// clear is weighed (a cost per line), never one reaching the hang band. The stretch is
/// found from the windows (next to the hang window, and from ~246), not written in.
#[test]
fn in_a_stretch_risky_clears_compete_at_a_cost_per_line() {
    let (level, lines) = (GUARD_FROM_LEVEL..=255)
        .flat_map(|l| (0..=0x0f).map(move |h| (l, [0x20, h])))
        .find(|&(l, n)| in_stretch(l, n, false))
        .expect("the windows leave a stretch somewhere past 140");
    assert!(level >= 155, "a stretch below 155 at {level}");
    let mut g = CrashGuard {
        no_preview: true,
        ..CrashGuard::default()
    };
    let risks = [
        ClearRisk::Safe { margin_cycles: 500 },
        ClearRisk::MayCrash,
        ClearRisk::Crashes,
        ClearRisk::MayCrash,
    ];
    let cleared = [0, 2, 1, 4];
    g.screen((level, lines), 3, 4, |i| (cleared[i], i, 0), |k| risks[k.1]);
    assert!(g.stretch);
    let allowed: Vec<bool> = (0..4).map(|i| g.allows(i)).collect();
    assert_eq!(allowed, [true, true, false, true]);
    assert_eq!(g.first_penalty(0), 0.0);
    assert_eq!(g.first_penalty(1), STRETCH_PENALTY / 2.0);
    assert_eq!(g.first_penalty(3), STRETCH_PENALTY / 4.0);
    // Strict: only the safe lock, as before the stretch rule.
    g.strict = true;
    g.screen((level, lines), 3, 4, |i| (cleared[i], i, 0), |k| risks[k.1]);
    let allowed: Vec<bool> = (0..4).map(|i| g.allows(i)).collect();
    assert_eq!(allowed, [true, false, false, false]);
}

/// Outside a stretch a high stack lets the "may crash" clear of the most lines through
/// when no safe lock clears a line; a low one does not (unless it is a tetris).
#[test]
fn under_pressure_the_risky_clear_of_the_most_lines_is_let_through() {
    let (level, lines) = (157, [0x71, 0x0F]);
    assert!(!in_stretch(level, lines, false));
    let risks = [
        ClearRisk::Safe { margin_cycles: 500 },
        ClearRisk::MayCrash,
        ClearRisk::MayCrash,
    ];
    // The three candidates clearing `cleared` lines, screened at `height`: which pass.
    let screen = |g: &mut CrashGuard, height, cleared: [usize; 3]| {
        g.screen(
            (level, lines),
            height,
            3,
            |i| (cleared[i], i, 0),
            |k| risks[k.1],
        );
        (g.allows(0), g.allows(1), g.allows(2))
    };
    let mut g = CrashGuard {
        no_preview: true,
        ..CrashGuard::default()
    };
    assert_eq!(
        screen(&mut g, PRESSURE_ANY - 1, [0, 1, 2]),
        (true, false, false)
    );
    assert_eq!(screen(&mut g, PRESSURE_ANY, [0, 1, 2]), (true, false, true));
    assert_eq!(g.risky_allowed, 1);
    assert_eq!(
        screen(&mut g, PRESSURE_TETRIS, [0, 1, 4]),
        (true, false, true)
    );
}

/// Level 168, 1,620 lines: only the doubles are safe (singles hang, triples and tetrises
/// may crash): a stretch. Level 166, 1,607 lines: singles and doubles are safe: not one.
#[test]
fn one_safe_clear_size_is_a_stretch_two_are_not() {
    let safe = |n, level, lines| key_risk((n, 10, 0), level, lines, false).is_safe();
    let (level, lines) = (168, [0x20, 16]);
    assert_eq!(
        (1..=4).map(|n| safe(n, level, lines)).collect::<Vec<_>>(),
        [false, true, false, false]
    );
    assert!(in_stretch(level, lines, false));
    let (level, lines) = (166, [0x07, 16]);
    assert_eq!(
        (1..=4).map(|n| safe(n, level, lines)).collect::<Vec<_>>(),
        [true, true, false, false]
    );
    assert!(safe(0, level, lines) && !in_stretch(level, lines, false));
    assert!(!in_stretch(157, [0x71, 0x0F], false));
}

/// Level 247, 3,212 lines: a lock without a line is safe by the plain drop and may crash
/// with any soft drop of 2 or more. The next piece's lock is counted with the plain drop
/// (its own screen will count its path's): counting every soft drop put the second-lock
/// penalty on every pair whose second lock clears nothing, and the games topped out there.
#[test]
fn the_next_lock_is_counted_with_the_plain_drop() {
    let (level, lines) = (247, [0x12, 32]);
    assert!(key_risk((0, 10, 0), level, lines, false).is_safe());
    assert!(!key_risk((0, 10, HOLD_ANY), level, lines, false).is_safe());
    let mut g = CrashGuard {
        no_preview: true,
        ..CrashGuard::default()
    };
    let safe = ClearRisk::Safe { margin_cycles: 100 };
    g.screen((level, lines), 0, 1, |_| (0, 10, 0), |_| safe);
    assert_eq!(g.second_penalty((level, lines), 0, &Board::EMPTY, 0), 0.0);
    // Where the plain drop may crash too (level 248, 3,222 lines), the penalty stays
    // (outside the stretch weighing: strict).
    let (level, lines) = (248, [0x22, 32]);
    assert!(!key_risk((0, 10, 0), level, lines, false).is_safe());
    g.strict = true;
    g.screen((level, lines), 0, 1, |_| (0, 10, 0), |_| safe);
    assert_eq!(
        g.second_penalty((level, lines), 0, &Board::EMPTY, 0),
        SECOND_LOCK_PENALTY
    );
}

#[test]
fn a_pair_whose_second_single_may_crash_loses_to_a_safe_plan() {
    let s = second_lock_situation(&["#########."]);
    let mut greedy = shown_planner();
    greedy.crash_guard.off = true;
    let g = greedy.plan(&s).expect("a plan");
    // The board is built so that the unguarded pair ends on the I's single in column 9.
    assert_eq!(second_risk(&s, &g), ClearRisk::MayCrash, "{g:?}");
    let mut guarded = shown_planner();
    let p = guarded.plan(&s).expect("a plan");
    // No O lock clears a line: the first-lock screen refuses nothing, the pair value does.
    assert_eq!(guarded.crash_guard.refused, 0);
    assert!(second_risk(&s, &p).is_safe(), "{p:?}");
    assert!(p.value.expect("valued") < SECOND_LOCK_PENALTY, "{p:?}");
    assert_ne!((p.lock, p.next_lock), (g.lock, g.next_lock));
    // Below the guard's level the same board plans as unguarded.
    let low = Situation {
        level: GUARD_FROM_LEVEL - 1,
        ..s
    };
    let mut unguarded = shown_planner();
    unguarded.crash_guard.off = true;
    let (a, b) = (guarded.plan(&low).unwrap(), unguarded.plan(&low).unwrap());
    assert_eq!(
        (a.lock, a.next_lock, a.value),
        (b.lock, b.next_lock, b.value)
    );
}
