//! Tests of batch play: reproducible batches, stopping (goals, caps, a stop flag), and the
//! summary and survival figures on hand-made game records.

use super::*;
use crate::search::eval::Standard;
use crate::search::follow::Tally;

fn config(games: u32, pieces: u32) -> BatchConfig {
    BatchConfig {
        games,
        level: 19,
        seed: 11,
        threads: 1,
        limits: Limits {
            max_pieces: Some(pieces),
            max_frames: None,
        },
        until: Until::TopOut,
        max_lines: None,
    }
}

/// The batch under the default evaluator and the `unlimited` profile.
fn play(
    config: &BatchConfig,
    stop: &AtomicBool,
    progress: impl Fn(usize, &GameResult) + Sync,
) -> Vec<GameResult> {
    run_batch_profiled(
        config,
        &Profile::default(),
        Standard::default,
        stop,
        progress,
    )
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn batches_are_reproducible_whatever_the_thread_count() {
    let config = config(4, 40);
    let one = play(&config, &never(), |_, _| {});
    let two = play(
        &BatchConfig {
            threads: 2,
            ..config
        },
        &never(),
        |_, _| {},
    );
    let key = |r: &GameResult| (r.seed, r.stats.score, r.stats.lines, r.stats.locks.clone());
    assert_eq!(
        one.iter().map(key).collect::<Vec<_>>(),
        two.iter().map(key).collect::<Vec<_>>()
    );
    assert!(one
        .iter()
        .all(|r| r.stats.pieces == 40 && r.stats.desyncs == 0 && r.stats.end == End::MaxPieces));
    assert_ne!(
        one[0].stats.locks, one[1].stats.locks,
        "seeds give different games"
    );
}

#[test]
fn a_huge_batch_reserves_nothing_up_front_and_stops_when_asked() {
    // Issue 10: `--games 4294967295 --pieces 1` aborted on a 378 GB `Vec::with_capacity`.
    let stop = never();
    let results = play(&config(u32::MAX, 1), &stop, |n, _| {
        if n == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(results.len(), 3, "the finished games, no more");
    assert_eq!(
        results.iter().map(|r| r.index).collect::<Vec<_>>(),
        [0, 1, 2]
    );
}

#[test]
fn a_stop_mid_game_drops_the_unfinished_game() {
    let stop = AtomicBool::new(true);
    let results = play(&config(2, 400), &stop, |_, _| {});
    assert!(results.is_empty());
}

#[test]
fn until_lines_and_max_lines_end_games_with_their_reason() {
    let mut c = config(1, 10_000);
    c.until = Until::Lines(12);
    let r = play(&c, &never(), |_, _| {});
    assert_eq!(r[0].stats.end, End::Until);
    assert!((12..16).contains(&r[0].stats.lines), "{}", r[0].stats.lines);
    c.until = Until::TopOut;
    c.max_lines = Some(8);
    let r = play(&c, &never(), |_, _| {});
    assert_eq!(r[0].stats.end, End::MaxLines);
    assert!((8..12).contains(&r[0].stats.lines));
}

#[test]
fn until_level_29_stops_at_the_transition_with_the_score_and_lines_there() {
    // Level 28 with 198 lines: the level-up to 29 comes at 200 lines.
    let mut game = Game::seeded(28, 5);
    game.lines = [0x98, 0x01];
    let mut planner = Planner::new(Standard::default());
    let mut play = SelfPlay::new(&mut planner, &game);
    play.until = Until::Level(29);
    let s = &play.run(&mut game, Limits::default());
    assert_eq!(s.end, End::Until, "{s:?}");
    assert_eq!(s.level, 29);
    assert_eq!(s.score_at_29, Some(s.score));
    assert_eq!(s.lines_at_29, Some(s.lines));
    assert_eq!(s.lines_after_29(), Some(0));
}

fn game(lines: u32, level: u8, at29: Option<(u32, u32)>, end: End) -> GameResult {
    GameResult {
        index: 0,
        seed: 0,
        stats: GameStats {
            counts: Tally {
                score: at29.map_or(lines * 1000, |(s, _)| s + 10_000),
                lines,
                level,
                score_at_29: at29.map(|(s, _)| s),
                lines_at_29: at29.map(|(_, l)| l),
                ..Tally::default()
            },
            start_level: 19,
            end,
            ..GameStats::default()
        },
    }
}

#[test]
fn summary_figures() {
    let mk = |score: u32, at29: Option<u32>, maxed: bool, lines: u32, tetrises: u32| GameResult {
        index: 0,
        seed: 0,
        stats: GameStats {
            counts: Tally {
                score,
                score_at_29: at29,
                lines_at_29: at29.map(|_| 230),
                maxed_before_29: maxed,
                lines,
                tetrises,
                level: if at29.is_some() { 29 } else { 27 },
                ..Tally::default()
            },
            start_level: 19,
            ..GameStats::default()
        },
    };
    let s = Summary::of(&[
        mk(999_999, Some(999_999), true, 230, 50),
        mk(500_000, Some(480_000), false, 235, 20),
        mk(100_000, None, false, 80, 10),
    ]);
    assert_eq!(s.median_score, 500_000.0);
    assert!((s.max_out_rate - 1.0 / 3.0).abs() < 1e-9);
    assert!((s.reached_29_rate - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(s.best_third_mean, 999_999.0);
    assert!((s.tetris_rate - 320.0 / 545.0).abs() < 1e-9);
}

#[test]
fn median_score_at_29_counts_only_games_that_reached_29() {
    // Issue 10: the game that never reached 29 (final score 90,000) used to be counted.
    let s = Summary::of(&[
        game(240, 30, Some((800_000, 230)), End::TopOut),
        game(90, 27, None, End::TopOut),
        game(250, 31, Some((900_000, 231)), End::TopOut),
    ]);
    assert_eq!(s.median_score_at_29, 850_000.0);
    let none = Summary::of(&[game(90, 27, None, End::TopOut)]);
    assert_eq!(none.median_score_at_29, 0.0);
}

#[test]
fn lines_percentiles_level_shares_and_lines_after_29() {
    // Ten games: 100, 200, … 1000 lines; the level is a tenth of the lines plus 19 (capped at
    // the crash level for the last one, which stopped there).
    let results: Vec<GameResult> = (1..=10u32)
        .map(|i| {
            let lines = 100 * i;
            let level = if i == 10 {
                CRASH_LEVEL
            } else {
                (19 + lines / 10) as u8
            };
            let end = if i == 10 {
                End::CrashLevel
            } else {
                End::TopOut
            };
            let at29 = (level >= 29).then_some((900_000, 100));
            game(lines, level, at29, end)
        })
        .collect();
    let s = Summary::of(&results);
    assert_eq!(s.mean_lines, 550.0);
    assert_eq!(s.median_lines, 550.0);
    assert_eq!(s.p10_lines, 100.0);
    assert_eq!(s.p90_lines, 900.0);
    // Every game reached 29 (level 29 at 100 lines); 39 from 200 lines; 49 from 300; 99 from 800.
    let reached = [
        s.reached_29_rate,
        s.reached_39_rate,
        s.reached_49_rate,
        s.reached_99_rate,
    ];
    assert_eq!(reached, [1.0, 0.9, 0.8, 0.3]);
    assert_eq!((s.crash_level_rate, s.top_out_rate), (0.1, 0.9));
    // Lines after 29: 0, 100, … 900.
    let after_29 = (s.mean_lines_after_29, s.median_lines_after_29);
    assert_eq!(after_29, (450.0, 450.0));
}

#[test]
fn survival_counts_top_outs_only_up_to_the_first_stopped_game() {
    let results = [
        game(100, 29, None, End::TopOut),
        game(300, 49, None, End::TopOut),
        game(200, 39, None, End::MaxLines),
        game(400, 59, None, End::CrashLevel),
    ];
    // The game stopped at 200 lines is alive up to there; past it the curve is not measured.
    let curve = survival(&results, 5);
    assert_eq!(
        curve,
        [(0, 1.0), (50, 1.0), (100, 1.0), (150, 0.75), (200, 0.75)]
    );
    let deaths = [
        game(100, 29, None, End::TopOut),
        game(300, 49, None, End::TopOut),
    ];
    assert_eq!(
        survival(&deaths, 4),
        [(0, 1.0), (100, 1.0), (200, 0.5), (300, 0.5)]
    );
    assert!(survival(&[], 3).iter().all(|&(_, s)| s == 0.0));
}

#[test]
fn the_strict_rebirth_share_counts_only_games_with_no_may_crash_frame() {
    let reborn = |may_crash_frames: u32| {
        let mut g = game(3_300, 0, Some((999_999, 230)), End::Until);
        g.stats.lines_at_rebirth = Some(3_300);
        g.stats.may_crash_frames = may_crash_frames;
        g
    };
    let s = Summary::of(&[
        reborn(0),
        reborn(3),
        reborn(0),
        game(1_700, 170, None, End::TopOut),
    ]);
    assert!((s.rebirth_rate - 0.75).abs() < 1e-9);
    assert!((s.strict_rebirth_rate - 0.5).abs() < 1e-9);
}
