//! scripts/paired.py as a user runs it: two sim CSVs compared game by game (by seed), and the
//! errors that name the file at fault.

use std::path::Path;
use std::process::{Command, Output};

fn paired(a: &Path, b: &Path, extra: &[&str]) -> Output {
    Command::new("python3")
        .arg("scripts/paired.py")
        .arg(a)
        .arg(b)
        .args(extra)
        .output()
        .expect("python3 runs")
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn two_runs_are_paired_by_seed_with_the_sign_test() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.csv"), tmp.path().join("b.csv"));
    // Seed 9 only in A: left out. Differences 10, -2, 0, 4, 4 over seeds 1-5.
    write(
        &a,
        "game,seed,lines,score\n0,1,30,1\n1,2,8,1\n2,3,5,1\n3,4,14,1\n4,5,24,1\n5,9,99,1\n",
    );
    write(
        &b,
        "game,seed,lines,score\n0,5,20,1\n1,4,10,1\n2,3,5,1\n3,2,10,1\n4,1,20,1\n",
    );
    let out = paired(&a, &b, &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["games"], 5);
    assert_eq!(r["mean_a"], 16.2);
    assert_eq!(r["mean_b"], 13.0);
    assert!((r["difference"].as_f64().unwrap() - 3.2).abs() < 1e-12);
    // sd of (10, -2, 0, 4, 4) is sqrt(84.8 / 4); the interval is 1.96 sd / sqrt(5) each side.
    let half = 1.96 * (84.8f64 / 4.0).sqrt() / 5f64.sqrt();
    let lo = r["interval"][0].as_f64().unwrap();
    assert!((lo - (3.2 - half)).abs() < 1e-9, "{lo}");
    assert_eq!(
        (r["better"].clone(), r["worse"].clone()),
        (3.into(), 1.into())
    );
    // Three of four games that differ: 2 × P(X ≤ 1), X ~ Binomial(4, 1/2) = 2 × 5/16.
    assert_eq!(r["p_sign"], 0.625);
    let text = paired(&a, &b, &[]);
    let line = String::from_utf8_lossy(&text.stdout);
    assert!(
        line.contains("5 games paired by seed") && line.contains("A - B +3.20"),
        "{line}"
    );
}

#[test]
fn a_missing_file_a_missing_column_and_no_shared_seed_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.csv"), tmp.path().join("b.csv"));
    write(&a, "game,seed,lines\n0,1,30\n");
    let gone = tmp.path().join("gone.csv");
    let err = |out: Output| {
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = err(paired(&a, &gone, &[]));
    assert!(e.contains("gone.csv") && e.contains("cannot read"), "{e}");
    write(&b, "game,seed,score\n0,1,30\n");
    let e = err(paired(&a, &b, &[]));
    assert!(e.contains("b.csv") && e.contains("`lines`"), "{e}");
    write(&b, "game,seed,lines\n0,2,30\n");
    let e = err(paired(&a, &b, &[]));
    assert!(e.contains("share no seed"), "{e}");
    write(&b, "game,seed,lines\n0,1,many\n");
    let e = err(paired(&a, &b, &[]));
    assert!(e.contains("b.csv line 2") && e.contains("'many'"), "{e}");
}
