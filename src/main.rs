//! The `nestor` command line: the clap definitions of every subcommand and its options;
//! the work lives in the library and in `cli/`, one file per command group.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use nestor::lab::batch::DEFAULT_MAX_LINES;

/// `tune`'s default line cap: past level 29 from a level-19 start (230 lines), so every phase
/// is played, yet short enough that a candidate costs seconds.
const TUNE_MAX_LINES: u32 = 300;
use nestor::lab::objective::Objective;
use nestor::lab::shard::ShardSpec;
use nestor::lab::Until;

mod cli;
pub use cli::args::{ReplayArgs, TraceArgs, TraceCaptureArgs, TraceCommand};

#[derive(Parser)]
#[command(
    name = "nestor",
    version,
    about = "Plays NES Tetris, frame-exact, on the real cartridge or the built-in rules model"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The bot plays one game in the built-in rules model, drawn in the terminal (no ROM needed).
    Demo(DemoArgs),
    /// Plays many games in the rules model on all cores and prints statistics.
    Sim(SimArgs),
    /// Tunes evaluation weights by noisy cross-entropy over simulated games (resumable).
    Tune(TuneArgs),
    /// Plays the real cartridge (your own ROM file) in tetanes-core, in a window or headless.
    Play(PlayArgs),
    /// Replays an FM2 movie from power-on and prints the final score, lines and level.
    Replay(ReplayArgs),
    /// RAM traces: capture one from a movie, verify against the rules model, diff two.
    Trace(TraceArgs),
    /// Rates every placement of a recorded game against every reachable one (the coach).
    Analyze(AnalyzeArgs),
    /// You play the cartridge in a window; nestor outlines its suggestion and rates your locks.
    Assist(AssistArgs),
}

/// Options shared by everything that plans.
#[derive(Args, Clone, Debug, Default)]
pub struct BotArgs {
    /// Evaluation weights (TOML, as config/weights/default.toml).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Player profile: a preset (unlimited 30hz 20hz 15hz 13.5hz 12hz 10hz human das) or a TOML file.
    #[arg(long, value_name = "NAME|FILE", default_value = "unlimited")]
    pub profile: String,
}

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// Seed for the piece sequence (random when omitted).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draw as fast as possible instead of at 60 frames per second.
    #[arg(long)]
    pub fast: bool,
    /// Draw in a window instead of the terminal.
    #[arg(long)]
    pub window: bool,
    /// Stop after this many pieces.
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Show the top N placements of each decision with their values split by feature
    /// (terminal: under the board; window: key E toggles a side panel) [default N: 3].
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3")]
    pub explain: Option<usize>,
    #[command(flatten)]
    pub bot: BotArgs,
}

#[derive(Args, Debug, Default)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SimArgs {
    #[command(subcommand)]
    pub command: Option<SimCommand>,
    /// Play only shard K of N of the games (1 ≤ K ≤ N) and write them to --part, for a batch
    /// system; `nestor sim merge` joins the parts into the whole run's summary.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ShardSpec>,
    /// Where --shard writes its games (JSON; never overwritten) [default: sim-part-K-of-N.json].
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub part: Option<PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Play each game to: `top-out`, `level:N` (`level:29` gives the level-19 figures) or
    /// `lines:N`. Every game also stops at its top-out, crash or hang; `level:155` gives the
    /// crash-level figure of the runs that stopped there.
    #[arg(long, default_value_t = Until::TopOut)]
    pub until: Until,
    /// Stop each game after this many lines (above the lines any start needs for the rebirth,
    /// the roll-over from level 255 to 0).
    #[arg(long, default_value_t = DEFAULT_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Stop each game after this many pieces.
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per game (refused if the file exists).
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Write PNG plots (score histogram, lock heat map, survival) into this folder.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    #[command(flatten)]
    pub bot: BotArgs,
}

#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Plays two sets of weights on the same seeds and says whether one is really better.
    Compare(CompareArgs),
    /// Joins `sim --shard` parts into the summary one run on one machine gives.
    Merge(MergeArgs),
}

/// Options of a batch of games used to judge weights (compare, tune).
#[derive(Args, Clone, Debug)]
pub struct JudgeArgs {
    /// The figure games are judged by.
    #[arg(long, default_value = "lines", value_parser = parse_objective)]
    pub objective: Objective,
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// Stop each game after this many pieces (a cap that keeps long games affordable).
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Stop each game after this many lines.
    #[arg(long, default_value_t = DEFAULT_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
}

fn parse_objective(s: &str) -> Result<Objective, String> {
    s.parse()
        .map_err(|e: nestor::lab::objective::UnknownObjective| e.to_string())
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Weights A (TOML); the difference reported is A − B.
    #[arg(conflicts_with = "weights")]
    pub a: Option<PathBuf>,
    /// Weights B (TOML).
    #[arg(conflicts_with = "against")]
    pub b: Option<PathBuf>,
    /// Weights A, as an option (default: the built-in set).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Weights B, as an option (default: the built-in set).
    #[arg(long, value_name = "FILE")]
    pub against: Option<PathBuf>,
    /// Games each set plays (the same seeds for both).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    pub games: u32,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Player profile both sides play under: a preset or a TOML file (as `sim --profile`).
    #[arg(long, value_name = "NAME|FILE", default_value = "unlimited")]
    pub profile: String,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts written by `nestor sim --shard K/N`, all N of them.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per game.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Write PNG plots into this folder.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub command: Option<TuneCommand>,
    /// Continue the run saved in this state file (its settings are used; others are ignored).
    #[arg(long, value_name = "STATE")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub setup: TuneSetup,
    /// The tuned weights (TOML; never overwritten).
    #[arg(long, default_value = "tuned.toml", value_name = "FILE.toml")]
    pub out: PathBuf,
    /// Games of the final comparison against the starting weights, on seeds tuning never saw.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    pub compare_games: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
}

/// The settings of a new tuning run.
#[derive(Args, Debug)]
pub struct TuneSetup {
    /// The state file, written after every candidate and generation.
    #[arg(long, default_value = "tune-state.json", value_name = "FILE")]
    pub state: PathBuf,
    /// The figure games are judged by.
    #[arg(long, default_value = "lines", value_parser = parse_objective)]
    pub objective: Objective,
    /// Start level (0-29).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: u8,
    /// Stop each game after this many pieces.
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Stop each game after this many lines (the per-game line cap). Lower than `sim`'s: the
    /// killscreen brain plays most games to the crash level (1,000+ lines), which would make
    /// every candidate cost minutes; raise it to tune the killscreen phase.
    #[arg(long, default_value_t = TUNE_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Candidates per generation.
    #[arg(long, default_value_t = 24)]
    pub population: u32,
    /// Best candidates kept to refit the distribution [default: a quarter of the population].
    #[arg(long)]
    pub elite: Option<u32>,
    /// Generations.
    #[arg(long, default_value_t = 20)]
    pub generations: u32,
    /// Games per candidate (the same seeds for a generation's candidates, new each generation).
    #[arg(long, default_value_t = 30)]
    pub games: u32,
    /// First seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Initial standard deviation of each tuned weight.
    #[arg(long, default_value_t = 0.5)]
    pub sigma: f64,
    /// Extra variance added at each refit, decaying to 0 by the last generation.
    #[arg(long, default_value_t = 0.05)]
    pub noise: f64,
    /// Tune only this phase's weights (`[phase.NAME]` in the weights file).
    #[arg(long, value_name = "NAME")]
    pub phase: Option<String>,
    /// Starting weights (TOML; default: the built-in set).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// The profile the candidates play: a preset or a TOML file (kept in the state file).
    #[arg(long, value_name = "NAME|FILE", default_value = "unlimited")]
    pub profile: String,
}

/// One step of a run driven by a batch system; each reads and advances the state file.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Writes a new state file with generation 0's candidates.
    Init(TuneSetup),
    /// Scores shard K of N of the current generation's candidates into a scores file.
    Score {
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        #[arg(long, value_name = "K/N")]
        shard: ShardSpec,
        /// The scores file (JSON; never overwritten).
        #[arg(long, value_name = "FILE.json")]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        threads: Option<u64>,
    },
    /// Reads every shard's scores, ends the generation and draws the next one's candidates.
    Gather {
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        #[arg(required = true)]
        scores: Vec<PathBuf>,
    },
    /// Writes the tuned weights and compares them with the starting ones on fresh seeds.
    Finish {
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        /// The tuned weights (TOML; never overwritten).
        #[arg(long, default_value = "tuned.toml", value_name = "FILE.toml")]
        out: PathBuf,
        /// Games of the final comparison.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
        compare_games: u32,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        threads: Option<u64>,
    },
}

#[derive(Args, Debug, Default)]
pub struct PlayArgs {
    /// The cartridge: your own "Tetris (U) [!].nes".
    #[arg(required_unless_present = "model_console")]
    pub rom: Option<PathBuf>,
    /// Settings file (TOML, same keys as these options; see config/play.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Run without a window, as fast as the emulator goes.
    #[arg(long)]
    pub headless: bool,
    /// Start level (0-19) [default: 19].
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=29))]
    pub level: Option<u8>,
    /// Games to play (back to the level menu after each game over) [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Stop after this many pieces.
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Stop after this many frames.
    #[arg(long)]
    pub frames: Option<u64>,
    /// Evaluation weights (TOML).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Player profile: a preset (unlimited 30hz 20hz 15hz 13.5hz 12hz 10hz human das) or a TOML
    /// file [default: unlimited].
    #[arg(long, value_name = "NAME|FILE")]
    pub profile: Option<String>,
    /// Outline the planned lock position on the playfield.
    #[arg(long)]
    pub show_plan: bool,
    /// Record every button pressed, from power-on, as an FCEUX movie.
    #[arg(long, value_name = "OUT.fm2")]
    pub record: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Play a well-formed ROM whose hash is not the known Tetris (U) [!] dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
    /// RAM map (TOML, as addresses.toml).
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
    /// Testing: play the rules model (seeded with SEED) through the same driver instead of a
    /// cartridge; no ROM, no window (unless --model-window). Each further game: the next seed.
    #[arg(long, hide = true, value_name = "SEED")]
    pub model_console: Option<u64>,
    /// Testing: show the model console in a window (nestor's board picture, not the NES's).
    #[arg(long, hide = true, requires = "model_console")]
    pub model_window: bool,
    /// Testing: corrupt this share (0-1) of the frames' pads on the way to the console (a
    /// press dropped, delayed a frame, or a button added); every desync is re-planned.
    #[arg(long, hide = true, value_name = "RATE", value_parser = cli::play::fault_rate)]
    pub inject_faults: Option<f64>,
    /// Testing: wait this many microseconds after each model-console frame, so that a test can
    /// interrupt a game that is still running however fast the machine is.
    #[arg(
        long,
        hide = true,
        value_name = "MICROSECONDS",
        requires = "model_console"
    )]
    pub model_frame_delay_us: Option<u64>,
    /// After each decision, print its top N placements with their values split by feature
    /// (on stderr, a JSON line each with --json; in the window, a panel E hides) [default N: 3].
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3")]
    pub explain: Option<usize>,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The cartridge, then the FM2 movie (a person's game from FCEUX, or one nestor recorded).
    #[arg(value_name = "ROM MOVIE.fm2", num_args = 1..=2, required = true)]
    pub files: Vec<PathBuf>,
    /// Print the summary, the worst placements and one row per piece as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per piece (refused if the file exists).
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Write PNG pictures into this folder: value loss per piece, accuracy per level, and each
    /// of the worst placements on its board with the best one outlined.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// For each of the worst placements, the top N placements and the played one with their
    /// values split by feature (N defaults to 3).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3")]
    pub explain: Option<usize>,
    /// Class thresholds and report settings (TOML, as config/coach.toml).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    #[command(flatten)]
    pub bot: BotArgs,
    /// Analyse even if the movie's ROM checksum is not this ROM's.
    #[arg(long)]
    pub force: bool,
    /// Accept a well-formed ROM whose hash is not the known dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
    /// RAM map (TOML, as addresses.toml).
    #[arg(long, value_name = "FILE")]
    pub addresses: Option<PathBuf>,
    /// Testing: replay the movie on the rules model seeded with SEED (as `play
    /// --model-console SEED` records it) instead of a cartridge; give only the movie.
    #[arg(long, hide = true, value_name = "SEED")]
    pub model_console: Option<u64>,
    /// Testing: the model console's start level.
    #[arg(long, hide = true, default_value_t = 19)]
    pub model_level: u8,
}

#[derive(Args, Debug)]
pub struct AssistArgs {
    /// The cartridge: your own "Tetris (U) [!].nes".
    #[arg(required_unless_present = "model_console")]
    pub rom: Option<PathBuf>,
    /// Record every button pressed, from power-on, as an FCEUX movie (refused if it exists).
    #[arg(long, value_name = "OUT.fm2")]
    pub record: Option<PathBuf>,
    /// Keys and class thresholds (TOML, as config/coach.toml).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    #[command(flatten)]
    pub bot: BotArgs,
    /// Accept a well-formed ROM whose hash is not the known dump.
    #[arg(long)]
    pub allow_unknown_rom: bool,
    /// Testing: play the rules model seeded with SEED instead of a cartridge (no ROM).
    #[arg(long, hide = true, value_name = "SEED")]
    pub model_console: Option<u64>,
    /// Testing: the model console's start level.
    #[arg(long, hide = true, default_value_t = 19)]
    pub model_level: u8,
    /// Testing: stop after this many frames.
    #[arg(long, hide = true)]
    pub frames: Option<u64>,
}

/// Output piped into `head` and the like: end quietly when the reader goes away, as other
/// command-line tools do, instead of panicking on the failed write.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn default_sigpipe() {}

/// The error and its causes on one line, each cause only once: the library's errors already
/// quote their source in their own message.
fn error_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn main() -> ExitCode {
    default_sigpipe();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => cli::demo::run(&args),
        Command::Sim(args) => match &args.command {
            Some(SimCommand::Compare(c)) => cli::compare::run(c),
            Some(SimCommand::Merge(m)) => cli::shard::merge(m),
            None if args.shard.is_some() => cli::shard::run_part(&args),
            None => cli::sim::run(&args),
        },
        Command::Tune(args) => cli::tune::run(&args),
        Command::Play(args) => cli::play::run(&args),
        Command::Replay(args) => cli::replay::run(&args),
        Command::Analyze(args) => cli::analyze::run(&args),
        Command::Assist(args) => cli::assist::run(&args),
        Command::Trace(args) => match args.command {
            Some(TraceCommand::Verify { files, json }) => cli::trace::verify(&files, json),
            Some(TraceCommand::Diff { a, b, json }) => cli::trace::diff(&a, &b, json),
            None => cli::trace::capture(&args.capture),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}
