//! The coach: rates a person's placements against the planner's ranking, frame by frame from
//! a console's RAM (a replayed movie, or a game being played), and summarises the ratings.

pub mod advice;
pub mod analysis;
pub mod classes;
pub mod summary;

pub use advice::Advice;
pub use analysis::{AnalysisError, Analyzer, Moment, Observed, Rating, Verdict};
pub use classes::{Class, CoachSettings, SettingsError, Thresholds};
pub use summary::Summary;

#[cfg(test)]
mod tests;
