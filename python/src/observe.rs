//! The placement action space and the falling piece in plain numbers: `placement_action`, its
//! inverse `placement_of`, and `piece_cells` (the cells of a pivot and orientation id).

use pyo3::prelude::*;

use crate::args::{int_in, value_error};
use crate::bridge::{self, ACTIONS};

/// The highest orientation id of a piece ($12, the horizontal I).
const MAX_ORIENTATION: i64 = 0x12;

/// The placement action (0..880) of a lock at pivot column `x` (0..=9), pivot row `y`
/// (-2..=19; -2, -1 are the hidden rows) and orientation id `orientation` (0..=18): rotation
/// slot × 220 + (y + 2) × 10 + x, the slot counted from the piece's spawn orientation
/// clockwise. Out-of-range arguments are a ValueError, wrong types a TypeError.
#[pyfunction]
pub fn placement_action(
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    orientation: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let x = int_in(x, "x", 0, 9)? as u8;
    let y = int_in(y, "y", -2, 19)? as i8;
    let id = int_in(orientation, "orientation", 0, MAX_ORIENTATION)? as u8;
    Ok(bridge::action_of(x, y as u8, id))
}

/// The lock (x, y, orientation id) of placement action `action` (0..880) for `piece` (a
/// letter of `nestor.PIECES` or its index 0..=6): the inverse of `placement_action`. A
/// ValueError for a rotation slot the piece does not have (O has 1, I, S, Z have 2).
#[pyfunction]
pub fn placement_of(action: &Bound<'_, PyAny>, piece: &Bound<'_, PyAny>) -> PyResult<(u8, i8, u8)> {
    let a = int_in(action, "action", 0, ACTIONS as i64 - 1)? as usize;
    let p = piece_arg(piece)?;
    bridge::placement_of(a, p).ok_or_else(|| {
        value_error(format!(
            "action {a} is rotation slot {} of {}, which has fewer rotations",
            a / 220,
            p.letter()
        ))
    })
}

/// The four cells (x, y) of orientation id `orientation` (0..=18) with its pivot at (x, y),
/// as `Game.x`, `Game.y`, `Game.orientation` or the Frame environment's `active[:3]` give
/// them. Cells may lie outside the visible field (y < 0 is the hidden rows).
#[pyfunction]
pub fn piece_cells(
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    orientation: &Bound<'_, PyAny>,
) -> PyResult<Vec<(i16, i16)>> {
    let x = int_in(x, "x", 0, 255)? as u8;
    let y = int_in(y, "y", -128, 255)?;
    // The Frame environment's `active` holds y as the cartridge's unsigned byte.
    let y = y as u8 as i8;
    let id = int_in(orientation, "orientation", 0, MAX_ORIENTATION)? as u8;
    bridge::cells_of(x, y, id)
        .map(|c| c.to_vec())
        .ok_or_else(|| value_error(format!("orientation must be in 0..=18, got {id}")))
}

/// A piece argument: a letter of T J Z O S L I (either case) or its index 0..=6.
fn piece_arg(piece: &Bound<'_, PyAny>) -> PyResult<bridge::Piece> {
    if let Ok(s) = piece.extract::<String>() {
        return bridge::piece_from_letter(&s).ok_or_else(|| {
            value_error(format!(
                "piece must be one of {} or 0..=6, got {s:?}",
                bridge::piece_letters()
            ))
        });
    }
    let i = int_in(piece, "piece", 0, 6)? as usize;
    Ok(bridge::piece_at(i))
}
