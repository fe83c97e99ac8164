//! `nestor play` run as a program on bad files made in a temp dir: every bad ROM, settings or
//! menu case exits non-zero with a message naming the file and the problem, never a panic.

use std::path::PathBuf;
use std::process::{Command, Output};

use nestor::nes::testcart::{mmc1_image, nrom_image};

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).expect("write a temp file");
    p
}

fn play(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestor"))
        .arg("play")
        .args(args)
        .env("RUST_LOG", "off")
        .output()
        .expect("run nestor")
}

/// Asserts a clean failure: exit code 1, no panic, and stderr holding every `needle`.
fn fails_with(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks `{n}`: {err}");
    }
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

#[test]
fn missing_rom() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("missing.nes");
    fails_with(
        &play(&[s(&p), "--headless"]),
        &[s(&p), "cannot read ROM file"],
    );
}

#[test]
fn not_ines() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write(&tmp, "text.nes", b"this is not a cartridge\n");
    fails_with(&play(&[s(&p), "--headless"]), &[s(&p), "not an iNES ROM"]);
}

#[test]
fn empty_file() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write(&tmp, "empty.nes", b"");
    fails_with(&play(&[s(&p), "--headless"]), &[s(&p), "not an iNES ROM"]);
}

#[test]
fn truncated() {
    let tmp = tempfile::tempdir().unwrap();
    let mut img = mmc1_image();
    img.truncate(4000);
    let p = write(&tmp, "truncated.nes", &img);
    fails_with(&play(&[s(&p), "--headless"]), &[s(&p), "truncated"]);
}

#[test]
fn wrong_mapper_even_when_unknown_roms_are_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    // The synthetic NROM cartridge cannot play Tetris: refused for its mapper.
    let p = write(&tmp, "nrom.nes", &nrom_image());
    let out = play(&[s(&p), "--headless", "--allow-unknown-rom"]);
    fails_with(&out, &[s(&p), "mapper 0"]);
}

#[test]
fn unknown_dump() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write(&tmp, "mmc1.nes", &mmc1_image());
    fails_with(
        &play(&[s(&p), "--headless"]),
        &[s(&p), "not a known Tetris", "--allow-unknown-rom"],
    );
}

#[test]
fn an_allowed_cartridge_that_is_not_tetris_fails_in_the_menus_and_keeps_the_movie() {
    let tmp = tempfile::tempdir().unwrap();
    // The MMC1 test cartridge runs but never shows Tetris's menus: the navigator gives up
    // cleanly, and the movie recorded so far is saved for inspection.
    let rom = write(&tmp, "mmc1-allowed.nes", &mmc1_image());
    let movie = tmp.path().join("menus.fm2");
    let out = play(&[
        s(&rom),
        "--headless",
        "--allow-unknown-rom",
        "--record",
        s(&movie),
    ]);
    fails_with(
        &out,
        &[
            "mmc1-allowed.nes does not look like Tetris (U) [!]",
            "menu navigation failed",
            "an A-type game at level 19",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("StartGame {"), "no debug text: {err}");
    // The movie names the ROM file, not the folder it was in.
    let text = std::fs::read_to_string(&movie).expect("the movie was saved");
    assert!(text.contains("comment rom mmc1-allowed.nes ("), "{text}");
    assert!(
        !text.contains(&*tmp.path().to_string_lossy()),
        "no absolute path"
    );
    let text = std::fs::read_to_string(&movie).expect("the movie was saved");
    assert!(text.starts_with("version 3"));
    assert!(text.contains("comment nestor play: A-type, start level 19"));
    assert!(text.lines().filter(|l| l.starts_with('|')).count() > 3000);
}

#[test]
fn settings_file_errors_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let rom = write(&tmp, "cfg-rom.nes", b"NES");
    let cfg = write(&tmp, "unknown-key.toml", b"level = 19\nlevle = 3\n");
    fails_with(&play(&[s(&rom), "--config", s(&cfg)]), &[s(&cfg), "levle"]);
    let cfg = write(&tmp, "bad-level.toml", b"level = 25\n");
    fails_with(&play(&[s(&rom), "--config", s(&cfg)]), &[s(&cfg), "level"]);
    let missing = tmp.path().join("no-such-settings.toml");
    fails_with(
        &play(&[s(&rom), "--config", s(&missing)]),
        &[s(&missing), "cannot read settings file"],
    );
}

#[test]
fn options_override_the_settings_file() {
    let tmp = tempfile::tempdir().unwrap();
    // The file asks for level 25 (invalid); --level 5 wins, so the run gets as far as the ROM.
    let rom = write(&tmp, "override.nes", b"nope");
    let cfg = write(&tmp, "override.toml", b"level = 25\nheadless = true\n");
    let out = play(&[s(&rom), "--config", s(&cfg), "--level", "5"]);
    fails_with(&out, &[s(&rom), "not an iNES ROM"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("window"));
}

#[test]
fn the_shipped_settings_file_parses() {
    let tmp = tempfile::tempdir().unwrap();
    // config/play.toml is all comments: it must parse, then fail only on the ROM.
    let cfg = concat!(env!("CARGO_MANIFEST_DIR"), "/config/play.toml");
    let rom = write(&tmp, "shipped.nes", b"");
    fails_with(
        &play(&[s(&rom), "--config", cfg, "--headless"]),
        &[s(&rom), "not an iNES ROM"],
    );
}

#[test]
fn the_shipped_settings_file_names_every_preset_and_where_the_plan_shows() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/play.toml"))
        .expect("config/play.toml");
    let start = text.find("a preset (").expect("the presets") + "a preset (".len();
    let listed = text[start..]
        .split(')')
        .next()
        .unwrap()
        .replace("\n# ", " ");
    let listed: Vec<&str> = listed.split(", ").map(str::trim).collect();
    let presets: Vec<&str> = nestor::movegen::profile::PRESETS
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(listed, presets);
    assert!(
        !text.contains("window only"),
        "the terminal outlines the plan too"
    );
}

#[test]
fn bad_weights_and_addresses_files_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    // Checked after the ROM, so these need a ROM that loads: the allowed MMC1 test cart.
    let rom = write(&tmp, "w-rom.nes", &mmc1_image());
    let weights = write(&tmp, "weights.toml", b"lines_cleared = \"x\"\n");
    fails_with(
        &play(&[
            s(&rom),
            "--headless",
            "--allow-unknown-rom",
            "--weights",
            s(&weights),
        ]),
        &[s(&weights)],
    );
    let addresses = tmp.path().join("no-addresses.toml");
    fails_with(
        &play(&[
            s(&rom),
            "--headless",
            "--allow-unknown-rom",
            "--addresses",
            s(&addresses),
        ]),
        &[s(&addresses)],
    );
}

/// Values out of every sane range and overlapping RAM fields are refused naming the file and
/// the key; a file that is no TOML at all (a profile's `weights` pointing elsewhere) is named,
/// never quoted.
#[test]
fn out_of_range_weights_overlapping_maps_and_foreign_files() {
    let tmp = tempfile::tempdir().unwrap();
    let model = ["--model-console", "1", "--headless", "--pieces", "1"];
    let shipped = |name: &str| {
        std::fs::read_to_string(format!("{}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    };
    let weights = shipped("config/weights/default.toml");
    let line = weights
        .lines()
        .find(|l| l.starts_with("lock_height = "))
        .unwrap();
    let huge = write(
        &tmp,
        "huge.toml",
        weights.replacen(line, "lock_height = 1e308", 1).as_bytes(),
    );
    let mut args = model.to_vec();
    args.extend(["--weights", s(&huge)]);
    fails_with(
        &play(&args),
        &[s(&huge), "lock_height", "1e308", "out of range"],
    );

    let map = shipped("addresses.toml").replacen("level = 0x64", "level = 0x62", 1);
    let overlap = write(&tmp, "overlap.toml", map.as_bytes());
    let mut args = model.to_vec();
    args.extend(["--addresses", s(&overlap)]);
    fails_with(
        &play(&args),
        &[s(&overlap), "ram.orientation", "ram.level", "$0062"],
    );

    let secret = write(&tmp, "secret", b"root:x:0:0:do-not-print\n");
    let profile = write(
        &tmp,
        "p.toml",
        format!(
            "timeline = \"30hz\"\nshift = \"tap\"\nreaction = 18\nstart_delay = 18\n\
             weights = \"{}\"\n",
            s(&secret)
        )
        .as_bytes(),
    );
    let mut args = model.to_vec();
    args.extend(["--profile", s(&profile)]);
    let out = play(&args);
    fails_with(&out, &[s(&secret), "line 1, column 5"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("do-not-print"));
}

/// A `record` from the settings file is named as the file's key, and an unwritable place is
/// said in words, not by the temporary file nestor would have made there.
#[test]
fn a_settings_file_record_is_named_by_its_key_without_temporary_files() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write(&tmp, "c.toml", b"record = \"no/such/folder/x.fm2\"\n");
    let out = play(&[
        "--model-console",
        "1",
        "--headless",
        "--pieces",
        "1",
        "--config",
        s(&cfg),
    ]);
    fails_with(
        &out,
        &[
            &format!("{}: `record` =", s(&cfg)),
            "its folder does not exist",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains(".nestor-") && !err.contains("--record"),
        "{err}"
    );
}
