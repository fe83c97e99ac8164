//! A phase that plays another set's phase: `same_as = { set = "NAME", phase = "NAME" }` in a
//! `[phase.NAME]` table, so one phase is written once and named by the sets that share it.

use std::path::{Path, PathBuf};

use super::parse::{key_error, parse_in};
use super::phases::{PhaseWeights, WeightsError};

/// The weight sets a `same_as` may name, by name and file text.
pub(super) type Sets<'a> = &'a [(&'a str, &'a str)];

/// The weights of the phase `reference` names; `rest` is what else its table holds (nothing
/// is allowed), `depth` how many `same_as` were followed to reach this file.
pub(super) fn resolve(
    path: &Path,
    phase: &str,
    reference: &toml::Value,
    rest: &toml::Table,
    sets: Sets,
    depth: usize,
) -> Result<PhaseWeights, WeightsError> {
    let key = format!("phase.{phase}.same_as");
    if let Some(other) = rest.keys().next() {
        return Err(key_error(
            path,
            format!("phase.{phase}.{other}"),
            "a phase with `same_as` plays the phase it names: it holds only from_level, \
             to_level and same_as",
        ));
    }
    let Some((set, wanted)) = target(reference) else {
        return Err(key_error(
            path,
            key,
            "expected { set = \"NAME\", phase = \"NAME\" }: a built-in weight set and one of its \
             phases",
        ));
    };
    let names = || sets.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
    let Some((_, text)) = sets.iter().find(|(n, _)| *n == set) else {
        return Err(key_error(
            path,
            key,
            format!("no built-in set {set:?} (the sets are {})", names()),
        ));
    };
    // Each step names another set, so a chain longer than the list of sets has looped.
    if depth >= sets.len() {
        return Err(key_error(
            path,
            key,
            format!("the sets' same_as keys name each other in a loop (through {set:?})"),
        ));
    }
    let label = PathBuf::from(format!("config/weights/{set}.toml"));
    let weights = parse_in(text, &label, sets, depth + 1)?;
    let known = weights
        .phases
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    match weights.phases.iter().find(|p| p.name == wanted) {
        Some(p) => Ok(p.weights.clone()),
        None => Err(key_error(
            path,
            key,
            format!("the set {set:?} has no phase {wanted:?} (its phases are {known})"),
        )),
    }
}

/// `{ set = "A", phase = "B" }` as ("A", "B"); anything else is `None`.
fn target(value: &toml::Value) -> Option<(&str, &str)> {
    let table = value.as_table()?;
    if table.len() != 2 {
        return None;
    }
    Some((table.get("set")?.as_str()?, table.get("phase")?.as_str()?))
}
