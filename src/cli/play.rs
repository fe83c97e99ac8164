//! `nestor play`.

use std::process::ExitCode;

use anyhow::{bail, Result};

pub fn run(_args: &crate::PlayArgs) -> Result<ExitCode> {
    bail!("`nestor play` is not built yet")
}
