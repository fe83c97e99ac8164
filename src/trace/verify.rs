//! Checks the rules model against a trace: start from the first frame line, step with each
//! line's input, compare every recorded field, and report the first divergence.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::capture::CaptureSpan;
use super::file::{read_trace, Trace, TraceError};
use super::record::{game_from_line, start_fields, FrameRecord, FIELDS};
use crate::game::pad::PadState;

/// The first place the model and the trace disagree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    pub t: u64,
    pub frame: u64,
    pub field: String,
    pub expected: Value,
    pub actual: Value,
}

/// One file's verification result.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    pub file: String,
    pub name: String,
    /// Frame lines in the file.
    pub frames: u64,
    /// Lines compared against the model (all but the first, which starts it).
    pub frames_checked: u64,
    /// Field comparisons made.
    pub fields_checked: u64,
    pub divergence: Option<Divergence>,
    /// Fields in the trace the model does not produce (not compared).
    pub unknown_fields: Vec<String>,
    /// Set when the file could not be checked at all.
    pub error: Option<String>,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.divergence.is_none() && self.error.is_none()
    }
}

fn line_input(line: &serde_json::Map<String, Value>) -> Option<PadState> {
    line.get("input")
        .and_then(Value::as_str)
        .and_then(PadState::from_letters)
        .or_else(|| {
            line.get("held")
                .and_then(Value::as_u64)
                .and_then(|v| u8::try_from(v).ok())
                .map(PadState)
        })
}

/// Verifies an in-memory trace.
pub fn verify_frames(file: &str, trace: &Trace) -> VerifyReport {
    let mut report = VerifyReport {
        file: file.to_string(),
        name: trace.name(Path::new(file)),
        frames: trace.frames.len() as u64,
        frames_checked: 0,
        fields_checked: 0,
        divergence: None,
        unknown_fields: Vec::new(),
        error: None,
    };
    if let Some(why) = not_verifiable(trace) {
        report.error = Some(why);
        return report;
    }
    let first = &trace.frames[0];
    let mut game = match game_from_line(first) {
        Ok(g) => g,
        Err(e) => {
            report.error = Some(format!("line t=0 cannot start the model: {e}"));
            return report;
        }
    };
    for key in first.keys() {
        if !FIELDS.contains(&key.as_str()) {
            report.unknown_fields.push(key.clone());
        }
    }
    let t0 = first.get("t").and_then(Value::as_u64).unwrap_or(0);
    let frame0 = first.get("frame").and_then(Value::as_u64).unwrap_or(0);
    for (i, line) in trace.frames.iter().enumerate().skip(1) {
        // A fuzzed or corrupt first line can carry t or frame near u64::MAX.
        let t = t0.saturating_add(i as u64);
        let frame = frame0.saturating_add(i as u64);
        let Some(input) = line_input(line) else {
            report.error = Some(format!("line t={t}: no readable `input` or `held`"));
            return report;
        };
        game.step(input);
        let record = FrameRecord::from_game(&game, frame, t, input);
        report.frames_checked += 1;
        for (key, expected) in line {
            let Some(actual) = record.field(key) else {
                continue;
            };
            report.fields_checked += 1;
            if &actual != expected {
                report.divergence = Some(Divergence {
                    t,
                    frame,
                    field: key.clone(),
                    expected: expected.clone(),
                    actual,
                });
                return report;
            }
        }
    }
    report
}

/// Why a trace cannot be checked at all, in words that say how to capture one that can: a
/// whole-movie capture (its first line is power-on, not a game) or one without the fields the
/// model starts from.
fn not_verifiable(trace: &Trace) -> Option<String> {
    let span = trace.header.as_ref().and_then(|h| h.get("span"));
    if span.and_then(Value::as_str) == Some(CaptureSpan::Movie.name()) {
        return Some(
            "made with --whole-movie (every frame from power-on, menus included): verify checks \
             one game from its first frame; capture without --whole-movie"
                .into(),
        );
    }
    let first = &trace.frames[0];
    let missing: Vec<&str> = start_fields().filter(|f| !first.contains_key(*f)).collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "the trace lacks {} of the fields verify needs ({}); capture without --fields, or \
         with at least: {}, input",
        missing.len(),
        missing.join(", "),
        start_fields().collect::<Vec<_>>().join(",")
    ))
}

/// Reads and verifies one trace file.
pub fn verify_trace(path: &Path) -> Result<VerifyReport, TraceError> {
    let trace = read_trace(path)?;
    Ok(verify_frames(&path.display().to_string(), &trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Trace {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/traces/l05-soft-drop-levelup.jsonl.gz");
        let mut t = read_trace(&p).expect("fixture");
        t.frames.truncate(300);
        t
    }

    #[test]
    fn start_fields_are_exactly_those_the_model_needs() {
        let t = fixture();
        assert!(verify_frames("f", &t).ok());
        for key in t.frames[0].keys() {
            let mut line = t.frames[0].clone();
            line.remove(key);
            let needed = start_fields().any(|f| f == key);
            assert_eq!(game_from_line(&line).is_err(), needed, "field `{key}`");
        }
    }

    #[test]
    fn traces_that_cannot_be_verified_say_how_to_capture_one_that_can() {
        let mut t = fixture();
        for line in &mut t.frames {
            line.remove("rng");
            line.remove("das");
        }
        let e = verify_frames("f", &t).error.expect("refused");
        assert!(
            e.contains("lacks 2 of the fields verify needs (das, rng)"),
            "{e}"
        );
        assert!(e.contains("without --fields"), "{e}");
        assert!(!e.contains("  "), "{e}");
        let mut t = fixture();
        t.header = Some(serde_json::json!({"span": "movie"}));
        let e = verify_frames("f", &t).error.expect("refused");
        assert!(e.contains("--whole-movie"), "{e}");
        // One sentence, not a run of the source's indentation.
        assert!(!e.contains("  "), "{e}");
    }
}
