//! `nestor assist` on the model console under Xvfb with key events injected by xdotool: the
//! keys move and turn the piece, the window outlines the suggestion, each lock is rated, and
//! the recorded movie analyses to the same placements (these need `--features window`). Without
//! a display, or without the window in the build, it exits 1, after choosing the weights: the
//! profile's set, or `--weights`.

mod common;

use std::path::Path;
use std::process::Command;

/// Pixels of the plan outline's colour (render::PLAN) in a PNG.
fn plan_pixels(path: &Path) -> usize {
    let (_, rgb) = common::png_rgb(path);
    rgb.iter()
        .filter(|p| **p == nestor::ui::render::PLAN)
        .count()
}

/// Without a display (or, in a build without the window, at all) assist says why and exits 1.
#[test]
fn without_a_window_assist_says_why_and_exits_1() {
    let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["assist", "--model-console", "5"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("window"), "{err}");
    assert!(err.contains(common::no_window_reason()), "{err}");
}

/// A screenshot at once (the first piece waits in its first-piece delay with a suggestion),
/// then four taps of Left and one of X (A), then the piece falls: the outline was drawn, the
/// piece went left, and the recorded movie analyses to the same placements.
#[test]
#[cfg_attr(not(feature = "window"), ignore = "needs --features window")]
fn keys_move_the_piece_the_outline_shows_and_the_movie_replays() {
    let args = "assist --model-console 5 --record a.fm2 --frames 700";
    let keys = "sleep 0.3
tap s
for i in 1 2 3 4; do tap Left 0.06; sleep 0.06; done
tap x";
    let Some(run) = common::keys_in_window("assist", args, "nestor assist", keys) else {
        return;
    };
    let (out, err) = (&run.out, &run.err);
    assert!(out.contains("placements in 1 game"), "{out}\n{err}");
    // The outline was on the screen.
    let shot = run
        .shots
        .first()
        .unwrap_or_else(|| panic!("no screenshot: {err}"));
    assert!(plan_pixels(shot) > 20, "no outline in {}", shot.display());
    // The keys reached the game: the first piece (a T, spawning at x 5) locked further left.
    let first = out.lines().find(|l| l.starts_with("frame 0 ")).unwrap();
    let x: u8 = first
        .split(" at x ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(x < 5, "{first}");
    // The movie plays back to the same placements, ranks and classes.
    let json = Command::new(env!("CARGO_BIN_EXE_nestor"))
        .args(["analyze", "--model-console", "5", "--json"])
        .arg(run.dir.path().join("a.fm2"))
        .output()
        .unwrap();
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rows = v["pieces"].as_array().unwrap();
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("frame ")).collect();
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(&lines) {
        let head = format!("frame {} ", row["frame"]);
        assert!(line.starts_with(&head), "{line} vs {row}");
        assert!(
            line.contains(&format!("rank {} of", row["rank"])),
            "{line} vs {row}"
        );
    }
}

/// Issue 36: under a profile with a reaction delay assist says, for each piece, where to hover
/// and the taps for the next piece that came, before the piece's rating.
#[test]
#[cfg_attr(not(feature = "window"), ignore = "needs --features window")]
fn under_a_reaction_delay_assist_says_the_hover_and_the_taps() {
    common::with_xvfb("assist-advice", |xvfb, dir| {
        let out = Command::new(xvfb)
            .args(["-a", env!("CARGO_BIN_EXE_nestor")])
            .args(["assist", "--model-console", "5", "--profile", "human"])
            .args(["--frames", "600"])
            .current_dir(dir)
            .output()
            .unwrap();
        let (said, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{said}\n{err}");
        let lines: Vec<&str> = said.lines().collect();
        let rated = lines.iter().filter(|l| l.starts_with("frame ")).count();
        let mut advised = 0;
        for (i, l) in lines.iter().enumerate() {
            if !l.starts_with("advice: ") {
                continue;
            }
            assert!(
                l.starts_with("advice: hover x ") && l.contains(" (frame 18), then for the "),
                "{l}"
            );
            // Each piece's advice comes just before its rating (or the end of the session).
            let after = lines.get(i + 1).copied().unwrap_or_default();
            assert!(
                after.starts_with("frame ") || after.starts_with("assist: "),
                "{said}"
            );
            advised += 1;
        }
        // Near the top-out a plan may lock before the reaction frame: nothing left to advise.
        assert!(advised >= 5 && advised <= rated + 1, "{said}");
        assert!(lines[0].starts_with("advice: "), "{said}");
    });
}

/// Issue 21: assist ranks with the weight set of the person's profile: it loads it (a broken
/// one is refused, naming it) and says which it uses; `--weights` replaces it.
#[test]
fn assist_ranks_with_the_profiles_weight_set() {
    let dir = tempfile::tempdir().unwrap();
    let keys = common::tap_profile("12hz");
    std::fs::write(
        dir.path().join("paired.toml"),
        format!("{keys}weights = \"score-2018\"\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("broken.toml"),
        format!("{keys}weights = \"nowhere/w.toml\"\n"),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_nestor"))
            .args(["assist", "--model-console", "5"])
            .args(extra)
            .current_dir(dir.path())
            .env("RUST_LOG", "info")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Without a display it stops at the window, after choosing the weights.
    let err = run(&["--profile", "paired.toml"]);
    assert!(
        err.contains("weights built-in score-2018 (profile paired)"),
        "{err}"
    );
    let err = run(&["--profile", "broken.toml"]);
    assert!(
        err.contains("--profile broken.toml: `weights`: cannot read weights file nowhere/w.toml"),
        "{err}"
    );
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/default.toml");
    let err = run(&[
        "--profile",
        "broken.toml",
        "--weights",
        default.to_str().unwrap(),
    ]);
    assert!(
        err.contains(&format!("weights {} (--weights)", default.display())),
        "{err}"
    );
}
