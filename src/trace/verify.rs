//! Checks the rules model against a trace: start from the first frame line, step with each
//! line's input, compare every recorded field, and report the first divergence.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::file::{read_trace, Trace, TraceError};
use super::record::{game_from_line, FrameRecord, FIELDS};
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

/// Reads and verifies one trace file.
pub fn verify_trace(path: &Path) -> Result<VerifyReport, TraceError> {
    let trace = read_trace(path)?;
    Ok(verify_frames(&path.display().to_string(), &trace))
}
