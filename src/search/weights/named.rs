//! Weight sets by name (the files of `config/weights/`, built in) loaded, and the set a
//! player profile's `weights` key chose (`movegen::profile::choice`) loaded.

use std::path::PathBuf;

use super::phases::{Weights, WeightsError};
use crate::movegen::profile::{built_in_names, WeightsChoice, BUILT_IN};

impl WeightsChoice {
    /// Loads the set; a file's errors name the file, the problem and the key.
    pub fn load(&self) -> Result<Weights, WeightsError> {
        match self {
            WeightsChoice::Default => Ok(Weights::default_set()),
            WeightsChoice::BuiltIn(name) => Weights::built_in(name),
            WeightsChoice::File(path) => Weights::load(path),
        }
    }
}

impl Weights {
    /// A built-in set by name (`config/weights/<name>.toml`); `default` is `Weights::default()`.
    pub fn built_in(name: &str) -> Result<Weights, WeightsError> {
        let label = PathBuf::from(format!("config/weights/{name}.toml"));
        match BUILT_IN.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => Weights::from_toml(text, &label),
            None => Err(WeightsError::Key {
                path: label,
                key: "weights".into(),
                problem: format!(
                    "no built-in set {name:?} (the sets are {})",
                    built_in_names().join(", ")
                ),
            }),
        }
    }
}
