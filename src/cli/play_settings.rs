//! `play`'s settings resolved: the options (`PlaySettings`, one shape for the flags and the
//! `--config` file) merged by `PlayArgs::settings`, defaults applied; and the movie's comments.

use std::path::PathBuf;

use serde::Serialize;

use nestor::lab::until::Until;
use nestor::movegen::profile::Profile;
use nestor::movie::Header;
use nestor::search::weights::WeightsChoice;

/// Every setting, after the file and the options are merged and the profile is loaded.
#[derive(Debug, Serialize)]
pub struct Settings {
    pub level: u8,
    pub games: u32,
    pub pieces: Option<u32>,
    pub frames: Option<u64>,
    #[serde(serialize_with = "serialize_until")]
    pub until: Until,
    pub headless: bool,
    pub show_plan: bool,
    pub weights: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub json: bool,
    pub allow_unknown_rom: bool,
    pub addresses: Option<PathBuf>,
    #[serde(serialize_with = "super::profile::serialize")]
    pub profile: Profile,
    pub explain: Option<usize>,
    pub overwrite: bool,
    /// The level from which the driver checks each plan ahead; `None`: never.
    pub run_ahead_from: Option<u8>,
}

impl Settings {
    /// One line per setting, for the movie's comments. Files are named without their folders:
    /// a movie is shared, the user's directory layout is not.
    pub fn comments(&self, rom: &str) -> Vec<String> {
        let name = |p: &PathBuf| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        };
        let mut c = vec![
            format!(
                "nestor play: A-type, start level {}, {} game(s)",
                self.level, self.games
            ),
            rom.to_string(),
        ];
        // As `sim` says it: `FILE (--weights)` or `SET (profile NAME)`, a file by its name.
        let weights = match (&self.weights, &self.profile.weights) {
            (Some(p), _) => format!("{} (--weights)", name(p)),
            (None, WeightsChoice::File(p)) => {
                format!("{} (profile {})", name(p), self.profile.name)
            }
            (None, set) => format!("{set} (profile {})", self.profile.name),
        };
        c.push(format!("weights {weights}"));
        c.push(Header::profile_comment(&self.profile));
        // Limits, not outcomes: how the run really ended is added when it does.
        if let Some(p) = self.pieces {
            c.push(format!("piece limit {p}"));
        }
        if let Some(f) = self.frames {
            c.push(format!("frame limit {f}"));
        }
        if self.until != Until::TopOut {
            c.push(format!("until {}", self.until));
        }
        c
    }
}

/// `until` as its text (`rebirth`, `level:200`), as the option and the file spell it.
fn serialize_until<S: serde::Serializer>(until: &Until, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(until)
}
