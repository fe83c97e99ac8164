//! The blind plan's taps before the reaction moved onto the first free slots of the table,
//! when the piece ends in the same state at the reaction frame (`adjust = "restart"`).

// Among paths of equal length the search keeps the one that waits (nothing is the first button
// set it tries), so a blind plan taps as late as its lock allows: the piece stays near the
// spawn column until the reaction, where the re-plan sees the next piece. That lazy path is the
// better hover (an eager one carries the piece towards a lock chosen without the next piece:
// 15 Hz, reaction 18, from 18, reach 39 fell from 62 % to 50 %, benches/README.md). Under
// `restart` a late tap also delays the adjustment: its table restarts no sooner than the spawn
// table's slot after the last tap (`Profile::adjust_from`). The same taps on the table's first
// slots leave the piece in the same place at the reaction (checked frame by frame here; kept
// only then) and let the table restart on the reaction frame itself, as BetaTetris's initial
// taps (always its first slots) do.

use crate::game::active::Control;
use crate::game::pad::{Buttons, PadState};
use crate::game::score::drop_speed;
use crate::game::Pos;
use crate::movegen::profile::{Adjust, Profile, Rules, Shift, TIMED};

use super::chosen::Plan;
use super::situation::Situation;

/// Moves the taps of `plan`'s first `left` frames (the blind part, played before the re-plan)
/// onto the earliest frames from `free` (the first frame the search could press) the profile
/// allows, in their order (the frame before a press may not hold its button), when the piece
/// then reaches the same state at frame `left` without locking; `plan` is left as it was
/// otherwise, and under any rule but `restart` with taps. Once a piece, so its few small
/// buffers are not kept.
pub(super) fn early_taps(
    plan: &mut Plan,
    s: &Situation,
    profile: &Profile,
    free: usize,
    left: usize,
) {
    let retimes = profile.adjust == Adjust::Restart
        && profile.shift == Shift::Tap
        && plan.inputs.len() > left
        && free <= left;
    if !retimes {
        return;
    }
    let Some(presses) = presses(&plan.inputs[..left], s.prev) else {
        return;
    };
    let rules = Rules::new(profile, s.progress);
    let mut inputs = vec![PadState::NONE; left];
    let (mut k, mut prev) = (0, s.prev);
    for (f, slot) in inputs.iter_mut().enumerate().skip(free) {
        if let Some(&buttons) = presses.get(k) {
            let frame = u32::from(s.progress.frames) + f as u32;
            if rules.allows(buttons, prev, frame, 0) {
                *slot = buttons;
                k += 1;
            }
        }
        prev = *slot;
    }
    if k < presses.len() || inputs == plan.inputs[..left] {
        return;
    }
    // Played in the model: the same state at the reaction, no lock before it, and the rest of
    // the plan still a legal continuation (a press on `left - 1` must not be the one on `left`).
    let Some(expected) = played(s, &inputs, &plan.inputs[..left]) else {
        return;
    };
    if inputs[left - 1].0 & plan.inputs[left].0 & TIMED.0 != 0 {
        return;
    }
    plan.inputs[..left].copy_from_slice(&inputs);
    plan.expected[..left].copy_from_slice(&expected);
}

/// What each frame of `inputs` that newly presses a timed button holds, in order; `None` when
/// a frame holds a button it did not newly press or holds Down (not a tap path).
fn presses(inputs: &[PadState], mut prev: PadState) -> Option<Vec<PadState>> {
    let mut out = Vec::new();
    for &i in inputs {
        let newly = i.newly_from(prev);
        if newly != i {
            return None;
        }
        if newly.0 & TIMED.0 != 0 {
            out.push(i);
        } else if i != PadState::NONE {
            return None;
        }
        prev = i;
    }
    Some(out)
}

/// The positions after each of `inputs` from `s`, when the piece neither locks in them nor
/// ends in another state than after `original` (the plan's own frames, which never lock
/// before the re-plan: `Situation::after` plays them).
fn played(s: &Situation, inputs: &[PadState], original: &[PadState]) -> Option<Vec<Pos>> {
    let speed = drop_speed(s.level);
    let (mut a, mut prev) = (s.active, s.prev);
    let mut expected = Vec::with_capacity(inputs.len());
    for &i in inputs {
        if a.frame(Buttons::after(i, prev), speed, &s.board) == Control::Locked {
            return None;
        }
        expected.push(Pos::of_searched(&a));
        prev = i;
    }
    (a == s.after(original).active).then_some(expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::piece::Piece;
    use crate::search::eval::Standard;
    use crate::search::fixtures::{planner_boards, random_stacks};
    use crate::search::plan::Planner;

    fn tap_frames(inputs: &[PadState], mut prev: PadState) -> Vec<u32> {
        let mut taps = Vec::new();
        for (f, &i) in inputs.iter().enumerate() {
            if i.newly_from(prev).0 & TIMED.0 != 0 {
                taps.push(f as u32);
            }
            prev = i;
        }
        taps
    }

    /// Under `restart` the blind plan is `continue`'s with its taps before the reaction on the
    /// table's first slots, the piece in the same state at the reaction and the same frames
    /// after it; the re-plan's table then restarts on the reaction (the last tap's next slot is
    /// not later). Moved on enough decisions to matter, at both gravities.
    #[test]
    fn restart_moves_the_blind_taps_onto_the_first_slots_and_keeps_the_state() {
        let mut boards = planner_boards();
        boards.extend(random_stacks(10, 0x2545_F491_4F6C_DD1D, 10));
        let mut moved = 0;
        for (name, reaction) in [("15hz", 18u16), ("12hz", 21)] {
            let mut planners = [Adjust::Continue, Adjust::Restart].map(|adjust| {
                let mut p = Planner::new(Standard::default());
                p.profile = Profile::preset(name).unwrap();
                (p.profile.reaction, p.profile.adjust) = (reaction, adjust);
                p
            });
            let t = planners[0].profile.timeline;
            let slots: Vec<u32> = (0..64).filter(|&f| t.allows(f)).collect();
            for (b, &board) in boards.iter().enumerate() {
                for level in [19u8, 29] {
                    for piece in Piece::ALL {
                        let s = Situation::at_spawn(board, piece, level, [0, 1], None);
                        let [Some(lazy), Some(early)] = planners.each_mut().map(|p| p.plan(&s))
                        else {
                            continue;
                        };
                        let at = format!("{name}, board {b}, level {level}, {piece:?}");
                        assert_eq!(early.lock, lazy.lock, "{at}");
                        assert_eq!(early.replan_after, lazy.replan_after, "{at}");
                        let Some(left) = lazy.replan_after else {
                            assert_eq!(early, lazy, "{at}: locks before the reaction");
                            continue;
                        };
                        assert_eq!(early.inputs[left..], lazy.inputs[left..], "{at}");
                        assert_eq!(
                            s.after(&early.inputs[..left]).active,
                            s.after(&lazy.inputs[..left]).active,
                            "{at}"
                        );
                        let mut a = s.active;
                        let mut prev = s.prev;
                        for (f, &i) in early.inputs[..left].iter().enumerate() {
                            a.frame(Buttons::after(i, prev), drop_speed(level), &board);
                            assert_eq!(Some(&Pos::of_searched(&a)), early.expected.get(f));
                            prev = i;
                        }
                        let taps = tap_frames(&early.inputs[..left], s.prev);
                        if early.inputs != lazy.inputs {
                            assert_eq!(taps, slots[..taps.len()], "{at}");
                            moved += 1;
                        }
                        let from = |p: &Profile, inputs: &[PadState]| {
                            p.adjust_from_inputs(inputs, PadState::NONE)
                        };
                        let restart = &planners[1].profile;
                        assert!(from(restart, &early.inputs) <= from(restart, &lazy.inputs));
                    }
                }
            }
        }
        assert!(moved > 20, "{moved} blind plans retimed");
    }
}
