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
    let folder = tmp.path().join("report");
    // The report folder need not exist: it is made.
    let out = report(&folder, &["--runs", runs.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = std::fs::read_to_string(folder.join("table.md")).unwrap();
    let row = table
        .lines()
        .find(|l| l.starts_with("| 15 Hz | 18 |"))
        .expect("the 15 Hz, 18 row");
    assert!(
        row.contains("| 2 |") && row.contains("98.5 / 89.7 %"),
        "{row}"
    );
    assert!(table.contains("| 12 Hz | 0 | 0 | not run |"));
    assert!(folder.join("grid.svg").is_file());
}

fn report(grid: &Path, extra: &[&str]) -> Output {
    Command::new("python3")
        .arg("scripts/grid_report.py")
        .arg("--grid")
        .arg(grid)
        .args(["--beta", "benches/grid/betatetris.csv"])
        .args(extra)
        .output()
        .expect("python3 runs")
}

fn games(dir: &Path, rows: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("nestor-games.csv"),
        format!("# games\nhz,reaction,seed,lines\n{rows}"),
    )
    .unwrap();
}

#[test]
fn a_grid_folder_reads_the_cells_it_did_not_play_from_its_base() {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
    games(&old, "15hz,18,1,100\n15hz,18,2,300\n20hz,0,1,430\n");
    games(&new, "15hz,18,1,430\n15hz,18,2,430\n");
    let out = report(&new, &["--base", old.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(new.join("base")).unwrap(),
        "../old\n"
    );
    let table = std::fs::read_to_string(new.join("table.md")).unwrap();
    // Its own cell wins over the base's; the cell it lacks is the base's, and named as such.
    let row = |p: &str| {
        table
            .lines()
            .find(|l| l.starts_with(p))
            .unwrap()
            .to_string()
    };
    assert!(
        row("| 15 Hz | 18 |").contains("| 430 [430, 430] |"),
        "{table}"
    );
    assert!(row("| 20 Hz | 0 | 1 |").contains("100.0"), "{table}");
    assert!(table.contains("old: 20 Hz 0."), "{table}");
    assert!(!table.contains("15 Hz 18."), "{table}");
    // Without --base the file is followed: the same table again.
    let again = report(&new, &[]);
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(new.join("table.md")).unwrap(),
        table
    );
    // A loop of bases is refused, naming the folder.
    std::fs::write(old.join("base"), "../new\n").unwrap();
    let looped = report(&new, &[]);
    assert_eq!(looped.status.code(), Some(1));
    let err = String::from_utf8_lossy(&looped.stderr).to_string();
    assert!(
        err.contains("a loop of bases") && err.contains("old/base"),
        "{err}"
    );
    // A base that is not a grid folder is refused before anything is written.
    std::fs::remove_file(new.join("base")).unwrap();
    let bad = report(
        &new,
        &["--base", tmp.path().join("nowhere").to_str().unwrap()],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a grid folder"));
    assert!(!new.join("base").exists());
}

/// Every committed grid folder still resolves through its bases to all 30 cells.
#[test]
fn every_committed_grid_folder_has_all_thirty_cells() {
    // Reported in one copy of the folders, bases included, so the committed tables stay as they are.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("grid");
    let status = Command::new("cp")
        .arg("-r")
        .arg("benches/grid")
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    for dir in std::fs::read_dir("benches/grid").unwrap() {
        let dir = dir.unwrap().path();
        if !dir.join("nestor-games.csv").is_file() {
            continue;
        }
        let name = dir.file_name().unwrap();
        let out = report(&copy.join(name), &[]);
        assert!(
            out.status.success(),
            "{}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let table = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(!table.contains("not run"), "{}: {table}", dir.display());
    }
}
