//! Option groups several commands share, declared once and flattened into each command's
//! arguments (`cli/<command>.rs`): ROM options, weights and profile, the model console, outputs.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;
use nestor::movegen::profile::Profile;
use nestor::search::Weights;

/// A command line nestor's own checks refused (a value clap let through, a missing file
/// argument): it exits 2, as clap's own refusals do.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadArgument(pub String);

/// A [`BadArgument`] as the commands return their errors.
pub fn bad_argument(message: impl Into<String>) -> anyhow::Error {
    BadArgument(message.into()).into()
}

/// What `nestor --help` says of the rules every command follows.
pub const RULES_HELP: &str = "\
Outputs: an existing file is refused unless --overwrite is given; a symbolic link is written \
through (the file it names is replaced, or created if the link dangles), never replaced; \
/dev/stdout, /dev/null and FIFOs are written as streams; every output is checked before the \
run, and no two outputs of a run may be one file. New files follow the umask; a replaced file \
keeps its mode.
Inputs: regular files only (a FIFO or a device is refused at once), with a size bound.
Exit codes: 0 done; 1 error, or a result that failed (desyncs, a trace mismatch, traces \
that differ); 2 bad command line (whether clap or nestor's own check finds it); 130 interrupted \
(Ctrl-C or SIGTERM) after saving what was done.";

/// The help of a command with a [`RomArg`]: its line written out, as required.
pub const ROM_HELP_TEMPLATE: &str = "{about-with-newline}\n{usage-heading} {usage}\n\nArguments:\n  <ROM>  The cartridge: your own \"Tetris (U) [!].nes\"\n\n{all-args}{after-help}";

/// The cartridge of a command the hidden test console (`--model-console`) can stand in for.
/// clap would show it as optional (`[ROM]`): it is hidden, and the command writes its usage
/// (`override_usage`) and its line ([`ROM_HELP_TEMPLATE`]) out instead.
#[derive(Args, Clone, Debug, Default)]
pub struct RomArg {
    /// The cartridge: your own "Tetris (U) [!].nes".
    #[cfg_attr(
        feature = "test-hooks",
        arg(
            required_unless_present = "model_console",
            value_name = "ROM",
            hide = true
        )
    )]
    #[cfg_attr(
        not(feature = "test-hooks"),
        arg(required = true, value_name = "ROM", hide = true)
    )]
    pub rom: Option<PathBuf>,
}

/// `--allow-unknown-rom`, for every command that loads a cartridge.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct UnknownRomArg {
    /// Accept a well-formed ROM whose hash is not the known Tetris (U) [!] dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
}

/// The options of a command that reads the cartridge's RAM.
#[derive(Args, Clone, Debug, Default)]
pub struct RomOptions {
    #[command(flatten)]
    pub unknown: UnknownRomArg,
    /// RAM map (TOML, as addresses.toml) [default: the built-in map].
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
}

/// The options of a command that replays a movie on the cartridge.
#[derive(Args, Clone, Debug, Default)]
pub struct ReplayRomOptions {
    /// Go on even if the movie's ROM checksum is not this ROM's.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub rom: RomOptions,
}

/// `--settings`: the coach's settings file, for the commands that rate placements.
#[derive(Args, Clone, Debug, Default)]
pub struct CoachSettingsArg {
    /// Coach settings: keys, class thresholds and report settings (TOML, as
    /// config/coach.toml) [default: the shipped settings].
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

impl CoachSettingsArg {
    /// The settings file given, or the shipped settings.
    pub fn load(&self) -> anyhow::Result<nestor::coach::CoachSettings> {
        Ok(match &self.settings {
            Some(p) => nestor::coach::CoachSettings::load(p)?,
            None => nestor::coach::CoachSettings::default(),
        })
    }
}

/// The help of `--profile`, naming the presets from `PRESETS` itself.
fn profile_help() -> String {
    format!(
        "Player profile: a preset ({}) or a TOML file [default: unlimited]",
        nestor::movegen::profile::PRESETS
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A whole number on the command line, checked by the profile reader's own bound and message
/// (`check`); `what` names it when it is no number.
fn profile_number(
    s: &str,
    what: &str,
    check: fn(i64) -> Result<u16, String>,
) -> Result<u16, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not {what}"))?;
    check(n)
}

/// `serve --tcp ADDR`: an address (`127.0.0.1:7157`) or a host name and port
/// (`localhost:7157`), resolved once, an IPv4 address preferred.
pub fn parse_tcp(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let addrs: Vec<_> = text
        .to_socket_addrs()
        .map_err(|e| format!("`{text}`: {e} (give HOST:PORT, e.g. 127.0.0.1:7157)"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("`{text}`: the name has no address"))
}

/// `--reaction FRAMES`.
fn parse_reaction(s: &str) -> Result<u16, String> {
    profile_number(
        s,
        "a number of frames",
        nestor::movegen::profile::delay_frames,
    )
}

/// `--blind-placements N`.
fn parse_blind_placements(s: &str) -> Result<u16, String> {
    profile_number(
        s,
        "a count of placements",
        nestor::movegen::profile::blind_placements,
    )
}

/// `--adjust continue|restart`.
fn parse_adjust(s: &str) -> Result<nestor::movegen::profile::Adjust, String> {
    nestor::movegen::profile::Adjust::parse(s)
}

/// `--profile`, `--reaction`, `--blind-placements` and `--adjust`, for commands whose weights
/// options differ (`sim compare`).
#[derive(Args, Clone, Debug, Default)]
pub struct ProfileArg {
    #[arg(long = "profile", value_name = "NAME|FILE", help = profile_help())]
    pub name: Option<String>,
    /// Reaction time in frames (0-600), replacing the profile's `reaction`: frames after a
    /// spawn before the plan may use the new next piece [default: the profile's].
    #[arg(long, value_name = "FRAMES", value_parser = parse_reaction, allow_negative_numbers = true)]
    pub reaction: Option<u16>,
    /// Before the reaction, how many placements the plan weighs against the seven next pieces
    /// (0: every one), replacing the profile's `blind_placements` [default: the profile's].
    #[arg(long, value_name = "N", value_parser = parse_blind_placements, allow_negative_numbers = true)]
    pub blind_placements: Option<u16>,
    /// How the re-plan at the reaction times its taps, replacing the profile's `adjust`:
    /// `continue` (the spawn's tap table goes on) or `restart` (BetaTetris's rule: the table
    /// starts again at the reaction, or at the spawn table's next tap after the last one when
    /// later) [default: the profile's].
    #[arg(long, value_name = "RULE", value_parser = parse_adjust)]
    pub adjust: Option<nestor::movegen::profile::Adjust>,
}

impl ProfileArg {
    /// The profile asked for, `unlimited` when none was.
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("unlimited")
    }

    /// The profile asked for, with `--reaction`, `--blind-placements` and `--adjust` applied.
    pub fn resolve(&self) -> anyhow::Result<nestor::movegen::profile::Profile> {
        Ok(self.apply(super::profile::resolve(self.name())?))
    }

    /// `--reaction`, `--blind-placements` and `--adjust` applied to a profile found elsewhere
    /// (`play`'s settings file).
    pub fn apply(
        &self,
        mut profile: nestor::movegen::profile::Profile,
    ) -> nestor::movegen::profile::Profile {
        if let Some(r) = self.reaction {
            profile.reaction = r;
        }
        if let Some(n) = self.blind_placements {
            profile.blind_placements = n;
        }
        if let Some(a) = self.adjust {
            profile.adjust = a;
        }
        profile
    }
}

/// The help of `--weights`, on every command that plans (`serve` included).
pub const WEIGHTS_HELP: &str = "Evaluation weights (TOML, as config/weights/default.toml), \
replacing the set the profile is paired with (its `weights` key) [default: the profile's set; \
the built-in default set for a profile without one]";

/// Options shared by everything that plans: the weights and the player profile.
#[derive(Args, Clone, Debug, Default)]
pub struct BotArgs {
    #[arg(long, value_name = "FILE", help = WEIGHTS_HELP)]
    pub weights: Option<PathBuf>,
    #[command(flatten)]
    pub profile: ProfileArg,
}

/// What a planning command plays with: the profile, its weights and where they came from.
#[derive(Clone, Debug)]
pub struct Bot {
    pub profile: Profile,
    pub weights: Weights,
    /// Which set, for summaries and JSON: `FILE (--weights)` or `SET (profile NAME)`.
    pub weights_source: String,
}

impl BotArgs {
    /// `--profile` (with `--reaction`) and the weights: `--weights` if given, else the
    /// profile's set.
    pub fn resolve(&self) -> anyhow::Result<Bot> {
        self.with_profile(
            self.profile.resolve()?,
            &format!("--profile {}", self.profile.name()),
        )
    }

    /// The weights for a profile found elsewhere (`play`'s settings file); `origin` says where
    /// the profile came from in the error of a bad paired weights file.
    pub fn with_profile(&self, profile: Profile, origin: &str) -> anyhow::Result<Bot> {
        self.with_profile_and_file(profile, origin, self.weights.as_deref(), "--weights")
    }

    /// As [`BotArgs::with_profile`], with the weights file `file` (named by `flag`) in place of
    /// `--weights`.
    pub fn with_profile_and_file(
        &self,
        profile: Profile,
        origin: &str,
        file: Option<&std::path::Path>,
        flag: &str,
    ) -> anyhow::Result<Bot> {
        let (weights, weights_source) = match file {
            Some(p) => (
                Weights::load(p).map_err(|e| anyhow!("{flag}: {e}"))?,
                format!("{} ({flag})", p.display()),
            ),
            None => (
                profile
                    .weights
                    .load()
                    .map_err(|e| anyhow!("{origin}: `weights`: {e}"))?,
                format!("{} (profile {})", profile.weights, profile.name),
            ),
        };
        Ok(Bot {
            profile,
            weights,
            weights_source,
        })
    }
}

/// Testing: the rules model stands in for the cartridge, seeded (no ROM, no window).
#[derive(Args, Clone, Debug, Default)]
pub struct ModelConsoleArgs {
    /// Testing: use the rules model seeded with SEED instead of a cartridge (as `play
    /// --model-console SEED` records it).
    #[cfg_attr(feature = "test-hooks", arg(long, hide = true, value_name = "SEED"))]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip))]
    pub model_console: Option<u64>,
    /// Testing: the model console's start level.
    #[cfg_attr(feature = "test-hooks", arg(long, hide = true, default_value_t = 19))]
    #[cfg_attr(not(feature = "test-hooks"), arg(skip = 19))]
    pub model_level: u8,
}

/// The one overwrite rule, flattened into every command that writes a file.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OverwriteArg {
    /// Replace output files that already exist (without it an existing file is refused before
    /// the run; a link is written through, never replaced).
    #[arg(long)]
    pub overwrite: bool,
}

/// The options of a command that plays the cartridge (`play`, `cartridge`): the bot, the
/// cartridge's checks and addresses, and the overwrite rule.
#[derive(Args, Clone, Debug, Default)]
pub struct CartridgePlayArgs {
    #[command(flatten)]
    pub bot: BotArgs,
    #[command(flatten)]
    pub rom_options: RomOptions,
    #[command(flatten)]
    pub output: OverwriteArg,
}

/// The summary and files of a batch of games (`sim`, `sim merge`).
#[derive(Args, Clone, Debug, Default)]
pub struct ReportArgs {
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per game.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Write PNG plots into this folder (created if missing): scores.png, locks.png, rows.png,
    /// survival.png.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
}

impl BotArgs {
    /// The files these options read (weights, a profile file), which no output may be.
    pub fn inputs(&self) -> Vec<nestor::io::Input<'_>> {
        let mut inputs = Vec::new();
        if let Some(w) = &self.weights {
            inputs.push(("weights file", w.as_path()));
        }
        if let Some(p) = &self.profile.name {
            inputs.push(("profile file", std::path::Path::new(p.as_str())));
        }
        inputs
    }
}
