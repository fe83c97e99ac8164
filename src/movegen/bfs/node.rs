//! What every kernel of the search shares: a `Node`, the `Step` a frame takes from it, the
//! `Run` (start and rules) each reads, the `Lock` it records, and the key tables they index by.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::pos::Pos;
use crate::movegen::collision::CollisionMap;
use crate::movegen::kernel::MoveSet;
use crate::movegen::profile::Rules;

/// A reachable lock: the piece locks at `at` on frame `frames` (1 = the first searched frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    /// Where the piece locks.
    pub at: Pos,
    /// Frames from the search's start to the lock frame, counting the lock frame.
    pub frames: u16,
    /// Soft-drop rows counted for points at the lock.
    pub hold_down_points: u8,
    /// The DAS counter ($46) at the end of the lock frame: the cartridge carries it to the next
    /// piece unchanged (nes-tetris.md §5.1), along the lock's path; the profiled searches
    /// prefer a charged arrival (16) at a lock under a hold profile.
    pub das: u8,
    pub(super) node: u32,
    pub(super) input: PadState,
}

#[derive(Clone, Copy)]
pub(super) struct Node {
    pub state: Active,
    pub prev: PadState,
    pub parent: u32,
    pub input: PadState,
    pub frames: u16,
}

impl Node {
    /// `state` after `held` was pressed on frame `frames`, from node `parent` (`u32::MAX` for
    /// a root, `held` being then the hold before the start).
    #[inline(always)]
    pub(super) fn new(state: Active, held: PadState, parent: u32, frames: u16) -> Node {
        Node {
            state,
            prev: held,
            parent,
            input: held,
            frames,
        }
    }
}

/// A search's start and rules, as every kernel reads them.
pub(super) struct Run<'a> {
    pub start: Active,
    /// One root per hold before the start (several for a spawn's chosen entry hold).
    pub roots: &'a [PadState],
    /// Frames per row, at least 1.
    pub speed: u8,
    pub map: &'a CollisionMap,
    pub moves: MoveSet,
    pub rules: Rules,
}

/// A state a node's frame reached, still falling.
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub state: Active,
    pub held: PadState,
    pub newly: PadState,
    pub parent: u32,
    pub frames: u16,
}

/// Orientation id → slot 0..3 within its piece.
pub(super) const SLOT: [u8; 19] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0, 0, 1, 0, 1, 2, 3, 0, 1];

/// Candidate button sets per frame, in tie-break order (fewer presses first).
pub(super) const CANDIDATES: [u8; 12] = [
    0x00, // nothing
    0x02, // Left
    0x01, // Right
    0x80, // A
    0x40, // B
    0x82, // Left + A
    0x81, // Right + A
    0x42, // Left + B
    0x41, // Right + B
    0x04, // Down
    0x84, // Down + A
    0x44, // Down + B
];

/// Held-button bits that matter to the key: Right, Left, B, A (tapped) → bits 0-3.
#[inline(always)]
pub(super) fn tapped_bits(p: PadState) -> usize {
    ((p.0 & 0x03) | ((p.0 >> 4) & 0x0C)) as usize
}
