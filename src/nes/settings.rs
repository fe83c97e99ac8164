//! The `play` settings file (`config/play.toml`): its keys, how it is read and checked; the
//! command line merges it with its options (options win).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::search::profile::Profile;

/// `play`'s options in one shape, read from the command line (clap) and from the settings
/// file (TOML, the same keys in snake_case); `play` merges the two, an option given winning
/// over the file. Every key is optional; an unknown key in the file is an error so that a typo
/// is never silently ignored. The keys `play` shares with other commands (weights, profile,
/// ROM options, overwrite) are the shared option groups on the command line: keys only here.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct PlaySettings {
    /// Run without a picture (the window, or without it the terminal), as fast as the emulator
    /// goes.
    #[arg(long, num_args = 0, default_missing_value = "true")]
    pub headless: Option<bool>,
    /// Start level (0-19) [default: 19].
    #[arg(long, value_parser = parse_level)]
    pub level: Option<u8>,
    /// Games to play (back to the level menu after each game over) [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Stop after this many pieces (at least 1) [default: no limit].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub pieces: Option<u32>,
    /// Stop after this many frames (at least 1) [default: no limit].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,
    /// Stop the run when its game reaches `level:N`, `lines:N` or `rebirth` (the level
    /// rolling over from 255 to 0) [default: top-out].
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// `--weights`.
    #[arg(skip)]
    pub weights: Option<PathBuf>,
    /// Outline the planned lock position on the playfield.
    #[arg(long, num_args = 0, default_missing_value = "true")]
    pub show_plan: Option<bool>,
    /// Record every button pressed, from power-on, as an FCEUX movie.
    #[arg(long, value_name = "OUT.fm2")]
    pub record: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long, num_args = 0, default_missing_value = "true")]
    pub json: Option<bool>,
    /// `--allow-unknown-rom`.
    #[arg(skip)]
    pub allow_unknown_rom: Option<bool>,
    /// `--addresses`.
    #[arg(skip)]
    pub addresses: Option<PathBuf>,
    /// `--profile`: a preset name, or a profile file (relative to the settings file).
    #[arg(skip)]
    pub profile: Option<String>,
    /// After each decision, print its top N placements with their values split by feature
    /// (on stderr, a JSON line each with --json; in the window, a panel E hides) [default N: 3].
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3", value_parser = parse_count)]
    pub explain: Option<usize>,
    /// `--overwrite`: replace a `record` file that exists.
    #[arg(skip)]
    pub overwrite: Option<bool>,
    /// Before each new plan from this level on, play it on a copy of the console and plan
    /// again without a lock whose clear crashes the copy (0-255) [default: 150].
    #[arg(long, value_name = "LEVEL", conflicts_with = "no_run_ahead")]
    pub run_ahead_from: Option<u8>,
    /// Never check a plan ahead on a copy of the console (the run-ahead check is on from
    /// level 150 without it).
    #[arg(long, num_args = 0, default_missing_value = "true")]
    pub no_run_ahead: Option<bool>,
}

/// What the menus offer, as every refusal of a start level says it.
pub const LEVELS: &str = "an A-type game starts at level 0-19";

/// `--level`: 0-19 as the menus offer; up to 29 passes here for the hidden test console,
/// which `play` checks with the same words.
pub fn parse_level(text: &str) -> Result<u8, String> {
    match text.trim().parse::<u8>() {
        Ok(n) if n <= 29 => Ok(n),
        _ => Err(format!("`{text}`: {LEVELS}")),
    }
}

/// `--explain N`: at least one placement (`--explain 0` would explain nothing).
pub fn parse_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 placements would explain nothing: give 1 or more".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}`: {e}")),
    }
}

/// Why a settings file was refused; every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The file could not be read.
    #[error("cannot read settings file {path}: {source}")]
    Io {
        /// The file's path as given.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// Bad TOML, a wrong type or an unknown key (the TOML message names the key and line).
    #[error("bad settings file {path}: {source}")]
    Parse {
        /// The file's path as given.
        path: PathBuf,
        /// The TOML error, naming the key and line.
        source: crate::io::TomlError,
    },
}

crate::toml_file!(PlaySettings, SettingsError);

impl PlaySettings {
    /// Parses settings text; `path` labels errors and anchors relative paths.
    pub fn from_toml(text: &str, path: &Path) -> Result<PlaySettings, SettingsError> {
        let mut s: PlaySettings = toml::from_str(text).map_err(|e| SettingsError::Parse {
            path: path.to_path_buf(),
            source: crate::io::TomlError::new(&e, text),
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
