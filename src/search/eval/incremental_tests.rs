//! The evaluation carried from the first lock (`eval/incremental.rs`) against the full pass,
//! bit for bit: features and values of every pair on the bench boards and random ones.

use super::oracle_tests::{each_pair, test_boards};
use super::*;

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
