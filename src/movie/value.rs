//! The `Movie` value: an FM2 header and one input line per frame, with the lead frame counted
//! apart so callers see nestor's own frames; reading and writing it live in `file.rs`.

use super::header::Header;
use super::input::FrameInput;
use super::lead::FCEUX_LEAD_FRAMES;
use crate::game::pad::PadState;

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
