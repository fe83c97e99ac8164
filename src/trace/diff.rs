//! Comparing two traces frame line by frame line: the first line and field where they
//! differ, or the frame-count difference after an equal common prefix, as text or JSON.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use super::file::{read_trace, Trace, TraceError};

/// One field that differs on one frame line. A field present on one side only counts as a
/// difference, with `None` on the side that lacks it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDifference {
    /// 0-based index of the frame line (the header line not counted).
    pub index: usize,
    /// The line's `t` value (A's, or B's if A has none).
    pub t: Option<u64>,
    /// The line's `frame` value (A's, or B's if A has none).
    pub frame: Option<u64>,
    /// The field's name.
    pub field: String,
    /// A's value (`None`: A's line lacks the field).
    pub a: Option<Value>,
    /// B's value (`None`: B's line lacks the field).
    pub b: Option<Value>,
}

/// The first way two traces differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Difference {
    /// A field differs on a line both traces have.
    Field(FieldDifference),
    /// Every common line is equal, but one trace has more lines.
    Length {
        /// Frame lines in A.
        a_frames: usize,
        /// Frame lines in B.
        b_frames: usize,
    },
}

/// The result of comparing trace A with trace B. Only frame lines decide equality; the
/// headers (which hold notes and settings) are compared for information only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffReport {
    /// What to call each trace in messages: its path from `run_diff`, else `A` and `B`.
    pub a: String,
    /// What to call trace B in messages.
    pub b: String,
    /// Frame lines in A.
    pub a_frames: usize,
    /// Frame lines in B.
    pub b_frames: usize,
    /// Frame lines found equal before the first difference (all common lines if none).
    pub equal_frames: usize,
    /// Whether the two headers are equal (for information: it does not decide equality).
    pub headers_equal: bool,
    /// The first difference in the frame lines; `None` when they are equal.
    pub difference: Option<Difference>,
}

impl DiffReport {
    /// True when the frame lines are equal (the headers aside).
    pub fn is_equal(&self) -> bool {
        self.difference.is_none()
    }

    /// The process exit code for `nestor trace diff`: 0 equal, 1 different.
    pub fn exit_code(&self) -> i32 {
        if self.is_equal() {
            0
        } else {
            1
        }
    }

    /// One line (two with a header note) for a terminal.
    pub fn to_text(&self) -> String {
        let (a, b) = (&self.a, &self.b);
        let mut text = match &self.difference {
            None => format!(
                "equal: {a} and {b} have the same {} frame lines",
                self.a_frames
            ),
            Some(Difference::Field(d)) => format!(
                "differ at frame line {} (t={}, frame={}), field `{}`: {a} has {}, {b} has {} \
                 ({} lines equal before it)",
                d.index,
                show_number(d.t),
                show_number(d.frame),
                d.field,
                show_value(&d.a),
                show_value(&d.b),
                self.equal_frames
            ),
            Some(Difference::Length { a_frames, b_frames }) => format!(
                "the first {} frame lines are equal; {a} has {a_frames} frames, {b} has {b_frames}",
                self.equal_frames
            ),
        };
        if !self.headers_equal {
            text.push_str("\n(the headers differ; they are not compared)");
        }
        text
    }

    /// The report as pretty JSON, for `--json`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report of JSON values always serialises")
    }
}

fn show_number(n: Option<u64>) -> String {
    n.map_or_else(|| "?".into(), |n| n.to_string())
}

fn show_value(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| "no such field".into(), Value::to_string)
}

/// The first field on which two lines differ: A's fields in A's order, then fields only B has.
fn first_field_difference(
    a: &Map<String, Value>,
    b: &Map<String, Value>,
) -> Option<(String, Option<Value>, Option<Value>)> {
    let in_a = a
        .iter()
        .find(|(key, va)| b.get(*key) != Some(*va))
        .map(|(key, va)| (key.clone(), Some(va.clone()), b.get(key).cloned()));
    in_a.or_else(|| {
        b.iter()
            .find(|(key, _)| !a.contains_key(*key))
            .map(|(key, vb)| (key.clone(), None, Some(vb.clone())))
    })
}

/// Compares two traces in memory.
pub fn diff_traces(a: &Trace, b: &Trace) -> DiffReport {
    let mut report = DiffReport {
        a: "A".into(),
        b: "B".into(),
        a_frames: a.frames.len(),
        b_frames: b.frames.len(),
        equal_frames: 0,
        headers_equal: a.header == b.header,
        difference: None,
    };
    for (index, (la, lb)) in a.frames.iter().zip(&b.frames).enumerate() {
        if let Some((field, va, vb)) = first_field_difference(la, lb) {
            let number = |key: &str| {
                la.get(key)
                    .and_then(Value::as_u64)
                    .or_else(|| lb.get(key).and_then(Value::as_u64))
            };
            report.difference = Some(Difference::Field(FieldDifference {
                index,
                t: number("t"),
                frame: number("frame"),
                field,
                a: va,
                b: vb,
            }));
            return report;
        }
        report.equal_frames += 1;
    }
    if a.frames.len() != b.frames.len() {
        report.difference = Some(Difference::Length {
            a_frames: a.frames.len(),
            b_frames: b.frames.len(),
        });
    }
    report
}

/// Reads and compares two trace files (plain or gzip). This is all of
/// `nestor trace diff A B [--json]`: print `to_text()` or `to_json()`, then exit with
/// `exit_code()` (0 equal, 1 different); a `TraceError` (unreadable file) should exit 2.
pub fn run_diff(a_path: &Path, b_path: &Path) -> Result<DiffReport, TraceError> {
    let a = read_trace(a_path)?;
    let b = read_trace(b_path)?;
    let mut report = diff_traces(&a, &b);
    report.a = a_path.display().to_string();
    report.b = b_path.display().to_string();
    Ok(report)
}
