//! Every cartridge trace in tests/fixtures/traces: the rules model must equal the real cartridge
//! on every recorded field of every frame. These expectations are facts: never re-record them.

use std::path::Path;

use nestor::trace::verify_trace;

fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(name);
    let report = verify_trace(&path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(e) = &report.error {
        panic!("{name}: {e}");
    }
    if let Some(d) = &report.divergence {
        panic!(
            "{name}: model diverges from the cartridge at t={} (frame {}), field `{}`: \
             expected {}, model has {}. Check the rule that writes `{}` (nes-tetris.md) \
             on the frames just before.",
            d.t, d.frame, d.field, d.expected, d.actual, d.field
        );
    }
    assert_eq!(report.frames_checked + 1, report.frames, "{name}");
    assert!(
        report.unknown_fields.is_empty(),
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
}
