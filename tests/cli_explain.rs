//! `--explain N` on `demo` and `play`: every decision prints its top N placements, each with a
//! value and the feature terms that add up to it; `play`'s window shows them in a panel (key E).

mod common;

use common::nestor;

#[test]
fn demo_explains_the_top_placements_of_each_decision() {
    let args: Vec<std::ffi::OsString> = ["demo", "--explain", "2", "--pieces", "3", "--seed", "4"]
        .iter()
        .map(std::ffi::OsString::from)
        .collect();
    let out = nestor(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let decisions = text.lines().filter(|l| l.starts_with("frame ")).count();
    assert!(decisions >= 3, "{text}");
    let firsts = text.lines().filter(|l| l.starts_with("#1 ")).count();
    let seconds = text.lines().filter(|l| l.starts_with("#2 ")).count();
    assert_eq!((firsts, seconds), (decisions, decisions), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("#3 ")));
    // Each placement's contributions add up to its value (the rows print 3 decimals).
    let mut value: Option<f64> = None;
    let mut sum = 0.0;
    let mut checked = 0;
    for line in text.lines().chain(["#end"]) {
        if line.starts_with('#') {
            if let Some(v) = value.take() {
                assert!((sum - v).abs() < 0.05, "{sum} vs {v}\n{text}");
                checked += 1;
            }
            sum = 0.0;
            value = line
                .split("value ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|v| v.parse::<f64>().ok());
        } else if line.starts_with("    ") && !line.contains("contribution") {
            sum += line
                .split_whitespace()
                .last()
                .unwrap()
                .parse::<f64>()
                .unwrap();
        }
    }
    assert!(checked >= 6, "{checked}");
}

#[test]
fn play_json_gives_each_decision_as_a_json_line() {
    let args: Vec<std::ffi::OsString> = [
        "play",
        "--model-console",
        "4",
        "--explain",
        "2",
        "--json",
        "--pieces",
        "3",
    ]
    .iter()
    .map(std::ffi::OsString::from)
    .collect();
    let out = nestor(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let decisions: Vec<serde_json::Value> = err
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(decisions.len() >= 3, "{err}");
    for d in &decisions {
        let top = d["top"].as_array().unwrap();
        assert_eq!(top.len(), 2, "{d}");
        assert_eq!(top[0]["rank"], 1);
        // The contributions add up to the value.
        let value = top[0]["value"].as_f64().unwrap();
        let sum: f64 = top[0]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["contribution"].as_f64().unwrap())
            .sum();
        assert!((sum - value).abs() < 1e-6 * value.abs().max(1.0), "{d}");
    }
    // The summary on stdout is still one JSON document.
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["totals"]["pieces"].as_u64().unwrap() >= 3);
}

/// Pixels of the panel's header colour (render::PLAN) in the rightmost PANEL_WIDTH columns of
/// a screenshot, and its width.
fn panel_headers(path: &std::path::Path) -> (usize, usize) {
    let (w, rgb) = common::png_rgb(path);
    let panel = w - nestor::ui::explain_panel::PANEL_WIDTH;
    let n = rgb
        .iter()
        .enumerate()
        .filter(|(i, p)| i % w >= panel && **p == nestor::ui::render::PLAN)
        .count();
    (n, w)
}

/// `play --explain` in the window draws the panel of placements beside the board; E hides it
/// and the window keeps its size.
#[test]
#[cfg_attr(not(feature = "window"), ignore = "needs --features window")]
fn play_window_shows_the_panel_and_e_hides_it() {
    let args = "play --model-console 5 --model-window --explain 2 --frames 300";
    // A screenshot once the first decision is explained, E, then another screenshot.
    let keys = "sleep 1; tap s; sleep 0.3; tap e; sleep 0.3; tap s";
    let Some(run) = common::keys_in_window("play-panel", args, "nestor play", keys) else {
        return;
    };
    let (err, shots) = (&run.err, &run.shots);
    assert!(err.contains("E explanations"), "{err}");
    assert_eq!(shots.len(), 2, "{err}");
    let (shown, width) = panel_headers(&shots[0]);
    let (hidden, width_after) = panel_headers(&shots[1]);
    assert!(
        shown > 50,
        "no placement headers in the panel of {}",
        shots[0].display()
    );
    assert_eq!(hidden, 0, "E did not hide the panel");
    assert_eq!(width, width_after, "the window keeps its size");
}
