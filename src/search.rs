//! The planner: the current and next piece's locks (from `movegen`) paired and valued, the
//! third piece's re-rank, the crash guard, and the plan of buttons it returns.

pub mod adjust;
pub mod clock;
pub mod crash_guard;
pub mod eval;
pub mod explain;
pub mod features;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod follow;
pub mod pairs;
pub mod piece_log;
pub mod plan;
#[cfg(test)]
mod profile_tests;
pub mod rank;
mod reference;
pub mod third;
pub mod weights;

/// Test oracles for benches and integration tests, not part of the planner's interface: the
/// two-piece planner as it was before the fast kernels (`ReferencePlanner`).
#[doc(hidden)]
pub mod testing {
    pub use super::reference::ReferencePlanner;
}

/// The player profile the planner plays under; it lives with the lock searches, which read
/// its input timeline.
pub use crate::movegen::profile;
pub use crate::movegen::{PieceProgress, Profile};
pub use eval::{Evaluator, PairOutcome, ReachTables, Standard};
pub use plan::{Plan, Planner, Situation};
pub use weights::{Phase, PhaseWeights, Weights};
