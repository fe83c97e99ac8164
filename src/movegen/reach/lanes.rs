//! A frame of the bit-set searches as word operations: four 16-bit orientation lanes in a `u64`
//! (bit x = column x), the nine button classes, and a frame's shift, turn and drop.

use crate::game::board::BOARD_ROWS;

/// Pivot rows with a fit mask (0..=21), plus one always-blocked row below.
pub(super) const ROWS: usize = BOARD_ROWS + 1;

/// The frame's button sets with Down up, in `Bfs`'s order; index = held-button class.
pub(super) const INPUTS: [u8; 9] = [0x00, 0x02, 0x01, 0x80, 0x40, 0x82, 0x81, 0x42, 0x41];

/// Bits of one 16-bit lane that are columns.
pub(super) const LANES: u64 = 0x03FF_03FF_03FF_03FF;

/// Turns every lane to its A (clockwise) successor's lane: slots are numbered in A order.
#[inline(always)]
pub(super) fn turn_a<const TURNS: usize>(m: u64) -> u64 {
    match TURNS {
        4 => m.rotate_left(16),
        2 => ((m & 0xFFFF) << 16) | ((m >> 16) & 0xFFFF),
        _ => m,
    }
}

/// The inverse of [`turn_a`]: to each lane its B (counter-clockwise) successor's lane.
#[inline(always)]
pub(super) fn turn_b<const TURNS: usize>(m: u64) -> u64 {
    match TURNS {
        4 => m.rotate_right(16),
        _ => turn_a::<TURNS>(m),
    }
}

/// A frame's shift of the positions `m` by `input`'s direction at fit mask `fit`: (those that
/// moved, those blocked where they stand); (`m`, 0) without a direction.
#[inline(always)]
pub(super) fn shift(m: u64, input: u8, fit: u64) -> (u64, u64) {
    if input & 0x01 != 0 {
        ((m << 1) & fit, m & !(fit >> 1))
    } else if input & 0x02 != 0 {
        ((m >> 1) & fit, m & !(fit << 1))
    } else {
        (m, 0)
    }
}

/// The rest of a frame after the shift: the turn of `input` (A clockwise, else B
/// counter-clockwise; a position stays where the turn does not fit), then gravity when it
/// fires, the positions that cannot fall added to `locked` and left out of the result.
#[inline(always)]
pub(super) fn turn_and_drop<const TURNS: usize>(
    mut m: u64,
    input: u8,
    fit: u64,
    below: u64,
    gravity: bool,
    locked: &mut u64,
) -> u64 {
    if input & 0x80 != 0 {
        m = (turn_a::<TURNS>(m) & fit) | (m & !turn_b::<TURNS>(fit));
    } else if input & 0x40 != 0 {
        m = (turn_b::<TURNS>(m) & fit) | (m & !turn_a::<TURNS>(fit));
    }
    m &= LANES;
    if gravity {
        *locked |= m & !below;
        m &= below;
    }
    m
}
