//! The evaluation's tunable numbers by phase of the game (`[phase.NAME]` tables, each covering
//! a range of levels with its own weights and rule switches), loaded strictly from TOML.

use std::path::Path;

pub use crate::movegen::profile::{built_in_names, WeightsChoice, BUILT_IN};

mod defaults;
pub mod learned;
mod named;
mod parse;
mod phases;
mod same_as;

pub use learned::LearnedValue;
pub use phases::{Phase, PhaseWeights, Weights, WeightsError, MAX_WEIGHT};
#[cfg(test)]
mod same_as_tests;
#[cfg(test)]
mod tests;

impl Weights {
    /// The built-in set, the same as `config/weights/default.toml`.
    pub fn default_set() -> Weights {
        Weights::default()
    }

    /// One phase over every level (for tests and experiments).
    pub fn single(weights: PhaseWeights) -> Weights {
        Weights {
            phases: vec![Phase {
                name: "all".into(),
                from_level: 0,
                to_level: 255,
                weights,
            }],
        }
    }

    /// Reads and checks a TOML weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = crate::io::read_toml_text(path).map_err(|source| WeightsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Weights::from_toml(&text, path)
    }

    /// Parses and checks TOML text; `path` only labels the errors.
    pub fn from_toml(text: &str, path: &Path) -> Result<Weights, WeightsError> {
        parse::parse(text, path)
    }

    /// The file text of these weights (loads back equal).
    pub fn to_toml(&self) -> String {
        parse::write(self)
    }

    /// The phase that plays `level`.
    pub fn phase(&self, level: u8) -> &Phase {
        self.phases
            .iter()
            .find(|p| (p.from_level..=p.to_level).contains(&level))
            .unwrap_or(&self.phases[0])
    }

    /// The weights that play `level`.
    pub fn at(&self, level: u8) -> &PhaseWeights {
        &self.phase(level).weights
    }
}
