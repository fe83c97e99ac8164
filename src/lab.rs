//! The lab: batch self-play in the rules model, its statistics, shards and their merge, weight
//! tuning and the objectives it optimises; above `search/` and `nes/`, below `ui/` and the CLI.

pub mod batch;
pub mod decision_time;
pub mod objective;
pub mod selfplay;
pub mod shard;
pub mod stats;
pub mod tune;
pub mod until;

pub use until::{End, Until};

#[cfg(test)]
mod profile_play_tests;
