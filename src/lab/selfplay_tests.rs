//! Self-play past level 155: no stop at the crash level, a crash of the model ends the game as
//! `crashed` with its kind and place, the roll-over from 255 to 0 is counted; and the driver on
//! a model console plays exactly as self-play (both go through the one follower).

use super::*;
use crate::game::crash::CrashKind;
use crate::game::score::bcd_bytes;
use crate::nes::test_consoles::driver;
use crate::nes::{AddressMap, ModelConsole};
use crate::search::eval::Standard;

/// A level-19 game poked to `level` and `lines`, as a long game would have it: the cartridge
/// keeps the hundreds of lines in binary (`add_line_timed`).
fn poked(level: u8, lines: u32, seed: u64) -> Game {
    let mut g = Game::seeded(19, seed);
    g.level = level;
    g.lines = [bcd_bytes::<1>(lines % 100)[0], (lines / 100) as u8];
    assert_eq!(line_count(g.lines), lines);
    g
}

/// Self-play of [`poked`] until `until`, with no other limit.
fn play_until(level: u8, lines: u32, seed: u64, until: Until) -> GameStats {
    let mut planner = Planner::new(Standard::default());
    let mut game = poked(level, lines, seed);
    let mut play = SelfPlay::new(&mut planner, &game);
    play.until = until;
    play.run(&mut game, Limits::default())
}

/// Self-play of [`poked`] for at most `pieces` pieces.
fn play_pieces(level: u8, lines: u32, seed: u64, pieces: u32) -> GameStats {
    let mut planner = Planner::new(Standard::default());
    let mut game = poked(level, lines, seed);
    let limits = Limits {
        max_pieces: Some(pieces),
        max_frames: None,
    };
    SelfPlay::new(&mut planner, &game).run(&mut game, limits)
}

#[test]
fn a_game_plays_on_past_the_crash_level() {
    let stats = play_pieces(154, 1495, 4, 150);
    // The crash guard refuses every single at 155-160 (their frame may crash), so the game may
    // top out; it must not stop at 155 nor crash.
    assert!(
        matches!(stats.end, End::MaxPieces | End::TopOut),
        "{stats:?}"
    );
    assert!(stats.peak_level >= 156, "{stats:?}");
    assert!(stats.clears_past_155 >= 5, "{stats:?}");
    assert_eq!(stats.desyncs, 0);
    assert!(stats.reached(155) && !stats.reached(200));
}

#[test]
fn until_level_155_stops_there_as_before() {
    let stats = play_until(154, 1495, 4, Until::Level(155));
    assert_eq!((stats.end, stats.level), (End::Until, 155));
    assert_eq!(stats.clears_past_155, 0);
}

#[test]
fn a_crash_ends_the_game_as_crashed_with_its_kind_and_place() {
    for kind in [CrashKind::Crash, CrashKind::Hang] {
        let mut planner = Planner::new(Standard::default());
        let mut game = poked(156, 1515, 6);
        let mut play = SelfPlay::new(&mut planner, &game);
        for _ in 0..700 {
            play.step(&mut game);
        }
        // The rules model's crash, forced here at frame 700.
        game.crashed = Some(kind);
        let (level, lines) = (game.level, line_count(game.lines));
        let stats = play.run(&mut game, Limits::default());
        assert_eq!(stats.end, End::Crashed);
        assert_eq!(stats.end.name(), "crashed");
        assert_eq!(
            stats.crash,
            Some(Crash {
                kind,
                frame: 700,
                level,
                lines
            })
        );
        assert!(stats.end.is_death());
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(json["end"], "crashed");
        assert_eq!(json["crash"]["kind"], kind.name());
        assert_eq!(json["crash"]["frame"], 700);
        let back: GameStats = serde_json::from_value(json).unwrap();
        assert_eq!(back.crash, stats.crash, "a part file keeps the crash");
    }
}

#[test]
fn the_roll_over_from_255_to_0_is_a_rebirth_and_play_goes_on() {
    // 9 lines before 3,300, where level 255 rolls over (the level-up rule past 137).
    let stats = play_until(255, 3291, 8, Until::Lines(3310));
    assert_eq!(stats.end, End::Until, "{stats:?}");
    // The clear that makes line 3,300 rolls the level over (it may clear more than one).
    assert!(
        stats
            .lines_at_rebirth
            .is_some_and(|l| (3300..3304).contains(&l)),
        "{stats:?}"
    );
    assert!(stats.reborn() && stats.reached(255) && stats.reached(200));
    assert!(stats.level < 5, "{stats:?}");
    assert_eq!(stats.peak_level, 255);
}

#[test]
fn the_driver_plays_exactly_as_self_play() {
    // The driver rebuilds the game from RAM; the self-play loop uses the model's own state.
    // The plans, and so the games, must be identical frame for frame.
    for seed in [3u64, 11] {
        let mut planner = Planner::new(Standard::default());
        let mut game = Game::seeded(19, seed);
        let limits = Limits {
            max_pieces: Some(120),
            max_frames: None,
        };
        let stats = SelfPlay::new(&mut planner, &game).run(&mut game, limits);
        let mut d = driver(ModelConsole::new(
            Game::seeded(19, seed),
            AddressMap::default(),
        ));
        let mut frames = 0;
        while frames < stats.frames {
            d.step().unwrap();
            frames += 1;
        }
        assert_eq!(d.console().game(), &game, "seed {seed}");
        assert_eq!(d.game().pieces, stats.pieces);
        assert_eq!((d.game().score, d.game().lines), (stats.score, stats.lines));
    }
}

#[test]
fn every_decision_is_timed_and_those_past_155_apart() {
    let stats = play_pieces(154, 1495, 4, 40);
    let (all, past) = (
        stats.decisions.all.count(),
        stats.decisions.past_155.count(),
    );
    // One decision per piece (no reaction time, no desync), the first pieces at 154.
    assert_eq!(all, u64::from(stats.pieces), "{stats:?}");
    assert!(past > 0 && past < all, "{past} of {all}");
    assert!(stats.decisions.all.percentile_ms(99.0) > 0.0);
    let figures = crate::lab::decision_time::DecisionFigures::of([&stats.decisions]);
    assert_eq!(figures.decisions, all);
    assert_eq!(
        figures.p99_ms_past_155,
        stats.decisions.past_155.percentile_ms(99.0)
    );
}

/// The frames `sim` counts as thin: safe, yet within the planner's preferred margin of a window.
#[test]
fn a_safe_frame_near_a_window_is_thin_one_inside_or_far_is_not() {
    let first = crate::game::crash::DANGER_WINDOWS
        .iter()
        .map(|w| w.0)
        .min()
        .expect("windows");
    assert!(thin_margin(first - 20), "20 cycles below the first window");
    assert!(
        !thin_margin(first - PREFERRED_MARGIN),
        "at the preferred margin"
    );
    assert!(
        !thin_margin(first - 5),
        "inside the safety margin: may crash, not thin"
    );
    assert!(!thin_margin(first), "in the window");
    assert!(!thin_margin(20_000), "far below");
}
