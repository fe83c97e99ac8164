//! Checks the rules model against a trace: start from the first frame line, step with each
//! line's input, compare every recorded field, and report the first divergence.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::capture::CaptureSpan;
use super::file::{read_trace, Trace, TraceError};
use super::record::{game_from_line, start_fields, FrameRecord, FIELDS};
use crate::game::crash::CrashKind;
use crate::game::pad::PadState;
use crate::game::state::{Branch, Events, FrameHint, Game};
use crate::game::timing::audio::{audio_cycles, AUDIO_RAM, AUDIO_RAM_LEN};

/// The first place the model and the trace disagree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    /// The frame line's `t`.
    pub t: u64,
    /// The frame line's `frame`.
    pub frame: u64,
    /// The field that differs.
    pub field: String,
    /// The trace's value (the cartridge).
    pub expected: Value,
    /// The model's value.
    pub actual: Value,
}

/// One file's verification result.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// The file's path as given.
    pub file: String,
    /// The trace's name: its header's `note`, or the path.
    pub name: String,
    /// Frame lines in the file.
    pub frames: u64,
    /// Lines compared against the model (all but the first, which starts it).
    pub frames_checked: u64,
    /// Field comparisons made.
    pub fields_checked: u64,
    /// The first disagreement; `None` when the model follows the whole trace.
    pub divergence: Option<Divergence>,
    /// Fields in the trace the model does not produce (not compared).
    pub unknown_fields: Vec<String>,
    /// Set when the file could not be checked at all.
    pub error: Option<String>,
    /// Frames whose outcome the model left open (its audio range straddles the frame's end,
    /// or the NMI may land in a crash window) and where the trace took the branch the model
    /// did not choose: the model followed the trace there.
    pub forks: Vec<Fork>,
}

/// A frame where the trace took the other branch of an outcome the model left open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fork {
    /// The frame line's `t`.
    pub t: u64,
    /// `lag`, `no lag`, `crash` or `legal screen` (the jump ran the legal screen's tail, then
    /// the demo): what the cartridge did there.
    pub outcome: &'static str,
}

impl VerifyReport {
    /// True when the file was checked and the model follows it to the end.
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
        forks: Vec::new(),
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
    // The state before the last step, its input (the model's, the record's), hint and events:
    // a divergence can show one frame after the open outcome that caused it (a lag or a crash
    // shows on the next frame).
    let mut last: Option<(Game, PadState, PadState, FrameHint, Events)> = None;
    for (i, line) in trace.frames.iter().enumerate().skip(1) {
        // A fuzzed or corrupt first line can carry t or frame near u64::MAX.
        let t = t0.saturating_add(i as u64);
        let frame = frame0.saturating_add(i as u64);
        let Some(input) = line_input(line) else {
            report.error = Some(format!("line t={t}: no readable `input` or `held`"));
            return report;
        };
        let hint = FrameHint {
            audio: ram_audio(&trace.frames[i - 1]),
            branch: Branch::Model,
            demo_next: demo_next(&game, line),
        };
        // In the attract demo the NMI's poll takes the demo's buttons (a table in ROM), not the
        // controller's: the trace's `held` is what the game read.
        let pad = demo_pad(&game, line).unwrap_or(input);
        let before = game.clone();
        let ev = game.step_with(pad, hint);
        report.frames_checked += 1;
        let Some((key, expected, actual)) =
            first_difference(&game, frame, t, input, line, &mut report)
        else {
            last = Some((before, pad, input, hint, ev));
            continue;
        };
        let other = FrameHint {
            branch: Branch::Other,
            ..hint
        };
        // This frame's other lag decision (a crash shows on the next frame: below).
        if ev.may_lag {
            let mut g = before.clone();
            let ev2 = g.step_with(pad, other);
            if matches_line(&g, frame, t, input, line) {
                report.forks.push(Fork {
                    t,
                    outcome: outcome(&ev2),
                });
                game = g;
                last = Some((before, pad, input, other, ev2));
                continue;
            }
        }
        // The previous frame's other branch.
        if let Some((prev, prev_pad, prev_input, prev_hint, prev_ev)) = &last {
            // The other lag decision or the crash, then the legal screen's tail.
            let branches: &[Branch] =
                match (prev_ev.may_lag || prev_ev.may_crash, prev_ev.may_crash) {
                    _ if prev_hint.branch != Branch::Model => &[],
                    (true, true) => &[Branch::Other, Branch::LegalScreen],
                    (true, false) => &[Branch::Other],
                    _ => &[],
                };
            let mut taken = None;
            for &branch in branches {
                let mut g = prev.clone();
                let ev1 = g.step_with(
                    *prev_pad,
                    FrameHint {
                        branch,
                        ..*prev_hint
                    },
                );
                let prev_line = &trace.frames[i - 1];
                let (pt, pf) = (t - 1, frame - 1);
                // A crash only where the frame counter stops after this frame's NMI.
                let frozen = || {
                    trace
                        .frames
                        .get(i + 1)
                        .is_none_or(|next| next.get("frame_counter") == line.get("frame_counter"))
                };
                if !matches_line(&g, pf, pt, *prev_input, prev_line)
                    || (ev1.crashed == Some(CrashKind::Crash) && !frozen())
                {
                    continue;
                }
                let pad = demo_pad(&g, line).unwrap_or(input);
                let hint = FrameHint {
                    demo_next: demo_next(&g, line),
                    ..hint
                };
                let before = g.clone();
                let ev = g.step_with(pad, hint);
                if let Some(wild) = crashed_here(&g, frame, t, input, line) {
                    g = wild;
                }
                if matches_line(&g, frame, t, input, line) {
                    report.forks.push(Fork {
                        t: pt,
                        outcome: outcome(&ev1),
                    });
                    taken = Some((g, (before, pad, input, hint, ev)));
                    break;
                }
            }
            if let Some((g, l)) = taken {
                game = g;
                last = Some(l);
                continue;
            }
        }
        report.divergence = Some(Divergence {
            t,
            frame,
            field: key,
            expected,
            actual,
        });
        return report;
    }
    report
}

/// The NMI-side fields a crashing frame still changes (the NMI runs once more) and the wild
/// code after it left alone on every traced crash (it wrote `held` and `start_level` in
/// `p252-0`).
const CRASH_NMI_FIELDS: [&str; 2] = ["frame_counter", "rng"];

/// The game as `line` shows it, crashed, when `game` has just crashed and agrees with `line` on
/// what the crashing NMI does: after that NMI the corrupted jump runs code the model does not
/// follow before the CPU halts (it wrote `das` and bytes of the working copy at $40-$5F in
/// `p249-0`, `held` and `start_level` in `p252-0`, `gameModeState` in most), so the model takes RAM as the crash leaves it and checks
/// from there that nothing changes any more.
fn crashed_here(
    game: &Game,
    frame: u64,
    t: u64,
    input: PadState,
    line: &serde_json::Map<String, Value>,
) -> Option<Game> {
    if game.crashed != Some(CrashKind::Crash) {
        return None;
    }
    let record = FrameRecord::from_game(game, frame, t, input);
    let nmi_agrees = CRASH_NMI_FIELDS.iter().all(|k| {
        line.get(*k)
            .is_none_or(|v| record.field(k).as_ref() == Some(v))
    });
    if !nmi_agrees {
        return None;
    }
    let mut left = game_from_line(line).ok()?;
    left.crashed = Some(CrashKind::Crash);
    Some(left)
}

/// What a frame whose outcome was open turned out to be.
fn outcome(ev: &Events) -> &'static str {
    if ev.crashed == Some(CrashKind::Demo) {
        "legal screen"
    } else if ev.crashed.is_some() {
        "crash"
    } else if ev.lag {
        "lag"
    } else {
        "no lag"
    }
}

/// The buttons the game read on this line (`held`), once the attract demo drives it.
fn demo_pad(game: &Game, line: &serde_json::Map<String, Value>) -> Option<PadState> {
    if !game.in_demo() {
        return None;
    }
    let held = line.get("held")?.as_u64()?;
    u8::try_from(held).ok().map(PadState)
}

/// The next piece this line shows, for a game that fell into the legal screen: the demo's
/// pieces come from its table in ROM, the trace carries what the game read.
fn demo_next(game: &Game, line: &serde_json::Map<String, Value>) -> Option<u8> {
    if game.crashed != Some(CrashKind::Demo) {
        return None;
    }
    u8::try_from(line.get("next")?.as_u64()?).ok()
}

/// The sound engine's RAM ($0680-$06FF) in a line's `ram` field (all 2 KiB as hex, in the
/// traces past level 155), read as `updateAudio`'s cycle range for the next frame.
fn ram_audio(line: &serde_json::Map<String, Value>) -> Option<(u32, u32)> {
    let hex = line.get("ram")?.as_str()?;
    let part = hex.get(2 * AUDIO_RAM..2 * (AUDIO_RAM + AUDIO_RAM_LEN))?;
    let bytes: Option<Vec<u8>> = (0..AUDIO_RAM_LEN)
        .map(|i| u8::from_str_radix(part.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    audio_cycles(&bytes?)
}

/// The first field of `line` the model's frame disagrees with (counting the comparisons).
fn first_difference(
    game: &Game,
    frame: u64,
    t: u64,
    input: PadState,
    line: &serde_json::Map<String, Value>,
    report: &mut VerifyReport,
) -> Option<(String, Value, Value)> {
    let record = FrameRecord::from_game(game, frame, t, input);
    for (key, expected) in line {
        let Some(actual) = compared(game, &record, key) else {
            continue;
        };
        report.fields_checked += 1;
        if &actual != expected {
            return Some((key.clone(), expected.clone(), actual));
        }
    }
    None
}

/// True when the model's frame equals every recorded field of `line`.
fn matches_line(
    game: &Game,
    frame: u64,
    t: u64,
    input: PadState,
    line: &serde_json::Map<String, Value>,
) -> bool {
    let record = FrameRecord::from_game(game, frame, t, input);
    line.iter().all(|(key, expected)| {
        compared(game, &record, key).is_none_or(|actual| &actual == expected)
    })
}

/// The model's value of a field, when it is compared: not `active_matches_p1` once the game
/// has crashed (the wild jump after the crashing NMI may write the working copy of the player
/// block at $40-$5F before the CPU halts: `p249-0`, `p252-0`, `p255-0`; the model does not
/// follow it).
fn compared(game: &Game, record: &FrameRecord, key: &str) -> Option<Value> {
    if key == "active_matches_p1" && game.crashed == Some(CrashKind::Crash) {
        return None;
    }
    record.field(key)
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
