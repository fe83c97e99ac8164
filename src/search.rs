//! The planner: gravity-aware gamepad-state BFS over the current and next piece, the
//! evaluation of the boards it reaches, and the plan of buttons it returns.

pub mod bfs;
pub mod collision;
pub mod column_reach;
pub mod eval;
pub mod explain;
pub mod follow;
pub mod locks;
pub mod piece_log;
pub mod plan;
pub mod profile;
pub mod profile_check;
#[cfg(test)]
mod profile_tests;
pub mod rank;
pub mod reach;
pub mod reference;
pub mod third;
pub mod weights;

pub use bfs::{Bfs, Lock, MoveSet};
pub use collision::CollisionMap;
pub use eval::{Evaluator, PairOutcome, Placement, Standard};
pub use plan::{Plan, Planner, Situation};
pub use profile::{PieceProgress, Profile, Shift, Timeline};
pub use weights::{Phase, PhaseWeights, Weights};
