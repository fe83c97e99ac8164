//! The planner: gravity-aware gamepad-state BFS over the current and next piece, the
//! evaluation of the boards it reaches, and the plan of buttons it returns.

pub mod bfs;
pub mod collision;
pub mod eval;
pub mod plan;
pub mod selfplay;

pub use bfs::{Bfs, Lock, MoveSet};
pub use collision::CollisionMap;
pub use eval::{Evaluator, PairOutcome, Placement};
pub use plan::{Plan, Planner, Situation};
