//! Tests of `same_as`: a phase read from another set plays that phase's weights at its own
//! levels; a bad reference, an unknown set or phase and a loop are refused by name.

use std::path::Path;

use super::parse::parse_in;
use super::*;

/// The default set's killscreen phase (levels 29-255) as file text.
fn killscreen_text() -> String {
    let text = Weights::default().to_toml();
    let at = text
        .find("[phase.killscreen]")
        .expect("the default has a killscreen");
    text[at..].to_string()
}

/// A set whose levels 0-28 are `same_as` the phase `phase` of the set `set`.
fn naming(set: &str, phase: &str) -> String {
    format!(
        "[phase.early]\nfrom_level = 0\nto_level = 28\nsame_as = {{ set = \"{set}\", phase = \"{phase}\" }}\n\n{}",
        killscreen_text()
    )
}

fn refused(text: &str, sets: &[(&str, &str)]) -> String {
    let err = parse_in(text, Path::new("w.toml"), sets, 0).expect_err("refused");
    err.to_string()
}

#[test]
fn the_slow_sets_play_the_survival_sets_killscreen_from_19_to_28() {
    let survival = Weights::built_in("survival").expect("built in");
    for name in ["10hz", "12hz", "15hz"] {
        let set = Weights::built_in(name).expect("built in");
        let phase = set.phase(19);
        assert_eq!(
            (phase.name.as_str(), phase.to_level),
            ("survival", 28),
            "{name}"
        );
        assert_eq!(set.phase(28).name, "survival", "{name}");
        assert_eq!(phase.weights, survival.at(29).clone(), "{name}");
        assert_ne!(
            set.at(18),
            &phase.weights,
            "{name}: level 18 is the score phase"
        );
    }
}

#[test]
fn a_named_phase_plays_at_the_naming_sets_levels_and_writes_out_whole() {
    let base = Weights::default().to_toml();
    let sets = [("base", base.as_str())];
    let w = parse_in(&naming("base", "score"), Path::new("w.toml"), &sets, 0).expect("loads");
    let default = Weights::default();
    assert_eq!(w.phase(0).name, "early");
    assert_eq!(w.at(10), default.at(10), "the score phase's weights");
    assert_eq!(w.at(29), default.at(29));
    // Written out, the phase holds its numbers, and the file reads the same without the sets.
    let text = w.to_toml();
    assert!(!text.contains("same_as"), "{text}");
    assert_eq!(Weights::from_toml(&text, Path::new("x")).expect("loads"), w);
}

#[test]
fn a_chain_of_sets_is_followed_and_a_loop_is_refused() {
    let base = Weights::default().to_toml();
    let middle = naming("base", "score");
    let sets = [("base", base.as_str()), ("middle", middle.as_str())];
    let w = parse_in(&naming("middle", "early"), Path::new("w.toml"), &sets, 0).expect("loads");
    assert_eq!(w.at(0), Weights::default().at(0));

    let a = naming("b", "early");
    let b = naming("a", "early");
    let looped = [("a", a.as_str()), ("b", b.as_str())];
    let msg = refused(&naming("a", "early"), &looped);
    assert!(msg.contains("loop") && msg.contains("same_as"), "{msg}");
}

#[test]
fn an_unknown_set_or_phase_is_refused_with_what_there_is() {
    let base = Weights::default().to_toml();
    let sets = [("base", base.as_str())];
    let msg = refused(&naming("nope", "score"), &sets);
    assert!(
        msg.contains("w.toml") && msg.contains("phase.early.same_as"),
        "{msg}"
    );
    assert!(
        msg.contains("\"nope\"") && msg.contains("the sets are base"),
        "{msg}"
    );
    let msg = refused(&naming("base", "nope"), &sets);
    assert!(
        msg.contains("no phase \"nope\"") && msg.contains("score, killscreen"),
        "{msg}"
    );
}

#[test]
fn a_same_as_phase_holds_nothing_else_and_names_a_set_and_a_phase() {
    let base = Weights::default().to_toml();
    let sets = [("base", base.as_str())];
    let extra =
        naming("base", "score").replace("to_level = 28\n", "to_level = 28\npile_height = 1.0\n");
    let msg = refused(&extra, &sets);
    assert!(
        msg.contains("phase.early.pile_height") && msg.contains("holds only"),
        "{msg}"
    );
    for bad in [
        "\"base.score\"",
        "{ set = \"base\" }",
        "{ set = \"base\", phase = 3 }",
    ] {
        let text = naming("base", "score").replace("{ set = \"base\", phase = \"score\" }", bad);
        let msg = refused(&text, &sets);
        assert!(
            msg.contains("phase.early.same_as") && msg.contains("expected"),
            "{bad}: {msg}"
        );
    }
}

#[test]
fn an_error_in_the_named_set_names_that_set() {
    let broken = Weights::default()
        .to_toml()
        .replace("pile_height = ", "pile_heigth = ");
    let sets = [("base", broken.as_str())];
    let msg = refused(&naming("base", "score"), &sets);
    assert!(
        msg.contains("config/weights/base.toml") && msg.contains("pile_heigth"),
        "{msg}"
    );
}
