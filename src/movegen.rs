//! Move generation below the planner: which places a piece can lock in from a start state under
//! a player profile (the lock query), with or without the buttons that reach each one.

mod bfs;
mod collision;
mod column_reach;
#[cfg(test)]
pub(crate) mod fixtures;
mod kernel;
mod locks;
pub mod prefix;
pub mod profile;
pub mod profile_check;
mod reach;
mod ring;
mod soft_drop;

pub use bfs::Lock;
#[cfg(test)]
pub(crate) use collision::CollisionMap;
pub use column_reach::ReachTable;
pub use kernel::{LockQuery, MoveSet};
pub use locks::LockSets;
pub use profile::{PieceProgress, Profile, Shift, Timeline};
pub use reach::ReachLock;
pub(crate) use soft_drop::SoftDrop;
pub use soft_drop::Softened;
