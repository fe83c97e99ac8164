//! The re-plan at the reaction frame from the blind plan's kept pairs (`plan/reuse.rs`)
//! against the same re-plan made from scratch: the same plan, on many boards and pieces.

use super::{Planner, Situation};
use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Piece;
use crate::game::score::drop_speed;
use crate::game::Board;
use crate::search::collision::CollisionMap;
use crate::search::eval::Standard;
use crate::search::fixtures::{at_spawn, mid_board, planner_boards, random_boards};
use crate::search::profile::{PieceProgress, Profile};
use crate::search::third::Lookahead;

fn human(lookahead: Lookahead) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("human").unwrap();
    p.lookahead = lookahead;
    p
}

/// `s` after the first `k` inputs of `inputs`, played in the model.
fn after_inputs(s: &Situation, inputs: &[PadState], piece: Piece) -> Situation {
    let map = CollisionMap::new(&s.board, piece);
    let (mut a, mut prev) = (s.active, s.prev);
    for &i in inputs {
        a.frame(Buttons::after(i, prev), drop_speed(s.level), &map);
        prev = i;
    }
    Situation {
        active: a,
        prev,
        progress: PieceProgress::after(inputs, s.prev),
        ..*s
    }
}

#[test]
fn the_replan_from_the_blind_plans_pairs_is_the_replan_made_from_scratch() {
    let mut all = planner_boards();
    all.extend(random_boards(10, 0x9E37_79B9_7F4A_7C15));
    let (mut replans, mut found) = (0, 0);
    for (b, &board) in all.iter().enumerate() {
        // The third-piece layer on (every pair's key) and off (the carried best) on half.
        let modes: &[Lookahead] = if b % 2 == 0 {
            &[Lookahead::default(), Lookahead::OFF]
        } else {
            &[Lookahead::default()]
        };
        for &lookahead in modes {
            let (mut kept, mut fresh) = (human(lookahead), human(lookahead));
            for (level, lines) in [(18, [0x30, 0x01]), (19, [0x95, 0x01]), (29, [0x00, 0x03])] {
                for piece in Piece::ALL {
                    for next in Piece::ALL {
                        let s = at_spawn(board, piece, level, lines, Some(next));
                        let Some(blind) = kept.plan(&s) else { continue };
                        let Some(k) = blind.replan_after else {
                            continue;
                        };
                        let re_s = after_inputs(&s, &blind.inputs[..k], piece);
                        assert!(kept.kept.keeping());
                        let re = kept.plan(&re_s);
                        assert!(!kept.kept.keeping(), "read once");
                        let want = fresh.plan(&re_s);
                        assert_eq!(re, want, "board {b} level {level} {piece:?} then {next:?}");
                        replans += 1;
                        let lock = re.map(|p| p.lock);
                        found += usize::from(
                            lock.is_some_and(|l| kept.kept.pairs_of(l, next).is_some()),
                        );
                    }
                }
            }
        }
    }
    assert!(
        replans > 2_000 && found > replans * 9 / 10,
        "{replans} re-plans, {found} kept"
    );
}

#[test]
fn kept_pairs_serve_only_the_next_decision_of_the_same_situation() {
    let mut p = human(Lookahead::default());
    let s = at_spawn(mid_board(), Piece::T, 19, [0x95, 0x01], Some(Piece::I));
    let blind = p.plan(&s).unwrap();
    let re_s = after_inputs(&s, &blind.inputs[..18], Piece::T);
    let (ours, moves, t) = (p.profile.clone(), p.moves, Some(Piece::T));
    // Another board, level, piece or profile, or no piece shown: not the blind plan's pairs.
    let other = Situation {
        board: Board::EMPTY,
        ..re_s
    };
    assert!(!p.kept.take_for(&other, t, (&ours, moves)));
    p.plan(&s).unwrap();
    let higher = Situation { level: 20, ..re_s };
    assert!(!p.kept.take_for(&higher, t, (&ours, moves)));
    p.plan(&s).unwrap();
    assert!(!p.kept.take_for(&re_s, Some(Piece::L), (&ours, moves)));
    p.plan(&s).unwrap();
    assert!(!p.kept.take_for(&re_s, None, (&ours, moves)));
    p.plan(&s).unwrap();
    let unlimited = Profile::preset("unlimited").unwrap();
    assert!(!p.kept.take_for(&re_s, t, (&unlimited, moves)));
    p.plan(&s).unwrap();
    assert!(p.kept.take_for(&re_s, t, (&ours, moves)));
    assert!(!p.kept.take_for(&re_s, t, (&ours, moves)), "read once");
}
