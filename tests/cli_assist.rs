//! `nestor assist` on the model console under Xvfb with key events injected by xdotool: the
//! keys move and turn the piece, the window outlines the suggestion, each lock is rated, and
//! the recorded movie analyses to the same placements (these need `--features window`). Without
//! a display, or without the window in the build, it exits 1, after choosing the weights: the
//! profile's set, or `--weights`.

mod common;

use std::path::Path;
use std::process::Command;

use common::temp_dir;

/// Pixels of the plan outline's colour (render::PLAN) in a PNG.
fn plan_pixels(path: &Path) -> usize {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks(step)
        .filter(|p| p[..3] == nestor::ui::render::PLAN)
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

#[test]
#[cfg_attr(
    not(feature = "window"),
    ignore = "needs the window: --features window"
)]
fn keys_move_the_piece_the_outline_shows_and_the_movie_replays() {
    let Some(xvfb) = common::xvfb_with_xdotool() else {
        return;
    };
    let tmp = temp_dir("assist");
    let dir = tmp.path();
    let bin = env!("CARGO_BIN_EXE_nestor");
    // Screenshot at once (the first piece waits in its first-piece delay with a suggestion),
    // then four taps of Left and one of X (A), then let the piece fall.
    let script = format!(
        r#"cd "{dir}"
"{bin}" assist --model-console 5 --record a.fm2 --frames 700 > out.txt 2> err.txt &
pid=$!
xdotool search --sync --name "nestor assist" windowactivate --sync >/dev/null 2>&1 \
  || xdotool search --sync --name "nestor assist" windowfocus --sync
sleep 0.3
xdotool keydown s; sleep 0.1; xdotool keyup s
for i in 1 2 3 4; do xdotool keydown Left; sleep 0.06; xdotool keyup Left; sleep 0.06; done
xdotool keydown x; sleep 0.1; xdotool keyup x
wait $pid
"#,
        dir = dir.display()
    );
    let status = Command::new(xvfb)
        .args(["-a", "sh", "-c", &script])
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    let err = std::fs::read_to_string(dir.join("err.txt")).unwrap();
    assert!(out.contains("placements in 1 game"), "{out}\n{err}");
    // The outline was on the screen.
    let shot = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .unwrap_or_else(|| panic!("no screenshot: {err}"));
    assert!(plan_pixels(&shot) > 20, "no outline in {}", shot.display());
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
    let json = Command::new(bin)
        .args(["analyze", "--model-console", "5", "--json"])
        .arg(dir.join("a.fm2"))
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
#[cfg_attr(
    not(feature = "window"),
    ignore = "needs the window: --features window"
)]
fn under_a_reaction_delay_assist_says_the_hover_and_the_taps() {
    let Some(xvfb) = common::xvfb_with_xdotool() else {
        return;
    };
    let tmp = temp_dir("assist-advice");
    let dir = tmp.path();
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
