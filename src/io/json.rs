//! nestor's own JSON data files (shards, tuning state, scores): read within the data bound,
//! written atomically, each failure mapped once to the caller's error that names the file.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::read::{read_at_most, MAX_DATA_BYTES};
use super::write::write_atomically;

/// Why one of nestor's data files could not be read, parsed or written; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file named.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file named.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// The file's text is not the JSON this kind of file holds.
    #[error("{path} is not a nestor {kind} file (truncated or another format): {source}")]
    Parse {
        /// The file named.
        path: PathBuf,
        /// What the file should have been ("shard", "tune").
        kind: &'static str,
        /// The JSON parser's error.
        source: serde_json::Error,
    },
}

/// A module's error type that holds [`DataError`]s; `KIND` names its files in a parse error.
pub trait FileError: From<DataError> {
    /// What the module's files are called in a parse error ("shard", "tune").
    const KIND: &'static str;
}

/// Reads a JSON file of at most [`MAX_DATA_BYTES`] (regular files only) into `T`.
pub fn read_json<T: DeserializeOwned, E: FileError>(path: &Path) -> Result<T, E> {
    let text = read_at_most(path, MAX_DATA_BYTES).map_err(|source| DataError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_slice(&text).map_err(|source| parse_error::<E>(path, source))
}

/// Writes `value` as pretty JSON through [`write_atomically`]: whole or not at all, an
/// existing file replaced only when `replace`.
pub fn write_json<T: Serialize, E: FileError>(
    path: &Path,
    value: &T,
    replace: bool,
) -> Result<(), E> {
    let text = serde_json::to_vec_pretty(value).expect("a nestor data file serializes");
    write_atomically(path, &text, replace).map_err(|source| {
        E::from(DataError::Write {
            path: path.to_path_buf(),
            source,
        })
    })
}

/// `path` holds JSON that is not a file of `E`'s kind.
pub fn parse_error<E: FileError>(path: &Path, source: serde_json::Error) -> E {
    E::from(DataError::Parse {
        path: path.to_path_buf(),
        kind: E::KIND,
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error(transparent)]
    struct Error(#[from] DataError);
    impl FileError for Error {
        const KIND: &'static str = "test";
    }

    #[test]
    fn a_value_written_reads_back_and_is_not_replaced_without_leave() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.json");
        write_json::<_, Error>(&path, &vec![1u32, 2, 3], false).unwrap();
        let back: Vec<u32> = read_json::<_, Error>(&path).unwrap();
        assert_eq!(back, [1, 2, 3]);
        let again = write_json::<_, Error>(&path, &vec![9u32], false);
        assert!(
            matches!(again, Err(Error(DataError::Write { .. }))),
            "{again:?}"
        );
        assert_eq!(read_json::<Vec<u32>, Error>(&path).unwrap(), [1, 2, 3]);
        write_json::<_, Error>(&path, &vec![9u32], true).unwrap();
        assert_eq!(read_json::<Vec<u32>, Error>(&path).unwrap(), [9]);
    }

    #[test]
    fn each_failure_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let e = read_json::<Vec<u32>, Error>(&missing).unwrap_err();
        assert!(
            matches!(&e, Error(DataError::Read { path, .. }) if path == &missing),
            "{e:?}"
        );
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{ not json").unwrap();
        let e = read_json::<Vec<u32>, Error>(&bad).unwrap_err();
        assert!(
            matches!(&e, Error(DataError::Parse { path, .. }) if path == &bad),
            "{e:?}"
        );
    }
}
