//! `trace::diff` on the cartridge fixtures: a trace equals itself, one changed, removed or
//! added field is found on its frame line, a truncated copy reports both frame counts.

use std::path::{Path, PathBuf};

use nestor::trace::file::TraceWriter;
use nestor::trace::{diff_traces, read_trace, run_diff, Difference, Trace};
use serde_json::{json, Value};

const FIXTURE: &str = "l19-rotation-walls-stack.jsonl.gz";

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(name)
}

fn fixture() -> Trace {
    read_trace(&fixture_path(FIXTURE)).unwrap_or_else(|e| panic!("{e}"))
}

fn field_difference(report: &nestor::trace::DiffReport) -> &nestor::trace::diff::FieldDifference {
    match &report.difference {
        Some(Difference::Field(d)) => d,
        other => panic!("expected a field difference, got {other:?}"),
    }
}

#[test]
fn every_fixture_equals_itself() {
    for name in [FIXTURE, "l29-speed-levelup-score-cap.jsonl.gz"] {
        let path = fixture_path(name);
        let report = run_diff(&path, &path).unwrap();
        assert!(report.is_equal(), "{}", report.to_text());
        assert_eq!(report.exit_code(), 0);
        assert_eq!(report.equal_frames, report.a_frames);
        let text = report.to_text();
        assert!(text.starts_with("equal:"), "{text}");
    }
}

#[test]
fn one_changed_field_is_reported_with_its_line() {
    let a = fixture();
    let mut b = a.clone();
    let old = b.frames[200]["x"].clone();
    b.frames[200].insert("x".into(), json!(99));
    let report = diff_traces(&a, &b);
    let d = field_difference(&report);
    assert_eq!(d.index, 200);
    assert_eq!(d.t, a.frames[200]["t"].as_u64());
    assert_eq!(d.frame, a.frames[200]["frame"].as_u64());
    assert_eq!(d.field, "x");
    assert_eq!((d.a.clone(), d.b.clone()), (Some(old), Some(json!(99))));
    assert_eq!(report.equal_frames, 200);
    assert_eq!(report.exit_code(), 1);
    let text = report.to_text();
    assert!(
        text.contains("frame line 200") && text.contains("`x`"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["difference"]["kind"], "field");
    assert_eq!(json["difference"]["field"], "x");
}

#[test]
fn a_field_on_one_side_only_is_a_difference() {
    let a = fixture();
    let mut b = a.clone();
    b.frames[10].remove("das");
    let report = diff_traces(&a, &b);
    let d = field_difference(&report);
    assert_eq!((d.index, d.field.as_str(), d.b.clone()), (10, "das", None));
    assert!(
        report.to_text().contains("no such field"),
        "{}",
        report.to_text()
    );

    let mut c = a.clone();
    c.frames[5].insert("extra".into(), json!(1));
    let report = diff_traces(&a, &c);
    let d = field_difference(&report);
    assert_eq!((d.index, d.field.as_str(), d.a.clone()), (5, "extra", None));
}

#[test]
fn a_truncated_copy_reports_both_lengths() {
    let a = fixture();
    let mut b = a.clone();
    b.frames.truncate(300);
    let report = diff_traces(&a, &b);
    assert_eq!(
        report.difference,
        Some(Difference::Length {
            a_frames: a.frames.len(),
            b_frames: 300
        })
    );
    assert_eq!(report.equal_frames, 300);
    assert_eq!(
        report.to_text(),
        format!(
            "the first 300 frame lines are equal; A has {} frames, B has 300",
            a.frames.len()
        )
    );
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["difference"]["kind"], "length");
}

#[test]
fn run_diff_reads_files_and_names_them() {
    let a = fixture();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("changed.jsonl");
    let header = a.header.clone().unwrap_or(Value::Null);
    let mut writer = TraceWriter::create(&path, &header).unwrap();
    for (i, line) in a.frames.iter().enumerate() {
        let mut line = line.clone();
        if i == 42 {
            line.insert("score".into(), json!(123456));
        }
        writer.write_line(&line).unwrap();
    }
    writer.finish().unwrap();

    let report = run_diff(&fixture_path(FIXTURE), &path).unwrap();
    assert_eq!(field_difference(&report).index, 42);
    assert_eq!(field_difference(&report).field, "score");
    assert!(report.headers_equal);
    assert!(
        report.to_text().contains("changed.jsonl"),
        "{}",
        report.to_text()
    );

    let missing = dir.join("missing.jsonl");
    let err = run_diff(&missing, &path).unwrap_err();
    assert!(err.to_string().contains("missing.jsonl"), "{err}");
}
