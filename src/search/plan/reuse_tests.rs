//! The re-plan at the reaction frame from the blind plan's kept pairs (`plan/reuse.rs`)
//! against the same re-plan made from scratch: the same plan, on many boards and pieces.

use super::{Planner, Situation};
use crate::game::piece::Piece;
use crate::game::Board;
use crate::movegen::profile::Profile;
use crate::search::eval::Standard;
use crate::search::fixtures::{mid_board, planner_boards, random_boards};
use crate::search::third::Lookahead;

/// The `human` preset weighing `blind` first locks before the reaction (0: every one, so
/// every pair of the re-plan is kept; the preset's count keeps only the weighed locks' pairs).
fn human(lookahead: Lookahead, blind: u16) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("human").unwrap();
    p.profile.blind_placements = blind;
    p.lookahead = lookahead;
    p
}

#[test]
fn the_replan_from_the_blind_plans_pairs_is_the_replan_made_from_scratch() {
    let preset = Profile::preset("human").unwrap().blind_placements;
    assert!(preset > 0, "the preset weighs some first locks only");
    let mut all = planner_boards();
    all.extend(random_boards(10, 0x9E37_79B9_7F4A_7C15));
    for blind in [0, preset] {
        let (mut replans, mut found) = (0, 0);
        // The pruned plan on every other board (the test's time).
        let boards = all
            .iter()
            .enumerate()
            .filter(|(b, _)| blind == 0 || b % 2 == 1);
        for (b, &board) in boards {
            // The third-piece layer on (every pair's key) and off (the carried best) on half.
            let modes: &[Lookahead] = if b % 2 == 0 {
                &[Lookahead::default(), Lookahead::OFF]
            } else {
                &[Lookahead::default()]
            };
            for &lookahead in modes {
                let (mut kept, mut fresh) = (human(lookahead, blind), human(lookahead, blind));
                for (level, lines) in [(18, [0x30, 0x01]), (19, [0x95, 0x01]), (29, [0x00, 0x03])] {
                    for piece in Piece::ALL {
                        for next in Piece::ALL {
                            let s = Situation::at_spawn(board, piece, level, lines, Some(next));
                            let Some(first) = kept.plan(&s) else { continue };
                            let Some(k) = first.replan_after else {
                                continue;
                            };
                            let re_s = s.after(&first.inputs[..k]);
                            assert!(kept.cache.kept.keeping());
                            let re = kept.plan(&re_s);
                            assert!(!kept.cache.kept.keeping(), "read once");
                            let want = fresh.plan(&re_s);
                            assert_eq!(re, want, "board {b} level {level} {piece:?} then {next:?}");
                            replans += 1;
                            let lock = re.map(|p| p.lock);
                            found += usize::from(
                                lock.is_some_and(|l| kept.cache.kept.pairs_of(l, next).is_some()),
                            );
                        }
                    }
                }
            }
        }
        // Every lock's pairs kept, or only the weighed ones': then the re-plan's lock was
        // mostly weighed, but not always (its pairs valued by the re-plan itself).
        let enough = if blind == 0 {
            replans > 2_000 && found > replans * 9 / 10
        } else {
            replans > 500 && found > replans / 2 && found < replans
        };
        assert!(enough, "{blind} weighed: {replans} re-plans, {found} kept");
    }
}

#[test]
fn kept_pairs_serve_only_the_next_decision_of_the_same_situation() {
    let mut p = human(Lookahead::default(), 0);
    let s = Situation::at_spawn(mid_board(), Piece::T, 19, [0x95, 0x01], Some(Piece::I));
    let blind = p.plan(&s).unwrap();
    let re_s = s.after(&blind.inputs[..18]);
    let (ours, moves, t) = (p.profile.clone(), p.moves, Some(Piece::T));
    // Another board, level, piece or profile, or no piece shown: not the blind plan's pairs.
    let other = Situation {
        board: Board::EMPTY,
        ..re_s
    };
    assert!(!p.cache.kept.take_for(&other, t, (&ours, moves)));
    p.plan(&s).unwrap();
    let higher = Situation { level: 20, ..re_s };
    assert!(!p.cache.kept.take_for(&higher, t, (&ours, moves)));
    p.plan(&s).unwrap();
    assert!(!p.cache.kept.take_for(&re_s, Some(Piece::L), (&ours, moves)));
    p.plan(&s).unwrap();
    assert!(!p.cache.kept.take_for(&re_s, None, (&ours, moves)));
    p.plan(&s).unwrap();
    let unlimited = Profile::preset("unlimited").unwrap();
    assert!(!p.cache.kept.take_for(&re_s, t, (&unlimited, moves)));
    p.plan(&s).unwrap();
    assert!(p.cache.kept.take_for(&re_s, t, (&ours, moves)));
    assert!(
        !p.cache.kept.take_for(&re_s, t, (&ours, moves)),
        "read once"
    );
}
