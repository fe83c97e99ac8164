//! Tests of the play-state machine: entry delay per lock-row band, line-clear delay per
//! frame-counter phase, the row check, game over and the curtain, the $07 quirk, seeding.

use super::*;
use crate::game::piece;
use crate::game::playfield::EMPTY;
use crate::game::{crash, timing};

const O: u8 = 0x0A;

/// A level-19 game with an O about to drop onto a support under row `y`, optionally
/// completing row `y + 1` (one line) when it locks at `y`.
fn o_resting_at(y: u8, clear: bool, frame_counter: u16) -> Game {
    let mut g = Game::new(19, 0x8988, 0, frame_counter);
    g.active = Active::spawn(O, 0, 0);
    g.active.y = y;
    g.active.fall_timer = 1; // the next frame's gravity test drops (and fails)
    g.vram_row = 0x20;
    if y + 2 <= 19 {
        for c in 1..10 {
            g.field.set(y as i16 + 2, c, 0x7B); // support, not complete (column 0 open)
        }
    }
    if clear {
        for c in (0..10).filter(|&c| c != 4 && c != 5) {
            g.field.set(y as i16 + 1, c, 0x7C);
        }
    }
    g
}

/// Frames from the lock frame L to the spawn frame S, and the frame-counter low byte at L.
fn lock_to_spawn(mut g: Game) -> (u32, u8, Game) {
    let mut l = None;
    let mut f_l = 0;
    for n in 0..200u32 {
        let ev = g.step(PadState::NONE);
        if ev.locked.is_some() {
            l = Some(n);
            f_l = g.frame_counter as u8;
        }
        if ev.spawned {
            return (n - l.expect("locks before spawning"), f_l, g);
        }
    }
    panic!("no spawn within 200 frames");
}

fn k_for(y: u8) -> u32 {
    let r0 = y.saturating_sub(2) as u32;
    (20 - r0).div_ceil(4)
}

#[test]
fn entry_delay_for_each_lock_row_band() {
    // (lock row, expected S − L): 10 + 2(k − 1) for k = 5, 4, 3, 2, 1.
    for (y, expected) in [(3u8, 18u32), (8, 16), (12, 14), (16, 12), (18, 10)] {
        let (delay, _, g) = lock_to_spawn(o_resting_at(y, false, 0));
        assert_eq!(delay, expected, "lock at y={y}");
        assert_eq!(delay, 2 * k_for(y) + 8);
        assert_eq!(g.field.get(y as i16, 4), 0x7B, "O written at its lock row");
        assert_eq!((g.active.x, g.active.y, g.active.fall_timer), (5, 0, 0));
    }
}

#[test]
fn line_clear_delay_for_each_frame_counter_phase() {
    let mut seen = [false; 4];
    for y in [4u8, 9, 13, 16] {
        for fc in 0..4u16 {
            let (delay, f_l, g) = lock_to_spawn(o_resting_at(y, true, fc));
            let k = k_for(y);
            let d = (4 - ((f_l as u32 + 2 * k + 3) % 4)) % 4;
            seen[d as usize] = true;
            assert_eq!(delay, 2 * k + 25 + d, "lock at y={y}, f_L={f_l}");
            assert_eq!(g.lines(), 1);
            assert_eq!(g.score(), 40 * 20);
        }
    }
    assert_eq!(seen, [true; 4], "every phase d = 0..3 exercised");
}

#[test]
fn rows_complete_as_the_check_walks_them() {
    let g = o_resting_at(10, true, 0);
    let mut g2 = g.clone();
    let mut completed = vec![];
    for _ in 0..60 {
        g2.step(PadState::NONE);
        if g2.play_state == PlayState::RowCheck || g2.play_state == PlayState::LineClear {
            completed.push(g2.completed_lines);
        }
        if g2.play_state == PlayState::LineClear {
            break;
        }
    }
    assert_eq!(completed.last(), Some(&1));
    assert_eq!(
        g2.active.id,
        piece::HIDDEN_ID,
        "no piece shown during the clear"
    );
    assert_eq!(g2.row_y, 0);
}

#[test]
fn game_over_when_the_spawned_piece_cannot_fit() {
    let mut g = Game::new(19, 0x8988, 0, 0);
    g.active.ary = 0;
    for c in 0..10 {
        g.field.set(0, c, 0x7B);
        g.field.set(1, c, if c == 0 { EMPTY } else { 0x7B });
    }
    let mut topped = false;
    for _ in 0..5 {
        topped |= g.step(PadState::NONE).topped_out;
    }
    assert!(topped);
    assert_eq!(g.play_state, PlayState::Curtain);
    // The curtain comes down: 16 ticks of delay, then 20 rows, one every fourth frame.
    for _ in 0..(36 * 4 + 4) {
        g.step(PadState::NONE);
    }
    assert!(g.is_over());
    assert!((0..20).all(|r| g.field.get(r, 3) == CURTAIN));
}

#[test]
fn down_left_right_halves_the_game_speed() {
    let mut g = Game::new(19, 0x8988, 0, 0);
    g.active.ary = 0;
    let dlr = PadState(0x07);
    let (y0, rng0) = (g.active.y, g.picker.rng);
    for _ in 0..8 {
        g.step(dlr);
    }
    // 8 NMIs, 4 game frames: fall timer +4 → two drops at speed 2.
    assert_eq!(g.active.y, y0 + 2);
    assert_eq!(g.picker.rng, (0..8).fold(rng0, |v, _| rng::step(v)));
    assert_eq!(g.game_mode_state, 2);
    g.step(dlr);
    assert_eq!(g.game_mode_state, 7);
}

#[test]
fn seeded_games_are_reproducible_and_differ_by_seed() {
    let a = Game::seeded(19, 5);
    assert_eq!(a, Game::seeded(19, 5));
    let pieces: std::collections::HashSet<(u8, u8)> = (0..50)
        .map(|s| {
            let g = Game::seeded(19, s);
            (g.active.id, g.next)
        })
        .collect();
    assert!(pieces.len() > 10);
}

/// A game at `level` with the score at the cap whose O, one row above a support, completes
/// `clear` rows when it locks at row 16.
pub(super) fn capped_clear(level: u8, clear: u8) -> Game {
    let mut g = o_resting_at(16, false, 0);
    g.level = level;
    g.score = [0x99; 3];
    g.lines = [0x01, 0x10];
    for r in 0..clear {
        for c in (0..10).filter(|&c| c != 4 && c != 5) {
            g.field.set(18 - r as i16 - 1, c, 0x7C);
        }
    }
    g
}

/// Steps until play state 5 has run; returns its events and the next frame's.
pub(super) fn score_frame(mut g: Game) -> (Events, Events) {
    for _ in 0..200 {
        let ev = g.step(PadState::NONE);
        if ev.cycles > 0 {
            return (ev, g.step(PadState::NONE));
        }
    }
    panic!("play state 5 never ran");
}

#[test]
fn a_single_at_the_cap_lags_from_level_145_not_at_137() {
    for (level, lag) in [(137u8, false), (140, false), (145, true), (154, true)] {
        let (ev, next) = score_frame(capped_clear(level, 1));
        assert_eq!(ev.cleared, 1);
        assert_eq!(ev.lag, lag, "level {level}: {} cycles", ev.cycles);
        assert_eq!(
            next.logic, !lag,
            "the frame after a long one runs only the NMI"
        );
    }
}

#[test]
fn a_double_at_level_154_fits_a_single_does_not() {
    let (single, _) = score_frame(capped_clear(154, 1));
    let (double, _) = score_frame(capped_clear(154, 2));
    assert_eq!(double.cleared, 2);
    assert!(single.lag && !double.lag);
    // 155 passes at 11 cycles fewer (no byte-0 carry), one more line (15 + 8 + 5).
    // The NMI blanks one more row (94).
    assert_eq!(single.cycles - double.cycles, 155 * 11 - (15 + 8 + 5) - 94);
}

#[test]
fn locks_without_a_clear_do_not_lag_below_the_crash_level() {
    // 155 passes of 83 cycles: some 9,000 cycles short of a frame.
    let mut g = o_resting_at(16, false, 0);
    g.level = crate::game::score::CRASH_LEVEL - 1;
    g.score = [0x99; 3];
    let (ev, next) = score_frame(g);
    assert_eq!(ev.cleared, 0);
    assert!(!ev.lag && next.logic, "{} cycles", ev.cycles);
}

/// Counted logic cycles (audio allowance out) of a play-state-5 frame's events.
pub(super) fn logic_of(ev: &Events) -> u32 {
    let allowance = if ev.cleared == 0 {
        timing::AUDIO_ALLOWANCE_NO_LINE
    } else {
        timing::AUDIO_ALLOWANCE
    };
    ev.cycles - allowance
}

/// Hand-built capped games at every level 140-255, with no line, a single and a double, and
/// every first column of row 5 (`updateMusicSpeed`): their state-5 frames cover the windows
/// with a step of a few cycles.
pub(super) fn hand_built_state5_frames() -> Vec<(u32, Events, Events)> {
    let mut out: Vec<_> = hand_built_games()
        .map(|g| {
            let (ev, next) = score_frame(g);
            (logic_of(&ev), ev, next)
        })
        .collect();
    out.sort_by_key(|f| f.0);
    out
}

/// The games of [`hand_built_state5_frames`], before their state-5 frame.
pub(super) fn hand_built_games() -> impl Iterator<Item = Game> {
    (140..=255u8).flat_map(|level| {
        (0..=2u8).flat_map(move |clear| {
            [None, Some(0u8), Some(3), Some(6), Some(9)].map(move |row5| {
                let mut g = capped_clear(level, clear);
                if let Some(c) = row5 {
                    g.field.set(5, c as i16, 0x7B);
                }
                g
            })
        })
    })
}

#[test]
fn hand_built_states_on_both_sides_of_each_window() {
    let frames = hand_built_state5_frames();
    let m = crash::SAFETY_MARGIN;
    for (i, &(a, b)) in crash::DANGER_WINDOWS.iter().enumerate() {
        let below = frames.iter().rev().find(|f| f.0 + m <= a).expect("below");
        let above = frames.iter().find(|f| f.0 >= b + m).expect("above");
        let inside: Vec<_> = frames.iter().filter(|f| (a..=b).contains(&f.0)).collect();
        assert!(!inside.is_empty(), "window {i} ({a}-{b}): no state inside");
        for (l, ev, next) in &inside {
            assert!(ev.lag && ev.may_crash, "window {i}: L={l} {ev:?}");
            assert!(
                !next.logic,
                "window {i}: L={l}: the next frame runs only the NMI"
            );
            if (crash::HANG_BAND.0..=crash::HANG_BAND.1).contains(l) {
                assert_eq!(ev.crashed, Some(CrashKind::Hang), "L={l}");
            } else {
                assert_eq!(ev.crashed, None, "L={l}");
            }
        }
        // Just outside, a margin away: flagged only when the next window is that near too.
        for (l, ev, _) in [below, above] {
            let safe = crash::clear_risk(*l, *l).is_safe();
            assert_eq!(ev.may_crash, !safe, "window {i}: L={l}");
            assert_eq!(ev.crashed, None, "L={l}");
        }
        if i == 0 {
            assert!(!below.1.may_crash, "below the first window: L={}", below.0);
        }
        if i == 9 {
            assert!(!above.1.may_crash, "above the last window: L={}", above.0);
        }
    }
    // Inside a gap between windows the frame lags one frame and is not flagged.
    let gap = frames
        .iter()
        .find(|f| (30_097..=30_133).contains(&f.0))
        .expect("a state in the gap 30,097-30,133");
    assert!(gap.1.lag && !gap.1.may_crash && gap.2.crashed.is_none() && !gap.2.logic);
}

#[test]
fn confetti_lags_until_the_counter_reaches_255_or_a_button_is_held() {
    let frames = hand_built_state5_frames();
    let &(l, ..) = frames
        .iter()
        .find(|f| (crash::CONFETTI_MODEL.0..=crash::CONFETTI_MODEL.1).contains(&f.0))
        .expect("a state in the confetti band");
    // Find that state again and run it to its state-5 frame, keeping the game.
    for mut g in hand_built_games() {
        let mut held = g.clone();
        let ev = loop {
            let ev = g.step(PadState::NONE);
            held.step(PadState::NONE);
            if ev.cycles > 0 {
                break ev;
            }
        };
        if logic_of(&ev) != l {
            continue;
        }
        assert_eq!(g.game_mode_state, 4);
        // Counted from the counter after the state-5 frame: 255 itself waits a whole turn.
        let want = 256 - ((g.frame_counter as usize + 1) & 0xFF);
        let mut n = 0;
        while !g.step(PadState::NONE).logic {
            n += 1;
            assert!(n <= 256);
        }
        assert_eq!(n, want, "L={l}");
        // Holding a button ends it on the next frame.
        assert!(!held.step(PadState::LEFT).logic);
        assert!(held.step(PadState::LEFT).logic);
        return;
    }
    unreachable!();
}

/// A capped game at `level` whose vertical I, one row above the floor in column 0, completes
/// `clear` rows (1-4) when it locks, from frame-counter phase `frame_counter`.
fn i_clearing(level: u8, clear: u8, frame_counter: u16) -> Game {
    let mut g = Game::new(19, 0x8988, 0, frame_counter);
    g.active = Active::spawn(0x11, 0, 0);
    g.active.x = 0;
    g.active.y = 18; // rows 16-19
    g.active.fall_timer = 1;
    g.vram_row = 0x20;
    g.level = level;
    g.score = [0x99; 3];
    g.lines = [0x01, 0x10];
    for r in 0..4u8 {
        for c in 1..10 {
            // Row 16 (the top of the four) stays open at column 9 below a tetris.
            if r + clear < 4 && c == 9 {
                continue;
            }
            g.field.set(16 + r as i16, c, 0x7B);
        }
    }
    g
}

#[test]
fn the_tetris_flash_is_counted_on_every_tetris_and_only_there() {
    // The state-5 frame follows the NMI whose animation step (counter ≡ 0 mod 4) ended the
    // clear; that NMI still sees `completedLines` = 4, so it always flashes (16 cycles), and
    // writes the sound effect too (5) when the counter is ≡ 0 mod 8.
    let mut sound_seen = [false; 2];
    for clear in 1..=4u8 {
        for fc in 0..8u16 {
            let g = i_clearing(200, clear, fc);
            let input = crash::ClearInput {
                level: g.level,
                lines: g.lines,
                score: g.score,
                cleared: clear,
                hold_down_points: 0,
                row5_first_block: None,
            };
            let (ev, _) = score_frame(g);
            assert_eq!(ev.cleared, clear);
            let l = logic_of(&ev);
            let (lo, hi) = crash::clear_cycles(&input);
            assert!(
                (lo..=hi).contains(&l),
                "{clear} lines, fc {fc}: {l} ∉ {lo}-{hi}"
            );
            if clear == 4 {
                // The range is the RNG bit (1) and the sound write (5), the flash in both ends.
                assert_eq!(hi - lo, 6);
                let extra = l - lo;
                assert!(extra <= 1 || (5..=6).contains(&extra), "fc {fc}: +{extra}");
                sound_seen[usize::from(extra >= 5)] = true;
            } else {
                assert_eq!(hi - lo, 1, "{clear} lines: only the RNG bit varies");
            }
        }
    }
    assert_eq!(sound_seen, [true; 2], "both sound phases exercised");
}

/// [`score_frame`] with `hint` on the play-state-5 frame.
pub(super) fn score_frame_hinted(mut g: Game, hint: FrameHint) -> (Events, Events, Game) {
    for _ in 0..200 {
        let before = g.clone();
        if g.step(PadState::NONE).cycles > 0 {
            let mut h = before;
            let ev = h.step_with(PadState::NONE, hint);
            let next = h.step(PadState::NONE);
            return (ev, next, h);
        }
    }
    panic!("play state 5 never ran");
}

#[test]
fn the_audio_count_decides_the_lag_on_both_sides_and_leaves_the_straddle_open() {
    // Level 225, no line: the logic ends some 1,800 cycles before the frame's end.
    let g = capped_clear(225, 0);
    let (plain, _) = score_frame(g.clone());
    let l = logic_of(&plain);
    assert!((27_000..29_000).contains(&l), "L={l}");
    let (lo_off, hi_off) = timing::AUDIO_OFFSET;
    // The smallest audio count past the frame's end for every varying cycle, the largest
    // inside it for every one.
    let lag_at = 29_781 - lo_off - l;
    let fit_at = 29_780 - hi_off - l;
    let hinted = |audio: (u32, u32), branch: Branch| {
        score_frame_hinted(
            g.clone(),
            FrameHint {
                audio: Some(audio),
                branch,
                ..FrameHint::default()
            },
        )
    };
    let (ev, next, _) = hinted((lag_at, lag_at), Branch::Model);
    assert!(ev.lag && !ev.may_lag && !next.logic, "{ev:?}");
    let (ev, next, _) = hinted((lag_at - 1, lag_at - 1), Branch::Model);
    assert!(!ev.lag && ev.may_lag && next.logic, "{ev:?}");
    let (ev, next, _) = hinted((fit_at, fit_at), Branch::Model);
    assert!(!ev.lag && !ev.may_lag && next.logic, "{ev:?}");
    let (ev, _, _) = hinted((fit_at + 1, fit_at + 1), Branch::Model);
    assert!(ev.may_lag, "{ev:?}");
    // A decided frame ignores the branch; an open one takes the other outcome.
    let (ev, next, _) = hinted((fit_at, fit_at), Branch::Other);
    assert!(!ev.lag && next.logic);
    let (model, _, _) = hinted((fit_at, lag_at), Branch::Model);
    let (other, next, _) = hinted((fit_at, lag_at), Branch::Other);
    assert!(model.may_lag && other.may_lag);
    assert_eq!(other.lag, !model.lag);
    assert_eq!(next.logic, !other.lag);
    // Without a count the allowance decides, as before.
    let (ev, _, _) = score_frame_hinted(g, FrameHint::default());
    assert_eq!(ev, plain);
}

#[test]
fn the_crash_branch_crashes_only_in_a_dispatch_window_and_freezes_after_one_nmi() {
    let frames = hand_built_state5_frames();
    let in_switch = |k: u8| {
        frames
            .iter()
            .position(|f| crash::window(f.0) == Some(crash::Window::Switch(k)))
    };
    let games: Vec<Game> = {
        let mut v: Vec<(u32, Game)> = hand_built_games()
            .map(|g| (logic_of(&score_frame(g.clone()).0), g))
            .collect();
        v.sort_by_key(|x| x.0);
        v.into_iter().map(|x| x.1).collect()
    };
    let other = FrameHint {
        branch: Branch::Other,
        ..FrameHint::default()
    };
    let mut crashed = 0;
    for k in 0..8u8 {
        let Some(i) = in_switch(k) else {
            continue;
        };
        crashed += 1;
        let g = games[i].clone();
        let (ev, next, mut after) = score_frame_hinted(g.clone(), other);
        assert!(ev.may_crash, "dispatch {k}");
        assert_eq!(ev.crashed, Some(CrashKind::Crash), "dispatch {k}");
        assert!(after.is_over());
        // The crashing NMI ran: the frame counter moved, `gameModeState` shows the next state
        // in the first dispatch of a pass.
        let (_, _, model) = score_frame_hinted(g, FrameHint::default());
        assert_eq!(after.frame_counter, model.frame_counter);
        let landed = timing::landing(frames[i].0).game_mode_state();
        assert_eq!(after.game_mode_state, landed + (k % 2 == 0) as u8, "{k}");
        assert!(next.crashed.is_none() && !next.logic);
        // Then nothing changes any more, whatever is pressed.
        let frozen = after.clone();
        after.step(PadState::A);
        after.step(PadState::NONE);
        assert_eq!(after, frozen);
    }
    assert!(
        crashed >= 6,
        "{crashed} dispatch windows with a hand-built state"
    );
    // Outside the windows the other branch changes nothing: a gap frame lags and plays on.
    let gap = frames
        .iter()
        .position(|f| (30_097..=30_133).contains(&f.0))
        .expect("a state in a gap");
    let (ev, _, after) = score_frame_hinted(games[gap].clone(), other);
    assert!(ev.lag && ev.crashed.is_none() && !after.is_over());
    // In a window the model's own branch plays on.
    let (_, _, after) = score_frame_hinted(
        games[in_switch(0).expect("dispatch 1")].clone(),
        FrameHint::default(),
    );
    assert!(!after.is_over());
}

#[test]
fn without_the_engines_ram_a_frame_is_open_where_the_audio_range_straddles_the_end() {
    let (lo, hi) = timing::audio::PLAY_RANGE;
    let (lo_off, hi_off) = timing::AUDIO_OFFSET;
    let mut seen = [false; 3];
    for level in 100..=200u8 {
        for clear in 0..=2 {
            let (ev, next) = score_frame(capped_clear(level, clear));
            let l = logic_of(&ev);
            if timing::landing(l) != timing::Landing::Done {
                continue;
            }
            let open = timing::lags(l + hi + hi_off) && !timing::lags(l + lo + lo_off);
            assert_eq!(ev.may_lag, open, "level {level}, {clear} lines: L={l}");
            // The choice stays the allowance's, open or not.
            assert_eq!(ev.lag, timing::lags(ev.cycles), "level {level}: L={l}");
            assert_eq!(next.logic, !ev.lag);
            let kind = if open { 1 } else { 2 * usize::from(ev.lag) };
            seen[kind] = true;
        }
    }
    assert_eq!(
        seen, [true; 3],
        "decided fit, open, decided lag all exercised"
    );
}

#[test]
fn a_zero_left_in_the_points_counter_by_the_nmi_lags_a_second_frame() {
    // A double at level 216 from 1,500 lines (p216-0 t=65): the NMI lands in the points loop
    // and draws the lines ($70 = $00) through `twoDigsToPPU`, leaving 0 in its counter.
    let lags = |level: u8, lines: [u8; 2], hold: u8| {
        let mut g = capped_clear(level, 2);
        g.lines = lines;
        g.active.hold_down_points = hold;
        let ev = loop {
            let ev = g.step(PadState::NONE);
            if ev.cycles > 0 {
                break ev;
            }
        };
        assert!(ev.lag, "level {level}");
        let mut n = 0;
        while !g.step(PadState::NONE).logic {
            n += 1;
        }
        (logic_of(&ev), n)
    };
    let (l, n) = lags(216, [0x00, 0x15], 0);
    assert!(l >= timing::POINTS_LOOP_END, "L={l}");
    assert_eq!(n, 2, "two lag frames at 1,500 lines");
    // Any other lines byte, or soft-drop points (the score's $99 drawn last): one.
    assert_eq!(lags(216, [0x01, 0x15], 0).1, 1);
    assert_eq!(lags(216, [0x00, 0x15], 4).1, 1);
    // The NMI before the loop's end (a lower level) leaves the counter alone.
    let (l, n) = lags(160, [0x00, 0x15], 0);
    assert!(l < timing::POINTS_LOOP_END, "L={l}");
    assert_eq!(n, 1);
}

mod preview;
