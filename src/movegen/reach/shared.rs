//! The reference searches `Reach::share_timeline` keeps, one per piece, and the start they are
//! keyed by (`TimelineStart`), which a `Reach` owns for `resume.rs`.

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::{Orientation, Piece};
use crate::movegen::profile::Timeline;

use super::lock::ReachLock;

/// The search's state before one frame, and how many locks were found before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub m: u64,
    /// The locks found so far on the current row.
    pub seen: u64,
    pub y: u8,
    pub fall: u8,
    pub frames: u16,
    pub locks: u16,
}

/// Where a timeline search starts: the piece (nothing held), its gravity, the timeline and
/// the frame of the piece the timeline is counted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineStart {
    pub start: Active,
    pub speed: u8,
    pub timeline: Timeline,
    pub offset: u32,
}

/// One piece's search on the reference board.
#[derive(Clone, Debug, Default)]
pub(super) struct Reference {
    pub(super) key: Option<TimelineStart>,
    pub(super) board: Board,
    pub(super) fit: Vec<u64>,
    pub(super) ids: [Orientation; 4],
    pub(super) turns: usize,
    pub(super) steps: Vec<Step>,
    pub(super) locks: Vec<ReachLock>,
}

/// The reference searches, one per piece (`Reach::share_timeline`).
#[derive(Clone, Debug)]
pub(super) struct Shared {
    pub(super) pieces: Vec<Reference>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            pieces: vec![Reference::default(); Piece::NUM],
        }
    }
}

impl TimelineStart {
    /// The start of `search_timeline`'s query, if that search models it and nothing is held.
    pub fn new(
        start: Active,
        prev: PadState,
        speed: u8,
        timeline: Timeline,
        offset: u32,
    ) -> Option<TimelineStart> {
        let speed = speed.max(1);
        let modelled = timeline != Timeline::Unlimited
            && prev == PadState::NONE
            && start.ary == 0
            && start.x < 10
            && (start.y as usize) < BOARD_ROWS
            && start.fall_timer < speed
            && Orientation::new(start.id).is_some();
        modelled.then_some(TimelineStart {
            start,
            speed,
            timeline,
            offset,
        })
    }

    pub(super) fn piece(&self) -> usize {
        Orientation::new(self.start.id).map_or(0, |o| o.piece().index())
    }
}
