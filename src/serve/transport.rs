//! Where `nestor serve` waits for emulators: a pair of named pipes (FIFOs) a Lua script opens
//! with plain `io.open`, and/or a TCP port on the loopback address.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, PermissionsExt};
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
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{path} exists and is not a named pipe (FIFO) nestor made; not touching it")]
    NotAFifo { path: String },
    #[error("{path} belongs to another user (uid {uid}); choose another --fifo folder")]
    NotOurs { path: String, uid: u32 },
    #[error(
        "{addr} is not a loopback address: anyone on the network could drive nestor and read \
         what it is sent; pass --listen-any to allow it"
    )]
    NotLoopback { addr: SocketAddr },
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

/// Makes a FIFO at `path`, replacing a stale one of ours; anything else there is refused.
fn make_fifo(path: &Path) -> Result<(), TransportError> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_fifo() && m.uid() == uid() => {
            fs::remove_file(path).map_err(io_err(path))?
        }
        Ok(m) if m.file_type().is_fifo() => {
            return Err(TransportError::NotOurs {
                path: path.display().to_string(),
                uid: m.uid(),
            })
        }
        Ok(_) => {
            return Err(TransportError::NotAFifo {
                path: path.display().to_string(),
            })
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_err(path)(e)),
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
        let pair = FifoPair {
            dir: dir.to_path_buf(),
            made_dir,
        };
        make_fifo(&pair.to_nestor())?;
        make_fifo(&pair.from_nestor())?;
        let pid = pair.dir.join(PID_FILE);
        // The pid file is ours to replace: only ever written here, in our own folder.
        fs::write(&pid, format!("{}\n", std::process::id())).map_err(io_err(&pid))?;
        fs::set_permissions(&pid, fs::Permissions::from_mode(0o600)).map_err(io_err(&pid))?;
        Ok(pair)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn to_nestor(&self) -> PathBuf {
        self.dir.join(TO_NESTOR)
    }

    pub fn from_nestor(&self) -> PathBuf {
        self.dir.join(FROM_NESTOR)
    }

    /// Waits for a script to open the pipes (the one it writes first, as the script does),
    /// and returns nestor's reading and writing ends.
    pub fn accept(&self) -> Result<(BufReader<File>, File), TransportError> {
        let (to, from) = (self.to_nestor(), self.from_nestor());
        let reader = File::open(&to).map_err(io_err(&to))?;
        let writer = OpenOptions::new()
            .write(true)
            .open(&from)
            .map_err(io_err(&from))?;
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
