//! The rows search's nodes on the empty board kept per start: the ring a `Bfs` owns, which
//! `rows_resume.rs` fills and resumes from.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::movegen::ring::Ring;

use super::node::Node;
use super::rows_shape::{Depth, Fit};

/// Starts kept: the seven pieces at two gravities, each with a few DAS counters (the counter
/// a lock leaves carries to the next spawn).
pub(super) const OPEN_KEYS: usize = 32;

/// One start's search on the empty board.
pub(super) struct Open {
    pub(super) key: (Active, PadState, u8),
    pub(super) fit: Fit,
    pub(super) nodes: Vec<Node>,
    pub(super) depths: Vec<Depth>,
}

/// The empty-board searches of the last few starts (a `Bfs`'s own, allocated as starts come).
#[derive(Default)]
pub(super) struct Opens {
    pub(super) opens: Ring<Open>,
    /// Never keep nor resume (`Bfs::once`): a search run once per start would pay the
    /// empty board's search on top of its own.
    pub(super) off: bool,
}
