//! Trace files: JSON lines, plain or gzip (detected from the magic bytes), a `{"header": …}`
//! first line, then one object per frame; errors name the file and the line.

use crate::io::{AtomicFile, Existing};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde_json::{Map, Value};

/// A trace read into memory: its header (if any) and its frame lines.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The first line's `header` object, if the file has one.
    pub header: Option<Value>,
    /// The frame lines, in file order.
    pub frames: Vec<Map<String, Value>>,
}

impl Trace {
    /// The header's `note`, or the file name.
    pub fn name(&self, path: &Path) -> String {
        self.header
            .as_ref()
            .and_then(|h| h.get("note"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| path.display().to_string())
    }
}

/// Why a trace file could not be read or written; each names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    /// The file could not be read or written.
    #[error("{path}: cannot {action}: {source}")]
    Io {
        /// The file named.
        path: PathBuf,
        /// "read" or "write".
        action: &'static str,
        /// The OS's error.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a JSON object.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file named.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The file has no frame line.
    #[error("{path}: no frame lines")]
    Empty {
        /// The file named.
        path: PathBuf,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TraceError + '_ {
    move |source| TraceError::Io {
        path: path.to_path_buf(),
        action: "read",
        source,
    }
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> TraceError + '_ {
    move |source| TraceError::Io {
        path: path.to_path_buf(),
        action: "write",
        source,
    }
}

/// The longest trace line read (a real one is under 1 KiB).
pub const MAX_LINE_BYTES: u64 = 64 << 10;
/// The most (decompressed) trace text read: some 650,000 frames, hours of play, four times a
/// game from level 19 to the crash level. `/dev/zero`, an endless pipe or a gzip bomb stops here.
pub const MAX_TRACE_BYTES: u64 = 512 << 20;

/// A reader that fails (`InvalidData`) once a line or the whole text passes its bound, so a
/// file that is not a trace cannot make the line reader fill memory.
struct Bounded<R> {
    inner: R,
    line: u64,
    total: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.total += n as u64;
        for &b in &buf[..n] {
            self.line = if b == b'\n' { 0 } else { self.line + 1 };
            if self.line > MAX_LINE_BYTES {
                return Err(bound_error(format!(
                    "a line is longer than {} KiB: not a trace",
                    MAX_LINE_BYTES >> 10
                )));
            }
        }
        if self.total > MAX_TRACE_BYTES {
            return Err(bound_error(format!(
                "more than {} MiB of trace text: larger than any trace nestor reads",
                MAX_TRACE_BYTES >> 20
            )));
        }
        Ok(n)
    }
}

fn bound_error(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
}

/// Opens a file for reading, decompressing it when it starts with the gzip magic; the text is
/// read under the `MAX_LINE_BYTES` and `MAX_TRACE_BYTES` bounds.
pub fn open_maybe_gzip(path: &Path) -> Result<Box<dyn BufRead>, TraceError> {
    let mut file = crate::io::open_regular(path).map_err(io_error(path))?;
    let mut magic = [0u8; 2];
    let n = file.read(&mut magic).map_err(io_error(path))?;
    let file = crate::io::open_regular(path).map_err(io_error(path))?;
    let bounded = |inner: Box<dyn Read>| {
        BufReader::new(Bounded {
            inner,
            line: 0,
            total: 0,
        })
    };
    Ok(Box::new(if n == 2 && magic == [0x1F, 0x8B] {
        bounded(Box::new(MultiGzDecoder::new(file)))
    } else {
        bounded(Box::new(file))
    }))
}

/// Reads a whole trace.
pub fn read_trace(path: &Path) -> Result<Trace, TraceError> {
    read_trace_from(open_maybe_gzip(path)?, path)
}

/// Reads a trace held in memory, plain or gzip like a file; `path` only labels the errors.
pub fn read_trace_bytes(bytes: &[u8], path: &Path) -> Result<Trace, TraceError> {
    if bytes.starts_with(&[0x1F, 0x8B]) {
        read_trace_from(BufReader::new(MultiGzDecoder::new(bytes)), path)
    } else {
        read_trace_from(bytes, path)
    }
}

/// Reads a trace from already-decompressed JSON lines; `path` only labels the errors.
fn read_trace_from(reader: impl BufRead, path: &Path) -> Result<Trace, TraceError> {
    let mut trace = Trace::default();
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(io_error(path))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(&line).map_err(|e| TraceError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            reason: format!("not JSON: {e}"),
        })?;
        let Value::Object(mut obj) = value else {
            return Err(TraceError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                reason: "not a JSON object".into(),
            });
        };
        if trace.frames.is_empty() && trace.header.is_none() {
            if let Some(h) = obj.remove("header") {
                trace.header = Some(h);
                continue;
            }
        }
        trace.frames.push(obj);
    }
    if trace.frames.is_empty() {
        return Err(TraceError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(trace)
}

/// Where a trace's bytes go: a buffered file, gzip-compressed or not.
enum Sink {
    Plain(AtomicFile),
    Gzip(GzEncoder<AtomicFile>),
}

/// Writes trace lines to a file, gzip-compressed when the name ends in `.gz`. The lines go to
/// a temporary file in the same folder, renamed to the trace's name by `finish`: a run that
/// fails or stops early without `finish` leaves nothing half-written (and no old file lost).
pub struct TraceWriter {
    out: Sink,
    path: PathBuf,
}

impl TraceWriter {
    /// Starts writing the trace at `path` (replaced if it exists), its first line the `header`.
    pub fn create(path: &Path, header: &Value) -> Result<TraceWriter, TraceError> {
        let file = AtomicFile::create(path, Existing::Replace).map_err(write_error(path))?;
        let out = if path.extension().is_some_and(|e| e == "gz") {
            Sink::Gzip(GzEncoder::new(file, flate2::Compression::default()))
        } else {
            Sink::Plain(file)
        };
        let mut w = TraceWriter {
            out,
            path: path.to_path_buf(),
        };
        let mut h = Map::new();
        h.insert("header".into(), header.clone());
        w.write_line(&h)?;
        Ok(w)
    }

    /// Writes one line (a JSON object) of the trace.
    pub fn write_line(&mut self, line: &Map<String, Value>) -> Result<(), TraceError> {
        let text = serde_json::to_string(line).expect("a JSON map always serialises");
        let out: &mut dyn Write = match &mut self.out {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w,
        };
        writeln!(out, "{text}").map_err(write_error(&self.path))
    }

    /// Finishes the gzip stream, flushes to the disk and renames the file to its name; every
    /// failure (a full disk, say) is reported, none is lost in a destructor.
    pub fn finish(self) -> Result<(), TraceError> {
        let file = match self.out {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w.finish().map_err(write_error(&self.path))?,
        };
        file.commit().map_err(write_error(&self.path))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_lines_are_refused_after_the_line_bound() {
        #[cfg(unix)]
        {
            let e = read_trace(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(
                e.contains("/dev/zero") && e.contains("not a regular file"),
                "{e}"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("long.jsonl");
        let mut text = "{\"t\":0}\n".to_string();
        text.push_str(&"x".repeat(MAX_LINE_BYTES as usize + 1));
        std::fs::write(&p, text).unwrap();
        let e = read_trace(&p).unwrap_err().to_string();
        assert!(e.contains("long.jsonl") && e.contains("not a trace"), "{e}");
        // Right at the bound a line is still read (and here, not JSON).
        std::fs::write(&p, "y".repeat(MAX_LINE_BYTES as usize)).unwrap();
        assert!(read_trace(&p).unwrap_err().to_string().contains("not JSON"));
    }
}
