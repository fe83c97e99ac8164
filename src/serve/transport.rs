//! Where `nestor serve` waits for emulators: a pair of named pipes (FIFOs) a Lua script opens
//! with plain `io.open`, and/or a TCP port on the loopback address.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The pipe the script writes (`frame` lines), in the pipe folder.
pub const TO_NESTOR: &str = "to-nestor";
/// The pipe the script reads (`pad` lines).
pub const FROM_NESTOR: &str = "from-nestor";
/// nestor's process id while it serves: the script checks it is alive before opening a pipe
/// (opening a pipe nobody serves would block the emulator).
pub const PID_FILE: &str = "pid";

/// Why a transport could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// A file operation on the pipe folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The path it was on.
        path: String,
        /// The OS's error.
        #[source]
        source: io::Error,
    },
    /// Something that is not a pipe or nestor's pid file is in the way.
    #[error(
        "{path} exists and is not a named pipe (FIFO) or pid file nestor made; not touching it"
    )]
    NotAFifo {
        /// What is in the way.
        path: String,
    },
    /// Another live `nestor serve` holds the pipe folder.
    #[error("another nestor serve (pid {pid}) serves {path}; stop it or choose another --fifo")]
    Busy {
        /// The pipe folder.
        path: String,
        /// The other server's process id, from its pid file.
        pid: u32,
    },
    /// The pipe folder or a pipe belongs to another user.
    #[error("{path} belongs to another user (uid {uid}); choose another --fifo folder")]
    NotOurs {
        /// The path that is not ours.
        path: String,
        /// Its owner's user id.
        uid: u32,
    },
    /// A TCP address that is not loopback, without `--listen-any`.
    #[error(
        "{addr} is not a loopback address: anyone on the network could drive nestor and read \
         what it is sent; pass --listen-any to allow it"
    )]
    NotLoopback {
        /// The address asked for.
        addr: SocketAddr,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> TransportError + '_ {
    move |source| TransportError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The default pipe folder: `$XDG_RUNTIME_DIR/nestor`, else `/tmp/nestor-$USER` (the Lua
/// script computes the same from the same variables).
pub fn default_fifo_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|v| !v.is_empty()) {
        Some(d) => Path::new(&d).join("nestor"),
        None => {
            let user = std::env::var("USER").unwrap_or_else(|_| "user".into());
            std::env::temp_dir().join(format!("nestor-{user}"))
        }
    }
}

/// The pipe pair in a private folder; removed (pipes and pid file) when dropped.
#[derive(Debug)]
pub struct FifoPair {
    dir: PathBuf,
    made_dir: bool,
}

fn uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// Checks that `path` is free for a pipe: nothing there, or a stale pipe of ours.
fn check_free(path: &Path) -> Result<(), TransportError> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_fifo() && m.uid() == uid() => Ok(()),
        Ok(m) if m.file_type().is_fifo() => Err(TransportError::NotOurs {
            path: path.display().to_string(),
            uid: m.uid(),
        }),
        Ok(_) => Err(TransportError::NotAFifo {
            path: path.display().to_string(),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err(path)(e)),
    }
}

/// Makes a FIFO at `path` (checked by `check_free`), replacing a stale one of ours.
fn make_fifo(path: &Path) -> Result<(), TransportError> {
    check_free(path)?;
    if fs::symlink_metadata(path).is_ok() {
        fs::remove_file(path).map_err(io_err(path))?;
    }
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| {
        io_err(path)(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a NUL byte in the path",
        ))
    })?;
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(io_err(path)(io::Error::last_os_error()));
    }
    Ok(())
}

impl FifoPair {
    /// Creates `dir` (mode 0700) if needed, then the two pipes and the pid file in it.
    pub fn create(dir: &Path) -> Result<FifoPair, TransportError> {
        let made_dir = match fs::symlink_metadata(dir) {
            Ok(m) if !m.is_dir() => {
                return Err(TransportError::NotAFifo {
                    path: dir.display().to_string(),
                })
            }
            Ok(m) if m.uid() != uid() => {
                return Err(TransportError::NotOurs {
                    path: dir.display().to_string(),
                    uid: m.uid(),
                })
            }
            Ok(_) => false,
            Err(_) => {
                fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(io_err(dir))?;
                true
            }
        };
        // Another server in this folder is refused before anything is touched.
        let pid = dir.join(PID_FILE);
        // Replaced only when it is a stale pid file (a number), never a link or anything else.
        if let Ok(m) = fs::symlink_metadata(&pid) {
            let stale = m.is_file()
                && m.len() < 32
                && fs::read_to_string(&pid).is_ok_and(|t| t.trim().parse::<u32>().is_ok());
            if !stale {
                return Err(TransportError::NotAFifo {
                    path: pid.display().to_string(),
                });
            }
            let other = fs::read_to_string(&pid)
                .ok()
                .and_then(|t| t.trim().parse::<i32>().ok())
                .unwrap_or(0);
            // SAFETY: kill with signal 0 only checks that the process exists.
            if other > 0
                && other != std::process::id() as i32
                && unsafe { libc::kill(other, 0) } == 0
            {
                return Err(TransportError::Busy {
                    path: dir.display().to_string(),
                    pid: other as u32,
                });
            }
        }
        // Both paths are checked before anything is made: a refused one leaves the folder as
        // it was (the pair, once built, removes its pipes when dropped).
        let (to, from) = (dir.join(TO_NESTOR), dir.join(FROM_NESTOR));
        for p in [&to, &from] {
            check_free(p)?;
        }
        make_fifo(&to)?;
        if let Err(e) = make_fifo(&from) {
            let _ = fs::remove_file(&to);
            return Err(e);
        }
        let pair = FifoPair {
            dir: dir.to_path_buf(),
            made_dir,
        };
        if fs::symlink_metadata(&pid).is_ok() {
            // A stale pid file (checked above).
            let _ = fs::remove_file(&pid);
        }
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&pid)
            .map_err(io_err(&pid))?;
        writeln!(f, "{}", std::process::id()).map_err(io_err(&pid))?;
        Ok(pair)
    }

    /// The pipe folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The pipe the script writes (`frame` lines).
    pub fn to_nestor(&self) -> PathBuf {
        self.dir.join(TO_NESTOR)
    }

    /// The pipe the script reads (`pad` lines).
    pub fn from_nestor(&self) -> PathBuf {
        self.dir.join(FROM_NESTOR)
    }

    /// Waits for a script to open the pipes (the one it writes first, as the script does),
    /// and returns nestor's reading and writing ends. The pipes' names are then removed until
    /// the next `accept` makes them again: a second emulator finds no pipes and waits (as
    /// the plugin does) instead of writing into this session's pipe.
    pub fn accept(&self) -> Result<(BufReader<File>, File), TransportError> {
        let (to, from) = (self.to_nestor(), self.from_nestor());
        for p in [&to, &from] {
            if fs::symlink_metadata(p).is_err() {
                make_fifo(p)?;
            }
        }
        let reader = File::open(&to).map_err(io_err(&to))?;
        let writer = OpenOptions::new()
            .write(true)
            .open(&from)
            .map_err(io_err(&from))?;
        for p in [&to, &from] {
            let _ = fs::remove_file(p);
        }
        Ok((BufReader::new(reader), writer))
    }

    /// Removes the pipes, the pid file and the folder if it was made here (also on drop).
    pub fn remove(&self) {
        for name in [TO_NESTOR, FROM_NESTOR, PID_FILE] {
            let _ = fs::remove_file(self.dir.join(name));
        }
        if self.made_dir {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

impl Drop for FifoPair {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Binds `addr`; a non-loopback address only with `any`, and then with a warning.
pub fn listen_tcp(addr: SocketAddr, any: bool) -> Result<TcpListener, TransportError> {
    if !addr.ip().is_loopback() {
        if !any {
            return Err(TransportError::NotLoopback { addr });
        }
        log::warn!(
            "listening on {addr}, not only on this machine: anyone who can reach it can drive \
             nestor"
        );
    }
    TcpListener::bind(addr).map_err(|source| TransportError::Io {
        path: addr.to_string(),
        source,
    })
}

/// Waits for one TCP client; returns its reading and writing ends (Nagle off: one short line
/// per frame must leave at once).
pub fn accept_tcp(
    listener: &TcpListener,
) -> io::Result<(BufReader<TcpStream>, TcpStream, SocketAddr)> {
    let (stream, peer) = listener.accept()?;
    stream.set_nodelay(true)?;
    let reader = BufReader::new(stream.try_clone()?);
    Ok((reader, stream, peer))
}
