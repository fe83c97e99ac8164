//! RAM traces: the per-frame JSONL schema shared with the cartridge recordings, reading and
//! writing it (plain or gzip), checking the rules model against one, and diffing two.

pub mod capture;
pub mod diff;
pub mod file;
pub mod record;
pub mod verify;

pub use capture::{capture_to_file, check_fields, CaptureError, CaptureSpan, TraceCapture};
pub use diff::{diff_traces, run_diff, DiffReport, Difference};
pub use file::{read_trace, read_trace_bytes, Trace, TraceError};
pub use record::FrameRecord;
pub use verify::{verify_trace, Divergence, VerifyReport};
