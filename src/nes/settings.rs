//! The `play` settings file (`config/play.toml`): its keys, how it is read and checked; the
//! command line merges it with its options (options win).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::search::profile::Profile;

/// The settings file: the same keys as `play`'s options (snake_case). Every key is optional;
/// an unknown key is an error so that a typo is never silently ignored.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlaySettings {
    pub level: Option<u8>,
    pub games: Option<u32>,
    pub pieces: Option<u32>,
    pub frames: Option<u64>,
    pub headless: Option<bool>,
    pub weights: Option<PathBuf>,
    pub show_plan: Option<bool>,
    pub record: Option<PathBuf>,
    pub json: Option<bool>,
    pub allow_unknown_rom: Option<bool>,
    pub addresses: Option<PathBuf>,
    /// A preset name, or a profile file (relative to the settings file).
    pub profile: Option<String>,
    /// `--explain N`: the top N placements of each decision (at least 1).
    pub explain: Option<usize>,
    /// `--overwrite`: replace a `record` file that exists.
    pub overwrite: Option<bool>,
    /// `--run-ahead-from LEVEL`: the level from which plans are checked ahead.
    pub run_ahead_from: Option<u8>,
    /// `--no-run-ahead`: no check ahead at any level.
    pub no_run_ahead: Option<bool>,
}

/// Why a settings file was refused; every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read settings file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Bad TOML, a wrong type or an unknown key (the TOML message names the key and line).
    #[error("bad settings file {path}: {source}")]
    Parse {
        path: PathBuf,
        source: toml::de::Error,
    },
}

crate::toml_file!(PlaySettings, SettingsError);

impl PlaySettings {
    /// Parses settings text; `path` labels errors and anchors relative paths.
    pub fn from_toml(text: &str, path: &Path) -> Result<PlaySettings, SettingsError> {
        let mut s: PlaySettings = toml::from_str(text).map_err(|source| SettingsError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        // Paths in the file are relative to the file, not to the working directory.
        let dir = path.parent().unwrap_or(Path::new(""));
        for p in [&mut s.weights, &mut s.record, &mut s.addresses]
            .into_iter()
            .flatten()
        {
            if p.is_relative() {
                *p = dir.join(&*p);
            }
        }
        if let Some(p) = &mut s.profile {
            if Profile::preset(p).is_none() && Path::new(p.as_str()).is_relative() {
                *p = dir.join(&*p).display().to_string();
            }
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_follow_the_file_and_unknown_keys_are_refused() {
        let s = PlaySettings::from_toml(
            "weights = \"w.toml\"\nlevel = 18\n",
            Path::new("cfg/p.toml"),
        )
        .expect("valid settings");
        assert_eq!(s.weights, Some(PathBuf::from("cfg/w.toml")));
        assert_eq!(s.level, Some(18));
        let s = PlaySettings::from_toml("profile = \"human\"\n", Path::new("cfg/p.toml")).unwrap();
        assert_eq!(
            s.profile.as_deref(),
            Some("human"),
            "a preset is a name, not a path"
        );
        let s =
            PlaySettings::from_toml("profile = \"me.toml\"\n", Path::new("cfg/p.toml")).unwrap();
        assert_eq!(
            s.profile,
            Some(format!("cfg{}me.toml", std::path::MAIN_SEPARATOR))
        );
        let e = PlaySettings::from_toml("levle = 3\n", Path::new("p.toml")).unwrap_err();
        assert!(
            e.to_string().contains("p.toml") && e.to_string().contains("levle"),
            "{e}"
        );
    }
}
