//! `nestor sim compare`, `sim --shard` and `sim merge` from the outside: identical weights show
//! no difference, a bad set loses, shards merge into exactly the single run, bad shards fail.

use std::path::Path;
use std::process::Output;

mod common;

use common::nestor_in as nestor;

fn json_of(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn default_weights() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config/weights/default.toml")
        .display()
        .to_string()
}

#[test]
fn identical_weights_show_no_difference() {
    let tmp = common::temp_dir("compare-same");
    let dir = tmp.path().to_path_buf();
    let w = default_weights();
    let v = json_of(&nestor(
        &[
            "sim", "compare", &w, &w, "--games", "6", "--pieces", "40", "--json",
        ],
        &dir,
    ));
    let c = &v["comparison"];
    assert_eq!(c["n"], 6);
    assert_eq!(c["mean_diff"], 0.0);
    assert_eq!(c["t_p"], 1.0);
    assert_eq!(c["wilcoxon_p"], 1.0);
    assert_eq!(v["significant"], false);
    assert!(
        c["mean_a"].as_f64().expect("a mean") > 0.0,
        "the games cleared lines"
    );
}

#[test]
fn a_deliberately_bad_set_is_reported_worse() {
    let tmp = common::temp_dir("compare-bad");
    let dir = tmp.path().to_path_buf();
    // The default file with rewards for holes and high locks, in every phase: it buries its
    // own stack.
    let default = std::fs::read_to_string(default_weights()).expect("default weights");
    let bad: String = default
        .lines()
        .map(|l| match l.split(" = ").next() {
            Some("column_holes") => "column_holes = -3.0".to_string(),
            Some("weighted_column_holes") => "weighted_column_holes = -1.0".to_string(),
            Some("lock_height") => "lock_height = -2.0".to_string(),
            _ => l.to_string(),
        })
        .map(|l| l + "\n")
        .collect();
    assert_ne!(bad, default);
    std::fs::write(dir.join("bad.toml"), bad).expect("write");
    let out = nestor(
        &[
            "sim",
            "compare",
            "--against",
            "bad.toml",
            "--games",
            "12",
            "--pieces",
            "60",
        ],
        &dir,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("default is significantly better"), "{text}");

    let v = json_of(&nestor(
        &[
            "sim",
            "compare",
            "bad.toml",
            &default_weights(),
            "--games",
            "12",
            "--pieces",
            "60",
            "--json",
        ],
        &dir,
    ));
    let c = &v["comparison"];
    assert!(c["mean_diff"].as_f64().expect("diff") < 0.0, "{v}");
    assert!(
        c["mean_ci"][1].as_f64().expect("ci") < 0.0,
        "the whole interval below 0: {v}"
    );
    assert_eq!(v["significant"], true);
}

#[test]
fn shards_merge_into_exactly_the_single_run() {
    let tmp = common::temp_dir("sim-shards");
    let dir = tmp.path().to_path_buf();
    let run = ["--games", "7", "--pieces", "30", "--seed", "3"];
    let mut single = vec!["sim", "--json"];
    single.extend(run);
    let single = json_of(&nestor(&single, &dir));
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = format!("p{k}.json");
        let mut args = vec!["sim", "--shard", &shard, "--part", &part];
        args.extend(run);
        let out = nestor(&args, &dir);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let merged = json_of(&nestor(
        &["sim", "merge", "p3.json", "p1.json", "p2.json", "--json"],
        &dir,
    ));
    assert_eq!(merged["summary"], single["summary"]);
    assert_eq!(merged["games"], single["games"]);
    assert_eq!(merged["seed"], 3);

    let fail = |args: &[&str]| -> String {
        let out = nestor(args, &dir);
        assert_eq!(out.status.code(), Some(1), "{args:?} must fail");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    // A shard of another run (another piece cap).
    let other = fail(&["sim", "--shard", "3/3", "--part", "p1.json", "--games", "7"]);
    assert!(other.contains("p1.json exists"), "{other}");
    let out = nestor(
        &[
            "sim", "--shard", "3/3", "--part", "q3.json", "--games", "7", "--pieces", "31",
            "--seed", "3",
        ],
        &dir,
    );
    assert!(out.status.success());
    let err = fail(&["sim", "merge", "p1.json", "p2.json", "q3.json"]);
    assert!(err.contains("q3.json is a shard of another run"), "{err}");
    let err = fail(&["sim", "merge", "p1.json", "p2.json"]);
    assert!(err.contains("shards missing: [3] of 3"), "{err}");

    let out = nestor(&["sim", "--shard", "3/2"], &dir);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    common::says(&err, &["3/2", "between 1 and N"]);
}

#[test]
fn both_sides_play_under_the_profile() {
    let tmp = common::temp_dir("compare-profile");
    let dir = tmp.path().to_path_buf();
    let w = default_weights();
    let run = |profile: &str| {
        json_of(&nestor(
            &[
                "sim",
                "compare",
                &w,
                &w,
                "--games",
                "4",
                "--pieces",
                "80",
                "--profile",
                profile,
                "--json",
            ],
            &dir,
        ))
    };
    let (slow, fast) = (run("10hz"), run("unlimited"));
    assert_eq!(slow["profile"]["name"], "10hz");
    assert_eq!(
        slow["comparison"]["mean_diff"], 0.0,
        "the same profile on both sides"
    );
    assert_ne!(
        slow["comparison"]["mean_a"], fast["comparison"]["mean_a"],
        "10 Hz taps at level 19 play other games than unlimited ones"
    );
}
