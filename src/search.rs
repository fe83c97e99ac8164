//! The planner: scores (current, next) placement pairs and picks one; this file only wires
//! the submodules together (evaluation and its tunable weights).

pub mod eval;
pub mod weights;
