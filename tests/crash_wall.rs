//! The wall at levels 253 and 255: every clear is safe there and a lock without a line is not.
//! Where such a lock cannot be avoided, the planner plays the frame farthest from the windows.

mod common;

use nestor::game::crash::{clear_cycles, window, window_distance, ClearInput, ClearRisk};
use nestor::game::timing::preview_landing;
use nestor::game::{PadState, Piece};
use nestor::search::crash_guard::{key_grade, key_preview, key_risk};
use nestor::search::eval::Standard;
use nestor::search::{Planner, Situation};

/// Level 253 at 3,272 lines and level 255 at 3,291 (BCD low byte, binary hundreds), as a game
/// from 19 counts them.
const AT_253: (u8, [u8; 2]) = (253, [0x72, 0x20]);
const AT_255: (u8, [u8; 2]) = (255, [0x91, 0x20]);

/// The counted cycles of a lock without a line (row 5 empty, score at the cap) bringing
/// `hold` soft-drop points.
fn lineless((level, lines): (u8, [u8; 2]), hold: u8) -> (u32, u32) {
    clear_cycles(&ClearInput {
        level,
        lines,
        score: [0x99; 3],
        cleared: 0,
        hold_down_points: hold,
        row5_first_block: None,
    })
}

#[test]
fn at_253_and_255_every_clear_is_safe_and_a_lock_without_a_line_is_not() {
    for (level, lines) in [AT_253, AT_255] {
        for n in 1..=4 {
            assert!(
                key_risk((n, 10, 0), level, lines, true).is_safe(),
                "{level} {n}"
            );
        }
        assert_eq!(
            key_risk((0, 10, 0), level, lines, true),
            ClearRisk::MayCrash
        );
    }
}

/// At 255 the plain frame lands inside dispatch 1 (the traced crashes `p255-0`, `p255-1`,
/// `c255-rebirth-b`); with the preview hidden it lands below dispatch 6, outside every window
/// though inside the safety margin. The guard hides the preview there.
#[test]
fn at_255_a_lock_without_a_line_hides_the_preview_to_land_outside_the_windows() {
    let (lo, hi) = lineless(AT_255, 0);
    assert!(window(lo).is_some() || window(hi).is_some(), "{lo}-{hi}");
    let hidden = (preview_landing(lo, true), preview_landing(hi, true));
    assert_eq!(window(hidden.0), None);
    assert_eq!(window(hidden.1), None);
    assert!(window_distance(hidden.0, hidden.1) > 0);
    let (level, lines) = AT_255;
    assert_eq!(
        key_preview((0, 10, 0), level, lines),
        (ClearRisk::MayCrash, true)
    );
    assert!(key_grade((0, 10, 0), level, lines, true) > key_grade((0, 10, 0), level, lines, false));
    // A clear keeps the preview shown: it is safe that way.
    assert!(!key_preview((1, 10, 0), level, lines).1);
}

/// At 253 no preview state helps (hidden lands in dispatch 8), but 2-7 soft-drop rows move
/// the frame from 3 cycles below dispatch 3 to 6 below dispatch 2.
#[test]
fn at_253_a_short_soft_drop_lands_farther_from_the_windows_than_the_plain_drop() {
    let (level, lines) = AT_253;
    let plain = lineless(AT_253, 0);
    let soft = lineless(AT_253, 4);
    assert!(window_distance(soft.0, soft.1) > window_distance(plain.0, plain.1));
    assert!(key_grade((0, 10, 4), level, lines, true) > key_grade((0, 10, 0), level, lines, true));
    assert!(!key_preview((0, 10, 0), level, lines).1);
}

/// Nine rows open in column 9, the top two also in columns 4-5: the O fills that gap under its
/// spawn and clears nothing anywhere, and the stack is too high for the 8-17 soft-drop rows
/// that would make its frame safe. The planner holds Down for a few rows, and the model plays
/// the plan to a frame farther from the windows than the plain drop's.
#[test]
fn at_253_the_planner_holds_down_where_no_lock_is_safe_and_the_model_lands_farther() {
    let mut rows = vec!["####..###."; 2];
    rows.extend(["#########."; 7]);
    let mut g = common::game_past_155(&rows, Piece::O, Piece::T, AT_253);
    let s = Situation::of(&g);
    let mut planner = Planner::new(Standard::default());
    let plan = planner.plan(&s).expect("a plan");
    let soft = planner.soft.last.expect("a Down variant");
    assert!((2..8).contains(&soft.hold_down_points), "{soft:?}");
    let n = plan.inputs.len();
    assert!(plan.inputs[n - usize::from(soft.frames)..]
        .iter()
        .all(|&p| p == PadState::DOWN));
    let mut landing = None;
    for &pad in plan.inputs.iter().chain([PadState::NONE; 60].iter()) {
        let e = g.step(pad);
        assert_eq!(e.crashed, None);
        if e.logic && e.landing > 0 {
            landing = Some(e.landing);
            break;
        }
    }
    let l = landing.expect("the lock's frame was played");
    let plain = lineless(AT_253, 0);
    assert!(
        window_distance(l, l) > window_distance(plain.0, plain.1),
        "L {l}"
    );
    assert_eq!(g.line_count(), 3272, "no line");
}
