//! The planner: gravity-aware gamepad-state BFS over the current and next piece, the
//! evaluation of the boards it reaches, and the plan of buttons it returns.

pub mod bfs;
pub mod clock;
pub mod collision;
pub mod column_reach;
pub mod crash_guard;
pub mod eval;
pub mod explain;
pub mod features;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod follow;
pub mod kernel;
pub mod locks;
pub mod pairs;
pub mod piece_log;
pub mod plan;
pub mod profile;
pub mod profile_check;
#[cfg(test)]
mod profile_tests;
pub mod rank;
pub mod reach;
mod reference;
pub mod third;
pub mod weights;

/// Test oracles for benches and integration tests, not part of the planner's interface: the
/// two-piece planner as it was before the fast kernels (`ReferencePlanner`).
#[doc(hidden)]
pub mod testing {
    pub use super::reference::ReferencePlanner;
}

pub use bfs::{Bfs, Lock, MoveSet};
pub use collision::CollisionMap;
pub use eval::{Evaluator, PairOutcome, Placement, ReachTables, Standard};
pub use plan::{Plan, Planner, Situation};
pub use profile::{PieceProgress, Profile, Shift, Timeline};
pub use weights::{Phase, PhaseWeights, Weights};
