//! Writing a user's file: links followed (the file they point to is written, the link stays),
//! devices and FIFOs written as streams, regular files replaced atomically with their mode kept.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{BufWriter, Error, ErrorKind, Write};
use std::path::{Path, PathBuf};

use super::read::kind_text;

/// What to do when the destination is an existing regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Leave it as it was and fail with `AlreadyExists`.
    Refuse,
    /// Replace it in one rename, keeping its permissions.
    Replace,
}

/// Where a path leads once its symbolic links are followed.
#[derive(Debug)]
pub enum Destination {
    /// A regular file at `path` (links resolved), or nothing yet (`existing` is `None`): a
    /// dangling link leads here too, and the file it names is created.
    File {
        /// Where the links lead: the file that is written.
        path: PathBuf,
        /// The existing file's metadata; `None` when nothing is there yet.
        existing: Option<Metadata>,
    },
    /// Something written in order and never replaced: a character device (`/dev/null`), a
    /// FIFO, or a descriptor path (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`).
    Stream {
        /// What it is ("a named pipe (FIFO)", "a character device"), for messages.
        kind: &'static str,
    },
    /// A folder.
    Folder,
    /// A block device or a socket: never written.
    Unsupported {
        /// What it is ("a block device", "a socket"), for messages.
        kind: &'static str,
    },
}

/// Follows `path`'s links (at most 40, as the kernel does) to what it names.
pub fn resolve(path: &Path) -> std::io::Result<Destination> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        // The kernel's descriptor links name pipes and terminals, not files: write to them
        // as the shell set them up, never rename over them.
        if p.starts_with("/proc") || p.starts_with("/dev/fd") {
            return Ok(Destination::Stream {
                kind: "a descriptor of this process",
            });
        }
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Ok(Destination::File {
                    path: p,
                    existing: None,
                })
            }
            Err(e) => return Err(e),
        };
        let t = meta.file_type();
        if t.is_symlink() {
            let target = std::fs::read_link(&p)?;
            p = if target.is_absolute() {
                target
            } else {
                parent(&p).join(target)
            };
            continue;
        }
        return Ok(if t.is_file() {
            Destination::File {
                path: p,
                existing: Some(meta),
            }
        } else if t.is_dir() {
            Destination::Folder
        } else if is_stream(&meta) {
            Destination::Stream {
                kind: kind_text(&meta),
            }
        } else {
            Destination::Unsupported {
                kind: kind_text(&meta),
            }
        });
    }
    Err(Error::other("too many levels of symbolic links"))
}

#[cfg(unix)]
fn is_stream(meta: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo() || meta.file_type().is_char_device()
}

#[cfg(not(unix))]
fn is_stream(_meta: &Metadata) -> bool {
    false
}

/// The folder a file of `path` lives in (`.` for a bare name).
pub fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Opens a stream destination for writing, appending (a file behind `/dev/stdout` keeps what
/// the shell put there). A FIFO with no reader is an error at once, not a wait.
pub(crate) fn open_stream(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ENXIO) {
            Error::new(e.kind(), "no process is reading this FIFO")
        } else {
            e
        }
    })?;
    super::read::clear_nonblocking(&file)?;
    Ok(file)
}

/// Creates a temporary file in `dir` whose mode is 0666 less the umask, as any new file.
pub(crate) fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".nestor-").suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

enum Sink {
    /// A temporary file beside the destination, renamed over it by `commit`; `mode` is the
    /// replaced file's permissions.
    Temp {
        out: BufWriter<File>,
        tmp: tempfile::TempPath,
        dest: PathBuf,
        mode: Option<std::fs::Permissions>,
        existing: Existing,
    },
    Stream(BufWriter<File>),
}

/// A file being written: bytes go to a temporary file in the destination's folder and
/// [`AtomicFile::commit`] renames it into place, so the destination holds its old content or
/// the whole new one, never a part; dropped without `commit`, nothing is left behind. A
/// stream destination is written directly.
pub struct AtomicFile {
    sink: Sink,
}

impl AtomicFile {
    /// Starts writing `path` (see [`resolve`] for links, devices and FIFOs).
    pub fn create(path: &Path, existing: Existing) -> std::io::Result<AtomicFile> {
        let sink = match resolve(path)? {
            Destination::File {
                path: dest,
                existing: meta,
            } => {
                if meta.is_some() && existing == Existing::Refuse {
                    return Err(Error::new(ErrorKind::AlreadyExists, "the file exists"));
                }
                let (file, tmp) = temp_in(parent(&dest))?.into_parts();
                Sink::Temp {
                    out: BufWriter::new(file),
                    tmp,
                    dest,
                    mode: meta.map(|m| m.permissions()),
                    existing,
                }
            }
            Destination::Stream { .. } => Sink::Stream(BufWriter::new(open_stream(path)?)),
            Destination::Folder => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    "it is a folder, not a file",
                ))
            }
            Destination::Unsupported { kind } => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("it is {kind}, which nestor never writes to"),
                ))
            }
        };
        Ok(AtomicFile { sink })
    }

    /// Flushes everything to the disk and moves the file into place.
    pub fn commit(self) -> std::io::Result<()> {
        match self.sink {
            Sink::Stream(mut out) => out.flush(),
            Sink::Temp {
                out,
                tmp,
                dest,
                mode,
                existing,
            } => {
                let file = out.into_inner().map_err(|e| e.into_error())?;
                if let Some(mode) = mode {
                    file.set_permissions(mode)?;
                }
                file.sync_all()?;
                drop(file);
                match existing {
                    Existing::Replace => tmp.persist(&dest),
                    Existing::Refuse => tmp.persist_noclobber(&dest),
                }
                .map_err(|e| e.error)
            }
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Temp { out, .. } | Sink::Stream(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Temp { out, .. } | Sink::Stream(out) => out.flush(),
        }
    }
}

/// Writes `bytes` to `path` whole (see [`AtomicFile`]); with `replace` false an existing
/// file is an `AlreadyExists` error and is left as it was.
pub fn write_atomically(path: &Path, bytes: &[u8], replace: bool) -> std::io::Result<()> {
    let existing = if replace {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    let mut file = AtomicFile::create(path, existing)?;
    file.write_all(bytes)?;
    file.commit()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    fn umask() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
        u32::from_str_radix(line.split_whitespace().nth(1).unwrap(), 8).unwrap()
    }

    #[test]
    fn new_files_follow_the_umask_and_replaced_ones_keep_their_mode() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.csv");
        write_atomically(&new, b"a", false).unwrap();
        assert_eq!(mode(&new), 0o666 & !umask());
        let old = dir.path().join("old.csv");
        std::fs::write(&old, b"old").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&old, b"new", true).unwrap();
        assert_eq!(mode(&old), 0o640);
        assert_eq!(std::fs::read(&old).unwrap(), b"new");
        let e = write_atomically(&old, b"x", false).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&old).unwrap(), b"new");
    }

    fn is_link(p: &Path) -> bool {
        std::fs::symlink_metadata(p)
            .unwrap()
            .file_type()
            .is_symlink()
    }

    #[test]
    fn links_are_written_through_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let target = dir.path().join("sub/target.fm2");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("out.fm2");
        symlink("sub/target.fm2", &link).unwrap();
        write_atomically(&link, b"new", true).unwrap();
        assert!(is_link(&link));
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A dangling link: the file it names is created, the link stays.
        let dangling = dir.path().join("dangling.fm2");
        symlink("sub/made.fm2", &dangling).unwrap();
        write_atomically(&dangling, b"made", false).unwrap();
        assert!(is_link(&dangling));
        assert_eq!(
            std::fs::read(dir.path().join("sub/made.fm2")).unwrap(),
            b"made"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path().join("sub")).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    }

    #[test]
    fn devices_are_streams_never_replaced() {
        write_atomically(Path::new("/dev/null"), b"gone", true).unwrap();
        assert!(
            std::fs::metadata("/dev/null").unwrap().permissions().mode() & 0o170000 == 0o020000
        );
        assert!(matches!(
            resolve(Path::new("/dev/stdout")).unwrap(),
            Destination::Stream { .. }
        ));
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let e = write_atomically(&fifo, b"x", true).unwrap_err();
        assert!(e.to_string().contains("no process is reading"), "{e}");
        assert!(matches!(resolve(dir.path()).unwrap(), Destination::Folder));
    }
}
