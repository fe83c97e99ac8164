//! The evaluation carried from the first lock (`eval/prefix.rs`, `eval/incremental.rs`)
//! against the full pass, bit for bit: every pair's features and value on bench and random boards.

use super::oracle_tests::{each_pair, test_boards};
use super::*;
use crate::movegen::ReachLock;

#[test]
fn every_pair_from_the_first_boards_pass_is_the_full_pass_bit_for_bit() {
    let e = Standard::default();
    let (mut pairs, mut carried, mut hidden) = (0, 0, 0);
    // The pass of the last first lock seen, redone when the first lock changes.
    let mut last: Option<(Board, Prefix)> = None;
    each_pair(
        &test_boards(24, 0x5DEE_CE66_D1CE_4E5B),
        &[18, 19, 29],
        |after, second| {
            if last.as_ref().is_none_or(|(b, _)| *b != after.board) {
                last = Some((after.board, e.prefix(&after.board)));
            }
            let prefix = &last.as_ref().unwrap().1;
            let (board2, lines2) = after.then(second);
            if lines2 == 0 {
                assert_eq!(
                    prefix.features_after(&visible_rows(&board2), &second),
                    features(&board2),
                    "first board:\n{:?}\nafter {second:?}:\n{board2:?}",
                    after.board
                );
                carried += 1;
                hidden += usize::from((second.y as i8) < 2);
            }
            let outcome = after.outcome(second, lines2, &board2);
            let got = e.evaluate_after(prefix, &outcome).map(f64::to_bits);
            let want = e.evaluate(&outcome).map(f64::to_bits);
            assert_eq!(got, want, "level {}:\n{board2:?}", after.level);
            pairs += 1;
        },
    );
    assert!(
        pairs > 200_000 && carried > pairs / 2,
        "{pairs} pairs, {carried} carried"
    );
    assert!(hidden > 100, "{hidden} second locks reaching the top rows");
}

#[test]
fn a_first_locks_value_alone_from_its_boards_pass_is_the_full_pass_bit_for_bit() {
    let e = Standard::default();
    let (mut firsts, mut cleared) = (0, 0);
    let mut last: Option<Board> = None;
    each_pair(
        &test_boards(24, 0x2545_F491_4F6C_DD1D),
        &[18, 19, 29],
        |after, _| {
            if last == Some(after.board) {
                return;
            }
            last = Some(after.board);
            let prefix = e.prefix(&after.board);
            let got = after.alone_after(&e, &prefix).map(f64::to_bits);
            assert_eq!(got, after.alone(&e).map(f64::to_bits), "{:?}", after.board);
            firsts += 1;
            cleared += usize::from(after.lines > 0);
        },
    );
    assert!(
        firsts > 2_000 && cleared > 50,
        "{firsts} first locks, {cleared} clearing"
    );
}

/// `second` as the reach search lists it.
fn reach_lock(second: Pos) -> ReachLock {
    ReachLock {
        at: second,
        frames: 0,
    }
}

#[test]
fn the_blind_plans_pairs_valued_without_the_board_after_both_are_the_full_pass_bit_for_bit() {
    let e = Standard::default();
    let (mut cleared, mut rejected, mut high) = (0, 0, 0);
    // The pairs of one first lock so far (every next piece's seconds, in order).
    let mut group: Option<(AfterFirst, Prefix, Vec<ReachLock>)> = None;
    let mut ties_seen = 0;
    let mut check = |(after, prefix, seconds): &(AfterFirst, Prefix, Vec<ReachLock>)| {
        let want = after.best_pair_after(&e, prefix, seconds.iter().map(|l| l.at));
        let first = FirstPass { after, prefix };
        let got = e.best_pair_after(first, seconds);
        assert_eq!(
            got.map(|(v, p)| (v.to_bits(), p)),
            want.map(|(v, p)| (v.to_bits(), p)),
            "level {}:\n{:?}",
            after.level,
            after.board
        );
        // The tie count: the planner's second pass over the full pass's values.
        let ties = e.best_pair_after_ties(first, seconds);
        let want = want.map(|(v, p)| (v.to_bits(), p, after.count_equal(&e, seconds, 0.0, v)));
        assert_eq!(ties.map(|(v, p, n)| (v.to_bits(), p, n)), want);
        ties_seen += usize::from(want.is_some_and(|w| w.2 > 1));
    };
    each_pair(
        &test_boards(24, 0x2545_F491_4F6C_DD1D),
        &[18, 19, 29],
        |after, second| {
            let same = group.as_ref().is_some_and(|(a, _, _)| {
                a.board == after.board && a.first == after.first && a.level == after.level
            });
            if !same {
                if let Some(g) = &group {
                    check(g);
                }
                group = Some((*after, e.prefix(&after.board), Vec::new()));
            }
            let (_, prefix, seconds) = group.as_mut().unwrap();
            seconds.push(reach_lock(second));
            // Each pair alone: its value, or its rejection.
            let (board2, lines2) = after.then(second);
            let want = e.evaluate(&after.outcome(second, lines2, &board2));
            let first = FirstPass { after, prefix };
            let got = e.best_carried(first, &[reach_lock(second)]);
            assert_eq!(
                got.map(|(v, p, _)| (v.to_bits(), p)),
                want.map(|v| (v.to_bits(), second)),
                "level {}, {second:?}:\n{board2:?}",
                after.level
            );
            cleared += usize::from(lines2 > 0);
            rejected += usize::from(want.is_none());
            high += usize::from(second.y as i8 + second.orientation.extent().2 < 2);
        },
    );
    if let Some(g) = &group {
        check(g);
    }
    assert!(
        cleared > 1000 && rejected > 1000 && high > 100,
        "{cleared} clearing, {rejected} rejected, {high} in rows 0 and 1"
    );
    assert!(
        ties_seen > 10,
        "{ties_seen} groups whose best value is tied"
    );
}
