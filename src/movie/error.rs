//! Errors from reading and writing FM2 movies: where in the text a movie is malformed, which
//! header key is missing, and which file an I/O or parse error came from.

use std::io;
use std::path::{Path, PathBuf};

/// Why a movie could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read or written.
    #[error("{path}: {action}: {source}")]
    Io {
        /// The file named.
        path: PathBuf,
        /// What failed ("cannot read").
        action: &'static str,
        /// The OS's error.
        #[source]
        source: io::Error,
    },
    /// A parse error in a file: the path, then the error itself.
    #[error("{path}: {source}")]
    InFile {
        /// The file the error is in.
        path: PathBuf,
        /// The error itself.
        #[source]
        source: Box<Error>,
    },
    /// The text does not start with `version 3`.
    #[error("not an FM2 movie: the text must begin with `version 3`")]
    NotVersion3,
    /// A malformed line; `line` and `column` count from 1 (`column` in bytes).
    #[error("line {line}, column {column}: {reason}")]
    Line {
        /// Line in the text, from 1.
        line: usize,
        /// Byte column in the line, from 1.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// A header key FM2 requires is absent.
    #[error("the header has no `{key}` line, which FM2 requires")]
    MissingKey {
        /// The key (`romChecksum`).
        key: &'static str,
    },
    /// The `romChecksum` value is not `base64:` and a 16-byte MD5.
    #[error("line {line}: romChecksum `{value}` is not `base64:` followed by a 16-byte MD5")]
    RomChecksum {
        /// Line in the text, from 1.
        line: usize,
        /// The value as written (cut short when long).
        value: String,
    },
    /// Valid FM2 that nestor cannot represent (four-score, zapper, binary input log, ...).
    #[error("line {line}: {what} is not supported")]
    Unsupported {
        /// Line in the text, from 1.
        line: usize,
        /// What is not supported, in words.
        what: String,
    },
}

impl Error {
    /// Wraps a parse error with the file it came from (I/O errors already carry it).
    pub fn in_file(self, path: &Path) -> Error {
        match self {
            e @ (Error::Io { .. } | Error::InFile { .. }) => e,
            e => Error::InFile {
                path: path.to_path_buf(),
                source: Box::new(e),
            },
        }
    }

    /// The error under any file wrapper.
    pub fn innermost(&self) -> &Error {
        match self {
            Error::InFile { source, .. } => source.innermost(),
            e => e,
        }
    }
}

/// A value quoted in an error message, cut short so a hostile file cannot flood the terminal.
pub(super) fn quoted(value: &str) -> String {
    const MAX: usize = 60;
    match value.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &value[..cut]),
        None => value.to_string(),
    }
}
