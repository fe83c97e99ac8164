//! The blind plan weighing only the first locks ranked best (`Profile::blind_placements`)
//! against the plan weighing every one: the same plan whenever the full plan's lock is among
//! them.

use super::blind_worth::UPRIGHT_I;
use super::Planner;
use crate::game::piece::Piece;
use crate::game::Board;
use crate::movegen::profile::Profile;
use crate::movegen::{LockQuery, LockSets};
use crate::search::eval::{Evaluator, FirstPass, Standard};
use crate::search::fixtures::{planner_boards, random_stacks};
use crate::search::pairs::AfterFirst;
use crate::search::third::third_piece_odds;
use crate::search::Situation;

fn human(blind_placements: u16) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("human").expect("the human preset");
    p.profile.blind_placements = blind_placements;
    p
}

#[test]
fn weighing_the_best_ranked_gives_the_full_plan_when_its_lock_is_among_them() {
    let mut all = planner_boards();
    all.extend(random_stacks(8, 0x9E37_79B9_7F4A_7C15, 12));
    // Tall stacks, where some first locks leave a next piece no pair.
    all.extend(random_stacks(12, 0xD1B5_4A32_D192_ED03, 18));
    all.extend(random_stacks(12, 0xA54F_F53A_5F1D_36F1, 19));
    let (mut among, mut outside, mut every, mut fallback, mut fast) = (0, 0, 0, 0, 0);
    for k in [1, 3, 6] {
        let (mut full, mut pruned) = (human(0), human(k));
        for (b, &board) in all.iter().enumerate() {
            for (level, lines) in [(19, [0x95, 0x01]), (29, [0x00, 0x03])] {
                for piece in Piece::ALL {
                    // The blind plan never reads the next piece.
                    let s = Situation::at_spawn(board, piece, level, lines, Some(Piece::T));
                    let want = full.plan(&s);
                    let got = pruned.plan(&s);
                    assert_eq!(want.is_some(), got.is_some(), "board {b} {piece:?}");
                    let (Some(want), Some(got)) = (want, got) else {
                        continue;
                    };
                    let n = pruned.firsts.len();
                    if level == 29 {
                        assert_eq!(
                            got, want,
                            "k {k}: a row a frame weighs every lock, board {b}"
                        );
                        fast += 1;
                        continue;
                    }
                    if n <= usize::from(k) {
                        assert_eq!(got, want, "k {k}: every lock weighed, board {b}");
                        every += 1;
                        continue;
                    }
                    // The full plan's lock by its ranking key, among the pruned plan's.
                    let i = (pruned.firsts.iter())
                        .position(|l| l.at == want.lock)
                        .expect("the same first locks");
                    let ranking = &pruned.blind.ranking;
                    assert_eq!(ranking.len(), n);
                    let rank = (0..n).filter(|&j| ranking[j] < ranking[i]).count();
                    if rank < usize::from(k) {
                        assert_eq!(got, want, "k {k}, board {b} level {level} {piece:?}");
                        among += 1;
                    } else {
                        outside += 1;
                    }
                    // A lock with a pair for every next piece is found whenever there is one:
                    // the rest are weighed when the best ranked all leave a piece without.
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
        fallback > 0 && every > 0 && fast > 500,
        "{fallback} without a full pair, {every} few locks, {fast} at level 29"
    );
}

/// Stacks ready for a Tetris: `full` bottom rows filled but for one empty well column, and a
/// random skyline of up to six rows above them that leaves the well open.
fn tetris_ready(n: usize, mut x: u64) -> Vec<Board> {
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    (0..n)
        .map(|_| {
            let (well, full) = (next(10) as usize, 4 + next(3) as usize);
            let tops: Vec<usize> = (0..10).map(|_| full + next(7) as usize).collect();
            let text: Vec<String> = (0..20)
                .map(|r| {
                    let height = 20 - r;
                    (0..10)
                        .map(|c| {
                            let filled = c != well && height <= tops[c];
                            if filled && (height <= full || next(5) > 0) {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            Board::from_text(&text.join("\n")).expect("a test stack parses")
        })
        .collect()
}

#[test]
fn the_ranking_keeps_the_tetris_that_the_value_alone_misses() {
    let (mut full, mut pruned) = (human(0), human(3));
    let (mut by_alone, mut by_ranking, mut decisions) = (0, 0, 0);
    for board in tetris_ready(40, 0x2545_F491_4F6C_DD1D) {
        for piece in Piece::ALL {
            let s = Situation::at_spawn(board, piece, 19, [0x95, 0x01], None);
            let (Some(want), Some(_)) = (full.plan(&s), pruned.plan(&s)) else {
                continue;
            };
            let n = pruned.firsts.len();
            if n <= 3 {
                continue;
            }
            let i = (pruned.firsts.iter())
                .position(|l| l.at == want.lock)
                .expect("the same first locks");
            let ranking = &pruned.blind.ranking;
            let alone: Vec<(f64, usize)> = (pruned.firsts.iter().enumerate())
                .map(|(j, l)| {
                    let after = AfterFirst::new(&s.board, s.level, s.lines, l.at);
                    (after.alone(&pruned.evaluator).unwrap_or(f64::INFINITY), j)
                })
                .collect();
            let rank = |keys: &[(f64, usize)]| (0..n).filter(|&j| keys[j] < keys[i]).count();
            by_ranking += usize::from(rank(ranking) >= 3);
            by_alone += usize::from(rank(&alone) >= 3);
            decisions += 1;
        }
    }
    assert!(decisions > 200, "{decisions} decisions");
    assert!(
        by_alone >= 10 && by_ranking * 5 <= by_alone,
        "the full plan's lock outside the 3 weighed: {by_ranking} by the ranking, {by_alone} \
         by the value alone, of {decisions}"
    );
}

#[test]
fn a_ranking_key_is_the_upright_i_pair_and_the_value_alone_by_the_odds() {
    let mut p = human(2);
    let mut locks = LockSets::new();
    let mut checked = 0;
    for board in planner_boards() {
        for piece in Piece::ALL {
            let s = Situation::at_spawn(board, piece, 19, [0x95, 0x01], None);
            if p.plan(&s).is_none() || p.firsts.len() <= 2 {
                continue;
            }
            let share = third_piece_odds(piece)[Piece::I.index()];
            for (j, l) in p.firsts.iter().enumerate() {
                let after = AfterFirst::new(&s.board, s.level, s.lines, l.at);
                // A search of its own (not resumed), the upright I's locks kept.
                let q = LockQuery::spawn(&after.board, Piece::I, after.speed, &p.profile, p.moves);
                let upright: Vec<_> = (locks.search(&q).iter())
                    .filter(|l| l.at.id() == UPRIGHT_I)
                    .copied()
                    .collect();
                let prefix = p.evaluator.prefix(&after.board);
                let first = FirstPass {
                    after: &after,
                    prefix: &prefix,
                };
                let want = match (
                    p.evaluator.best_pair_after(first, &upright),
                    after.alone(&p.evaluator),
                ) {
                    (Some((v, _)), Some(alone)) => share * v + (1.0 - share) * alone,
                    _ => f64::INFINITY,
                };
                assert_eq!(p.blind.ranking[j], (want, j), "{piece:?} lock {j}");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} keys");
}
