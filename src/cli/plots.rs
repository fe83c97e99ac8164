//! PNG plots for `nestor sim --plots DIR`.

use std::path::Path;

use anyhow::{bail, Result};

use nestor::search::batch::GameResult;

pub fn write(_dir: &Path, _results: &[GameResult]) -> Result<()> {
    bail!("--plots is not built yet")
}
