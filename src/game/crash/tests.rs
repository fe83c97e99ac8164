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
fn risk_on_both_sides_of_the_danger_band() {
    let (a, b) = DANGER_BAND;
    assert_eq!(
        clear_risk(a - SAFETY_MARGIN, a - SAFETY_MARGIN),
        ClearRisk::Safe {
            margin_cycles: SAFETY_MARGIN
        }
    );
    assert_eq!(
        clear_risk(a - SAFETY_MARGIN + 1, a - SAFETY_MARGIN + 1),
        ClearRisk::MayCrash
    );
    assert_eq!(clear_risk(a, a), ClearRisk::MayCrash);
    assert_eq!(clear_risk(b, b), ClearRisk::MayCrash);
    assert_eq!(
        clear_risk(b + SAFETY_MARGIN, b + SAFETY_MARGIN + 3),
        ClearRisk::Safe {
            margin_cycles: SAFETY_MARGIN
        }
    );
    assert_eq!(clear_risk(31_765, 31_765), ClearRisk::Crashes);
    assert_eq!(
        clear_risk(HANG_BAND.0 - 1, HANG_BAND.0),
        ClearRisk::MayCrash
    );
    // A range straddling the band is never safe, however far its ends are.
    assert_eq!(clear_risk(20_000, 40_000), ClearRisk::MayCrash);
    assert!(ClearRisk::Safe { margin_cycles: 0 }.rank() > ClearRisk::MayCrash.rank());
    assert!(ClearRisk::MayCrash.rank() > ClearRisk::Crashes.rank());
}

#[test]
fn what_a_player_can_choose_moves_the_frame_out_of_the_band() {
    // Level 157 at the cap: a single lands in the dispatch passes (the traced crashes), a
    // double costs 11 cycles less per pass and is safe by far, a lock without a line too.
    assert_eq!(lock_risk(&input(157, 1571, 1)), ClearRisk::MayCrash);
    assert!(lock_risk(&input(157, 1571, 2)).is_safe());
    assert!(lock_risk(&input(157, 1571, 0)).is_safe());
    // Level 200: a single's points loop runs past the band (the NMI lands inside it): safe.
    assert!(lock_risk(&input(200, 1950, 1)).is_safe());
    // Level 252: a lock without a line lands in the band (p252 crashes).
    assert_eq!(lock_risk(&input(252, 2021, 0)), ClearRisk::MayCrash);
}

#[test]
fn nothing_below_level_140_comes_near_the_band() {
    for level in 0..140u8 {
        for cleared in 0..=4 {
            let i = input(level, 1399, cleared);
            let (lo, hi) = clear_cycles_any_hold(&i);
            assert!(lo <= hi);
            assert!(lock_risk(&i).is_safe(), "level {level}, {cleared} lines");
            assert!(hi + SAFETY_MARGIN < DANGER_BAND.0, "level {level}");
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
