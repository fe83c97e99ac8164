//! The planner: gravity-aware gamepad-state BFS over the current and next piece, the
//! evaluation of the boards it reaches, and the plan of buttons it returns.

pub mod batch;
pub mod bfs;
pub mod collision;
pub mod column_reach;
pub mod crash_guard;
pub mod eval;
pub mod explain;
pub mod locks;
pub mod objective;
pub mod plan;
pub mod profile;
pub mod profile_check;
#[cfg(test)]
mod profile_tests;
pub mod rank;
pub mod reach;
pub mod reference;
pub mod selfplay;
pub mod shard;
pub mod stats;
pub mod third;
pub mod tune;
pub mod until;
pub mod weights;

pub use bfs::{Bfs, Lock, MoveSet};
pub use collision::CollisionMap;
pub use eval::{Evaluator, PairOutcome, Placement, Standard};
pub use plan::{Plan, Planner, Situation};
pub use profile::{PieceProgress, Profile, Shift, Timeline};
pub use until::{End, Until};
pub use weights::{Phase, PhaseWeights, Weights};
