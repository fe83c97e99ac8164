//! Player profiles: when a button may be newly pressed (the input timeline), whether directions
//! are tapped or held (DAS), the reaction time to the next piece; the presets and their TOML.

use std::path::Path;
use std::sync::OnceLock;

use crate::game::pad::PadState;
mod adjust;
mod choice;
mod keys;
mod press_rules;
mod timeline;

pub use adjust::Adjust;
pub use choice::{built_in_names, WeightsChoice, BUILT_IN};
pub use keys::ProfileKeys;
pub(crate) use press_rules::Rules;
pub use timeline::Timeline;

/// The buttons a timeline limits: Left, Right, A and B (Down is soft drop, outside profiles).
pub const TIMED: PadState = PadState(0xC3);

/// Longest explicit pattern: a period longer than a second says nothing a Hz figure cannot.
pub const MAX_PATTERN: usize = 60;

/// Most placements `blind_placements` may name (a piece has fewer locks on any board).
const MAX_BLIND: i64 = 200;

/// Longest reaction or start delay, in frames (10 s: anything longer is a typo).
pub const MAX_DELAY: u16 = 600;

/// The built-in presets by name, each the text of its file under `config/profiles/`.
pub const PRESETS: [(&str, &str); 10] = [
    (
        "unlimited",
        include_str!("../../config/profiles/unlimited.toml"),
    ),
    ("30hz", include_str!("../../config/profiles/30hz.toml")),
    ("24hz", include_str!("../../config/profiles/24hz.toml")),
    ("20hz", include_str!("../../config/profiles/20hz.toml")),
    ("15hz", include_str!("../../config/profiles/15hz.toml")),
    ("13.5hz", include_str!("../../config/profiles/13.5hz.toml")),
    ("12hz", include_str!("../../config/profiles/12hz.toml")),
    ("10hz", include_str!("../../config/profiles/10hz.toml")),
    ("human", include_str!("../../config/profiles/human.toml")),
    ("das", include_str!("../../config/profiles/das.toml")),
];

/// How directions are pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shift {
    /// Pressed for one frame and released.
    Tap,
    /// Held as long as wanted (DAS auto-repeat included); each direction at most once a piece.
    Hold,
    /// Either.
    Both,
}

impl Shift {
    /// Directions may stay down longer than a frame (the DAS counter matters).
    pub fn holds(self) -> bool {
        self != Shift::Tap
    }
}

/// A player's input limits, plain data shared by the planner, the driver and the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Preset name, or the file's stem.
    pub name: String,
    /// The frames on which a button may be newly pressed.
    pub timeline: Timeline,
    /// Whether directions are tapped, held or both.
    pub shift: Shift,
    /// Frames after a spawn before the plan may depend on the (new) next piece.
    pub reaction: u16,
    /// Frames at the start of a game before the first press.
    pub start_delay: u16,
    /// The weight set this profile plays with (the optional `weights` key; `--weights` wins).
    pub weights: WeightsChoice,
    /// Before the reaction, how many placements (those ranked best: `plan/blind.rs`) the plan
    /// weighs against the seven next pieces; 0 = every one (the optional `blind_placements`).
    pub blind_placements: u16,
    /// How the re-plan at the reaction times its taps (the optional `adjust`).
    pub adjust: Adjust,
}

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

    /// Today's move set: no timeline, taps only, no reaction.
    pub fn is_unlimited(&self) -> bool {
        self.timeline == Timeline::Unlimited
            && self.shift == Shift::Tap
            && self.reaction == 0
            && self.start_delay == 0
    }

    /// One line for headers and summaries, e.g. `human (timeline X., tap, reaction 18)`.
    pub fn describe(&self) -> String {
        let shift = match self.shift {
            Shift::Tap => "tap",
            Shift::Hold => "hold",
            Shift::Both => "tap or hold",
        };
        let blind = match self.blind_placements {
            0 => String::new(),
            n => format!(", {n} blind placements"),
        };
        let adjust = match self.adjust {
            Adjust::Continue => String::new(),
            a => format!(", adjust {a}"),
        };
        format!(
            "{} (timeline {}, {shift}, reaction {}, start delay {}{blind}{adjust})",
            self.name, self.timeline, self.reaction, self.start_delay
        )
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

/// What a piece has done so far, for a plan made after its spawn (the reaction re-plan).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceProgress {
    /// Frames of this piece already played (0 at its spawn).
    pub frames: u16,
    /// Directions newly pressed so far in this piece (a `hold` profile presses each once).
    pub pressed: PadState,
    /// Frames that newly pressed Left, Right, A or B (one tap of the table each).
    pub taps: u16,
}

impl PieceProgress {
    /// This progress after `inputs` more frames, with `prev` held before them.
    pub fn then(self, inputs: &[PadState], prev: PadState) -> PieceProgress {
        let more = PieceProgress::after(inputs, prev);
        PieceProgress {
            frames: self.frames.saturating_add(more.frames),
            pressed: self.pressed.union(more.pressed),
            taps: self.taps.saturating_add(more.taps),
        }
    }

    /// After `inputs` (the piece's frames from its spawn on), with `prev` held before them.
    pub fn after(inputs: &[PadState], mut prev: PadState) -> PieceProgress {
        let (mut pressed, mut taps) = (PadState::NONE, 0u16);
        for &i in inputs {
            let newly = i.newly_from(prev);
            pressed = pressed.union(newly);
            taps = taps.saturating_add(u16::from(newly.0 & TIMED.0 != 0));
            prev = i;
        }
        PieceProgress {
            frames: inputs.len().min(u16::MAX as usize) as u16,
            pressed: PadState(pressed.0 & 0x03),
            taps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_is_named_after_its_file() {
        for (name, _) in PRESETS {
            let p = Profile::preset(name).unwrap_or_else(|| panic!("preset {name}"));
            assert_eq!(p.name, name);
        }
        assert!(Profile::default().is_unlimited());
        let human = Profile::preset("human").unwrap();
        assert_eq!(
            (human.reaction, human.timeline.to_string()),
            (18, "X.".into())
        );
        assert_eq!(Profile::preset("das").unwrap().shift, Shift::Hold);
        assert_eq!(
            Profile::preset("13.5hz").unwrap().timeline.to_string(),
            "X....X...X..."
        );
    }

    #[test]
    fn hz_presets_press_at_their_rate() {
        for (hz, frames_per_press) in [
            ("30hz", 2),
            ("20hz", 3),
            ("15hz", 4),
            ("12hz", 5),
            ("10hz", 6),
        ] {
            let t = Timeline::parse(hz).unwrap();
            let presses: Vec<u32> = (0..12).filter(|&f| t.allows(f)).collect();
            let want: Vec<u32> = (0..12).step_by(frames_per_press).collect();
            assert_eq!(presses, want, "{hz}");
        }
        // 24 Hz: BetaTetris's table, 3 frames then 2, repeating.
        let t = Timeline::parse("24hz").unwrap();
        let presses: Vec<u32> = (0..24).filter(|&f| t.allows(f)).collect();
        assert_eq!(presses, [0, 3, 5, 8, 10, 13, 15, 18, 20, 23]);
        assert_eq!(
            Profile::preset("24hz").unwrap().describe(),
            "24hz (timeline X..X., tap, reaction 0, start delay 0)"
        );
        // 13.5 Hz: 3 presses in 13 frames, repeating.
        let t = Timeline::parse("13.5hz").unwrap();
        assert_eq!((0..26).filter(|&f| t.allows(f)).count(), 6);
        assert!(t.allows(0) && t.allows(5) && t.allows(9) && t.allows(13));
    }

    #[test]
    fn bad_patterns_say_why() {
        let err = |s| Timeline::parse(s).unwrap_err();
        assert!(err("....").contains("no X"));
        assert!(err("XX.").contains("two X frames running"));
        assert!(
            err("X.X").contains("two X frames running"),
            "the wrap counts"
        );
        assert!(err("X").contains("two X frames running"));
        assert!(err("X-").contains("pattern of X and ."));
        assert!(err("").contains("pattern of X and ."));
        assert!(err(&"X.".repeat(40)).contains("at most"));
    }

    fn parse(text: &str) -> Result<Profile, String> {
        Profile::from_toml(text, "my.toml", "my").map_err(|e| e.to_string())
    }

    const GOOD: &str = "timeline = \"X..\"\nshift = \"both\"\nreaction = 12\nstart_delay = 3\n";

    #[test]
    fn a_file_profile_reads_every_key() {
        let p = parse(GOOD).unwrap();
        assert_eq!(p.timeline, Timeline::Pattern { bits: 1, len: 3 });
        assert_eq!((p.shift, p.reaction, p.start_delay), (Shift::Both, 12, 3));
        assert_eq!(
            p.describe(),
            "my (timeline X.., tap or hold, reaction 12, start delay 3)"
        );
    }

    #[test]
    fn blind_placements_is_optional_and_says_itself() {
        assert_eq!(
            parse(GOOD).unwrap().blind_placements,
            0,
            "every one by default"
        );
        let p = parse(&format!("{GOOD}blind_placements = 5\n")).unwrap();
        assert_eq!(p.blind_placements, 5);
        assert_eq!(
            p.describe(),
            "my (timeline X.., tap or hold, reaction 12, start delay 3, 5 blind placements)"
        );
        for (value, want) in [
            ("-1", "`blind_placements`: -1 is not a count of placements"),
            ("201", "`blind_placements`: 201 is not a count"),
            (
                "\"all\"",
                "`blind_placements`: expected a count of placements",
            ),
        ] {
            let e = parse(&format!("{GOOD}blind_placements = {value}\n")).unwrap_err();
            assert!(
                e.starts_with("profile my.toml: ") && e.contains(want),
                "{e}"
            );
        }
    }

    #[test]
    fn file_errors_name_the_file_and_key() {
        let cases = [
            (GOOD.replace("X..", "..."), "`timeline`: \"...\" has no X"),
            (GOOD.replace("X..", "XX."), "`timeline`"),
            (GOOD.replace("12", "-4"), "`reaction`: -4 is negative"),
            (GOOD.replace("= 3", "= 9000"), "`start_delay`: 9000 frames"),
            (GOOD.replace("both", "slide"), "`shift`: \"slide\""),
            (GOOD.replace("reaction = 12\n", ""), "`reaction`: missing"),
            (format!("{GOOD}speed = 2\n"), "`speed`: unknown key"),
            (
                GOOD.replace("12", "\"soon\""),
                "expected a number of frames",
            ),
            ("timeline = ".into(), "not TOML"),
        ];
        for (text, want) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.starts_with("profile my.toml: "), "{e}");
            assert!(e.contains(want), "{e} should contain {want}");
        }
    }

    #[test]
    fn progress_counts_frames_and_new_direction_presses() {
        let l = PadState::LEFT;
        let a = PadState::A;
        let inputs = [l, l, PadState::NONE, a, PadState::NONE];
        let p = PieceProgress::after(&inputs, PadState::NONE);
        assert_eq!((p.frames, p.pressed, p.taps), (5, l, 2));
        // A direction held from the last piece was not pressed in this one.
        let p = PieceProgress::after(&[l, l], l);
        assert_eq!((p.pressed, p.taps), (PadState::NONE, 0));
    }
}
