//! RAM traces: the per-frame JSONL schema shared with the cartridge recordings, reading and
//! writing it (plain or gzip), and checking the rules model against a trace frame by frame.

pub mod file;
pub mod record;
pub mod verify;

pub use file::{read_trace, Trace, TraceError};
pub use record::FrameRecord;
pub use verify::{verify_trace, Divergence, VerifyReport};
