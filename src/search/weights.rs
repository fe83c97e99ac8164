//! The evaluation's tunable numbers: the 17 feature weights of the 2018 level-19 bot plus the
//! parameters of its survival rules, loaded from TOML (`config/weights/*.toml`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Weights per feature (lower total is better) and rule parameters. Missing keys take the
/// default; unknown keys are an error, so a typo cannot silently fall back to a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    pub lines_cleared: f64,
    pub lock_height: f64,
    pub well_cells: f64,
    pub deep_wells: f64,
    pub column_holes: f64,
    pub weighted_column_holes: f64,
    pub column_hole_depths: f64,
    pub min_column_hole_depth: f64,
    pub max_column_hole_depth: f64,
    pub column_transitions: f64,
    pub row_transitions: f64,
    pub column_heights: f64,
    pub pile_height: f64,
    pub column_height_spread: f64,
    pub solid_cells: f64,
    pub weighted_solid_cells: f64,
    pub column_height_variance: f64,
    /// Subtracted when the current piece clears four lines; must exceed `tetris_next_bonus`.
    pub tetris_now_bonus: f64,
    /// Subtracted when the next piece clears four lines; must dwarf every feature sum.
    pub tetris_next_bonus: f64,
    /// How many rows from the top (row 0) the ceiling penalty covers.
    pub top_rows: u32,
    /// Penalty per filled cell in row r < `top_rows`, times (`top_rows` − r).
    pub top_rows_penalty: f64,
    /// Run the sealed-ceiling flood fill when a filled cell lies in rows 0..`ceiling_rows`.
    pub ceiling_rows: u32,
}

impl Default for Weights {
    /// meatfighter's published level-19 set (2018) and the rule constants of its evaluator.
    /// The weights keep every published digit (beyond f64's precision) so they read the same
    /// as the source and as `config/weights/default.toml`.
    #[allow(clippy::excessive_precision)]
    fn default() -> Weights {
        Weights {
            lines_cleared: 0.286127095297893900,
            lock_height: 1.701233676909959200,
            well_cells: 0.711304230768307700,
            deep_wells: 0.910665415998680400,
            column_holes: 1.879338064244357000,
            weighted_column_holes: 2.168463848297177000,
            column_hole_depths: -0.265587111961757270,
            min_column_hole_depth: 0.289886584949610500,
            max_column_hole_depth: 0.362361055261181730,
            column_transitions: -0.028668795795469625,
            row_transitions: 0.874179981113233100,
            column_heights: -0.507409683144361900,
            pile_height: -2.148676202831281000,
            column_height_spread: -1.187558540281141700,
            solid_cells: -2.645656132241128000,
            weighted_solid_cells: 0.242043416268706620,
            column_height_variance: 0.287838126164431440,
            tetris_now_bonus: 2.0e9,
            tetris_next_bonus: 1.0e9,
            top_rows: 7,
            top_rows_penalty: 1.0,
            ceiling_rows: 2,
        }
    }
}

/// Why a weights file could not be used; every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    #[error("cannot read weights file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Bad TOML, a wrong type or an unknown key (the TOML message names the key and line).
    #[error("bad weights file {path}: {source}")]
    Parse {
        path: PathBuf,
        source: toml::de::Error,
    },
    #[error("weights file {path}: `{key}` must be a finite number, got {value}")]
    NotFinite {
        path: PathBuf,
        key: &'static str,
        value: f64,
    },
    #[error("weights file {path}: `{key}` = {value} is out of range: {reason}")]
    OutOfRange {
        path: PathBuf,
        key: &'static str,
        value: f64,
        reason: &'static str,
    },
}

impl Weights {
    /// The built-in set, the same as `config/weights/default.toml`.
    pub fn default_set() -> Weights {
        Weights::default()
    }

    /// Reads and checks a TOML weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Weights::from_toml(&text, path)
    }

    /// Parses and checks TOML text; `path` only labels the errors.
    pub fn from_toml(text: &str, path: &Path) -> Result<Weights, WeightsError> {
        let weights: Weights = toml::from_str(text).map_err(|source| WeightsError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        weights.check(path)?;
        Ok(weights)
    }

    /// Every float by its TOML key, in file order.
    pub fn floats(&self) -> [(&'static str, f64); 20] {
        [
            ("lines_cleared", self.lines_cleared),
            ("lock_height", self.lock_height),
            ("well_cells", self.well_cells),
            ("deep_wells", self.deep_wells),
            ("column_holes", self.column_holes),
            ("weighted_column_holes", self.weighted_column_holes),
            ("column_hole_depths", self.column_hole_depths),
            ("min_column_hole_depth", self.min_column_hole_depth),
            ("max_column_hole_depth", self.max_column_hole_depth),
            ("column_transitions", self.column_transitions),
            ("row_transitions", self.row_transitions),
            ("column_heights", self.column_heights),
            ("pile_height", self.pile_height),
            ("column_height_spread", self.column_height_spread),
            ("solid_cells", self.solid_cells),
            ("weighted_solid_cells", self.weighted_solid_cells),
            ("column_height_variance", self.column_height_variance),
            ("tetris_now_bonus", self.tetris_now_bonus),
            ("tetris_next_bonus", self.tetris_next_bonus),
            ("top_rows_penalty", self.top_rows_penalty),
        ]
    }

    /// Rejects non-finite floats and row counts beyond the 20 visible rows.
    fn check(&self, path: &Path) -> Result<(), WeightsError> {
        if let Some(&(key, value)) = self.floats().iter().find(|(_, v)| !v.is_finite()) {
            return Err(WeightsError::NotFinite {
                path: path.to_path_buf(),
                key,
                value,
            });
        }
        for (key, value) in [
            ("top_rows", self.top_rows),
            ("ceiling_rows", self.ceiling_rows),
        ] {
            if value > 20 {
                return Err(WeightsError::OutOfRange {
                    path: path.to_path_buf(),
                    key,
                    value: value.into(),
                    reason: "the field has 20 visible rows",
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_file() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("config/weights/default.toml")
    }

    #[test]
    fn default_file_equals_default_set() {
        let loaded = Weights::load(&default_file()).expect("config/weights/default.toml loads");
        assert_eq!(loaded, Weights::default_set());
    }

    #[test]
    fn missing_keys_take_defaults() {
        let w = Weights::from_toml("pile_height = 1.5\n", Path::new("t.toml")).expect("parses");
        assert_eq!(w.pile_height, 1.5);
        assert_eq!(w.lock_height, Weights::default().lock_height);
    }

    #[test]
    fn missing_file_names_the_file() {
        let err = Weights::load(Path::new("/nonexistent/w.toml")).expect_err("no such file");
        assert!(matches!(err, WeightsError::Io { .. }));
        assert!(err.to_string().contains("/nonexistent/w.toml"), "{err}");
    }

    #[test]
    fn bad_toml_names_the_file() {
        let err = Weights::from_toml("pile_height = = 2", Path::new("bad.toml")).expect_err("bad");
        assert!(matches!(err, WeightsError::Parse { .. }));
        assert!(err.to_string().contains("bad.toml"), "{err}");
    }

    #[test]
    fn unknown_key_names_the_file_and_the_key() {
        let err =
            Weights::from_toml("pile_hieght = 2.0", Path::new("typo.toml")).expect_err("typo");
        let msg = err.to_string();
        assert!(matches!(err, WeightsError::Parse { .. }));
        assert!(
            msg.contains("typo.toml") && msg.contains("pile_hieght"),
            "{msg}"
        );
    }

    #[test]
    fn non_finite_number_names_the_file_and_the_key() {
        for text in ["well_cells = nan", "well_cells = inf", "well_cells = -inf"] {
            let err = Weights::from_toml(text, Path::new("nan.toml")).expect_err(text);
            let msg = err.to_string();
            assert!(matches!(
                err,
                WeightsError::NotFinite {
                    key: "well_cells",
                    ..
                }
            ));
            assert!(
                msg.contains("nan.toml") && msg.contains("well_cells"),
                "{msg}"
            );
        }
    }

    #[test]
    fn row_counts_beyond_the_field_are_rejected() {
        let err = Weights::from_toml("top_rows = 21", Path::new("r.toml")).expect_err("21 rows");
        assert!(matches!(
            err,
            WeightsError::OutOfRange {
                key: "top_rows",
                ..
            }
        ));
        assert!(err.to_string().contains("r.toml"));
    }
}
