//! The next piece's blind plan with the first locks the last decision's third-piece layer
//! valued (`plan/carry.rs`) against the same blind plan made from scratch: the same plan.

use super::Planner;
use crate::game::piece::Piece;
use crate::movegen::profile::Profile;
use crate::search::eval::Standard;
use crate::search::fixtures::{planner_boards, random_boards};
use crate::search::pairs::{level_and_lines_after, AfterFirst};
use crate::search::Situation;

fn human(blind: u16) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("human").unwrap();
    p.profile.blind_placements = blind;
    p
}

#[test]
fn the_next_blind_plan_from_the_layers_values_is_the_one_made_from_scratch() {
    let mut all = planner_boards();
    all.extend(random_boards(3, 0x6A09_E667_F3BC_C908));
    let preset = Profile::preset("human").unwrap().blind_placements;
    for blind in [0, preset] {
        let (mut carrying, mut fresh) = (human(blind), human(blind));
        let (mut next_plans, mut other, mut replans) = (0, 0, 0);
        for (b, &board) in all.iter().enumerate() {
            // 19 with 199 lines: the first lock may clear into level 20 (no carried value).
            for (level, lines) in [(18, [0x30, 0x01]), (19, [0x99, 0x01])] {
                for piece in Piece::ALL {
                    for next in Piece::ALL {
                        let s = Situation::at_spawn(board, piece, level, lines, Some(next));
                        let Some(first) = carrying.plan(&s) else {
                            continue;
                        };
                        let Some(k) = first.replan_after else {
                            continue;
                        };
                        let re_s = s.after(&first.inputs[..k]);
                        let Some(re) = carrying.plan(&re_s) else {
                            continue;
                        };
                        // The game goes on as planned: the next piece spawns after the lock.
                        let after = AfterFirst::new(&s.board, s.level, s.lines, re.lock);
                        let (level2, lines2) = level_and_lines_after(s.level, s.lines, after.lines);
                        let s2 =
                            Situation::at_spawn(after.board, next, level2, lines2, Some(piece));
                        let before = carrying.carried_values;
                        let got = carrying.plan(&s2);
                        assert_eq!(
                            got,
                            fresh.plan(&s2),
                            "{blind} weighed: board {b} level {level} {piece:?} then {next:?}"
                        );
                        assert_eq!(fresh.carried_values, 0, "a fresh planner carries nothing");
                        next_plans += 1;
                        let used = carrying.carried_values > before;
                        other += usize::from(!used);
                        let replan = got.as_ref().and_then(|p| Some((p, p.replan_after?)));
                        if next_plans % 2 == 0 {
                            // Only the decision right after the layer's may use its values.
                            let again = carrying.carried_values;
                            carrying.plan(&s2);
                            assert_eq!(carrying.carried_values, again, "read once");
                        } else if let Some((p, k2)) = replan {
                            // The re-plan values the pairs of a carried lock itself.
                            let re_s2 = s2.after(&p.inputs[..k2]);
                            assert_eq!(carrying.plan(&re_s2), fresh.plan(&re_s2), "board {b}");
                            replans += usize::from(used);
                        }
                    }
                }
            }
        }
        let used = carrying.carried_values;
        assert!(
            next_plans > 600 && used > next_plans / 2 && other > 0 && replans > 200,
            "{blind} weighed: {next_plans} next blind plans, {used} locks carried, {other} none, \
             {replans} re-plans"
        );
    }
}

#[test]
fn the_layers_expectations_serve_only_the_decision_right_after() {
    let mut p = Planner::new(Standard::default());
    let board = planner_boards()[0];
    let s = Situation::at_spawn(board, Piece::T, 18, [0x30, 0x01], Some(Piece::I));
    assert!(!p.begin(&s).carried, "a new planner carries nothing");
    p.plan(&s).expect("a plan");
    assert!(p.begin(&s).carried, "the layer kept its expectations");
    assert!(!p.begin(&s).carried, "read once");
    // The decision after the layer's reads them (or not) and, without a next piece seen,
    // keeps none for the one after it.
    p.plan(&s).expect("a plan");
    p.plan(&Situation { next: None, ..s }).expect("a plan");
    assert!(!p.begin(&s).carried);
}
