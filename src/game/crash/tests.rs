//! The crash model on hand-built states on both sides of each band edge.

use super::*;
use crate::game::timing::{landing, Landing, LANDING_EDGES};

const CAP: [u8; 3] = [0x99; 3];

fn input(level: u8, lines: u32, cleared: u8) -> ClearInput {
    ClearInput {
        level,
        lines: [
            (((lines % 100) / 10) << 4 | (lines % 10)) as u8,
            (lines / 100) as u8,
        ],
        score: CAP,
        cleared,
        hold_down_points: 0,
        row5_first_block: None,
    }
}

#[test]
fn the_traced_frames_count_as_the_traces_measured() {
    // c156-well t=411 (crash) and p156-1 t=967: level 157, a single at 1,5x1 lines, score at
    // the cap, one row blanked: counted 29,996 (without the RNG bit).
    let c = clear_cycles(&ClearInput {
        lines: [0x71, 0x0F],
        ..input(157, 0, 1)
    });
    assert_eq!(c, (29_996, 29_997));
    assert_eq!(landing(c.0), Landing::Dispatch(7));
    assert_eq!(clear_risk(c.0, c.1), ClearRisk::MayCrash);
}

#[test]
fn landing_bands_on_both_sides_of_each_edge() {
    let want = [
        (Landing::Done, Landing::Dispatch(8)),
        (Landing::Dispatch(8), Landing::Dispatch(7)),
        (Landing::Dispatch(7), Landing::Dispatch(6)),
        (Landing::Dispatch(6), Landing::Dispatch(5)),
        (Landing::Dispatch(5), Landing::AfterSave),
        (Landing::AfterSave, Landing::BeforeSave),
    ];
    for (e, (below, above)) in LANDING_EDGES.iter().zip(want) {
        assert_eq!(landing(*e), below, "edge {e}");
        assert_eq!(landing(e + 1), above, "edge {e}");
    }
    assert_eq!(Landing::BeforeSave.game_mode_state(), 4);
    assert_eq!(Landing::Dispatch(6).game_mode_state(), 6);
    assert_eq!(Landing::Done.game_mode_state(), 2);
}

#[test]
fn the_windows_as_counted() {
    // Eight dispatch windows 38 cycles wide (30 + the 7 varying + 1 for the fitted offset), the
    // last five 7 wider below, then the confetti band and the hang window.
    assert_eq!(
        DANGER_WINDOWS,
        [
            (29_800, 29_844),
            (29_860, 29_904),
            (29_979, 30_023),
            (30_039, 30_083),
            (30_140, 30_184),
            (30_207, 30_244),
            (30_309, 30_346),
            (30_369, 30_406),
            (30_475, 30_846),
            (31_373, 31_831),
        ]
    );
    assert!(DANGER_WINDOWS.windows(2).all(|w| w[0].1 < w[1].0));
    assert_eq!(window(29_872), Some(Window::Switch(6)));
    assert_eq!(window(30_371), Some(Window::Switch(0)));
    assert_eq!(window(30_600), Some(Window::Confetti));
    assert_eq!(window(31_600), Some(Window::Hang));
    // The lowest hang seen on the cartridge is inside, with the varying terms' reach below it.
    assert_eq!(window(HANG_LOWEST_SEEN), Some(Window::Hang));
    assert!(!clear_risk(31_380 - SAFETY_MARGIN, 31_381).is_safe());
    assert_eq!(window(30_122), None);
    // The two frames that crashed the cartridge below the counted edges are open, each
    // nearest the window it crashed in; FCEUX's crash at 29,860 is inside.
    for (l, k) in [(29_972, 5), (30_130, 3)] {
        assert!(!clear_risk(l, l).is_safe(), "{l}");
        assert_eq!(
            window_near(l, SAFETY_MARGIN),
            Some(Window::Switch(k)),
            "{l}"
        );
        assert_eq!(window(l), None, "{l}");
    }
    assert_eq!(window(29_860), Some(Window::Switch(6)));
    assert_eq!(window_near(29_700, SAFETY_MARGIN), None);
    assert!(HANG_BAND.0 >= HANG_WINDOW.0 && HANG_BAND.1 <= HANG_WINDOW.1);
    assert!(CONFETTI_MODEL.0 >= CONFETTI_BAND.0 && CONFETTI_MODEL.1 <= CONFETTI_BAND.1);
}

#[test]
fn risk_on_both_sides_of_each_window() {
    let m = SAFETY_MARGIN;
    for (i, &(a, b)) in DANGER_WINDOWS.iter().enumerate() {
        // Inside and within the margin: never safe.
        for l in [a - m + 1, a, (a + b) / 2, b, b + m - 1] {
            assert!(!clear_risk(l, l).is_safe(), "window {i}: {l}");
        }
        // A margin away, unless the neighbouring window is nearer.
        let below = a - m;
        let want_below = i == 0 || below >= DANGER_WINDOWS[i - 1].1 + m;
        assert_eq!(clear_risk(below, below).is_safe(), want_below, "{below}");
        let above = b + m;
        let want_above = i == 9 || above + m <= DANGER_WINDOWS[i + 1].0;
        assert_eq!(clear_risk(above, above).is_safe(), want_above, "{above}");
    }
    // The safe gaps between windows, as the planner sees them.
    for (lo, hi) in [
        (29_918, 29_965),
        (30_097, 30_126),
        (30_258, 30_295),
        (30_420, 30_461),
        (30_860, 31_359),
    ] {
        assert_eq!(clear_risk(lo, hi), ClearRisk::Safe { margin_cycles: m });
        assert!(!clear_risk(lo - 1, hi).is_safe());
        assert!(!clear_risk(lo, hi + 1).is_safe());
    }
    assert_eq!(
        clear_risk(29_800 - 100, 29_800 - 100),
        ClearRisk::Safe { margin_cycles: 100 }
    );
    assert_eq!(clear_risk(31_765, 31_765), ClearRisk::Crashes);
    assert_eq!(
        clear_risk(HANG_BAND.0 - 1, HANG_BAND.0),
        ClearRisk::MayCrash
    );
    // A range straddling a window is never safe, however far its ends are.
    assert_eq!(clear_risk(29_920, 30_130), ClearRisk::MayCrash);
    assert!(ClearRisk::Safe { margin_cycles: 0 }.rank() > ClearRisk::MayCrash.rank());
    assert!(ClearRisk::MayCrash.rank() > ClearRisk::Crashes.rank());
}

#[test]
fn what_a_player_can_choose_moves_the_frame_out_of_the_windows() {
    // Level 157 at the cap: a single lands the NMI in a dispatch window (the traced crashes),
    // a double costs 11 cycles less per pass and is safe by far, a lock without a line too.
    assert_eq!(lock_risk(&input(157, 1571, 1)), ClearRisk::MayCrash);
    assert!(lock_risk(&input(157, 1571, 2)).is_safe());
    assert!(lock_risk(&input(157, 1571, 0)).is_safe());
    // Level 200: a single's points loop runs past the windows (the NMI lands inside it).
    assert!(lock_risk(&input(200, 1950, 1)).is_safe());
    // Level 252, 2,021 lines, row 5 empty: a lock without a line falls in the gap between
    // two dispatch windows (p252-1 played on there four times, at 30,122).
    let l = clear_cycles(&input(252, 2021, 0));
    assert_eq!(l, (30_121, 30_122));
    assert!(lock_risk(&input(252, 2021, 0)).is_safe());
    let filled = ClearInput {
        row5_first_block: Some(9),
        ..input(252, 2021, 0)
    };
    assert_eq!(window(clear_cycles(&filled).0), None);
}

#[test]
fn nothing_below_level_140_comes_near_the_band() {
    for level in 0..140u8 {
        for cleared in 0..=4 {
            let i = input(level, 1399, cleared);
            let (lo, hi) = clear_cycles_any_hold(&i);
            assert!(lo <= hi);
            assert!(lock_risk(&i).is_safe(), "level {level}, {cleared} lines");
            assert!(hi + SAFETY_MARGIN < DANGER_BAND.0 - 1_000, "level {level}");
        }
    }
}

#[test]
fn soft_drop_widens_the_range() {
    let i = input(157, 1571, 2);
    let (lo0, hi0) = clear_cycles(&i);
    let (lo, hi) = clear_cycles_any_hold(&i);
    assert!(lo <= lo0 && hi > hi0);
}

/// Levels and line counts (a level-19 game's, 1,500 + 10 per level past 150) where no lock
/// keeps a safe range, over the lines cleared (`from`-4), row 5's first block and every
/// soft drop.
fn without_a_safe_lock(from: u8) -> Vec<(u8, u32)> {
    let mut out = Vec::new();
    for level in 150..=255u8 {
        for ones in 0..10u32 {
            let lines = 1_500 + (level as u32 - 150) * 10 + ones;
            let any = (from..=4u8).any(|cleared| {
                [None, Some(0u8), Some(2), Some(4), Some(6), Some(8), Some(9)]
                    .iter()
                    .any(|&row5| {
                        let i = ClearInput {
                            row5_first_block: row5,
                            ..input(level, lines, cleared)
                        };
                        let (lo, hi) = clear_cycles_any_hold(&i);
                        clear_risk(lo, hi).is_safe()
                    })
            });
            if !any {
                out.push((level, lines));
            }
        }
    }
    out
}

#[test]
fn from_150_to_255_some_lock_is_safe_at_every_level() {
    // With the broad band, 165-178 had no safe clear at all. Now at every level some lock is
    // safe, and some clear too, except at 168-170 near the hang window, where only a lock
    // without a line (or a soft drop the range does not fix) is.
    assert_eq!(without_a_safe_lock(0), vec![]);
    let no_clear = without_a_safe_lock(1);
    assert!(!no_clear.is_empty());
    assert!(
        no_clear
            .iter()
            .all(|&(level, _)| (168..=170).contains(&level)),
        "{no_clear:?}"
    );
}
