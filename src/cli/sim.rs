//! `nestor sim`.

use std::process::ExitCode;

use anyhow::{bail, Result};

pub fn run(_args: &crate::SimArgs) -> Result<ExitCode> {
    bail!("`nestor sim` is not built yet")
}
