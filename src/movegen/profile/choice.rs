//! The weight set a player profile names with its `weights` key: a built-in set or a weights
//! file, read and rebased here; `search::weights` loads it (profiles sit below the planner).

use std::fmt;
use std::path::{Path, PathBuf};

/// The built-in weight sets by name, each the text of `config/weights/<name>.toml`.
pub const BUILT_IN: [(&str, &str); 7] = [
    (
        "default",
        include_str!("../../../config/weights/default.toml"),
    ),
    (
        "score-2018",
        include_str!("../../../config/weights/score-2018.toml"),
    ),
    (
        "tetris-everywhere",
        include_str!("../../../config/weights/tetris-everywhere.toml"),
    ),
    // The score phase tuned under the 10 and 12 Hz profiles (benches/README.md, "Grid"); the
    // 12 and 15 Hz sets' killscreen phases learned under their profiles (`nestor learn`).
    ("10hz", include_str!("../../../config/weights/10hz.toml")),
    ("12hz", include_str!("../../../config/weights/12hz.toml")),
    ("15hz", include_str!("../../../config/weights/15hz.toml")),
    // The 12 Hz set with its hand-chosen killscreen phase, as `das` plays it.
    (
        "survival",
        include_str!("../../../config/weights/survival.toml"),
    ),
];

/// The built-in set names, in `BUILT_IN` order.
pub fn built_in_names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|(n, _)| *n).collect()
}

/// The weight set a profile plays with.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum WeightsChoice {
    /// The built-in default set (a profile without a `weights` key).
    #[default]
    Default,
    /// A built-in set by name (`config/weights/<name>.toml`).
    BuiltIn(String),
    /// A weights file (a profile file's relative path is taken from the profile's folder).
    File(PathBuf),
}

impl WeightsChoice {
    /// Reads a profile's `weights` value: a path when spelt with a `/` or ending in `.toml`,
    /// else a built-in name (the error lists the names).
    pub fn parse(value: &str) -> Result<WeightsChoice, String> {
        if value.contains('/') || value.ends_with(".toml") {
            return Ok(WeightsChoice::File(PathBuf::from(value)));
        }
        if value == "default" {
            return Ok(WeightsChoice::Default);
        }
        if BUILT_IN.iter().any(|(n, _)| *n == value) {
            return Ok(WeightsChoice::BuiltIn(value.to_string()));
        }
        Err(format!(
            "{value:?} is neither a built-in weight set ({}) nor a file (spell a file with a `/` \
             or ending in `.toml`)",
            built_in_names().join(", ")
        ))
    }

    /// A relative file taken from `folder` (a profile file's folder); names are unchanged.
    pub fn rebased(self, folder: &Path) -> WeightsChoice {
        match self {
            WeightsChoice::File(p) if p.is_relative() => WeightsChoice::File(folder.join(p)),
            other => other,
        }
    }
}

impl fmt::Display for WeightsChoice {
    /// `built-in default`, `built-in score-2018`, or the file's path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsChoice::Default => f.write_str("built-in default"),
            WeightsChoice::BuiltIn(n) => write!(f, "built-in {n}"),
            WeightsChoice::File(p) => write!(f, "{}", p.display()),
        }
    }
}
