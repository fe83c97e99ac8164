//! Driver tests of the profile bookkeeping on the rules model: a plan that asks to be made
//! again (`replan_after`) is dropped there, and every re-plan counts the piece from its spawn.

use super::*;
use crate::nes::faults::FaultyPad;
use crate::nes::test_consoles::{driver, model};
use crate::search::eval::Standard;
use crate::search::profile::PieceProgress;

/// What the test sees of the piece under control, counted apart from the driver: the pads
/// of the frames that began with the piece under control, since the last spawn.
#[derive(Default)]
struct Watch {
    prev: PadState,
    inputs: Vec<PadState>,
}

impl Watch {
    fn progress(&self) -> PieceProgress {
        let (mut pressed, mut last_tap) = (PadState::NONE, None);
        let mut held = self.prev;
        for (f, &i) in self.inputs.iter().enumerate() {
            pressed = pressed.union(PadState(i.0 & !held.0 & 0x03));
            if i.0 & !held.0 & 0xC3 != 0 {
                last_tap = Some(f as u16);
            }
            held = i;
        }
        PieceProgress {
            frames: self.inputs.len() as u16,
            pressed,
            last_tap,
        }
    }
}

/// Steps `d` until `pieces` have locked or the game ends, calling `each` after every frame
/// with the step, the test's own count of the piece, and whether the plan changed in it.
fn play<C: Console>(
    d: &mut Driver<C, Standard>,
    pieces: u32,
    mut each: impl FnMut(&Driver<C, Standard>, Step, &Watch, bool),
) {
    let mut watch = Watch::default();
    while d.game().pieces < pieces {
        let controlled = d.is_playing() && d.snapshot().play_state == PlayState::Control as u8;
        let before = d.planned_at();
        let step = d.step().unwrap();
        if controlled {
            watch.inputs.push(d.last_pad());
        }
        if let Step::Spawned { .. } = step {
            watch = Watch {
                prev: d.last_pad(),
                inputs: Vec::new(),
            };
        }
        each(d, step, &watch, d.planned_at() != before);
        if matches!(step, Step::GameOver { .. }) {
            break;
        }
    }
}

#[test]
fn a_plan_asking_to_be_made_again_is_dropped_there_and_the_piece_goes_on() {
    for (seed, k) in [(7u64, 1usize), (8, 4), (9, 11)] {
        let mut d = driver(model(seed));
        d.override_replan(Some(k));
        let (mut long_plans, mut replans) = (0u64, 0u64);
        play(&mut d, 150, |d, step, watch, changed| {
            assert!(
                !matches!(step, Step::Desync { .. }),
                "seed {seed}: {step:?}"
            );
            if let Step::Spawned { .. } = step {
                let plan = d.plan().expect("planned at the spawn");
                assert_eq!(plan.replan_after, Some(k));
                long_plans += u64::from(plan.inputs.len() > k);
            } else if changed && d.plan().is_some() {
                // A plan made inside the piece: after exactly k of its frames, with them.
                replans += 1;
                assert_eq!(d.piece_progress(), watch.progress(), "seed {seed}");
                assert_eq!(d.piece_progress().frames as usize, k, "seed {seed}");
                assert_eq!(d.planned_at(), Some(d.console().frame_number()));
            }
        });
        assert!(d.game().pieces >= 100, "seed {seed}: {}", d.game().pieces);
        assert_eq!(d.replans(), replans, "seed {seed}");
        // The first piece is planned in `new`, not at a reported spawn: it may add one.
        assert!(
            replans == long_plans || replans == long_plans + 1,
            "seed {seed}: {replans} re-plans, {long_plans} plans longer than {k} frames"
        );
        assert!(replans > 50, "seed {seed}: {replans}");
    }
}

#[test]
fn a_desync_re_plan_counts_the_piece_from_its_spawn() {
    let (mut desyncs, mut late, mut replans) = (0, 0, 0);
    for seed in 31..39u64 {
        let mut d = driver(FaultyPad::new(model(seed), 0.03, 0xFA ^ seed));
        d.override_replan(Some(6));
        play(&mut d, 100, |d, step, watch, _| {
            if matches!(step, Step::Desync { .. }) && d.plan().is_some() {
                desyncs += 1;
                // The re-plan carries the piece so far, not a fresh start, and the reaction
                // re-plan that comes after it still counts from the spawn.
                assert_eq!(d.piece_progress(), watch.progress(), "seed {seed}");
                assert!(d.piece_progress().frames > 0);
                late += u32::from(d.piece_progress().frames > 6);
            }
        });
        replans += d.replans();
    }
    assert!(
        desyncs > 30 && late > 5,
        "{desyncs} desyncs, {late} after frame 6"
    );
    assert!(replans > 100, "{replans}");
}
