//! The next-piece preview ($DF): Select toggles it, and hidden it takes the staging's
//! cycles out of the play-state-5 frame, which moves the late NMI only where it lands after
//! the staging.

use super::*;

#[test]
fn select_newly_pressed_toggles_the_preview_held_does_not() {
    let mut g = o_resting_at(3, false, 0);
    assert!(!g.preview_hidden());
    g.step(PadState::SELECT);
    assert_eq!(g.display_next_piece, 1);
    g.step(PadState::SELECT);
    assert_eq!(g.display_next_piece, 1, "held, not newly pressed");
    g.step(PadState::NONE);
    g.step(PadState::SELECT.union(PadState::LEFT));
    assert_eq!(g.display_next_piece, 0, "pressed again: shown");
}

/// [`score_frame`] with the preview hidden by Select on the first frame.
fn score_frame_hidden(mut g: Game) -> (Events, Events) {
    g.step(PadState::SELECT);
    assert!(g.preview_hidden());
    score_frame(g)
}

#[test]
fn the_hidden_preview_takes_394_cycles_off_the_frame() {
    for level in [19u8, 100, 140, 150] {
        for clear in 0..=2 {
            let (shown, _) = score_frame(capped_clear(level, clear));
            let (hidden, _) = score_frame_hidden(capped_clear(level, clear));
            assert_eq!(
                shown.cycles - hidden.cycles,
                timing::PREVIEW_STAGING,
                "level {level}, {clear} lines"
            );
        }
    }
}

#[test]
fn hidden_a_frame_in_a_dispatch_window_lands_after_it_and_plays_on() {
    let mut moved = 0;
    for g in hand_built_games() {
        let (shown, _) = score_frame(g.clone());
        let (hidden, next) = score_frame_hidden(g);
        let l = logic_of(&shown);
        let at = timing::preview_landing(l, true);
        assert_eq!(at, if l - 394 < 30_505 { l - 394 } else { l });
        // Where the late NMI lands decides: the model flags what the windows say at `at`.
        assert_eq!(
            hidden.may_crash,
            !crash::clear_risk(at, at).is_safe(),
            "L={l}"
        );
        if matches!(crash::window(l), Some(crash::Window::Switch(_)))
            && crash::clear_risk(at, at).is_safe()
        {
            assert!(shown.may_crash && !hidden.may_crash, "L={l}");
            assert!(hidden.crashed.is_none() && next.crashed.is_none());
            moved += 1;
        }
        // Landing before the staging, hiding it changes nothing but the frame's length.
        if l - 394 >= 30_505 {
            assert_eq!(
                (hidden.lag, hidden.may_crash, hidden.crashed),
                (shown.lag, shown.may_crash, shown.crashed),
                "L={l}"
            );
        }
    }
    assert!(
        moved > 10,
        "{moved} hand-built frames leave a dispatch window"
    );
}
