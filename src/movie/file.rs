//! A `Movie` as FM2 text and as a file: parsing and writing the text, reading a file with a
//! size bound, and saving through a temporary file so a failed write never leaves half a movie.

use std::io::{self, Write};
use std::path::Path;

use super::error::Error;
use super::value::Movie;
use super::{parse, write};

/// The largest movie file read: about 2.8 million input lines, some 13 hours at 60 frames per
/// second. A longer file (or `/dev/zero`) is refused after reading just past this, instead of
/// being read until memory runs out.
pub const MAX_MOVIE_BYTES: u64 = 64 << 20;

/// The text of an FM2 file, read with the size bound; errors name the file.
pub(super) fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = crate::io::read_at_most(path, MAX_MOVIE_BYTES).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        action: "cannot read",
        source,
    })?;
    // FCEUX reads bytes; a stray non-UTF-8 byte in a comment should not make the movie
    // unreadable, and the input log itself is ASCII.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

impl Movie {
    /// Parses FM2 text. Never panics; every rejection says where and why.
    pub fn parse(text: &str) -> Result<Movie, Error> {
        parse::parse_movie(text)
    }

    /// Reads and parses an FM2 file; errors name the file.
    pub fn load(path: &Path) -> Result<Movie, Error> {
        Movie::parse(&read_text(path)?).map_err(|e| e.in_file(path))
    }

    /// Writes the movie as FM2 text, header first, one input line per frame.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(self.to_fm2_string().as_bytes())
    }

    /// The FM2 text of the movie.
    pub fn to_fm2_string(&self) -> String {
        write::movie_text(self)
    }

    /// Writes the movie to `path`; errors name the file. The text goes to a temporary file in
    /// the same folder, renamed over `path` once complete: a full disk or an interruption
    /// never leaves a half-written movie, nor destroys the file that was there.
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            action: "cannot write",
            source,
        };
        let mut file =
            crate::io::AtomicFile::create(path, crate::io::Existing::Replace).map_err(io)?;
        file.write_all(self.to_fm2_string().as_bytes())
            .map_err(io)?;
        file.commit().map_err(io)?;
        Ok(())
    }
}
