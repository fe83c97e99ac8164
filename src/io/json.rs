//! nestor's own JSON data files (shards, tuning state, scores): read within the data bound,
//! written atomically, each failure mapped once to the caller's error that names the file.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// An error type with a variant for each way a data file fails; `file_error!` implements it
/// for an enum whose `Read`, `Write` and `Parse` variants hold `path` and `source`.
pub trait FileError: Sized {
    fn read(path: PathBuf, source: std::io::Error) -> Self;
    fn write(path: PathBuf, source: std::io::Error) -> Self;
    fn parse(path: PathBuf, source: serde_json::Error) -> Self;
}

/// Implements [`FileError`] for an error enum with `Read { path, source }`,
/// `Write { path, source }` and `Parse { path, source }` variants.
#[macro_export]
macro_rules! file_error {
    ($error:ty) => {
        impl $crate::io::json::FileError for $error {
            fn read(path: ::std::path::PathBuf, source: ::std::io::Error) -> Self {
                Self::Read { path, source }
            }
            fn write(path: ::std::path::PathBuf, source: ::std::io::Error) -> Self {
                Self::Write { path, source }
            }
            fn parse(path: ::std::path::PathBuf, source: ::serde_json::Error) -> Self {
                Self::Parse { path, source }
            }
        }
    };
}

/// Reads a JSON file of at most [`super::MAX_DATA_BYTES`] (regular files only) into `T`.
pub fn read_json<T: DeserializeOwned, E: FileError>(path: &Path) -> Result<T, E> {
    let text = super::read_at_most(path, super::MAX_DATA_BYTES)
        .map_err(|source| E::read(path.to_path_buf(), source))?;
    serde_json::from_slice(&text).map_err(|source| E::parse(path.to_path_buf(), source))
}

/// Writes `value` as pretty JSON through [`super::write_atomically`]: whole or not at all, an
/// existing file replaced only when `replace`.
pub fn write_json<T: Serialize, E: FileError>(
    path: &Path,
    value: &T,
    replace: bool,
) -> Result<(), E> {
    let text = serde_json::to_vec_pretty(value).expect("a nestor data file serializes");
    super::write_atomically(path, &text, replace)
        .map_err(|source| E::write(path.to_path_buf(), source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    enum Error {
        #[error("read {path:?}: {source}")]
        Read {
            path: PathBuf,
            source: std::io::Error,
        },
        #[error("write {path:?}: {source}")]
        Write {
            path: PathBuf,
            source: std::io::Error,
        },
        #[error("parse {path:?}: {source}")]
        Parse {
            path: PathBuf,
            source: serde_json::Error,
        },
    }
    crate::file_error!(Error);

    #[test]
    fn a_value_written_reads_back_and_is_not_replaced_without_leave() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.json");
        write_json::<_, Error>(&path, &vec![1u32, 2, 3], false).unwrap();
        let back: Vec<u32> = read_json::<_, Error>(&path).unwrap();
        assert_eq!(back, [1, 2, 3]);
        let again = write_json::<_, Error>(&path, &vec![9u32], false);
        assert!(matches!(again, Err(Error::Write { .. })), "{again:?}");
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
            matches!(&e, Error::Read { path, .. } if path == &missing),
            "{e:?}"
        );
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{ not json").unwrap();
        let e = read_json::<Vec<u32>, Error>(&bad).unwrap_err();
        assert!(
            matches!(&e, Error::Parse { path, .. } if path == &bad),
            "{e:?}"
        );
    }
}
