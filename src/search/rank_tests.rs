//! The ranking against the planner: its best entry is the planner's choice, value and path,
//! on every decision of a game.

use super::*;
use crate::game::Game;
use crate::search::{Planner, Standard, Weights};

/// The top entry is the planner's choice with the planner's value, on every decision of a
/// game the planner plays; every entry's value is what `value_of` gives its lock.
#[test]
fn best_entry_is_the_planners_choice() {
    let standard = Standard::new(Weights::default_set());
    let mut planner = Planner::new(standard.clone());
    let mut ranker = Ranker::new(standard);
    let mut game = Game::seeded(18, 77);
    let mut decisions = 0;
    let mut picked = 0;
    let mut prev_state = None;
    let mut queue: std::collections::VecDeque<crate::game::PadState> = Default::default();
    for _ in 0..30_000 {
        let in_control = game.play_state == crate::game::state::PlayState::Control;
        if in_control && prev_state != Some(crate::game::state::PlayState::Control) {
            let s = Situation::of(&game);
            let plan = planner.plan(&s).unwrap();
            let ranking = ranker.rank(&s).unwrap();
            let best = ranking.best().unwrap();
            assert_eq!(best.lock, plan.lock, "decision {decisions}");
            // The look-ahead may choose another pair than the two-piece best, even for the
            // same first lock: a lock's value (its best pair) is at most the chosen pair's.
            assert!(compare_values(best.value, plan.value).is_le());
            if ranking.pick_first {
                picked += 1;
                assert!(compare_values(ranking.entries[1].value, best.value).is_le());
            }
            assert_eq!(best.rank, 1);
            assert_eq!(ranking.entries.len(), plan.candidates);
            // Behind the pick, ranks never decrease down the list, and equal values share one.
            let skip = usize::from(ranking.pick_first);
            for w in ranking.entries[skip..].windows(2) {
                assert!(w[0].rank <= w[1].rank);
                assert_eq!(w[0].rank == w[1].rank, w[0].value == w[1].value);
            }
            if decisions % 10 == 0 {
                let last = *ranking.entries.last().unwrap();
                assert_eq!(ranker.value_of(&s, &last.lock).0, last.value);
            }
            // The path to the planner's lock is the planner's.
            let inputs = ranker.inputs_to(&best.lock).unwrap();
            assert_eq!(inputs, plan.inputs);
            decisions += 1;
            queue = plan.inputs.iter().copied().collect();
        }
        prev_state = Some(game.play_state);
        if game.is_over() {
            break;
        }
        game.step(queue.pop_front().unwrap_or(crate::game::PadState::NONE));
    }
    assert!(decisions >= 60, "{decisions}");
    // The game exercises both cases: the look-ahead keeps the two-piece best, and overrules it.
    assert!(picked > 0 && picked < decisions, "{picked} of {decisions}");
}

/// Under a profile the ranking holds the locks that profile reaches, its pick first, and the
/// inputs to each lock keep to the profile's timeline.
#[test]
fn a_profile_ranks_only_what_it_reaches() {
    use crate::game::{PadState, Piece};
    use crate::movegen::profile::Profile;
    use crate::search::fixtures::mid_board;
    let board = mid_board();
    let standard = Standard::new(Weights::default_set());
    let mut unlimited = Ranker::new(standard.clone());
    let mut slow = Ranker::new(standard.clone());
    let profile = Profile::preset("10hz").unwrap();
    slow.set_profile(profile.clone());
    assert_eq!(slow.profile(), &profile);
    let mut planner = Planner::new(standard);
    planner.profile = profile.clone();
    let mut fewer = 0;
    for piece in Piece::ALL {
        let s = Situation::at_spawn(board, piece, 29, [0x00, 0x02], Some(Piece::I));
        let all = unlimited.rank(&s).unwrap();
        let some = slow.rank(&s).unwrap();
        assert_eq!(some.best().unwrap().lock, planner.plan(&s).unwrap().lock);
        for e in &some.entries {
            assert!(all.find(&e.lock).is_some(), "{piece:?}: {:?}", e.lock);
            let inputs = slow.inputs_to(&e.lock).unwrap();
            let mut prev = PadState::NONE;
            for (f, &i) in inputs.iter().enumerate() {
                if i.newly_from(prev).0 & 0xC3 != 0 {
                    assert!(profile.timeline.allows(f as u32), "{piece:?} frame {f}");
                }
                prev = i;
            }
        }
        fewer += usize::from(some.entries.len() < all.entries.len());
    }
    assert!(fewer > 0, "10 Hz at level 29 reaches fewer locks somewhere");
}
