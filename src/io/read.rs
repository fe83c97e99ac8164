//! Reading a user's file: regular files only (a FIFO, a device or a folder is refused at once,
//! never waited on), and with a size limit so that a huge file given by mistake cannot fill memory.

use std::fs::File;
use std::io::{Error, ErrorKind, Read};
use std::path::Path;

/// The largest settings, weights, profile or address-map file read (they are a few KiB).
pub const MAX_TOML_BYTES: u64 = 1 << 20;

/// The largest data file read whole (tuning state, scores, `sim --shard` parts).
pub const MAX_DATA_BYTES: u64 = 1 << 30;

/// Opens `path` for reading if it is a regular file (links followed). The open itself never
/// blocks: a named pipe is opened non-blocking and refused, so `play fifo.nes` ends at once
/// instead of waiting for a writer that may never come (and not hearing SIGTERM meanwhile).
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "it is a folder, not a file",
        ));
    }
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_text(&meta)),
        ));
    }
    clear_nonblocking(&file)?;
    Ok(file)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Regular files ignore O_NONBLOCK, but a reader that later gets another kind of file from
/// the same descriptor must not see spurious `WouldBlock`s: clear it.
#[cfg(unix)]
pub(crate) fn clear_nonblocking(file: &File) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this `File` owns, with valid commands and flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn clear_nonblocking(_file: &File) -> std::io::Result<()> {
    Ok(())
}

/// What a file that is not a regular one is, in words.
pub(crate) fn kind_text(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

/// Reads a small text file (TOML) with the `MAX_TOML_BYTES` bound; bytes that are not UTF-8
/// are an `InvalidData` error, as with `std::fs::read_to_string`.
pub fn read_toml_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_at_most(path, MAX_TOML_BYTES)?)
        .map_err(|e| Error::new(ErrorKind::InvalidData, e))
}

/// Gives a settings type `$type` with `from_toml(text, path)` its `load(path)`: the file read
/// with [`read_toml_text`] (a failure is `$error::Io { path, source }`), then parsed.
#[macro_export]
macro_rules! toml_file {
    ($type:ident, $error:ident) => {
        impl $type {
            /// Reads the file (at most `MAX_TOML_BYTES`) and parses it with `from_toml`.
            pub fn load(path: &::std::path::Path) -> Result<$type, $error> {
                let text = $crate::io::read_toml_text(path).map_err(|source| $error::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                $type::from_toml(&text, path)
            }
        }
    };
}

/// Reads all of the regular file `path` if it holds at most `limit` bytes. A longer file is an
/// `InvalidData` error saying so, after reading `limit + 1` bytes; anything but a regular file
/// is an `InvalidInput` error (see [`open_regular`]).
pub fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("the file is larger than {}", size_text(limit)),
        ));
    }
    Ok(bytes)
}

/// `limit` in the largest whole unit (bytes, KiB, MiB).
fn size_text(limit: u64) -> String {
    match limit {
        l if l >= 1 << 20 && l.is_multiple_of(1 << 20) => format!("{} MiB", l >> 20),
        l if l >= 1 << 10 && l.is_multiple_of(1 << 10) => format!("{} KiB", l >> 10),
        l => format!("{l} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oversized_files_are_refused_small_ones_read() {
        let (_dir, p) = crate::io::folder_with("f", &[7u8; 2048]);
        assert_eq!(read_at_most(&p, 2048).unwrap().len(), 2048);
        let e = read_at_most(&p, 2047).unwrap_err();
        assert!(e.to_string().contains("2047 bytes"), "{e}");
        assert!(read_at_most(&p, 1024)
            .unwrap_err()
            .to_string()
            .contains("1 KiB"));
    }

    #[cfg(unix)]
    #[test]
    fn devices_folders_and_fifos_are_refused_at_once() {
        let e = read_at_most(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidInput);
        assert!(e.to_string().contains("character device"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = read_at_most(dir.path(), 10).unwrap_err();
        assert!(e.to_string().contains("folder"), "{e}");
        // A FIFO nobody writes to: refused at once, not waited on.
        let fifo = dir.path().join("rom.nes");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let started = std::time::Instant::now();
        let e = read_toml_text(&fifo).unwrap_err();
        assert!(e.to_string().contains("named pipe"), "{e}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
