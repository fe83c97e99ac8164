//! The classes of a placement by value loss (best / good / inaccuracy / mistake / blunder)
//! and the coach's settings file (`config/coach.toml`) that holds their thresholds.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::PadState;

/// The shipped settings, which are also the defaults (one definition of the thresholds).
const DEFAULT_TOML: &str = include_str!("../../config/coach.toml");

/// A placement's class, from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// No loss: as good as the planner's choice.
    Best,
    /// Loss at most [`Thresholds::good`].
    Good,
    /// Loss at most [`Thresholds::inaccuracy`].
    Inaccuracy,
    /// Loss at most [`Thresholds::mistake`].
    Mistake,
    /// Loss above [`Thresholds::mistake`], or no playable pair left where the best had one.
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class's name in lower case, as the reports and the JSON spell it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Upper bounds of the value loss per class (inclusive); above `mistake` is a blunder.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Largest loss rated good.
    pub good: f64,
    /// Largest loss rated an inaccuracy.
    pub inaccuracy: f64,
    /// Largest loss rated a mistake.
    pub mistake: f64,
}

impl Thresholds {
    /// The class of a loss: `None` means the placement leaves no playable pair while a better
    /// one does (a blunder). A loss of 0 ties the best.
    pub fn class(&self, loss: Option<f64>) -> Class {
        match loss {
            None => Class::Blunder,
            Some(l) if l <= 0.0 => Class::Best,
            Some(l) if l <= self.good => Class::Good,
            Some(l) if l <= self.inaccuracy => Class::Inaccuracy,
            Some(l) if l <= self.mistake => Class::Mistake,
            Some(_) => Class::Blunder,
        }
    }
}

/// The `[report]` table: what the reports show.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSettings {
    /// How many of the worst placements are listed and drawn.
    pub worst: usize,
}

/// `nestor assist`'s controls: a name per controller button, keyboard key names in `[keys]`
/// (checked by `ui::keypad`), gamepad button names in `[pad]` (checked by `ui::gamepad`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ButtonNames {
    /// The button for Left.
    pub left: String,
    /// The button for Right.
    pub right: String,
    /// The button for Up.
    pub up: String,
    /// The button for Down.
    pub down: String,
    /// The button for A.
    pub a: String,
    /// The button for B.
    pub b: String,
    /// The button for Start.
    pub start: String,
    /// The button for Select.
    pub select: String,
}

impl ButtonNames {
    /// Each NES button bound to what `named(button, name)` makes of its name (a key, a gamepad
    /// button), in the order left, right, up, down, A, B, Start, Select.
    pub fn bind<T, E>(
        &self,
        named: impl Fn(&'static str, &str) -> Result<T, E>,
    ) -> Result<[(T, PadState); 8], E> {
        Ok([
            (named("left", &self.left)?, PadState::LEFT),
            (named("right", &self.right)?, PadState::RIGHT),
            (named("up", &self.up)?, PadState::UP),
            (named("down", &self.down)?, PadState::DOWN),
            (named("a", &self.a)?, PadState::A),
            (named("b", &self.b)?, PadState::B),
            (named("start", &self.start)?, PadState::START),
            (named("select", &self.select)?, PadState::SELECT),
        ])
    }
}

/// The whole settings file; every key is required.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CoachSettings {
    /// `[classes]`: the loss thresholds.
    pub classes: Thresholds,
    /// `[report]`: what the reports show.
    pub report: ReportSettings,
    /// `[keys]`: the keyboard key for each button.
    pub keys: ButtonNames,
    /// `[pad]`: the gamepad button for each button.
    pub pad: ButtonNames,
    /// `[stick]`: the left stick as a D-pad.
    pub stick: Stick,
}

/// The gamepad's left stick as a D-pad.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stick {
    /// Share of the stick's travel past which it presses a direction (0 turns it off).
    pub dpad: f32,
}

/// Why a settings file was refused; every message names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// The file could not be read.
    #[error("cannot read coach settings {path}: {source}")]
    Io {
        /// The file's path as given.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// Bad TOML, a wrong type, a missing or an unknown key (the message names it and the line).
    #[error("bad coach settings {path}: {source}")]
    Parse {
        /// The file's path as given.
        path: PathBuf,
        /// The TOML error, naming the key and line.
        source: crate::io::TomlError,
    },
    /// The `[classes]` thresholds are not finite and in order.
    #[error("coach settings {path}: [classes] must be 0 <= good <= inaccuracy <= mistake (finite), got {good}, {inaccuracy}, {mistake}")]
    Order {
        /// The file's path as given.
        path: PathBuf,
        /// `good` as given.
        good: f64,
        /// `inaccuracy` as given.
        inaccuracy: f64,
        /// `mistake` as given.
        mistake: f64,
    },
}

impl Default for CoachSettings {
    fn default() -> CoachSettings {
        CoachSettings::from_toml(DEFAULT_TOML, Path::new("config/coach.toml"))
            .expect("the shipped config/coach.toml is valid (tested)")
    }
}

crate::toml_file!(CoachSettings, SettingsError);

impl CoachSettings {
    /// Parses and checks settings text; `path` labels the errors.
    pub fn from_toml(text: &str, path: &Path) -> Result<CoachSettings, SettingsError> {
        let s: CoachSettings = toml::from_str(text).map_err(|e| SettingsError::Parse {
            path: path.to_path_buf(),
            source: crate::io::TomlError::new(&e, text),
        })?;
        let Thresholds {
            good,
            inaccuracy,
            mistake,
        } = s.classes;
        let ordered = [good, inaccuracy, mistake].iter().all(|v| v.is_finite())
            && 0.0 <= good
            && good <= inaccuracy
            && inaccuracy <= mistake;
        if !ordered {
            return Err(SettingsError::Order {
                path: path.to_path_buf(),
                good,
                inaccuracy,
                mistake,
            });
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_loads_and_classes_follow_the_thresholds() {
        let s = CoachSettings::default();
        let t = s.classes;
        assert_eq!(t.class(Some(0.0)), Class::Best);
        assert_eq!(t.class(Some(t.good)), Class::Good);
        assert_eq!(t.class(Some(t.good + 1e-9)), Class::Inaccuracy);
        assert_eq!(t.class(Some(t.inaccuracy)), Class::Inaccuracy);
        assert_eq!(t.class(Some(t.mistake)), Class::Mistake);
        assert_eq!(t.class(Some(t.mistake * 2.0)), Class::Blunder);
        assert_eq!(t.class(None), Class::Blunder);
        assert!(s.report.worst > 0);
    }

    #[test]
    fn bad_files_name_the_file_and_the_problem() {
        let p = Path::new("my/coach.toml");
        let e = CoachSettings::from_toml("[classes]\ngood = 1.0\n", p).unwrap_err();
        assert!(e.to_string().contains("my/coach.toml"), "{e}");
        assert!(e.to_string().contains("inaccuracy"), "{e}");
        let text = DEFAULT_TOML.replace("good = 2.0", "good = 50.0");
        let e = CoachSettings::from_toml(&text, p).unwrap_err();
        assert!(matches!(e, SettingsError::Order { .. }), "{e}");
        let text = DEFAULT_TOML.replace("worst = 5", "worst = 5\nbest = 1");
        let e = CoachSettings::from_toml(&text, p).unwrap_err();
        assert!(e.to_string().contains("best"), "{e}");
        let e = CoachSettings::load(Path::new("/nonexistent/coach.toml")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/coach.toml"), "{e}");
    }
}
