//! The evaluation carried from the first lock (`eval/incremental.rs`) against the full pass,
//! bit for bit: features and values of every pair on the bench boards and random ones.

use super::oracle_tests::{random_board, BENCH_BOARDS};
use super::*;
use crate::game::score::drop_speed;
use crate::search::locks::{LockQuery, LockSets};
use crate::search::pairs::AfterFirst;
use crate::search::{MoveSet, Profile};

#[test]
fn every_pair_from_the_first_boards_pass_is_the_full_pass_bit_for_bit() {
    let e = Standard::default();
    let mut boards = vec![Board::EMPTY];
    boards.extend(BENCH_BOARDS.iter().map(|t| Board::from_text(t).unwrap()));
    let mut x = 0x5DEE_CE66_D1CE_4E5B;
    boards.extend((0..24).map(|_| random_board(&mut x)));
    let profile = Profile::default();
    let (mut firsts, mut seconds) = (LockSets::new(), LockSets::new());
    let (mut pairs, mut carried, mut hidden) = (0, 0, 0);
    for board in &boards {
        for level in [18u8, 19, 29] {
            for first in Piece::ALL {
                let q = LockQuery::spawn(
                    board,
                    first,
                    drop_speed(level),
                    &profile,
                    MoveSet::default(),
                );
                for l1 in firsts.search(&q).to_vec() {
                    let after = AfterFirst::new(board, level, [0x50, 0x01], (&l1).into());
                    let prefix = e.prefix(&after.board);
                    for next in Piece::ALL {
                        let q2 = LockQuery::spawn(
                            &after.board,
                            next,
                            after.speed,
                            &profile,
                            MoveSet::default(),
                        );
                        for l2 in seconds.search(&q2) {
                            let second = Placement::from(l2);
                            let (board2, lines2) = after.then(second);
                            if lines2 == 0 {
                                let rows = visible_rows(&board2);
                                let want = features(&board2);
                                assert_eq!(
                                    prefix.features_after(&rows, &second),
                                    want,
                                    "first board:\n{:?}\nafter {second:?}:\n{board2:?}",
                                    after.board
                                );
                                carried += 1;
                                hidden += usize::from((second.y as i8) < 2);
                            }
                            let outcome = after.outcome(second, lines2, &board2);
                            let got = e.evaluate_after(&prefix, &outcome).map(f64::to_bits);
                            let want = e.evaluate(&outcome).map(f64::to_bits);
                            assert_eq!(got, want, "level {level}:\n{board2:?}");
                            pairs += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        pairs > 200_000 && carried > pairs / 2,
        "{pairs} pairs, {carried} carried"
    );
    assert!(hidden > 100, "{hidden} second locks reaching the top rows");
}
