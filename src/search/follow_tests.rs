//! The follower and the tally on the rules model: the counts come from the reports, a desync
//! is caught and re-planned, and the past-155 figures (clears, roll-over) count as they should.

use super::*;
use crate::game::state::PlayState;
use crate::search::eval::Standard;

fn play(game: &mut Game, planner: &mut Planner<Standard>, f: &mut Follower, t: &mut Tally) {
    let in_control = game.play_state == PlayState::Control;
    let frame = u64::from(game.frame_counter);
    f.ensure_plan(planner, frame, in_control, || Ok::<_, ()>(&*game))
        .unwrap();
    let pad = f.pad(in_control);
    let ev = game.step(pad);
    let seen = Seen {
        frame: frame + 1,
        controlled: in_control,
        in_control: game.play_state == PlayState::Control,
        piece: Pos::of(&game.active),
    };
    let report = f.seen(pad, seen);
    assert_eq!(
        report.locked.is_some(),
        ev.locked.is_some(),
        "frame {frame}"
    );
    t.frame(game.score(), line_count(game.lines), game.level, &report);
}

#[test]
fn the_tally_counts_what_the_model_did() {
    let mut game = Game::seeded(19, 7);
    let mut planner = Planner::new(Standard::default());
    let (mut f, mut t) = (Follower::default(), Tally::start(0, 0, 19));
    let mut tetrises = 0;
    while t.pieces < 700 && !game.is_over() {
        let lines = game.lines();
        play(&mut game, &mut planner, &mut f, &mut t);
        tetrises += u32::from(game.lines() == lines + 4);
    }
    assert_eq!(
        (t.score, t.lines, t.level),
        (game.score(), game.lines(), game.level)
    );
    assert_eq!(t.tetrises, tetrises);
    assert_eq!(t.desyncs, 0);
    assert!(
        t.lines > 100 && t.reached(29) && t.lines_at_29.is_some(),
        "{t:?}"
    );
}

#[test]
fn a_moved_piece_is_a_desync_and_is_planned_again() {
    let mut game = Game::seeded(19, 9);
    let mut planner = Planner::new(Standard::default());
    let (mut f, mut t) = (Follower::default(), Tally::start(0, 0, 19));
    // Plan the first piece, then move it behind the plan's back.
    for _ in 0..200 {
        if f.following().is_some_and(|p| p.cursor == 2) {
            break;
        }
        play(&mut game, &mut planner, &mut f, &mut t);
    }
    assert!(f.following().is_some_and(|p| p.cursor == 2));
    game.active.x = if game.active.x > 2 { 0 } else { 8 };
    play(&mut game, &mut planner, &mut f, &mut t);
    assert_eq!(t.desyncs, 1);
    assert!(f.following().is_none(), "the broken plan is dropped");
    play(&mut game, &mut planner, &mut f, &mut t);
    assert!(f.following().is_some(), "and made again from what was seen");
}

#[test]
fn clears_past_155_and_the_roll_over_are_counted() {
    let quiet = Report::default();
    let mut t = Tally::start(0, 1500, 154);
    t.frame(999_999, 1502, 154, &quiet);
    assert_eq!(t.clears_past_155, 0, "a clear at 154 is not past 155");
    t.frame(999_999, 1506, 155, &quiet);
    assert_eq!(
        t.clears_past_155, 0,
        "the clear that reaches 155 was made at 154"
    );
    t.frame(999_999, 1507, 155, &quiet);
    t.frame(999_999, 1507, 155, &quiet);
    assert_eq!(t.clears_past_155, 1);
    assert!(t.reached(155) && !t.reached(200));
    t.frame(999_999, 3290, 255, &quiet);
    t.frame(999_999, 3300, 0, &quiet);
    assert_eq!(t.lines_at_rebirth, Some(3300));
    assert!(t.reached(255), "a reborn game reached every level");
    assert_eq!(t.peak_level, 255);
    t.frame(999_999, 3301, 0, &quiet);
    // 1507 at 155, 3290 made at 155, 3300 made at 255; not 3301, made after the roll-over.
    assert_eq!(
        t.clears_past_155, 3,
        "clears after the roll-over are not past 155"
    );
}

#[test]
fn the_line_count_reads_the_hundreds_as_binary() {
    assert_eq!(line_count([0x95, 4]), 495);
    assert_eq!(line_count([0x00, 15]), 1500);
    assert_eq!(
        line_count([0x00, 16]),
        1600,
        "not 1,000 as BCD would read $10"
    );
    assert_eq!(line_count([0x00, 33]), 3300);
}

#[test]
fn a_run_s_tally_sums_its_games_and_keeps_the_highest_level() {
    let mut a = Tally::start(0, 0, 19);
    a.frame(800, 4, 19, &Report::default());
    let b = Tally {
        score: 5000,
        lines: 10,
        level: 18,
        pieces: 30,
        tetrises: 2,
        desyncs: 1,
        lines_at_29: Some(3),
        crash: Some(Crash {
            kind: CrashKind::Crash,
            frame: 9,
            level: 18,
            lines: 10,
        }),
        ..Tally::default()
    };
    let run: Tally = [a, b].into_iter().sum();
    assert_eq!(
        (run.score, run.lines, run.level, run.tetrises, run.desyncs),
        (5800, 14, 19, 3, 1)
    );
    assert_eq!(run.pieces, a.pieces + 30);
    assert_eq!(
        (run.lines_at_29, run.crash, run.peak_level),
        (None, None, 0),
        "one game's marks are not the run's"
    );
    let mut unfinished = Tally::default();
    unfinished += b.plays();
    assert_eq!(
        (unfinished.score, unfinished.lines, unfinished.level),
        (0, 0, 0),
        "a game in progress adds its plays alone"
    );
    assert_eq!(
        (unfinished.pieces, unfinished.tetrises, unfinished.desyncs),
        (30, 2, 1)
    );
}
