//! FCEUX FM2 movies: the `Movie` value (header and per-frame input), loading and saving it,
//! and the one-frame alignment between FCEUX's power-on and nestor's first emulated frame.

pub mod check;
pub mod error;
pub mod fceux;
mod file;
mod guid;
pub mod header;
pub mod input;
mod lead;
mod parse;
pub mod record;
pub mod replay;
mod value;
mod write;

pub use error::Error;
pub use file::MAX_MOVIE_BYTES;
pub use guid::fresh_guid;
pub use header::{Header, PortDevice, Subtitle};
pub use input::{commands, FrameInput};
pub use lead::FCEUX_LEAD_FRAMES;
pub use record::Recorder;
pub use replay::{ChecksumCheck, Replay, ReplayEnd, ReplayError, ReplayFrame};
pub use value::Movie;

#[cfg(test)]
mod tests;
