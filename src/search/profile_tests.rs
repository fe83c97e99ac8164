//! Tests of the planner under player profiles: the blind plan before the reaction time, with
//! and without the next piece (self-play of every preset is in `lab/profile_play_tests.rs`).

use crate::game::pad::{Buttons, PadState};
use crate::game::piece::Piece;
use crate::movegen::profile::{Adjust, PieceProgress, Profile};
use crate::search::eval::Standard;
use crate::search::fixtures::mid_board;
use crate::search::plan::{Planner, Situation};

fn planner(profile: &str) -> Planner<Standard> {
    let mut p = Planner::new(Standard::default());
    p.profile = Profile::preset(profile).unwrap();
    p
}

#[test]
fn before_the_reaction_the_plan_does_not_depend_on_the_next_piece() {
    let board = mid_board();
    let mut human = planner("human");
    let mut seen_different = false;
    for piece in Piece::ALL {
        let s = Situation::at_spawn(board, piece, 18, [0x30, 0x01], None);
        let blind = human.plan(&s).unwrap();
        assert_eq!(blind.replan_after, Some(18), "{piece:?}");
        assert_eq!(blind.next_lock, None);
        let mut after = Vec::new();
        for next in Piece::ALL {
            let plan = human.plan(&Situation {
                next: Some(next),
                ..s
            });
            assert_eq!(plan.as_ref(), Some(&blind), "{piece:?} next {next:?}");
            // From the reaction on, the next piece is seen: the re-plan in flight.
            let progress = PieceProgress::after(&blind.inputs[..18], PadState::NONE);
            let mut game_like = s;
            game_like.next = Some(next);
            game_like.progress = progress;
            let mut a = s.active;
            let mut prev = PadState::NONE;
            let map = crate::movegen::CollisionMap::new(&board, piece);
            for &i in &blind.inputs[..18] {
                a.frame(Buttons::after(i, prev), 3, &map);
                prev = i;
            }
            game_like.active = a;
            game_like.prev = prev;
            let re = human.plan(&game_like).unwrap();
            assert_eq!(re.replan_after, None);
            after.push(re.lock);
        }
        // The re-plan keeps the blind lock reachable; with the next piece seen it may move.
        seen_different |= after.iter().any(|l| *l != blind.lock);
    }
    assert!(seen_different, "the real next piece never changed a lock");
}

#[test]
fn without_a_reaction_time_the_next_piece_counts_at_once() {
    let mut p = planner("30hz");
    let s = |next| Situation::at_spawn(mid_board(), Piece::T, 18, [0x30, 0x01], next);
    let plan = p.plan(&s(Some(Piece::I))).unwrap();
    assert_eq!(plan.replan_after, None);
    assert!(plan.next_lock.is_some());
}

/// A Tetris well in the right column, columns 7 and 8 full from rows `from.0` and `from.1`
/// down: an upright I in column 7 reaches the well only by shifting before each column's
/// stack (at level 18, row `frame / 3` on a frame's shift).
fn right_well(from: (usize, usize)) -> crate::game::Board {
    let rows: Vec<String> = (0..20)
        .map(|y| {
            let full = |x: usize| match x {
                7 => y >= from.0,
                8 => y >= from.1,
                9 => false,
                _ => y >= 16,
            };
            (0..10).map(|x| if full(x) { '#' } else { '.' }).collect()
        })
        .collect();
    crate::game::Board::from_text(&rows.join("\n")).unwrap()
}

/// The lock of the re-plan at the reaction (15 Hz, reaction 18, level 18) and the frames of
/// the piece on which it newly presses Right, after the I piece played `initial` (upright in
/// column 7 at frame 18) on the board `right_well(from)`.
fn adjustment(
    adjust: Adjust,
    from: (usize, usize),
    initial: &[(usize, PadState)],
) -> ((u8, u8), Vec<usize>) {
    let mut p = planner("15hz");
    (p.profile.reaction, p.profile.adjust) = (18, adjust);
    let s = Situation::at_spawn(right_well(from), Piece::I, 18, [0, 0], Some(Piece::T));
    let mut inputs = [PadState::NONE; 18];
    for &(f, b) in initial {
        inputs[f] = b;
    }
    let at = s.after(&inputs);
    assert_eq!(
        (at.active.x, at.active.id),
        (7, 0x11),
        "upright in column 7"
    );
    let plan = p.plan(&at).unwrap();
    let mut prev = at.prev;
    let mut taps = Vec::new();
    for (f, &pad) in plan.inputs.iter().enumerate() {
        if pad.newly_from(prev).contains(PadState::RIGHT) {
            taps.push(18 + f);
        }
        prev = pad;
    }
    ((plan.lock.x, plan.lock.y), taps)
}

#[test]
fn a_restart_profile_taps_its_adjustment_from_the_reaction_or_the_next_slot() {
    let (r, l, a) = (PadState::RIGHT, PadState::LEFT, PadState::A);
    let well = (9, 18);
    // Two taps (frames 0, 4) before the reaction: the table restarts at 18, taps on 18 and
    // 22, just in time for columns 7 (full from row 8) and 8 (from row 9).
    let two = [(0, r), (4, r.union(a))];
    let tight = (8, 9);
    assert_eq!(
        adjustment(Adjust::Restart, tight, &two),
        (well, vec![18, 22])
    );
    // The spawn's table taps on 20 and 24: too late for column 8.
    let (lock, _) = adjustment(Adjust::Continue, tight, &two);
    assert_ne!(lock, well);
    // Five taps (0 to 16): the restart waits for the table's sixth slot, 20: taps on 20 and
    // 24, as the spawn's table (columns 7 and 8 full from rows 9 and 10).
    let five = [(0, r), (4, r), (8, l), (12, r), (16, a)];
    for adjust in [Adjust::Restart, Adjust::Continue] {
        let got = adjustment(adjust, (9, 10), &five);
        assert_eq!(got, (well, vec![20, 24]), "{adjust}");
    }
    // Two taps that skip slots (0 and 16): the last on 16, so no tap before 20 (a count of two
    // taps would restart on 18, two frames after the last: faster than 15 Hz).
    let skipped = [(0, r.union(a)), (16, r)];
    let got = adjustment(Adjust::Restart, (9, 10), &skipped);
    assert_eq!(got, (well, vec![20, 24]));
}
