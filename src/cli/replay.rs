//! `nestor replay`.

use std::process::ExitCode;

use anyhow::{bail, Result};

pub fn run(_args: &crate::ReplayArgs) -> Result<ExitCode> {
    bail!("`nestor replay` is not built yet")
}
