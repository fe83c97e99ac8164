//! Every cartridge trace in tests/fixtures/traces: the rules model must equal the real cartridge
//! on every recorded field of every frame. These expectations are facts: never re-record them.

use std::path::Path;

use nestor::game::pad::PadState;
use nestor::movie::Movie;
use nestor::trace::file::read_trace;
use nestor::trace::record::game_from_line;
use nestor::trace::{verify_trace, VerifyReport};

/// `trace verify` of the fixture `rel`, which must be checkable.
fn verified(rel: &str) -> VerifyReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(rel);
    let report = verify_trace(&path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(e) = &report.error {
        panic!("{rel}: {e}");
    }
    report
}

fn check(name: &str) {
    let report = verified(name);
    if let Some(d) = &report.divergence {
        panic!(
            "{name}: model diverges from the cartridge at t={} (frame {}), field `{}`: \
             expected {}, model has {}. Check the rule that writes `{}` (nes-tetris.md) \
             on the frames just before.",
            d.t, d.frame, d.field, d.expected, d.actual, d.field
        );
    }
    assert_eq!(report.frames_checked + 1, report.frames, "{name}");
    assert!(report.forks.is_empty(), "{name}: {:?}", report.forks);
    // `ram` (all 2 KiB, in the traces past level 155) is there for calibration, not compared.
    assert!(
        report.unknown_fields.iter().all(|f| f == "ram"),
        "{name}: {:?}",
        report.unknown_fields
    );
}

macro_rules! trace_tests {
    ($($test:ident => $file:literal,)*) => {
        $(#[test] fn $test() { check($file); })*

        #[test]
        fn every_fixture_has_a_test() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
            let mut on_disk: Vec<String> = std::fs::read_dir(&dir).unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".jsonl.gz") || n.ends_with(".jsonl"))
                .collect();
            on_disk.sort();
            let mut listed = vec![$($file.to_string()),*];
            listed.extend(past_155().into_iter().map(|(r, _)| r).filter(|r| !r.contains('/')));
            listed.sort();
            assert_eq!(on_disk, listed, "add new fixtures to tests/traces.rs");
        }
    };
}

trace_tests! {
    l00_levelup_10_20 => "l00-levelup-10-20.jsonl.gz",
    l05_soft_drop_levelup => "l05-soft-drop-levelup.jsonl.gz",
    l09_levelup_100 => "l09-levelup-100.jsonl.gz",
    l10_levelup_100 => "l10-levelup-100.jsonl.gz",
    l12_masher_topout => "l12-masher-topout.jsonl.gz",
    l15_levelup_100 => "l15-levelup-100.jsonl.gz",
    l16_long_game => "l16-long-game.jsonl.gz",
    l18_levelup_130 => "l18-levelup-130.jsonl.gz",
    l19_das_walls => "l19-das-walls.jsonl.gz",
    l19_hidden_row_collisions => "l19-hidden-row-collisions.jsonl.gz",
    l19_hidden_rows_topout => "l19-hidden-rows-topout.jsonl.gz",
    l19_levelup_130_140_long => "l19-levelup-130-140-long.jsonl.gz",
    l19_rotation_walls_stack => "l19-rotation-walls-stack.jsonl.gz",
    l19_smart_topout => "l19-smart-topout.jsonl.gz",
    l29_hidden_rows_07_quirk => "l29-hidden-rows-07-quirk.jsonl.gz",
    l29_speed_levelup_score_cap => "l29-speed-levelup-score-cap.jsonl.gz",
    l30_levelup_31 => "l30-levelup-31.jsonl.gz",
    l60_levelup_61 => "l60-levelup-61.jsonl.gz",
    l99_levelup_100 => "l99-levelup-100.jsonl.gz",
    l137_no_levelup_1380 => "l137-no-levelup-1380.jsonl.gz",
    l145_lag_frame => "l145-lag-frame.jsonl.gz",
    l154_lag_frame => "l154-lag-frame.jsonl.gz",
    nestor_l19_game => "nestor-l19-game.jsonl.gz",
    c155_center => "c155-center.jsonl.gz",
    c170_well_hang => "c170-well.jsonl.gz",
    c180_mixed => "c180-mixed.jsonl.gz",
    c190_center => "c190-center.jsonl.gz",
    c200_well => "c200-well.jsonl.gz",
    c220_center => "c220-center.jsonl.gz",
    c235_mixed => "c235-mixed.jsonl.gz",
    c245_well => "c245-well.jsonl.gz",
    c255_rebirth => "c255-rebirth.jsonl.gz",
}

/// The traces past level 150 and their first divergence, or `None` (verifies to its last
/// frame): the measured baseline in `tests/fixtures/past-155-baseline.toml`.
#[derive(serde::Deserialize)]
struct Divergence {
    t: u64,
    field: String,
}

#[derive(serde::Deserialize)]
struct Baseline {
    verifies: Vec<String>,
    diverges: std::collections::BTreeMap<String, Divergence>,
    forks: std::collections::BTreeMap<String, Vec<(u64, String)>>,
}

fn baseline() -> Baseline {
    let text = include_str!("fixtures/past-155-baseline.toml");
    toml::from_str(text).expect("the baseline parses")
}

fn past_155() -> Vec<(String, Option<(u64, String)>)> {
    let b = baseline();
    let mut all: Vec<_> = b.verifies.into_iter().map(|r| (r, None)).collect();
    all.extend(
        b.diverges
            .into_iter()
            .map(|(r, d)| (r, Some((d.t, d.field)))),
    );
    all
}

fn first_divergence(rel: &str) -> Option<(u64, String)> {
    let report = verified(rel);
    let forks: Vec<(u64, String)> = report
        .forks
        .iter()
        .map(|f| (f.t, f.outcome.to_string()))
        .collect();
    let want = baseline().forks.remove(rel).unwrap_or_default();
    assert_eq!(
        forks, want,
        "{rel}: the frames where verify followed the trace"
    );
    match &report.divergence {
        Some(d) => Some((d.t, d.field.clone())),
        None => {
            assert_eq!(report.frames_checked + 1, report.frames, "{rel}");
            None
        }
    }
}

#[test]
fn past_155_traces_match_the_measured_baseline() {
    let mut wrong = Vec::new();
    let baseline = past_155();
    for (rel, want) in &baseline {
        let got = first_divergence(rel);
        if got != *want {
            wrong.push(format!("{rel}: baseline {want:?}, now {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every past-155 fixture is listed.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces/past-155");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| format!("past-155/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = baseline
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| r.starts_with("past-155/"))
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

/// The frames (NMI counts since power-on) on which the model runs only the NMI because the
/// previous frame's logic overran, over a whole trace.
fn lag_frames(name: &str) -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(name);
    let trace = read_trace(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut game = game_from_line(&trace.frames[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let frame0 = trace.frames[0]["frame"].as_u64().unwrap();
    let mut lags = Vec::new();
    let mut lag_next = false;
    for (i, line) in trace.frames.iter().enumerate().skip(1) {
        let input = PadState::from_letters(line["input"].as_str().unwrap()).unwrap();
        let ev = game.step(input);
        if lag_next {
            assert!(!ev.logic, "{name}: a lag frame runs only the NMI");
            lags.push(frame0 + i as u64);
        }
        lag_next = ev.lag;
    }
    lags
}

#[test]
fn lag_frames_are_exactly_those_of_the_cartridge() {
    // The traces' README: level 154 skips the logic on frames 451, 523, 703 and 1187 (not on
    // its double at t=485), level 145 on t=138 and t=338 (first frame 313).
    assert_eq!(
        lag_frames("l154-lag-frame.jsonl.gz"),
        vec![451, 523, 703, 1187]
    );
    assert_eq!(
        lag_frames("l145-lag-frame.jsonl.gz"),
        vec![313 + 138, 313 + 338]
    );
    for name in [
        "l137-no-levelup-1380.jsonl.gz",
        "l99-levelup-100.jsonl.gz",
        "l60-levelup-61.jsonl.gz",
        "l30-levelup-31.jsonl.gz",
        "nestor-l19-game.jsonl.gz",
        "l29-speed-levelup-score-cap.jsonl.gz",
    ] {
        assert_eq!(lag_frames(name), Vec::<u64>::new(), "{name}");
    }
}

#[test]
fn nestor_game_movie_holds_the_traced_inputs() {
    // The movie replays the traced game from power-on: trace frame f (NMIs since power-on,
    // 1-based) used the movie's gameplay frame f − 1, the FCEUX lead frame skipped.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
    let movie = Movie::load(&dir.join("nestor-l19-game.fm2")).unwrap_or_else(|e| panic!("{e}"));
    let pads = movie.gameplay_pads();
    let trace = read_trace(&dir.join("nestor-l19-game.jsonl.gz")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        trace
            .header
            .as_ref()
            .and_then(|h| h["movie_frames"].as_u64()),
        Some(pads.len() as u64)
    );
    for line in &trace.frames {
        let frame = line["frame"].as_u64().unwrap() as usize;
        let input = PadState::from_letters(line["input"].as_str().unwrap()).unwrap();
        assert_eq!(pads[frame - 1], input, "trace frame {frame}");
    }
}

/// Steps the model through `rel` from its first line and returns the events of frame `t`.
fn events_at(rel: &str, t: usize) -> nestor::game::state::Events {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(rel);
    let trace = read_trace(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut game = game_from_line(&trace.frames[0]).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut ev = Default::default();
    for line in &trace.frames[1..=t] {
        ev = game.step(PadState::from_letters(line["input"].as_str().unwrap()).unwrap());
    }
    ev
}

#[test]
fn every_traced_crash_hang_and_long_lag_is_flagged_may_crash_on_its_frame() {
    // The state-5 frame after which the cartridge crashed (frame counter stopped), hung, or
    // lagged for many frames; the model is exact up to each of them (the baseline above).
    for (rel, t) in [
        ("c156-well.jsonl.gz", 411),
        ("c255-rebirth-b.jsonl.gz", 78),
        ("past-155/p156-1-well-left.jsonl.gz", 967),
        ("past-155/p249-0-mixed-gaps.jsonl.gz", 243),
        ("past-155/p249-1-jagged.jsonl.gz", 79),
        ("past-155/p252-0-center-gaps.jsonl.gz", 49),
        ("past-155/p252-1-well-left.jsonl.gz", 216),
        ("past-155/p255-0-mixed-gaps.jsonl.gz", 208),
        ("past-155/p255-1-jagged.jsonl.gz", 297),
        ("c157-mixed.jsonl.gz", 322),
        ("c160-center.jsonl.gz", 133),
        ("past-155/p162-0-center-gaps.jsonl.gz", 192),
        ("past-155/p162-1-well-left.jsonl.gz", 319),
    ] {
        let ev = events_at(rel, t);
        assert!(ev.lag && ev.may_crash, "{rel} t={t}: {ev:?}");
    }
    // The three hangs are modelled as hangs, on their frame.
    for (rel, t) in [
        ("c170-well.jsonl.gz", 336),
        ("past-155/p168-0-center-gaps.jsonl.gz", 120),
        ("past-155/p183-1-jagged.jsonl.gz", 513),
    ] {
        let ev = events_at(rel, t);
        assert_eq!(
            ev.crashed,
            Some(nestor::game::crash::CrashKind::Hang),
            "{rel} t={t}"
        );
    }
}
