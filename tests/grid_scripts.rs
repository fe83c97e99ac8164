//! scripts/grid.sh and scripts/grid_report.py as a user runs them: one small cell played by
//! BetaTetris's adjustment rule, resumed, refused under another rule, and reported.

use std::path::Path;
use std::process::{Command, Output};

fn grid(dir: &Path, adjust: &str) -> Output {
    Command::new("sh")
        .arg("scripts/grid.sh")
        .args([
            "--games",
            "2",
            "--chunk",
            "1",
            "--hz",
            "15hz",
            "--reaction",
            "18",
        ])
        .args(["--adjust", adjust, "--nestor", env!("CARGO_BIN_EXE_nestor")])
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("sh runs")
}

#[test]
fn a_cell_by_the_restart_rule_resumes_refuses_another_rule_and_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let out = grid(&runs, "restart");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cell = runs.join("15hz-r18");
    let first = std::fs::read_to_string(cell.join("seeds-1-1.csv")).unwrap();
    assert!(cell.join("seeds-2-2.csv").is_file());
    // Each chunk is the sim of those seeds under the rule: the same game again.
    let again = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args([
            "sim",
            "--level",
            "18",
            "--until",
            "lines:430",
            "--profile",
            "15hz",
        ])
        .args([
            "--reaction",
            "18",
            "--adjust",
            "restart",
            "--games",
            "1",
            "--seed",
            "1",
        ])
        .arg("--out")
        .arg(tmp.path().join("one.csv"))
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("one.csv")).unwrap(),
        first
    );
    // Run again: nothing is replayed (the finished chunks stay as they are).
    let out = grid(&runs, "restart");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
    // The same folder under the other rule is refused, its games untouched.
    let out = grid(&runs, "continue");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--adjust restart --weights profile") && err.contains("another --dir"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(cell.join("seeds-1-1.csv")).unwrap(),
        first
    );
    // The report: the cell's two games beside BetaTetris's figures for it.
    let report = tmp.path().join("report");
    std::fs::create_dir(&report).unwrap();
    let out = Command::new("python3")
        .arg("scripts/grid_report.py")
        .arg("--runs")
        .arg(&runs)
        .arg("--grid")
        .arg(&report)
        .args(["--beta", "benches/grid/betatetris.csv"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = std::fs::read_to_string(report.join("table.md")).unwrap();
    let row = table
        .lines()
        .find(|l| l.starts_with("| 15 Hz | 18 |"))
        .expect("the 15 Hz, 18 row");
    assert!(
        row.contains("| 2 |") && row.contains("98.5 / 89.7 %"),
        "{row}"
    );
    assert!(table.contains("| 12 Hz | 0 | 0 | not run |"));
    assert!(report.join("grid.svg").is_file());
}
