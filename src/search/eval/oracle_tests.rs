//! The one-pass evaluator against the oracle (`eval/oracle.rs`), bit for bit: features on
//! random boards, and every pair value of the planner bench's decisions.

use super::*;
use crate::game::board::{FULL_ROW, HIDDEN_ROWS};
use crate::game::score::drop_speed;
use crate::game::Piece;
use crate::movegen::{LockQuery, LockSets};
use crate::movegen::{MoveSet, Profile};
use crate::search::pairs::AfterFirst;

/// A random board: a random pile height, cells filled with a random density below it, now
/// and then a full or an empty row, and a few cells in the hidden and top rows.
pub(super) fn random_board(x: &mut u64) -> Board {
    let mut next = || {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    };
    let mut b = Board::EMPTY;
    let height = (next() % 21) as usize;
    let density = next() % 4;
    for r in 20 - height..20 {
        let mut row = (next() as u16) & FULL_ROW;
        for _ in 0..density {
            row |= (next() as u16) & FULL_ROW;
        }
        match next() % 16 {
            0 => row = FULL_ROW,
            1 => row = 0,
            _ => {}
        }
        b.rows[r + HIDDEN_ROWS] = row;
    }
    if next() % 8 == 0 {
        b.rows[HIDDEN_ROWS] |= (next() as u16) & FULL_ROW;
    }
    b
}

#[test]
fn one_pass_features_equal_the_oracle_on_random_boards() {
    let mut x = 0x2545_F491_4F6C_DD1D;
    for i in 0..50_000 {
        let b = random_board(&mut x);
        assert_eq!(features(&b), oracle::features(&b), "board {i}:\n{b:?}");
    }
}

#[test]
fn the_reach_fast_path_equals_the_route_by_route_count() {
    let tables: Vec<ReachTable> = [1u8, 2, 3].map(ReachTable::derive).into();
    let mut x = 0x9E37_79B9_7F4A_7C15;
    for i in 0..20_000 {
        let b = random_board(&mut x);
        for t in &tables {
            assert_eq!(
                t.unreachable(&b),
                t.unreachable_each(&b),
                "board {i}:\n{b:?}"
            );
        }
    }
}

/// The planner bench's boards (benches/planner.rs), and random ones.
pub(super) const BENCH_BOARDS: [&str; 2] = [
    "..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
     #########.\n####.####.\n#########.\n#########.\n#########.",
    "..........\n..........\n..........\n..........\n..........\n\
     ......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
     #.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
     ####.####.\n###.#####.\n#########.\n##.######.\n#########.",
];

/// The empty board, the bench boards and `random` random ones from `seed`.
pub(super) fn test_boards(random: usize, seed: u64) -> Vec<Board> {
    let mut boards = vec![Board::EMPTY];
    boards.extend(BENCH_BOARDS.iter().map(|t| Board::from_text(t).unwrap()));
    let mut x = seed;
    boards.extend((0..random).map(|_| random_board(&mut x)));
    boards
}

/// Every pair of every decision on `boards` at `levels` (every first piece, every lock of
/// it, every next piece, every lock of that): `f(after the first lock, second lock)`.
pub(super) fn each_pair(boards: &[Board], levels: &[u8], mut f: impl FnMut(&AfterFirst, Pos)) {
    let profile = Profile::default();
    let (mut firsts, mut seconds) = (LockSets::new(), LockSets::new());
    for board in boards {
        for &level in levels {
            for first in Piece::ALL {
                let q = LockQuery::spawn(
                    board,
                    first,
                    drop_speed(level),
                    &profile,
                    MoveSet::default(),
                );
                for l1 in firsts.search(&q).to_vec() {
                    let after = AfterFirst::new(board, level, [0x50, 0x01], l1.at);
                    for next in Piece::ALL {
                        let q2 = LockQuery::spawn(
                            &after.board,
                            next,
                            after.speed,
                            &profile,
                            MoveSet::default(),
                        );
                        for l2 in seconds.search(&q2) {
                            f(&after, l2.at);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_pair_value_of_the_bench_decisions_is_the_oracles_bit_for_bit() {
    let e = Standard::default();
    let mut pairs = 0;
    each_pair(
        &test_boards(6, 0x1234_5678_9ABC_DEF1),
        &[18, 19, 28, 29],
        |after, second| {
            let (board2, lines2) = after.then(second);
            let outcome = after.outcome(second, lines2, &board2);
            let got = e.evaluate(&outcome).map(f64::to_bits);
            let want = oracle::evaluate(&e, &outcome).map(f64::to_bits);
            assert_eq!(got, want, "level {}:\n{board2:?}", after.level);
            pairs += 1;
        },
    );
    assert!(pairs > 100_000, "{pairs} pairs");
}

#[test]
fn both_builds_of_the_evaluator_give_the_same_bits() {
    let e = Standard::default();
    let mut x = 0x0DDB_1A5E_5BAD_5EED;
    let mut checked = 0;
    for _ in 0..20_000 {
        let board = random_board(&mut x);
        let p = |x: u8, y: u8| Pos {
            x,
            y,
            orientation: Piece::T.spawn(),
        };
        for level in [0u8, 19, 29] {
            let outcome = PairOutcome {
                first: p(4, (x % 18) as u8),
                second: p(5, (x % 17) as u8),
                lines_first: (x % 5) as u32,
                lines_second: (x % 3) as u32,
                board: &board,
                level,
            };
            let portable = e.evaluate_portable(&outcome).map(f64::to_bits);
            assert_eq!(portable, oracle::evaluate(&e, &outcome).map(f64::to_bits));
            #[cfg(target_arch = "x86_64")]
            if e.popcnt {
                // SAFETY: the CPU has popcnt.
                let fast = unsafe { e.evaluate_popcnt(&outcome) }.map(f64::to_bits);
                assert_eq!(fast, portable);
                checked += 1;
            }
        }
    }
    if checked == 0 {
        eprintln!("no popcnt on this CPU: only the portable build was checked");
    }
}
