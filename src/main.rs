//! The `nestor` command line: the subcommands and their dispatch; each command's options
//! live with its code in `cli/<command>.rs`, the groups several share in `cli/args.rs`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(
    name = "nestor",
    version,
    about = "Plays NES Tetris, frame-exact, on the real cartridge or the built-in rules model",
    after_help = cli::args::RULES_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The bot plays one game in the built-in rules model, drawn in the terminal (no ROM needed).
    Demo(cli::demo::DemoArgs),
    /// Plays many games in the rules model on all cores and prints statistics.
    Sim(cli::sim_command::SimCommandArgs),
    /// Tunes evaluation weights by noisy cross-entropy over simulated games (resumable).
    Tune(cli::tune::TuneArgs),
    /// Learns a phase's board value from self-play in the rules model (play, fit, play again)
    Learn(cli::learn::LearnArgs),
    /// Plays the real cartridge (your own ROM file) in tetanes-core, in the window (--features
    /// window) or the terminal, or headless.
    Play(cli::play::PlayArgs),
    /// Plays many games on the real cartridge in parallel jobs, keeps each as a movie, and
    /// prints the figures `sim` gives past level 155 (resumable).
    Cartridge(cli::cartridge::CartridgeArgs),
    /// Replays FM2 movies in real FCEUX (headless, under xvfb-run) and says whether the game
    /// froze there, and where.
    FceuxReplay(cli::fceux_replay::FceuxReplayArgs),
    /// Replays an FM2 movie from power-on and prints the final score, lines and level.
    Replay(cli::replay::ReplayArgs),
    /// RAM traces: capture one from a movie, verify against the rules model, diff two.
    Trace(cli::trace::TraceArgs),
    /// Rates every placement of a recorded game against every reachable one (the coach).
    Analyze(cli::analyze::AnalyzeArgs),
    /// You play the cartridge in the window (--features window); nestor outlines its suggestion
    /// and rates your locks.
    Assist(cli::assist::AssistArgs),
    /// Plays inside another emulator (FCEUX: load lua/nestor-fceux.lua) over pipes or loopback TCP.
    #[cfg(unix)]
    Serve(cli::serve::ServeArgs),
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
    cli::log_hold::init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => cli::demo::run(&args),
        Command::Sim(args) => cli::sim_command::dispatch(&args),
        Command::Tune(args) => cli::tune::run(&args),
        Command::Learn(args) => cli::learn::run(&args),
        Command::Play(args) => cli::play::run(&args),
        Command::Cartridge(args) => cli::cartridge::run(&args),
        Command::FceuxReplay(args) => cli::fceux_replay::run(&args),
        Command::Replay(args) => cli::replay::run(&args),
        Command::Analyze(args) => cli::analyze::run(&args),
        Command::Assist(args) => cli::assist::run(&args),
        #[cfg(unix)]
        Command::Serve(args) => cli::serve::run(&args),
        Command::Trace(args) => cli::trace::dispatch(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            // One rule for a bad command line, whether clap or nestor's own check found it.
            if e.chain().any(|c| c.is::<cli::args::BadArgument>()) {
                eprintln!("\nFor more information, try '--help'.");
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
