//! The weights as data: one `PhaseWeights` per phase of the game with the levels it covers,
//! the bound on any weight, and why a weights file is refused.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::super::features::{with_features, FEATURE_COUNT};
use super::learned::LearnedValue;

macro_rules! phase_weights {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// One phase's weights per feature (lower total is better) and rule parameters. Every key is
        /// required and unknown keys are refused, so neither a typo nor a gap falls back to a default.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct PhaseWeights {
            $(
                /// Weight per unit of the [`Features`](crate::search::eval::Features) field of
                /// the same name.
                pub $name: f64,
            )*
            /// Per (piece, column) pair that the piece can no longer reach from its spawn on the final
            /// board at this level's gravity (`movegen::reach`); 0 skips the computation.
            pub unreachable_columns: f64,
            /// Rule switch: the Tetris bonuses below apply.
            pub tetris_rules: bool,
            /// Subtracted when the current piece clears four lines; must exceed `tetris_next_bonus`.
            pub tetris_now_bonus: f64,
            /// Subtracted when the next piece clears four lines; must dwarf every feature sum.
            pub tetris_next_bonus: f64,
            /// Rule switch: the ceiling penalty and the sealed-ceiling check apply.
            pub ceiling_rules: bool,
            /// How many rows from the top (row 0) the ceiling penalty covers.
            pub top_rows: u32,
            /// Penalty per filled cell in row r < `top_rows`, times (`top_rows` − r).
            pub top_rows_penalty: f64,
            /// Run the sealed-ceiling flood fill when a filled cell lies in rows 0..`ceiling_rows`.
            pub ceiling_rows: u32,
            /// A board value learned from self-play (`nestor learn`), added to the final
            /// board's value; the optional `[phase.NAME.learned]` table.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub learned: Option<LearnedValue>,
        }

        impl PhaseWeights {
            /// Every float by its TOML key, in file order.
            pub fn floats(&self) -> [(&'static str, f64); FEATURE_COUNT + 4] {
                [
                    $((stringify!($name), self.$name),)*
                    ("unreachable_columns", self.unreachable_columns),
                    ("tetris_now_bonus", self.tetris_now_bonus),
                    ("tetris_next_bonus", self.tetris_next_bonus),
                    ("top_rows_penalty", self.top_rows_penalty),
                ]
            }

            /// A mutable float by its TOML key (for tuners); `None` for a key that is not a float.
            pub fn float_mut(&mut self, key: &str) -> Option<&mut f64> {
                Some(match key {
                    $(stringify!($name) => &mut self.$name,)*
                    "unreachable_columns" => &mut self.unreachable_columns,
                    "tetris_now_bonus" => &mut self.tetris_now_bonus,
                    "tetris_next_bonus" => &mut self.tetris_next_bonus,
                    "top_rows_penalty" => &mut self.top_rows_penalty,
                    _ => return None,
                })
            }
        }
    };
}
with_features!(phase_weights);

/// A named phase and the levels it covers (inclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// The `NAME` of its `[phase.NAME]` table.
    pub name: String,
    /// First level it plays.
    pub from_level: u8,
    /// Last level it plays (inclusive).
    pub to_level: u8,
    /// The weights and rule switches of those levels.
    pub weights: PhaseWeights,
}

/// A whole weights file: phases sorted by level, covering levels 0-255 once each.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The phases, by ascending `from_level`.
    pub phases: Vec<Phase>,
}

/// Why a weights file could not be used; every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {source}")]
    Io {
        /// The file named.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// Bad TOML (the TOML message names the line).
    #[error("bad weights file {path}: {source}")]
    Parse {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The parser's message with its line and column.
        source: crate::io::TomlError,
    },
    /// A phase table with a wrong type, a missing or an unknown key (serde names the key).
    #[error("weights file {path}: [phase.{phase}]: {source}")]
    PhaseKeys {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The phase's `NAME`.
        phase: String,
        /// The deserializer's message.
        source: crate::io::TomlError,
    },
    /// The layout or a key other than a weight is wrong: an unknown top-level key, no
    /// phase, a bad phase name or level, an unknown built-in set.
    #[error("weights file {path}: `{key}`: {problem}")]
    Key {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The dotted key at fault (`phase`, `phase.NAME.to_level`, `weights`).
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Some levels are in no phase.
    #[error("weights file {path}: levels {from}-{to} are in no phase ({after}); phases must cover levels 0-255")]
    Gap {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// First level of the gap.
        from: u16,
        /// Last level of the gap (inclusive).
        to: u16,
        /// Where the gap lies among the phases (`between [phase.a] and [phase.b]`).
        after: String,
    },
    /// Two phases cover the same level.
    #[error("weights file {path}: [phase.{first}] and [phase.{second}] both cover level {level}")]
    Overlap {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The phase earlier in level order.
        first: String,
        /// The next phase in level order, which starts before `first` ends.
        second: String,
        /// The first level both cover.
        level: u8,
    },
    /// A weight is NaN or infinite.
    #[error("weights file {path}: `{key}` must be a finite number, got {value}")]
    NotFinite {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The dotted key (`phase.NAME.KEY`).
        key: String,
        /// The value read.
        value: f64,
    },
    /// A weight is larger than [`MAX_WEIGHT`] either way.
    #[error("weights file {path}: `{key}` = {value:e} is out of range: a weight is at most {MAX_WEIGHT:e} either way (a larger one overflows the evaluation)")]
    TooLarge {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The dotted key (`phase.NAME.KEY`).
        key: String,
        /// The value read.
        value: f64,
    },
    /// A row count is past the 20 visible rows.
    #[error("weights file {path}: `{key}` = {value} is out of range: {reason}")]
    OutOfRange {
        /// The file, or a built-in set's `config/weights/` label.
        path: PathBuf,
        /// The dotted key (`phase.NAME.KEY`).
        key: String,
        /// The value read.
        value: f64,
        /// Why the value cannot be.
        reason: &'static str,
    },
}

/// The largest weight either way: a board's features times it, summed, stay far from
/// overflow (the shipped sets' largest is 2e9).
pub const MAX_WEIGHT: f64 = 1e12;
