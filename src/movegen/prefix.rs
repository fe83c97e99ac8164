//! The frames before a lock search: nothing pressed until a profile's start delay on the game's
//! first piece, then the Down presses that end the first-piece delay (a piece with `ary` bit 7).

// The planner, the reference planner, the ranker and the Python bridge all search from the
// state these frames leave, so they live below all of them, once.

use crate::game::active::{Active, Control};
use crate::game::pad::{Buttons, PadState};
use crate::game::{Collide, Pos};

/// The piece before the prefix: where it is, what was held the frame before and how many of
/// its frames are played.
#[derive(Clone, Copy, Debug)]
pub struct PrefixStart {
    /// The piece in flight.
    pub active: Active,
    /// The buttons held the frame before.
    pub prev: PadState,
    /// Frames of this piece already played.
    pub frames: u16,
    /// The drop speed (frames a row).
    pub speed: u8,
}

/// What the prefix leaves: the piece, the buttons held on its last frame, and whether the
/// piece locked within it.
pub type PrefixEnd = (Active, PadState, bool);

/// Frames that end the first-piece delay: a Down press (after a release if Down is held),
/// appended to `inputs` with the piece's place after each in `expected`.
pub fn end_first_piece_delay(
    from: PrefixStart,
    map: &impl Collide,
    inputs: &mut Vec<PadState>,
    expected: &mut Vec<Pos>,
) -> PrefixEnd {
    let (mut a, mut prev) = (from.active, from.prev);
    while a.ary & 0x80 != 0 {
        let held = if prev.intersects(PadState::DOWN) {
            PadState::NONE
        } else {
            PadState::DOWN
        };
        let locked = a.frame(Buttons::after(held, prev), from.speed, map) == Control::Locked;
        prev = held;
        inputs.push(held);
        expected.push(Pos::of_searched(&a));
        if locked {
            return (a, prev, true);
        }
    }
    (a, prev, false)
}

/// The whole prefix: under a start delay, nothing pressed on the game's first piece until its
/// frame `start_delay`; then [`end_first_piece_delay`].
pub fn start_prefix(
    from: PrefixStart,
    map: &impl Collide,
    start_delay: u16,
    inputs: &mut Vec<PadState>,
    expected: &mut Vec<Pos>,
) -> PrefixEnd {
    let mut after = from;
    if from.active.ary & 0x80 != 0 {
        while usize::from(from.frames) + inputs.len() < usize::from(start_delay) {
            let locked = after.active.frame(Buttons::NONE, from.speed, map) == Control::Locked;
            after.prev = PadState::NONE;
            inputs.push(PadState::NONE);
            expected.push(Pos::of_searched(&after.active));
            if locked {
                return (after.active, after.prev, true);
            }
        }
    }
    end_first_piece_delay(after, map, inputs, expected)
}
