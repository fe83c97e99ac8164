//! `nestor._nestor`: the PyO3 classes behind `import nestor` (the game, the lock search, the
//! planner, and the batched core of the Gymnasium environments). Main-crate calls: bridge/.

mod args;
mod bridge;
mod envs;
mod game;
mod observe;
mod search;

use pyo3::prelude::*;

use envs::Core;
use game::{PyEvents, PyGame};
use observe::{piece_cells, placement_action, placement_of};
use search::{_locks, _rust_selfplay, _spawn_locks, _test_cartridge, profiles, PyPlanner};

#[pymodule]
fn _nestor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyEvents>()?;
    m.add_class::<PyPlanner>()?;
    m.add_class::<Core>()?;
    m.add_function(wrap_pyfunction!(_locks, m)?)?;
    m.add_function(wrap_pyfunction!(_spawn_locks, m)?)?;
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(_test_cartridge, m)?)?;
    m.add_function(wrap_pyfunction!(placement_action, m)?)?;
    m.add_function(wrap_pyfunction!(placement_of, m)?)?;
    m.add_function(wrap_pyfunction!(piece_cells, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PLACEMENT_ACTIONS", bridge::ACTIONS)?;
    m.add("PIECES", bridge::piece_letters())?;
    m.add("STATE_BYTES", bridge::STATE_BYTES)?;
    Ok(())
}
