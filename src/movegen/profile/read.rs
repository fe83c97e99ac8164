//! Reading a profile: the presets and profile files' TOML checked key by key, with errors that
//! name the file and the key; the delay and blind-placement bounds the command line shares.

use std::path::Path;
use std::sync::OnceLock;

use super::adjust::Adjust;
use super::choice::WeightsChoice;
use super::limits::{Profile, Shift};
use super::timeline::Timeline;

/// Most placements `blind_placements` may name (a piece has fewer locks on any board).
const MAX_BLIND: i64 = 200;

/// Longest reaction or start delay, in frames (10 s: anything longer is a typo).
pub const MAX_DELAY: u16 = 600;

/// A preset's name and the text of its file, `config/profiles/NAME.toml`.
macro_rules! preset {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../config/profiles/", $name, ".toml")),
        )
    };
}

/// The built-in presets by name, each the text of its file under `config/profiles/`.
pub const PRESETS: [(&str, &str); 10] = [
    preset!("unlimited"),
    preset!("30hz"),
    preset!("24hz"),
    preset!("20hz"),
    preset!("15hz"),
    preset!("13.5hz"),
    preset!("12hz"),
    preset!("10hz"),
    preset!("human"),
    preset!("das"),
];

impl Default for Profile {
    /// `unlimited`: the move set every recorded movie so far was made with, and the strongest.
    fn default() -> Self {
        Profile::unlimited().clone()
    }
}

impl Profile {
    /// The `unlimited` preset, parsed once and borrowed: the BFS asks for it on every search
    /// (a TOML parse was ~3 % of a two-piece decision; a clone still allocated its name).
    pub fn unlimited() -> &'static Profile {
        static UNLIMITED: OnceLock<Profile> = OnceLock::new();
        UNLIMITED.get_or_init(|| Profile::preset("unlimited").expect("the unlimited preset parses"))
    }
}

/// A profile file that cannot be used; every message names the file (or preset) and the key.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The file could not be read.
    #[error("profile {path}: {source}")]
    Io {
        /// The file named.
        path: String,
        /// The OS's error.
        source: std::io::Error,
    },
    /// The text is not TOML.
    #[error("profile {path}: not TOML: {message}")]
    Toml {
        /// The file or preset label.
        path: String,
        /// The parser's message with its line and column.
        message: String,
    },
    /// A key is unknown or missing, or its value cannot be used.
    #[error("profile {path}: `{key}`: {problem}")]
    Key {
        /// The file or preset label.
        path: String,
        /// The key at fault.
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The name is neither a preset nor an existing file.
    #[error(
        "unknown profile {name:?}: neither a preset ({presets}) nor a file",
        presets = preset_names().join(", ")
    )]
    Unknown {
        /// The name as given.
        name: String,
    },
}

/// The preset names, in the order `--help` lists them.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

const KEYS: [&str; 4] = ["timeline", "shift", "reaction", "start_delay"];

/// The optional key: the weight set paired with the profile (a built-in name or a file).
const WEIGHTS_KEY: &str = "weights";

/// The optional key: the placements the plan before the reaction weighs (0, the default: all).
const BLIND_KEY: &str = "blind_placements";

/// The optional key: how the re-plan at the reaction times its taps (`continue`, the default).
const ADJUST_KEY: &str = "adjust";

/// The optional keys.
const OPTIONAL: [&str; 3] = [WEIGHTS_KEY, BLIND_KEY, ADJUST_KEY];

impl Profile {
    /// A built-in preset by name.
    pub fn preset(name: &str) -> Option<Profile> {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
        let label = format!("config/profiles/{name}.toml");
        Profile::from_toml(text, &label, name).ok()
    }

    /// Parses a profile file's text; `path` labels the errors, `name` names the profile.
    pub fn from_toml(text: &str, path: &str, name: &str) -> Result<Profile, ProfileError> {
        let key_error = |key: &str, problem: String| ProfileError::Key {
            path: path.to_string(),
            key: key.to_string(),
            problem,
        };
        let mut table: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| ProfileError::Toml {
                    path: path.to_string(),
                    message: crate::io::TomlError::new(&e, text).to_string(),
                })?;
        if let Some(extra) = table
            .keys()
            .find(|k| !KEYS.contains(&k.as_str()) && !OPTIONAL.contains(&k.as_str()))
        {
            return Err(key_error(
                extra,
                format!(
                    "unknown key (the keys are {} and the optional {WEIGHTS_KEY}, {BLIND_KEY} \
                     and {ADJUST_KEY})",
                    KEYS.join(", ")
                ),
            ));
        }
        let adjust = match table.remove(ADJUST_KEY) {
            None => Adjust::Continue,
            Some(toml::Value::String(s)) => {
                Adjust::parse(&s).map_err(|p| key_error(ADJUST_KEY, p))?
            }
            Some(other) => return Err(key_error(ADJUST_KEY, expected("a string", &other))),
        };
        let blind_placements = match table.remove(BLIND_KEY) {
            None => 0,
            Some(toml::Value::Integer(n)) => {
                blind_placements(n).map_err(|problem| key_error(BLIND_KEY, problem))?
            }
            Some(other) => {
                return Err(key_error(
                    BLIND_KEY,
                    expected("a count of placements", &other),
                ))
            }
        };
        let weights = match table.remove(WEIGHTS_KEY) {
            None => WeightsChoice::Default,
            Some(toml::Value::String(s)) => {
                WeightsChoice::parse(&s).map_err(|p| key_error(WEIGHTS_KEY, p))?
            }
            Some(other) => {
                return Err(key_error(
                    WEIGHTS_KEY,
                    expected("a weight set's name or a file", &other),
                ))
            }
        };
        let mut take = |key: &str| {
            table
                .remove(key)
                .ok_or_else(|| key_error(key, "missing (every key is required)".into()))
        };
        let timeline = match take("timeline")? {
            toml::Value::String(s) => Timeline::parse(&s).map_err(|p| key_error("timeline", p))?,
            other => return Err(key_error("timeline", expected("a string", &other))),
        };
        let shift = match take("shift")? {
            toml::Value::String(s) => match s.as_str() {
                "tap" => Shift::Tap,
                "hold" => Shift::Hold,
                "both" => Shift::Both,
                _ => {
                    return Err(key_error(
                        "shift",
                        format!("{s:?} is not \"tap\", \"hold\" or \"both\""),
                    ))
                }
            },
            other => return Err(key_error("shift", expected("a string", &other))),
        };
        let mut frames = |key: &str| -> Result<u16, ProfileError> {
            match take(key)? {
                toml::Value::Integer(n) => delay_frames(n).map_err(|p| key_error(key, p)),
                other => Err(key_error(key, expected("a number of frames", &other))),
            }
        };
        let reaction = frames("reaction")?;
        let start_delay = frames("start_delay")?;
        Ok(Profile {
            name: name.to_string(),
            timeline,
            shift,
            reaction,
            start_delay,
            weights,
            blind_placements,
            adjust,
        })
    }

    /// Reads a profile file (the caller bounds the read; `text` is its content).
    pub fn from_file_text(text: &str, path: &Path) -> Result<Profile, ProfileError> {
        let name = path
            .file_stem()
            .map_or_else(|| "profile".into(), |s| s.to_string_lossy().into_owned());
        let mut p = Profile::from_toml(text, &path.display().to_string(), &name)?;
        // A relative weights file is next to the profile, wherever the command runs.
        let folder = path.parent().unwrap_or(Path::new(""));
        p.weights = std::mem::take(&mut p.weights).rebased(folder);
        Ok(p)
    }
}

/// A reaction or start delay within 0..=[`MAX_DELAY`] frames (a file's key or `--reaction`;
/// the error says what is wrong, without saying where).
pub fn delay_frames(n: i64) -> Result<u16, String> {
    if n < 0 {
        Err(format!(
            "{n} is negative: a delay is a number of frames, 0 or more"
        ))
    } else if n > MAX_DELAY as i64 {
        Err(format!("{n} frames is over {MAX_DELAY} (10 seconds)"))
    } else {
        Ok(n as u16)
    }
}

/// A count of blind placements (a file's `blind_placements` or `--blind-placements`).
pub fn blind_placements(n: i64) -> Result<u16, String> {
    if (0..=MAX_BLIND).contains(&n) {
        Ok(n as u16)
    } else {
        Err(format!(
            "{n} is not a count of placements from 0 (every one) to {MAX_BLIND}"
        ))
    }
}

fn expected(what: &str, got: &toml::Value) -> String {
    format!("expected {what}, got {}", got.type_str())
}
