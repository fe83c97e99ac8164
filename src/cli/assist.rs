//! `nestor assist ROM`: a person plays the cartridge in the window (feature `window`) with the
//! keyboard or a gamepad; nestor outlines its suggestion and rates each lock the player makes.

use std::process::ExitCode;

use anyhow::{anyhow, Result};

use clap::Args;
use std::path::PathBuf;

use super::args::{
    BotArgs, CoachSettingsArg, ModelConsoleArgs, OverwriteArg, RomArg, UnknownRomArg,
    ROM_HELP_TEMPLATE,
};
use nestor::ui::keypad::Keypad;

#[cfg(feature = "window")]
#[path = "assist_window.rs"]
mod window;
#[cfg(feature = "window")]
use window::in_window;

#[derive(Args, Debug)]
#[command(
    override_usage = "nestor assist [OPTIONS] <ROM>",
    help_template = ROM_HELP_TEMPLATE
)]
pub struct AssistArgs {
    #[command(flatten)]
    pub cartridge: RomArg,
    /// Record every button pressed, from power-on, as an FCEUX movie.
    #[arg(long, value_name = "OUT.fm2")]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub settings: CoachSettingsArg,
    #[command(flatten)]
    pub bot: BotArgs,
    #[command(flatten)]
    pub unknown_rom: UnknownRomArg,
    #[command(flatten)]
    pub output: OverwriteArg,
    /// Testing: play the rules model instead of a cartridge (no ROM).
    #[command(flatten)]
    pub model: ModelConsoleArgs,
    /// Testing: stop after this many frames.
    #[cfg_attr(feature = "test-hooks", arg(long, hide = true))]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    // Without the hooks only the window reads it (always `None`), and a build may lack both.
    #[cfg_attr(not(feature = "test-hooks"), allow(dead_code))]
    pub frames: Option<u64>,
}

pub fn run(args: &AssistArgs) -> Result<ExitCode> {
    let settings = args.settings.load()?;
    let file = args
        .settings
        .settings
        .as_ref()
        .map_or("config/coach.toml (built in)".into(), |p| {
            p.display().to_string()
        });
    let keypad = Keypad::new(&settings.keys).map_err(|e| anyhow!("{file}: [keys] {e}"))?;
    // The person's profile, ranked with its own weight set unless --weights replaces it.
    let bot = args.bot.resolve()?;
    log::info!(
        "profile {}, weights {}",
        bot.profile.describe(),
        bot.weights_source
    );
    in_window(args, settings, &file, keypad, bot)
}

/// Without the window there is nothing to play in.
#[cfg(not(feature = "window"))]
fn in_window(
    _args: &AssistArgs,
    _settings: nestor::coach::CoachSettings,
    _file: &str,
    _keypad: Keypad,
    _bot: super::args::Bot,
) -> Result<ExitCode> {
    Err(super::view::window_needed("`nestor assist`"))
}
