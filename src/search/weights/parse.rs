//! The weights file format: `[phase.NAME]` tables with `from_level`, `to_level` and every key
//! of `PhaseWeights` (or a `same_as`); the strict reader (0-255 once, no defaults), the writer.

use std::fmt::Write as _;
use std::path::Path;

use super::phases::{Phase, PhaseWeights, Weights, WeightsError, MAX_WEIGHT};
use super::same_as::{self, Sets};
use crate::movegen::profile::BUILT_IN;

/// The keys of a phase table that are not weights.
const RANGE_KEYS: [&str; 2] = ["from_level", "to_level"];

pub(super) fn key_error(
    path: &Path,
    key: impl Into<String>,
    problem: impl Into<String>,
) -> WeightsError {
    WeightsError::Key {
        path: path.to_path_buf(),
        key: key.into(),
        problem: problem.into(),
    }
}

/// Phase names are TOML bare keys in lower case, so they read the same everywhere.
fn good_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

fn level_key(
    table: &mut toml::Table,
    path: &Path,
    phase: &str,
    key: &str,
) -> Result<u8, WeightsError> {
    let full = format!("phase.{phase}.{key}");
    match table.remove(key) {
        None => Err(key_error(
            path,
            full,
            "missing (each phase says which levels it plays)",
        )),
        Some(toml::Value::Integer(n)) => {
            u8::try_from(n).map_err(|_| key_error(path, full, format!("{n} is not a level 0-255")))
        }
        Some(other) => Err(key_error(
            path,
            full,
            format!("expected a level 0-255, got {}", other.type_str()),
        )),
    }
}

fn phase(
    path: &Path,
    name: &str,
    value: toml::Value,
    sets: Sets,
    depth: usize,
) -> Result<Phase, WeightsError> {
    if !good_name(name) {
        return Err(key_error(
            path,
            format!("phase.{name}"),
            "bad phase name: use lower-case letters, digits, `_` and `-`, starting with a letter",
        ));
    }
    let toml::Value::Table(mut table) = value else {
        return Err(key_error(
            path,
            format!("phase.{name}"),
            "must be a table ([phase.NAME])",
        ));
    };
    let from_level = level_key(&mut table, path, name, RANGE_KEYS[0])?;
    let to_level = level_key(&mut table, path, name, RANGE_KEYS[1])?;
    if to_level < from_level {
        return Err(key_error(
            path,
            format!("phase.{name}.to_level"),
            format!("{to_level} is below from_level {from_level}"),
        ));
    }
    if let Some(reference) = table.remove("same_as") {
        let weights = same_as::resolve(path, name, &reference, &table, sets, depth)?;
        return Ok(Phase {
            name: name.to_string(),
            from_level,
            to_level,
            weights,
        });
    }
    let weights: PhaseWeights =
        toml::Value::Table(table)
            .try_into()
            .map_err(|source| WeightsError::PhaseKeys {
                path: path.to_path_buf(),
                phase: name.to_string(),
                source: crate::io::TomlError::of_value(&source),
            })?;
    check(&weights, path, name)?;
    Ok(Phase {
        name: name.to_string(),
        from_level,
        to_level,
        weights,
    })
}

/// Rejects non-finite floats, weights beyond [`MAX_WEIGHT`] and row counts beyond the 20 visible rows.
fn check(w: &PhaseWeights, path: &Path, phase: &str) -> Result<(), WeightsError> {
    if let Some(&(key, value)) = w.floats().iter().find(|(_, v)| !v.is_finite()) {
        return Err(WeightsError::NotFinite {
            path: path.to_path_buf(),
            key: format!("phase.{phase}.{key}"),
            value,
        });
    }
    if let Some(&(key, value)) = w.floats().iter().find(|(_, v)| v.abs() > MAX_WEIGHT) {
        return Err(WeightsError::TooLarge {
            path: path.to_path_buf(),
            key: format!("phase.{phase}.{key}"),
            value,
        });
    }
    if let Some(learned) = &w.learned {
        let bad = learned
            .all()
            .find(|v| !v.is_finite() || v.abs() > MAX_WEIGHT);
        if let Some(value) = bad {
            let key = format!("phase.{phase}.learned");
            return Err(if value.is_finite() {
                WeightsError::TooLarge {
                    path: path.to_path_buf(),
                    key,
                    value,
                }
            } else {
                WeightsError::NotFinite {
                    path: path.to_path_buf(),
                    key,
                    value,
                }
            });
        }
    }
    for (key, value) in [("top_rows", w.top_rows), ("ceiling_rows", w.ceiling_rows)] {
        if value > 20 {
            return Err(WeightsError::OutOfRange {
                path: path.to_path_buf(),
                key: format!("phase.{phase}.{key}"),
                value: value.into(),
                reason: "the field has 20 visible rows",
            });
        }
    }
    Ok(())
}

/// Phases sorted by level must cover 0-255, each level once.
fn check_coverage(phases: &[Phase], path: &Path) -> Result<(), WeightsError> {
    let mut next: u16 = 0;
    let mut previous: Option<&Phase> = None;
    for p in phases {
        let from = u16::from(p.from_level);
        if from > next {
            return Err(WeightsError::Gap {
                path: path.to_path_buf(),
                from: next,
                to: from - 1,
                after: match previous {
                    Some(q) => format!("between [phase.{}] and [phase.{}]", q.name, p.name),
                    None => format!("before [phase.{}]", p.name),
                },
            });
        }
        if let (true, Some(q)) = (from < next, previous) {
            return Err(WeightsError::Overlap {
                path: path.to_path_buf(),
                first: q.name.clone(),
                second: p.name.clone(),
                level: p.from_level,
            });
        }
        next = u16::from(p.to_level) + 1;
        previous = Some(p);
    }
    match previous {
        Some(q) if next <= 255 => Err(WeightsError::Gap {
            path: path.to_path_buf(),
            from: next,
            to: 255,
            after: format!("after [phase.{}]", q.name),
        }),
        _ => Ok(()),
    }
}

pub(super) fn parse(text: &str, path: &Path) -> Result<Weights, WeightsError> {
    parse_in(text, path, &BUILT_IN, 0)
}

/// `parse` with the sets a `same_as` may name, and how many `same_as` led to this text.
pub(super) fn parse_in(
    text: &str,
    path: &Path,
    sets: Sets,
    depth: usize,
) -> Result<Weights, WeightsError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| WeightsError::Parse {
        path: path.to_path_buf(),
        source: crate::io::TomlError::new(&e, text),
    })?;
    let mut phases = Vec::new();
    for (key, value) in table {
        if key != "phase" {
            return Err(key_error(
                path,
                key,
                "unknown key: a weights file holds only [phase.NAME] tables",
            ));
        }
        let toml::Value::Table(entries) = value else {
            return Err(key_error(path, "phase", "must hold [phase.NAME] tables"));
        };
        for (name, value) in entries {
            phases.push(phase(path, &name, value, sets, depth)?);
        }
    }
    if phases.is_empty() {
        return Err(key_error(
            path,
            "phase",
            "no phases: the file needs [phase.NAME] tables covering levels 0-255",
        ));
    }
    phases.sort_by_key(|p| (p.from_level, p.to_level));
    check_coverage(&phases, path)?;
    Ok(Weights { phases })
}

pub(super) fn write(weights: &Weights) -> String {
    let mut out = String::new();
    for p in &weights.phases {
        // The learned table is written under its own `[phase.NAME.learned]` header: the
        // serializer would head it `[learned]`, at the top of the file.
        let plain = PhaseWeights {
            learned: None,
            ..p.weights.clone()
        };
        let body = toml::to_string(&plain).unwrap_or_default();
        let _ = write!(
            out,
            "[phase.{}]\nfrom_level = {}\nto_level = {}\n{body}\n",
            p.name, p.from_level, p.to_level
        );
        if let Some(learned) = &p.weights.learned {
            let table = toml::to_string(learned).unwrap_or_default();
            let _ = write!(out, "[phase.{}.learned]\n{table}\n", p.name);
        }
    }
    out
}
