//! The blind plan weighing only the first locks best alone (`Profile::blind_placements`) against
//! the plan weighing every one: the same plan whenever the full plan's lock is among them.

use super::{placement, Planner};
use crate::game::piece::Piece;
use crate::search::eval::Standard;
use crate::search::fixtures::{at_spawn, planner_boards, random_stacks};
use crate::search::profile::Profile;

fn human(blind_placements: u16) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("human").expect("the human preset");
    p.profile.blind_placements = blind_placements;
    p
}

#[test]
fn weighing_the_best_alone_gives_the_full_plan_when_its_lock_is_among_them() {
    let mut all = planner_boards();
    all.extend(random_stacks(8, 0x9E37_79B9_7F4A_7C15, 12));
    // Tall stacks, where some first locks leave a next piece no pair.
    all.extend(random_stacks(12, 0xD1B5_4A32_D192_ED03, 18));
    let (mut among, mut outside, mut every, mut fallback) = (0, 0, 0, 0);
    for k in [1, 3, 6] {
        let (mut full, mut pruned) = (human(0), human(k));
        for (b, &board) in all.iter().enumerate() {
            for (level, lines) in [(19, [0x95, 0x01]), (29, [0x00, 0x03])] {
                for piece in Piece::ALL {
                    // The blind plan never reads the next piece.
                    let s = at_spawn(board, piece, level, lines, Some(Piece::T));
                    let want = full.plan(&s);
                    let got = pruned.plan(&s);
                    assert_eq!(want.is_some(), got.is_some(), "board {b} {piece:?}");
                    let (Some(want), Some(got)) = (want, got) else {
                        continue;
                    };
                    let n = pruned.firsts.len();
                    if n <= usize::from(k) {
                        assert_eq!(got, want, "k {k}: every lock weighed, board {b}");
                        every += 1;
                        continue;
                    }
                    // The full plan's lock by its value alone, among the pruned plan's.
                    let i = (pruned.firsts.iter())
                        .position(|l| placement(l) == want.lock)
                        .expect("the same first locks");
                    let alone = &pruned.kept.alone;
                    assert_eq!(alone.len(), n);
                    let rank = (0..n).filter(|&j| (alone[j], j) < (alone[i], i)).count();
                    if rank < usize::from(k) {
                        assert_eq!(got, want, "k {k}, board {b} level {level} {piece:?}");
                        among += 1;
                    } else {
                        outside += 1;
                    }
                    // A lock with a pair for every next piece is found whenever there is one:
                    // the rest are weighed when the best alone all leave a piece without.
                    if want.value.is_some() {
                        assert!(got.value.is_some(), "k {k}, board {b} {piece:?}");
                    } else {
                        fallback += 1;
                        assert_eq!(got, want, "k {k}: all weighed, board {b} {piece:?}");
                    }
                }
            }
        }
    }
    assert!(
        among > 300 && outside > 10,
        "{among} among, {outside} outside"
    );
    assert!(
        fallback > 0 && every > 0,
        "{fallback} without a full pair, {every} few locks"
    );
}
