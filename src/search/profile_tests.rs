//! Tests of the planner under player profiles: the blind plan before the reaction time, with
//! and without the next piece (self-play of every preset is in `lab/profile_play_tests.rs`).

use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Piece;
use crate::movegen::profile::{PieceProgress, Profile};
use crate::search::eval::Standard;
use crate::search::fixtures::{at_spawn, mid_board};
use crate::search::plan::{Planner, Situation};

fn planner(profile: &str) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset(profile).unwrap();
    p
}

#[test]
fn before_the_reaction_the_plan_does_not_depend_on_the_next_piece() {
    let board = mid_board();
    let mut human = planner("human");
    let mut seen_different = false;
    for piece in Piece::ALL {
        let s = at_spawn(board, piece, 18, [0x30, 0x01], None);
        let blind = human.plan(&s).unwrap();
        assert_eq!(blind.replan_after, Some(18), "{piece:?}");
        assert_eq!(blind.next_lock, None);
        let mut after = Vec::new();
        for next in Piece::ALL {
            let plan = human.plan(&Situation {
                next: Some(next),
                ..s
            });
            assert_eq!(plan.as_ref(), Some(&blind), "{piece:?} next {next:?}");
            // From the reaction on, the next piece is seen: the re-plan in flight.
            let progress = PieceProgress::after(&blind.inputs[..18], PadState::NONE);
            let mut game_like = s;
            game_like.next = Some(next);
            game_like.progress = progress;
            let mut a = s.active;
            let mut prev = PadState::NONE;
            let map = crate::movegen::CollisionMap::new(&board, piece);
            for &i in &blind.inputs[..18] {
                a.frame(Buttons::after(i, prev), 3, &map);
                prev = i;
            }
            game_like.active = a;
            game_like.prev = prev;
            let re = human.plan(&game_like).unwrap();
            assert_eq!(re.replan_after, None);
            after.push(re.lock);
        }
        // The re-plan keeps the blind lock reachable; with the next piece seen it may move.
        seen_different |= after.iter().any(|l| *l != blind.lock);
    }
    assert!(seen_different, "the real next piece never changed a lock");
}

#[test]
fn without_a_reaction_time_the_next_piece_counts_at_once() {
    let mut p = planner("30hz");
    let s = |next| at_spawn(mid_board(), Piece::T, 18, [0x30, 0x01], next);
    let plan = p.plan(&s(Some(Piece::I))).unwrap();
    assert_eq!(plan.replan_after, None);
    assert!(plan.next_lock.is_some());
}
