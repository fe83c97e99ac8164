//! `nestor sim` and its subcommands (`compare`, `merge`) and which one runs: the top of the
//! batch commands, so `sim.rs`, `compare.rs` and `shard.rs` never import each other back.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::compare::CompareArgs;
use super::shard::MergeArgs;
use super::sim::SimArgs;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SimCommandArgs {
    #[command(subcommand)]
    pub command: Option<SimCommand>,
    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Plays two sets of weights on the same seeds and says whether one is really better.
    Compare(CompareArgs),
    /// Joins `sim --shard` parts into the summary one run on one machine gives.
    Merge(MergeArgs),
}

/// `nestor sim`, `sim compare`, `sim merge` and `sim --shard`.
pub fn dispatch(args: &SimCommandArgs) -> Result<ExitCode> {
    match &args.command {
        Some(SimCommand::Compare(c)) => super::compare::run(c),
        Some(SimCommand::Merge(m)) => super::shard::merge(m),
        None if args.sim.shard.is_some() => super::shard::run_part(&args.sim),
        None => super::sim::run(&args.sim),
    }
}
