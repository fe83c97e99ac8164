//! Subcommand implementations for the `nestor` binary, one file per command group.

pub mod trace;
