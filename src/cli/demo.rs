//! `nestor demo`.

use std::process::ExitCode;

use anyhow::{bail, Result};

pub fn run(_args: &crate::DemoArgs) -> Result<ExitCode> {
    bail!("`nestor demo` is not built yet")
}
