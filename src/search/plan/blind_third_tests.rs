//! The blind plan's third piece against a plain recount: full lock searches and full
//! evaluations, the two-piece worths ranked, the best few valued a piece further.

use super::Planner;
use crate::game::piece::Piece;
use crate::game::{Board, Pos};
use crate::movegen::profile::Profile;
use crate::movegen::{LockQuery, LockSets, MoveSet};
use crate::search::eval::{Evaluator, Standard};
use crate::search::fixtures::{planner_boards, random_stacks};
use crate::search::pairs::AfterFirst;
use crate::search::third::{third_piece_odds, Lookahead};
use crate::search::Situation;

fn slow(lookahead: Lookahead) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset("15hz").expect("the 15hz preset");
    p.profile.reaction = 18;
    p.lookahead = lookahead;
    p
}

/// The best pair of `after` and a lock of `piece` by full evaluation, the first found of
/// equal value: (value, the second lock, the board after both, its lines).
fn best_second(
    p: &Planner<Standard>,
    locks: &mut LockSets,
    after: &AfterFirst,
    piece: Piece,
    moves: MoveSet,
) -> Option<(f64, Pos, Board, u32)> {
    let q = LockQuery::spawn(&after.board, piece, after.speed, &p.profile, moves);
    let mut best: Option<(f64, Pos, Board, u32)> = None;
    for l in locks.search(&q) {
        let (board, lines) = after.then(l.at);
        let Some(v) = p.evaluator.evaluate(&after.outcome(l.at, lines, &board)) else {
            continue;
        };
        if best.is_none_or(|b| v < b.0) {
            best = Some((v, l.at, board, lines));
        }
    }
    best
}

/// First lock `first`'s two-piece worth (`None`: a next piece without a pair) and its worth a
/// piece further (`None` also when a third piece has no lock).
fn worths(p: &Planner<Standard>, s: &Situation, first: Pos) -> (Option<f64>, Option<f64>) {
    let mut locks = LockSets::new();
    let piece = crate::game::piece::Orientation::new(s.active.id)
        .expect("a piece")
        .piece();
    let odds = third_piece_odds(piece);
    let after = AfterFirst::new(&s.board, s.level, s.lines, first);
    let (mut two, mut three) = (0.0, Some(0.0));
    for next in Piece::ALL {
        let Some((v, second, board, lines)) = best_second(p, &mut locks, &after, next, p.moves)
        else {
            return (None, None);
        };
        two += odds[next.index()] * v;
        let then = AfterFirst {
            first: second,
            board,
            lines,
            level: s.level,
            speed: after.speed,
        };
        let mut e = Some(0.0);
        for (third, o) in Piece::ALL.into_iter().zip(third_piece_odds(next)) {
            let best = best_second(p, &mut locks, &then, third, MoveSet::default());
            e = e.zip(best).map(|(e, b)| e + o * b.0);
        }
        three = three.zip(e).map(|(t, e)| t + odds[next.index()] * e);
    }
    // The pairs after the first lock leave its own lines out: the recount counts them here.
    let own = p.evaluator.at(s.level).lines_cleared * f64::from(after.lines);
    (Some(two), three.map(|t| t + own))
}

#[test]
fn at_a_row_a_frame_the_blind_plan_takes_the_best_expectation_among_the_best_worths() {
    let (mut deep, mut flat) = (slow(Lookahead::default()), slow(Lookahead::OFF));
    let mut boards = planner_boards();
    boards.extend(random_stacks(20, 0x5DEE_CE66_D1CE_4E5B, 10));
    let (mut decisions, mut moved) = (0, 0);
    for (b, &board) in boards.iter().enumerate() {
        for piece in Piece::ALL {
            let s = Situation::at_spawn(board, piece, 29, [0x30, 0x02], Some(Piece::T));
            let (Some(got), Some(two)) = (deep.plan(&s), flat.plan(&s)) else {
                continue;
            };
            // The recount: every first lock's two-piece worth, the best three of those with a
            // pair for every next piece valued a piece further.
            let mut ranked: Vec<(f64, usize, Option<f64>)> = (deep.firsts.iter().enumerate())
                .filter_map(|(i, l)| {
                    let (two, three) = worths(&deep, &s, l.at);
                    two.map(|t| (t, i, three))
                })
                .collect();
            ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut want = None::<(f64, usize)>;
            for &(_, i, three) in ranked.iter().take(3) {
                if let Some(e) = three.filter(|&e| want.is_none_or(|w| e < w.0)) {
                    want = Some((e, i));
                }
            }
            let want = want.map_or(two.lock, |(_, i)| deep.firsts[i].at);
            assert_eq!(got.lock, want, "board {b} {piece:?}");
            decisions += 1;
            moved += usize::from(got.lock != two.lock);
        }
    }
    assert!(
        decisions > 150 && moved > 10,
        "{moved} of {decisions} decisions moved by the third piece"
    );
}

#[test]
fn below_a_row_a_frame_the_blind_plan_is_the_two_piece_one() {
    let (mut deep, mut flat) = (slow(Lookahead::default()), slow(Lookahead::OFF));
    let (boards, mut checked) = (planner_boards(), 0);
    for &board in &boards {
        for piece in Piece::ALL {
            for (level, lines) in [(19, [0x95, 0x01]), (28, [0x20, 0x02])] {
                let s = Situation::at_spawn(board, piece, level, lines, Some(Piece::T));
                assert_eq!(deep.plan(&s), flat.plan(&s), "level {level} {piece:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, boards.len() * Piece::NUM * 2);
}
