//! Every input a fuzz target kept (`tests/fixtures/fuzz/<target>/`) and the fixtures the seed
//! corpora come from, run on stable through the fuzz targets' own entry points.

mod fuzz_entries;

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use fuzz_entries::{Entry, Outcome, LABEL, TARGETS};

const KEPT: &str = "tests/fixtures/fuzz";

/// Targets whose refusals come from a file reader, so they must name the file.
const NAMES_THE_FILE: &[&str] = &[
    "settings_toml",
    "weights_toml",
    "addresses_toml",
    "ines_rom",
];

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.expect("a readable directory entry").path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs one input, turning a panic into a message naming the input.
fn run(target: &str, entry: Entry, path: &Path, data: &[u8]) -> Result<Outcome, String> {
    catch_unwind(AssertUnwindSafe(|| entry(data))).map_err(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        format!("{target} panicked on {}: {what}", path.display())
    })
}

/// Checks an outcome against what the input's name promises: `refused-*` inputs must be
/// refused (naming the file where the target reads files), `accepted-*` ones accepted.
fn check(target: &str, path: &Path, outcome: &Outcome) -> Result<(), String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match outcome {
        Outcome::Refused(msg) if msg.trim().is_empty() => Err(format!(
            "{target}: {} refused with an empty message",
            path.display()
        )),
        Outcome::Refused(msg) if NAMES_THE_FILE.contains(&target) && !msg.contains(LABEL) => {
            Err(format!(
                "{target}: {} refused without naming the file: {msg}",
                path.display()
            ))
        }
        Outcome::Refused(msg) if name.starts_with("accepted-") => Err(format!(
            "{target}: {} should be accepted: {msg}",
            path.display()
        )),
        Outcome::Accepted if name.starts_with("refused-") => {
            Err(format!("{target}: {} should be refused", path.display()))
        }
        _ => Ok(()),
    }
}

/// Each kept input runs through its own target, which must give the outcome its name
/// promises, and through every other target too (a movie fed to the ROM check, ...), which
/// must not panic.
#[test]
fn every_kept_fuzz_input_is_handled_without_a_panic() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (home, _) in TARGETS {
        for path in files_in(&Path::new(KEPT).join(home)) {
            let data = fs::read(&path).expect("a readable kept input");
            count += 1;
            for (target, entry) in TARGETS {
                match run(target, *entry, &path, &data) {
                    Ok(outcome) if target == home => {
                        eprintln!("{target} {}: {outcome:?}", path.display());
                        failures.extend(check(target, &path, &outcome).err());
                    }
                    Ok(_) => {}
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    assert!(count > 0, "no kept inputs under {KEPT}");
    assert!(
        failures.is_empty(),
        "{} failures over {count} kept inputs:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{count} kept fuzz inputs handled");
}

/// The fixtures the seed corpora are made from (`fuzz/seed.sh`) are all accepted: the entry
/// points do not refuse what nestor itself reads and writes.
#[test]
fn the_seed_fixtures_are_accepted() {
    let mut seeds: Vec<(&str, PathBuf)> = Vec::new();
    seeds.extend(
        files_in(Path::new("tests/fixtures/movies"))
            .into_iter()
            .map(|p| ("fm2_parse", p)),
    );
    // The traces folder also holds the nestor game's movie: each file goes to its own reader.
    seeds.extend(
        files_in(Path::new("tests/fixtures/traces"))
            .into_iter()
            .map(|p| match p.extension().and_then(|e| e.to_str()) {
                Some("fm2") => ("fm2_parse", p),
                _ => ("trace_read", p),
            }),
    );
    seeds.push(("settings_toml", "config/play.toml".into()));
    seeds.push(("weights_toml", "config/weights/default.toml".into()));
    seeds.push(("addresses_toml", "addresses.toml".into()));
    assert!(seeds.len() >= 5 + 2, "fixtures missing: {seeds:?}");
    for (target, path) in &seeds {
        let entry = TARGETS
            .iter()
            .find(|(t, _)| t == target)
            .expect("a known target")
            .1;
        let data = fs::read(path).expect("a readable fixture");
        let outcome = run(target, entry, path, &data).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome, Outcome::Accepted, "{target} on {}", path.display());
    }
}

/// A blank MMC1 image of Tetris's shape is a well-formed ROM that is not the known dump: the
/// strict check refuses it by name, `--allow-unknown-rom` accepts it; one byte short, both refuse.
#[test]
fn ines_entry_accepts_an_unknown_mmc1_image_only_when_allowed() {
    let mut rom = b"NES\x1A\x02\x02\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec();
    rom.resize(16 + 2 * 16384 + 2 * 8192, 0);
    assert_eq!(fuzz_entries::ines_rom(&rom), Outcome::Accepted);
    let strict = nestor::nes::rom::Rom::from_bytes(LABEL, rom.clone(), false).unwrap_err();
    assert!(strict.to_string().contains("not a known"), "{strict}");
    rom.pop();
    match fuzz_entries::ines_rom(&rom) {
        Outcome::Refused(msg) => assert!(msg.contains("truncated"), "{msg}"),
        Outcome::Accepted => panic!("a truncated ROM was accepted"),
    }
}

/// The structured verify input decodes to a runnable sequence: no edits and two inputs give
/// the real first line plus two frames, which the model steps through.
#[test]
fn fuzzed_trace_decodes_edits_and_inputs() {
    let trace = fuzz_entries::fuzzed_trace(&[0, 0x02, 0, 0x02, 0]);
    assert_eq!(trace.frames.len(), 3);
    assert_eq!(trace.frames[1]["input"], "......L.");
    let report = nestor::trace::verify::verify_frames(LABEL, &trace);
    assert_eq!((report.error, report.frames_checked), (None, 2));
    // One edit: field index 15 (`level`) set to the byte 200.
    let trace = fuzz_entries::fuzzed_trace(&[1, 15, 3, 200]);
    assert_eq!(trace.frames[0]["level"], 200);
}

/// The overflow the `trace_verify` target found panics only where overflow checks are on
/// (`cargo test`, not `--release`); this pins the fix in every profile: counters at u64::MAX
/// stay there instead of wrapping to 0.
#[test]
fn verify_keeps_t_and_frame_at_u64_max() {
    let mut first: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(fuzz_entries::BASE_LINE).expect("the base line is JSON");
    first.insert("t".into(), u64::MAX.into());
    first.insert("frame".into(), u64::MAX.into());
    let mut next = serde_json::Map::new();
    next.insert("input".into(), "........".into());
    next.insert("t".into(), u64::MAX.into());
    next.insert("frame".into(), u64::MAX.into());
    let trace = nestor::trace::Trace {
        header: None,
        frames: vec![first, next],
    };
    let report = nestor::trace::verify::verify_frames(LABEL, &trace);
    assert_eq!(report.error, None);
    assert_eq!(report.divergence, None);
    assert_eq!((report.frames_checked, report.fields_checked), (1, 3));
}
