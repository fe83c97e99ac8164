//! The bottom layer every other one uses for a user's files: bounded reads of regular files
//! only, and outputs checked before a run, written through links, replaced atomically.

#[cfg(feature = "native")]
pub mod json;
#[cfg(feature = "native")]
pub mod output;
pub mod read;
pub mod toml_error;
#[cfg(feature = "native")]
pub mod write;

#[cfg(feature = "native")]
pub use json::{read_json, write_json, DataError, FileError};
#[cfg(feature = "native")]
pub use output::{Input, Output, OutputError, OutputKind, OutputSet};
pub use read::{open_regular, read_at_most, read_toml_text, MAX_DATA_BYTES, MAX_TOML_BYTES};
pub use toml_error::TomlError;
#[cfg(feature = "native")]
pub use write::{write_atomically, AtomicFile, Existing};

/// Tests: a fresh folder holding one file, `name`, of `bytes` (the folder goes with the guard).
#[cfg(test)]
fn folder_with(name: &str, bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}
