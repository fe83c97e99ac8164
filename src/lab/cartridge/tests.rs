//! The batch on the rules model's console (no ROM): games dealt apart, played in parallel,
//! every pad kept, stopped on request; the summary's shares and stops.

use super::*;
use crate::game::{CrashKind, Game};
use crate::lab::Until;
use crate::nes::ModelConsole;
use crate::search::follow::Crash;
use crate::search::Standard;

fn spec(until: Until) -> BatchSpec {
    BatchSpec {
        level: 19,
        until,
        run_ahead_from: None,
        run_ahead_watch: false,
        frame_limit: None,
        profile: "unlimited".into(),
        from_level: None,
    }
}

fn model(game: u32) -> Result<ModelConsole, String> {
    let map = AddressMap::default();
    Ok(ModelConsole::new(Game::seeded(19, u64::from(game)), map))
}

#[test]
fn each_game_waits_its_own_frames_on_the_level_menu() {
    assert_eq!(menu_wait(1), 0);
    assert_eq!(menu_wait(2), WAIT_STEP);
    assert_eq!(menu_wait(5), 4 * WAIT_STEP);
}

#[test]
fn a_batch_plays_every_game_in_parallel_and_keeps_every_pad() {
    let stop = AtomicBool::new(false);
    let mut finished = Vec::new();
    let mut progress = 0;
    play_batch(
        &[1, 2, 3],
        2,
        (model, || Planner::new(Standard::default())),
        &AddressMap::default(),
        &spec(Until::Lines(12)),
        &stop,
        |e| match e {
            BatchEvent::Progress { .. } => progress += 1,
            BatchEvent::Finished(r, pads) => finished.push((*r, pads)),
        },
    );
    finished.sort_by_key(|(r, _)| r.game);
    let games: Vec<u32> = finished.iter().map(|(r, _)| r.game).collect();
    assert_eq!(games, [1, 2, 3]);
    for (r, pads) in &finished {
        assert_eq!(r.end, GameEnd::Reached, "game {}", r.game);
        assert!(r.lines >= 12 && r.desyncs == 0, "{r:?}");
        assert_eq!(pads.len() as u64, r.frames);
        assert_eq!(r.menu_wait, menu_wait(r.game));
    }
    assert!(progress > 0, "progress was reported");
    // Other games, other play.
    assert_ne!(finished[0].1, finished[1].1);
    let summary = CartridgeSummary::of(&finished.into_iter().map(|(r, _)| r).collect::<Vec<_>>());
    assert_eq!((summary.games, summary.reached_goal.count), (3, 3));
    assert_eq!(summary.reached_155.count, 0);
}

#[test]
fn a_game_put_at_a_level_plays_from_there_and_keeps_what_it_wrote() {
    let stop = AtomicBool::new(false);
    let mut finished = Vec::new();
    let mut from_160 = spec(Until::Lines(1_600));
    from_160.from_level = Some(160);
    play_batch(
        &[1],
        1,
        (model, || Planner::new(Standard::default())),
        &AddressMap::default(),
        &from_160,
        &stop,
        |e| {
            if let BatchEvent::Finished(r, _) = e {
                finished.push(*r);
            }
        },
    );
    let r = &finished[0];
    let map = AddressMap::default();
    let poke = r.poke.as_ref().expect("the record keeps the bytes written");
    assert_eq!(
        poke.frame, 0,
        "the model's game is in play from its first frame"
    );
    assert_eq!(poke.bytes, start::bytes_for_level(&map, 19, 160).unwrap());
    // 1,540 lines at 160, so 60 more lines played from there: no level below 160 is shown.
    assert_eq!(r.end, GameEnd::Reached, "{r:?}");
    assert!(r.lines >= 1_600 && r.lines < 1_610, "{r:?}");
    assert!(r.peak_level >= 165 && r.level >= 165, "{r:?}");
    assert!(r.score >= 999_999, "the score stays at its cap: {r:?}");
    // Without the level, the same game keeps no poke.
    let mut plain = Vec::new();
    play_batch(
        &[1],
        1,
        (model, || Planner::new(Standard::default())),
        &map,
        &spec(Until::Lines(4)),
        &stop,
        |e| {
            if let BatchEvent::Finished(r, _) = e {
                plain.push(r.poke.clone());
            }
        },
    );
    assert_eq!(plain, [None]);
}

#[test]
fn a_stop_ends_the_games_in_hand_as_interrupted_and_starts_no_more() {
    let stop = AtomicBool::new(false);
    let mut ends = Vec::new();
    play_batch(
        &[1, 2, 3, 4],
        1,
        (model, || Planner::new(Standard::default())),
        &AddressMap::default(),
        &spec(Until::TopOut),
        &stop,
        |e| match e {
            BatchEvent::Progress { .. } => stop.store(true, Ordering::SeqCst),
            BatchEvent::Finished(r, _) => ends.push(r.end.clone()),
        },
    );
    assert_eq!(ends, [GameEnd::Interrupted]);
}

#[test]
fn a_console_that_cannot_be_made_fails_its_game_only() {
    let stop = AtomicBool::new(false);
    let mut ends = Vec::new();
    let console = |game: u32| {
        if game == 2 {
            Err("no console for game 2".to_string())
        } else {
            model(game)
        }
    };
    play_batch(
        &[1, 2],
        2,
        (console, || Planner::new(Standard::default())),
        &AddressMap::default(),
        &spec(Until::Lines(4)),
        &stop,
        |e| {
            if let BatchEvent::Finished(r, _) = e {
                ends.push((r.game, r.end.clone()));
            }
        },
    );
    ends.sort_by_key(|(g, _)| *g);
    assert_eq!(
        ends,
        [
            (1, GameEnd::Reached),
            (2, GameEnd::Failed("no console for game 2".into()))
        ]
    );
}

fn record(game: u32, peak: u8, rebirth: bool, end: GameEnd) -> GameRecord {
    let mut r = failed_record(game, &spec(Until::Rebirth));
    r.end = end;
    r.peak_level = peak;
    r.lines_at_rebirth = rebirth.then_some(3_300);
    r.frames = 1_000;
    r.seconds = 2.0;
    r
}

#[test]
fn the_summary_counts_shares_stops_and_leaves_interrupted_games_out() {
    let mut crashed = record(3, 253, false, GameEnd::Crashed);
    crashed.crash = Some(Crash {
        kind: CrashKind::Crash,
        frame: 9,
        level: 253,
        lines: 3_273,
    });
    let mut topped = record(4, 170, false, GameEnd::ToppedOut);
    (topped.level, topped.lines) = (170, 1_640);
    let records = [
        record(1, 255, true, GameEnd::Reached),
        record(2, 255, true, GameEnd::Reached),
        crashed,
        topped,
        record(5, 200, false, GameEnd::Interrupted),
    ];
    let s = CartridgeSummary::of(&records);
    assert_eq!(s.games, 4);
    assert_eq!(
        (
            s.reached_155.count,
            s.reached_200.count,
            s.reached_255.count
        ),
        (4, 3, 2)
    );
    assert_eq!((s.rebirth.count, s.rebirth.of), (2, 4));
    assert!(s.rebirth.low < 0.5 && s.rebirth.high > 0.5);
    assert_eq!((s.crashes, s.hangs, s.top_outs), (1, 0, 1));
    let stops: Vec<(u32, &str, u8)> = s
        .stops
        .iter()
        .map(|x| (x.game, x.how.as_str(), x.level))
        .collect();
    assert_eq!(stops, [(4, "top-out", 170), (3, "crash", 253)]);
    assert_eq!(s.frames, 4_000);
    assert!((s.frames_per_second - 500.0).abs() < 1e-9);
    let text = s.to_string();
    assert!(
        text.contains("game    3: crash at level 253, 3273 lines"),
        "{text}"
    );
}
