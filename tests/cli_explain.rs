//! `--explain N` on `demo`: every decision prints its top N placements, each with a value and
//! the feature terms that add up to it.

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
