//! Subcommand implementations for the `nestor` binary, one file per command group;
//! they parse nothing themselves (main.rs holds the clap definitions) and report with anyhow.

pub mod demo;
pub mod play;
pub mod plots;
pub mod progress;
pub mod replay;
pub mod sim;
pub mod trace;
