//! The lab: self-play batches in the rules model and on the cartridge, their statistics, shards,
//! weight tuning and the objectives it optimises; above `search/` and `nes/`, below `ui/`.

pub mod batch;
pub mod cartridge;
pub mod decision_time;
mod game_stats;
pub mod learn;
pub mod objective;
pub mod selfplay;
pub mod shard;
pub mod stats;
pub mod tune;
pub mod until;

pub use until::{End, Until};

#[cfg(test)]
mod profile_play_tests;
