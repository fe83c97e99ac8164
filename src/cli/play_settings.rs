//! `play`'s one shape of its settings: the options and the `--config` file merged (options
//! win), checked, and described for the movie's header.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use nestor::movie::Header;
use nestor::nes::driver::RUN_AHEAD_LEVEL;
use nestor::nes::settings::PlaySettings;
use nestor::search::profile::Profile;
use nestor::search::weights::WeightsChoice;

use super::play::PlayArgs;

/// Every setting, after the file and the options are merged.
#[derive(Debug, Serialize)]
pub struct Settings {
    pub level: u8,
    pub games: u32,
    pub pieces: Option<u32>,
    pub frames: Option<u64>,
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
    pub fn merge(args: &PlayArgs, file: PlaySettings, file_name: &str) -> Result<Settings> {
        let level = args.level.or(file.level).unwrap_or(19);
        // The menus offer 0-19; the model console (tests) starts any level up to 29.
        let top = if args.model_console.is_some() { 29 } else { 19 };
        if level > top {
            let from = if args.level.is_some() {
                "--level"
            } else {
                file_name
            };
            bail!("{from}: `level` = {level}: an A-type game starts at level 0-19");
        }
        let profile =
            args.bot
                .profile
                .apply(match (&args.bot.profile.name, &file.profile) {
                    (Some(p), _) => super::profile::resolve(p)?,
                    (None, Some(p)) => super::profile::resolve(p)
                        .with_context(|| format!("{file_name}: `profile`"))?,
                    (None, None) => Profile::default(),
                });
        let explain = args.explain.or(file.explain);
        if explain == Some(0) {
            bail!("{file_name}: `explain` = 0 would explain nothing: give 1 or more");
        }
        let games = args.games.or(file.games).unwrap_or(1);
        if games == 0 {
            bail!("`games` must be at least 1");
        }
        if file.no_run_ahead == Some(true) && file.run_ahead_from.is_some() {
            bail!("{file_name}: `no_run_ahead` = true and `run_ahead_from`: give one of them");
        }
        // An option wins over the file; the file's `no_run_ahead` wins over the default.
        let run_ahead_from = match (args.run_ahead_from, args.no_run_ahead) {
            (Some(l), _) => Some(l),
            (None, true) => None,
            (None, false) if file.no_run_ahead == Some(true) => None,
            (None, false) => Some(file.run_ahead_from.unwrap_or(RUN_AHEAD_LEVEL)),
        };
        Ok(Settings {
            level,
            games,
            pieces: args.pieces.or(file.pieces),
            frames: args.frames.or(file.frames),
            headless: args.headless || file.headless.unwrap_or(false),
            show_plan: args.show_plan || file.show_plan.unwrap_or(false),
            weights: args.bot.weights.clone().or(file.weights),
            record: args.record.clone().or(file.record),
            json: args.json || file.json.unwrap_or(false),
            allow_unknown_rom: args.rom_options.allow_unknown_rom
                || file.allow_unknown_rom.unwrap_or(false),
            addresses: args.rom_options.addresses.clone().or(file.addresses),
            profile,
            explain,
            overwrite: args.output.overwrite || file.overwrite.unwrap_or(false),
            run_ahead_from,
        })
    }

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
        // Without a weights file, the profile's set (a file by its name, as above).
        let weights = match (&self.weights, &self.profile.weights) {
            (Some(p), _) => name(p),
            (None, WeightsChoice::File(p)) => format!("{} (profile)", name(p)),
            (None, set) => format!("{set} (profile)"),
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
        c
    }
}
