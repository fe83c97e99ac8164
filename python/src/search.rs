//! `nestor.locks` and `nestor.Planner`: the lock set with its inputs, nestor's decision and
//! its evaluation by feature; plus the Rust-side helpers the tests compare against.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::{int_in, seed_of, value_error};
use crate::bridge::{self, LockPath, PlannerBox, Searcher};
use crate::game::PyGame;

/// A lock for Python: x, y, orientation id, piece letter, inputs, placement action.
pub type LockTuple<'py> = (u8, i8, u8, char, Bound<'py, PyBytes>, usize);

pub fn lock_tuples<'py>(py: Python<'py>, locks: &[LockPath]) -> Vec<LockTuple<'py>> {
    locks
        .iter()
        .map(|l| {
            (
                l.x,
                l.y as i8,
                l.id,
                bridge::piece_letter_of(l.id),
                PyBytes::new(py, &l.inputs),
                bridge::action_of(l.x, l.y, l.id),
            )
        })
        .collect()
}

/// Every lock reachable by the current piece, with its inputs per frame.
#[pyfunction]
#[pyo3(signature = (game, profile = "30hz", soft_drop = false))]
pub fn _locks<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    profile: &str,
    soft_drop: bool,
) -> PyResult<Vec<LockTuple<'py>>> {
    let profile = bridge::profile(profile).map_err(value_error)?;
    let mut s = Searcher::default();
    let mut out = Vec::new();
    s.locks(&game.t, &profile, soft_drop, &mut out);
    Ok(lock_tuples(py, &out))
}

/// The planner's own (bit-set) lock search from the spawn: (x, y, orientation id) of `piece`
/// on `rows` (20 ints, bit c = column c) at `level`. For checking `locks` against it.
#[pyfunction]
#[pyo3(signature = (rows, piece, level, profile = "30hz"))]
pub fn _spawn_locks(
    rows: Vec<u16>,
    piece: &str,
    level: &Bound<'_, PyAny>,
    profile: &str,
) -> PyResult<Vec<(u8, i8, u8)>> {
    let rows: [u16; 20] = rows
        .try_into()
        .map_err(|_| value_error("rows must be 20 integers"))?;
    let p = bridge::piece_from_letter(piece)
        .ok_or_else(|| value_error(format!("unknown piece {piece:?}")))?;
    let level = int_in(level, "level", 0, 255)? as u8;
    let profile = bridge::profile(profile).map_err(value_error)?;
    Ok(Searcher::default()
        .spawn_locks(&rows, p, level, &profile)
        .into_iter()
        .map(|(x, y, id)| (x, y as i8, id))
        .collect())
}

/// nestor's own loop run in Rust alone: (inputs, state bytes after every frame).
#[pyfunction]
#[pyo3(signature = (level, seed, frames, profile = "30hz"))]
pub fn _rust_selfplay<'py>(
    py: Python<'py>,
    level: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    frames: usize,
    profile: &str,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let level = int_in(level, "level", 0, 255)? as u8;
    let seed = seed_of(seed)?;
    let profile = bridge::profile(profile).map_err(value_error)?;
    let (inputs, states) = bridge::selfplay_record(level, seed, frames, profile);
    Ok((PyBytes::new(py, &inputs), PyBytes::new(py, &states)))
}

/// nestor's synthetic NROM test cartridge (no ROM data: assembled in nestor), for timing an
/// emulator where the user's ROM is missing.
#[pyfunction]
pub fn _test_cartridge<'py>(py: Python<'py>) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &bridge::test_cartridge())
}

/// The preset profile names.
#[pyfunction]
pub fn profiles() -> Vec<&'static str> {
    bridge::profile_names()
}

/// A plan for Python: inputs, lock, next lock, value, candidates, replan_after.
type PlanTuple<'py> = (
    Bound<'py, PyBytes>,
    (u8, i8, u8),
    Option<(u8, i8, u8)>,
    Option<f64>,
    usize,
    Option<usize>,
);

/// nestor's planner: its decision for the current piece and the evaluation by feature.
#[pyclass(name = "Planner", module = "nestor")]
pub struct PyPlanner {
    inner: PlannerBox,
    #[pyo3(get)]
    profile: String,
}

#[pymethods]
impl PyPlanner {
    #[new]
    #[pyo3(signature = (weights = None, profile = "30hz"))]
    fn new(weights: Option<std::path::PathBuf>, profile: &str) -> PyResult<Self> {
        let w = bridge::weights(weights.as_deref()).map_err(value_error)?;
        let p = bridge::profile(profile).map_err(value_error)?;
        Ok(PyPlanner {
            inner: PlannerBox::new(w, p),
            profile: profile.to_string(),
        })
    }

    /// The decision for the current piece as (inputs, lock, next_lock, value, candidates,
    /// replan_after); None when no piece is under control.
    fn _plan<'py>(&mut self, py: Python<'py>, game: PyRef<'_, PyGame>) -> Option<PlanTuple<'py>> {
        let p = self.inner.plan(&game.t)?;
        Some((
            PyBytes::new(py, &p.inputs),
            (p.lock.0, p.lock.1 as i8, p.lock.2),
            p.next_lock.map(|(x, y, id)| (x, y as i8, id)),
            p.value,
            p.candidates,
            p.replan_after,
        ))
    }

    /// The top `n` placements with their value split into one term per feature.
    #[pyo3(signature = (game, n = 5))]
    fn explain<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'_, PyGame>,
        n: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = self.inner.explain(&game.t, n);
        py.import("json")?.call_method1("loads", (s,))
    }
}
