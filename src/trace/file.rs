//! Trace files: JSON lines, plain or gzip (detected from the magic bytes), a `{"header": …}`
//! first line, then one object per frame; errors name the file and the line.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde_json::{Map, Value};

/// A trace read into memory: its header (if any) and its frame lines.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub header: Option<Value>,
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

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    #[error("{path}: cannot {action}: {source}")]
    Io {
        path: PathBuf,
        /// "read" or "write".
        action: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}: {reason}")]
    Line {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{path}: no frame lines")]
    Empty { path: PathBuf },
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

/// Opens a file for reading, decompressing it when it starts with the gzip magic.
pub fn open_maybe_gzip(path: &Path) -> Result<Box<dyn BufRead>, TraceError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    let mut magic = [0u8; 2];
    let n = file.read(&mut magic).map_err(io_error(path))?;
    let file = File::open(path).map_err(io_error(path))?;
    Ok(if n == 2 && magic == [0x1F, 0x8B] {
        Box::new(BufReader::new(MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
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

/// Writes trace lines to a file, gzip-compressed when the name ends in `.gz`.
pub struct TraceWriter {
    out: Box<dyn Write>,
    path: PathBuf,
}

impl TraceWriter {
    pub fn create(path: &Path, header: &Value) -> Result<TraceWriter, TraceError> {
        let file = BufWriter::new(File::create(path).map_err(write_error(path))?);
        let out: Box<dyn Write> = if path.extension().is_some_and(|e| e == "gz") {
            Box::new(GzEncoder::new(file, flate2::Compression::default()))
        } else {
            Box::new(file)
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

    pub fn write_line(&mut self, line: &Map<String, Value>) -> Result<(), TraceError> {
        let text = serde_json::to_string(line).expect("a JSON map always serialises");
        writeln!(self.out, "{text}").map_err(write_error(&self.path))
    }

    /// Flushes and closes (finishing the gzip stream).
    pub fn finish(mut self) -> Result<(), TraceError> {
        self.out.flush().map_err(write_error(&self.path))?;
        drop(self.out);
        Ok(())
    }
}
