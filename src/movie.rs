//! FCEUX FM2 movies: the `Movie` value (header and per-frame input), loading and saving it,
//! and the one-frame alignment between FCEUX's power-on and nestor's first emulated frame.

pub mod check;
pub mod error;
pub mod fceux;
mod guid;
pub mod header;
pub mod input;
mod parse;
pub mod record;
pub mod replay;
mod write;

use std::io::{self, Write};
use std::path::Path;

pub use error::Error;
pub use guid::fresh_guid;
pub use header::{Header, PortDevice, Subtitle};
pub use input::{commands, FrameInput};
pub use record::Recorder;
pub use replay::{ChecksumCheck, Replay, ReplayEnd, ReplayError, ReplayFrame};

use crate::game::pad::PadState;

/// Blank input lines an FCEUX movie carries before nestor's first emulated frame.
///
/// FCEUX 2.6.5 runs one more dead frame after power-on than tetanes-core (its first NMI
/// comes a frame later; measured on two full games of the cartridge), so a movie replays
/// frame-exactly there only if line 1 of the input log is a blank frame and line 2 holds the
/// pads of tetanes' first `clock_frame`. Writers add this lead; replayers skip it.
pub const FCEUX_LEAD_FRAMES: usize = 1;

/// The largest movie file read: about 2.8 million input lines, some 13 hours at 60 frames per
/// second. A longer file (or `/dev/zero`) is refused after reading just past this, instead of
/// being read until memory runs out.
pub const MAX_MOVIE_BYTES: u64 = 64 << 20;

/// The text of an FM2 file, read with the size bound; errors name the file.
pub(crate) fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = crate::io::read_at_most(path, MAX_MOVIE_BYTES).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        action: "cannot read",
        source,
    })?;
    // FCEUX reads bytes; a stray non-UTF-8 byte in a comment should not make the movie
    // unreadable, and the input log itself is ASCII.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// An FM2 movie: the header and one `FrameInput` per input line, lead frame included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movie {
    /// Every header line: keys, comments, subtitles.
    pub header: Header,
    /// One entry per input line, in order, FCEUX's lead frame first.
    pub frames: Vec<FrameInput>,
}

impl Movie {
    /// A fresh power-on movie for the ROM whose PRG+CHR MD5 is `prg_chr_md5`, with the header
    /// FCEUX itself would write, nestor's comments, and the blank lead frame already in place.
    ///
    /// `rom_filename` is the ROM's name without directory or extension (FCEUX's `FileBase`);
    /// `comments` describe the run's settings, one `comment` line each.
    pub fn new_recording(
        rom_filename: impl Into<String>,
        prg_chr_md5: [u8; 16],
        comments: Vec<String>,
    ) -> Movie {
        Movie {
            header: Header::for_recording(rom_filename.into(), prg_chr_md5, comments),
            frames: vec![FrameInput::BLANK; FCEUX_LEAD_FRAMES],
        }
    }

    /// Appends one frame with `pad` on controller 1 and nothing on controller 2.
    pub fn push(&mut self, pad: PadState) {
        self.frames.push(FrameInput::gamepad(pad));
    }

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

    /// The frames nestor emulates: every input line after the FCEUX lead frame.
    pub fn gameplay_frames(&self) -> &[FrameInput] {
        self.frames.get(FCEUX_LEAD_FRAMES..).unwrap_or(&[])
    }

    /// Controller 1's pads for nestor's frames, in order: what a replayer feeds tetanes-core,
    /// one `clock_frame` each.
    pub fn gameplay_pads(&self) -> Vec<PadState> {
        self.gameplay_frames().iter().map(|f| f.port0).collect()
    }

    /// The index (within `gameplay_frames`) of the first frame carrying a command (reset,
    /// power, ...), which a plain pad replayer cannot reproduce.
    pub fn first_command(&self) -> Option<usize> {
        self.gameplay_frames().iter().position(|f| f.commands != 0)
    }
}

#[cfg(test)]
mod tests;
