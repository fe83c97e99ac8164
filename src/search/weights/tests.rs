//! Tests of the weights file: the default file, phases (names, level coverage), missing and
//! unknown keys, bad values: every error names the file and the key.

use super::*;
use std::path::PathBuf;

fn default_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/default.toml")
}

/// A valid two-phase file, with `edit` applied to its text.
fn two_phases(edit: impl Fn(String) -> String) -> String {
    edit(Weights::default().to_toml())
}

/// `text` with the first line that sets `key` replaced by `line` (the value in the default file
/// does not matter to these tests).
fn set_first(text: &str, key: &str, line: &str) -> String {
    let prefix = format!("{key} = ");
    let start = text.find(&prefix).expect("the key is in the file");
    let end = start + text[start..].find('\n').expect("a whole line") + 1;
    format!("{}{line}{}", &text[..start], &text[end..])
}

fn err_of(text: &str) -> (WeightsError, String) {
    let err = Weights::from_toml(text, Path::new("w.toml")).expect_err("refused");
    let msg = err.to_string();
    assert!(msg.contains("w.toml"), "names the file: {msg}");
    (err, msg)
}

#[test]
fn default_file_equals_default_set() {
    let loaded = Weights::load(&default_file()).expect("config/weights/default.toml loads");
    assert_eq!(loaded, Weights::default_set());
}

#[test]
fn written_weights_load_back_equal() {
    let w = Weights::default();
    assert_eq!(Weights::from_toml(&w.to_toml(), Path::new("x")).unwrap(), w);
}

#[test]
fn phases_play_their_levels() {
    let w = Weights::default();
    assert_eq!(w.phase(0).name, "score");
    assert_eq!(w.phase(28).name, "score");
    assert_eq!(w.phase(29).name, "killscreen");
    assert_eq!(w.phase(255).name, "killscreen");
    assert!(w.at(19).tetris_rules && !w.at(29).tetris_rules);
}

#[test]
fn a_missing_key_names_the_file_the_phase_and_the_key() {
    // Issue 10: a missing key used to be filled from the built-in set.
    let text = two_phases(|t| set_first(&t, "pile_height", ""));
    assert_ne!(text, Weights::default().to_toml(), "the key was removed");
    let (err, msg) = err_of(&text);
    assert!(matches!(err, WeightsError::PhaseKeys { .. }), "{err:?}");
    assert!(
        msg.contains("pile_height") && msg.contains("[phase."),
        "{msg}"
    );
}

#[test]
fn an_empty_file_is_refused() {
    let (_, msg) = err_of("");
    assert!(msg.contains("no phases"), "{msg}");
    let (_, msg) = err_of("# only a comment\n");
    assert!(msg.contains("no phases"), "{msg}");
}

#[test]
fn a_flat_file_without_phases_is_refused_naming_the_key() {
    let (_, msg) = err_of("pile_height = 1.5\n");
    assert!(
        msg.contains("`pile_height`") && msg.contains("[phase.NAME]"),
        "{msg}"
    );
}

#[test]
fn bad_phase_names_are_refused() {
    for bad in ["\"Kill Screen\"", "\"29\"", "\"\""] {
        let text = two_phases(|t| t.replace("[phase.killscreen]", &format!("[phase.{bad}]")));
        let (_, msg) = err_of(&text);
        assert!(msg.contains("bad phase name"), "{bad}: {msg}");
    }
}

#[test]
fn overlapping_ranges_name_both_phases() {
    let text = two_phases(|t| t.replace("from_level = 29", "from_level = 25"));
    let (err, msg) = err_of(&text);
    assert!(
        matches!(err, WeightsError::Overlap { level: 25, .. }),
        "{err:?}"
    );
    assert!(msg.contains("score") && msg.contains("killscreen"), "{msg}");
}

#[test]
fn gaps_say_which_levels() {
    for (was, now, gap) in [
        ("from_level = 29", "from_level = 31", (29, 30)),
        ("to_level = 255", "to_level = 154", (155, 255)),
        ("from_level = 0", "from_level = 1", (0, 0)),
    ] {
        let text = two_phases(|t| t.replace(was, now));
        let (err, msg) = err_of(&text);
        assert!(
            matches!(err, WeightsError::Gap { from, to, .. } if (from, to) == gap),
            "{err:?}"
        );
        if gap == (29, 30) {
            assert!(msg.contains("29-30"), "{msg}");
        }
    }
}

#[test]
fn bad_level_keys_are_named() {
    for (from, to, key) in [
        ("from_level = 0\n", "", "phase.score.from_level"),
        (
            "from_level = 0",
            "from_level = 300",
            "phase.score.from_level",
        ),
        (
            "from_level = 0",
            "from_level = \"0\"",
            "phase.score.from_level",
        ),
        ("to_level = 28", "to_level = -1", "phase.score.to_level"),
    ] {
        let text = two_phases(|t| t.replacen(from, to, 1));
        let (_, msg) = err_of(&text);
        assert!(msg.contains(key), "{to}: {msg}");
    }
    let text = two_phases(|t| {
        t.replace(
            "from_level = 29\nto_level = 255",
            "from_level = 29\nto_level = 28",
        )
    });
    let (_, msg) = err_of(&text);
    assert!(msg.contains("phase.killscreen.to_level"), "{msg}");
}

#[test]
fn unknown_key_names_the_file_and_the_key() {
    let text = two_phases(|t| t.replacen("pile_height", "pile_hieght", 1));
    let (_, msg) = err_of(&text);
    assert!(msg.contains("pile_hieght"), "{msg}");
}

#[test]
fn missing_file_names_the_file() {
    let err = Weights::load(Path::new("/nonexistent/w.toml")).expect_err("no such file");
    assert!(matches!(err, WeightsError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/w.toml"), "{err}");
}

#[test]
fn bad_toml_names_the_file() {
    let (err, _) = err_of("pile_height = = 2");
    assert!(matches!(err, WeightsError::Parse { .. }));
}

#[test]
fn non_finite_number_names_the_file_and_the_key() {
    for value in ["nan", "inf", "-inf"] {
        let text = two_phases(|t| set_first(&t, "well_cells", &format!("well_cells = {value}\n")));
        let (err, msg) = err_of(&text);
        assert!(matches!(err, WeightsError::NotFinite { .. }), "{err:?}");
        assert!(msg.contains("phase.score.well_cells"), "{msg}");
    }
}

#[test]
fn row_counts_beyond_the_field_are_rejected() {
    let text = two_phases(|t| t.replacen("top_rows = 7", "top_rows = 21", 1));
    let (err, msg) = err_of(&text);
    assert!(matches!(err, WeightsError::OutOfRange { .. }));
    assert!(msg.contains("phase.score.top_rows"), "{msg}");
}

#[test]
fn float_keys_are_all_settable() {
    let mut w = PhaseWeights::meatfighter();
    for (key, _) in PhaseWeights::meatfighter().floats() {
        *w.float_mut(key).expect(key) = 42.0;
    }
    assert!(w.floats().iter().all(|&(_, v)| v == 42.0));
    assert!(w.float_mut("top_rows").is_none());
}

#[test]
fn the_tetris_everywhere_file_is_the_2018_set_at_every_level() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/tetris-everywhere.toml");
    let w = Weights::load(&path).expect("loads");
    let mut expected = Weights::single(PhaseWeights::meatfighter());
    expected.phases[0].name = "all".into();
    assert_eq!(w, expected);
}

#[test]
fn every_built_in_set_loads_from_its_file() {
    for (name, _) in BUILT_IN {
        let file =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("config/weights/{name}.toml"));
        let on_disk = Weights::load(&file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Weights::built_in(name).unwrap(), on_disk, "{name}");
    }
    assert_eq!(Weights::built_in("default").unwrap(), Weights::default());
    let e = Weights::built_in("fast").unwrap_err().to_string();
    assert!(
        e.contains("no built-in set \"fast\"") && e.contains("score-2018"),
        "{e}"
    );
}

#[test]
fn a_choice_is_a_built_in_name_or_a_file() {
    assert_eq!(
        WeightsChoice::parse("score-2018").unwrap(),
        WeightsChoice::BuiltIn("score-2018".into())
    );
    assert_eq!(
        WeightsChoice::parse("mine.toml").unwrap(),
        WeightsChoice::File("mine.toml".into())
    );
    assert_eq!(
        WeightsChoice::parse("sets/mine").unwrap(),
        WeightsChoice::File("sets/mine".into())
    );
    let e = WeightsChoice::parse("fast").unwrap_err();
    assert!(
        e.contains("\"fast\" is neither a built-in weight set (default, "),
        "{e}"
    );
    // A relative file is taken from the profile's folder, an absolute one as it is.
    let folder = Path::new("/p");
    assert_eq!(
        WeightsChoice::File("w.toml".into()).rebased(folder),
        WeightsChoice::File("/p/w.toml".into())
    );
    assert_eq!(
        WeightsChoice::File("/abs/w.toml".into()).rebased(folder),
        WeightsChoice::File("/abs/w.toml".into())
    );
    assert_eq!(
        WeightsChoice::BuiltIn("default".into()).rebased(folder),
        WeightsChoice::BuiltIn("default".into())
    );
    assert_eq!(WeightsChoice::Default.to_string(), "built-in default");
}

/// A profile names its weight set with the optional `weights` key.
#[test]
fn a_profile_pairs_a_weight_set() {
    use crate::movegen::profile::{Profile, PRESETS};
    const BASE: &str = "timeline = \"X...\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 0\n";
    let p = Profile::from_toml(BASE, "p.toml", "p").unwrap();
    assert_eq!(p.weights, WeightsChoice::Default, "no key: the default set");
    let with = |v: &str| Profile::from_toml(&format!("{BASE}weights = {v}\n"), "p.toml", "p");
    assert_eq!(
        with("\"score-2018\"").unwrap().weights,
        WeightsChoice::BuiltIn("score-2018".into())
    );
    for (value, want) in [
        (
            "\"fast\"",
            "profile p.toml: `weights`: \"fast\" is neither a built-in",
        ),
        (
            "3",
            "profile p.toml: `weights`: expected a weight set's name or a file, got integer",
        ),
    ] {
        let e = with(value).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
    // A file profile's relative weights file is next to it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.toml");
    let text = format!("{BASE}weights = \"sets/w.toml\"\n");
    let p = Profile::from_file_text(&text, &path).unwrap();
    assert_eq!(
        p.weights,
        WeightsChoice::File(dir.path().join("sets/w.toml"))
    );
    // The 10, 12 and 15 Hz presets play the sets made for them; every preset's set loads.
    for hz in ["10hz", "12hz", "15hz"] {
        assert_eq!(
            Profile::preset(hz).unwrap().weights,
            WeightsChoice::BuiltIn(hz.into())
        );
    }
    for (name, _) in PRESETS {
        let p = Profile::preset(name).unwrap();
        p.weights.load().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn a_weight_beyond_the_bound_names_the_file_and_the_key() {
    let text = two_phases(|t| set_first(&t, "well_cells", "well_cells = -1e308\n"));
    let (err, msg) = err_of(&text);
    assert!(matches!(err, WeightsError::TooLarge { .. }), "{err:?}");
    assert!(
        msg.contains("phase.score.well_cells") && msg.contains("-1e308"),
        "{msg}"
    );
}
