//! An output checked before any work starts, under the one rule every command follows: a new
//! file is created, an existing one is refused unless the user passed `--overwrite`.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::write::{open_stream, parent, resolve, temp_in, AtomicFile, Destination, Existing};

/// One input of a command, by the role the user knows it under ("ROM", "movie", ...).
pub type Input<'a> = (&'static str, &'a Path);

/// Why an output is refused; the message names the option and the file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output is one of the command's inputs.
    #[error("{flag} {path} is the {role} {input}: refusing to overwrite an input (choose another output file)")]
    IsInput {
        /// The option that names the output (`--out`).
        flag: String,
        /// The output's path as given.
        path: PathBuf,
        /// The input's role as the user knows it ("ROM", "movie").
        role: &'static str,
        /// The input's path as given.
        input: PathBuf,
    },
    /// Two options of one run name the same file.
    #[error("{flag} {path} is also {other_flag} {other}: two outputs of one run cannot be the same file (choose another name for one of them)")]
    Twice {
        /// The option checked second.
        flag: String,
        /// Its path as given.
        path: PathBuf,
        /// The option checked first that names the same file.
        other_flag: String,
        /// That option's path as given.
        other: PathBuf,
    },
    /// The output exists and `--overwrite` was not given.
    #[error("{flag} {path} exists: a file that already exists is never replaced unless --overwrite is given (choose another name, or add --overwrite)")]
    Exists {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
    },
    /// The output is a folder.
    #[error("{flag} {path} is a folder, not a file")]
    Folder {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
    },
    /// A folder of outputs (`--plots DIR`) names something that is not a folder.
    #[error("{flag} {path} is not a directory")]
    NotFolder {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
    },
    /// The output is a block device or a socket.
    #[error("{flag} {path} is {kind}, which nestor never writes to")]
    Unsupported {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
        /// What the output is ("a block device", "a socket").
        kind: &'static str,
    },
    /// The output is an existing file without write permission.
    #[error("{flag} {path} is read-only: refusing to replace it")]
    ReadOnly {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
    },
    /// The OS refused a check (opening, resolving links, creating a file in the folder).
    #[error("{flag} {path}: cannot write there: {source}")]
    Unwritable {
        /// The option that names the output.
        flag: String,
        /// The output's path as given.
        path: PathBuf,
        /// The OS's error, or in words why no file can be created in the folder.
        source: std::io::Error,
    },
}

/// Whether `a` and `b` are the same file (device and inode, links followed), by `stat` alone:
/// opening them to compare, as `same-file` does, would wait on a FIFO for a writer.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        // An input that cannot be read is reported by its own reader, with its own words.
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// Why no file can be created in an output's folder, in the words of the OS's error.
fn in_folder(e: &std::io::Error) -> std::io::Error {
    use std::io::ErrorKind;
    let why = match e.kind() {
        ErrorKind::NotFound => "its folder does not exist",
        ErrorKind::PermissionDenied => "no file can be created in its folder (permission denied)",
        ErrorKind::ReadOnlyFilesystem => "its folder is on a read-only file system",
        _ => return std::io::Error::new(e.kind(), format!("its folder: {}", e.kind())),
    };
    std::io::Error::new(e.kind(), why)
}

/// How an output will be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A new regular file (a dangling link's target included).
    New,
    /// An existing regular file the user allowed to be replaced (`--overwrite`).
    Replace,
    /// A device, a FIFO or a descriptor path, written in order.
    Stream,
}

/// An output that passed the checks; write it with [`Output::create`] or [`Output::write`].
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    kind: OutputKind,
    /// A FIFO is opened at the check and kept open until the output is dropped, so that its
    /// reader is not told "end of file" between the check and the write.
    _stream: Option<File>,
}

impl Output {
    /// Checks `path` for the option `flag` before the run: refused when it is one of
    /// `inputs` (however spelt: same device and inode), a folder, a block device or socket,
    /// an existing file without `overwrite`, read-only or immutable, in a folder where no file
    /// can be created, or a FIFO no process reads. Links are followed: the file a link names
    /// is what is checked and later written.
    pub fn check(
        flag: &str,
        path: &Path,
        inputs: &[Input<'_>],
        overwrite: bool,
    ) -> Result<Output, OutputError> {
        let flag = flag.to_string();
        let at = || path.to_path_buf();
        for (role, input) in inputs {
            if same_file(path, input) {
                return Err(OutputError::IsInput {
                    flag,
                    path: at(),
                    role,
                    input: input.to_path_buf(),
                });
            }
        }
        let unwritable = |flag: String, source| OutputError::Unwritable {
            flag,
            path: at(),
            source,
        };
        let destination = resolve(path).map_err(|e| unwritable(flag.clone(), e))?;
        let (kind, stream) = match destination {
            Destination::Folder => return Err(OutputError::Folder { flag, path: at() }),
            Destination::Unsupported { kind } => {
                return Err(OutputError::Unsupported {
                    flag,
                    path: at(),
                    kind,
                })
            }
            Destination::Stream { .. } => {
                let file = open_stream(path).map_err(|e| unwritable(flag.clone(), e))?;
                (OutputKind::Stream, Some(file))
            }
            Destination::File {
                path: real,
                existing,
            } => {
                let kind = match existing {
                    None => OutputKind::New,
                    Some(_) if !overwrite => return Err(OutputError::Exists { flag, path: at() }),
                    Some(meta) => {
                        if meta.permissions().readonly() {
                            return Err(OutputError::ReadOnly { flag, path: at() });
                        }
                        // Opening for writing (no truncation, nothing written) finds what
                        // the mode bits do not say: an immutable file, a read-only mount.
                        std::fs::OpenOptions::new()
                            .write(true)
                            .open(&real)
                            .map_err(|e| unwritable(flag.clone(), e))?;
                        OutputKind::Replace
                    }
                };
                // The writer creates its temporary file here: try it now, not after a long run.
                // The error says why, not the temporary file's name (never seen by the user).
                temp_in(parent(&real)).map_err(|e| unwritable(flag.clone(), in_folder(&e)))?;
                (kind, None)
            }
        };
        Ok(Output {
            path: at(),
            kind,
            _stream: stream,
        })
    }

    /// The path as the user gave it (links are followed again by the writers).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How the output will be written: a new file, a replacement, or a stream.
    pub fn kind(&self) -> OutputKind {
        self.kind
    }

    /// What the writers do with an existing file: only a checked `--overwrite` replaces one.
    pub fn existing(&self) -> Existing {
        match self.kind {
            OutputKind::New => Existing::Refuse,
            OutputKind::Replace | OutputKind::Stream => Existing::Replace,
        }
    }

    /// Starts writing the output.
    pub fn create(&self) -> std::io::Result<AtomicFile> {
        AtomicFile::create(&self.path, self.existing())
    }

    /// Writes the whole output at once.
    pub fn write(&self, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        let mut file = self.create()?;
        file.write_all(bytes)?;
        file.commit()
    }
}

/// Where an output will be written, however it is spelt: its links followed and its folder
/// made absolute (a folder that does not exist yet is taken as written). `None` for a stream
/// (`/dev/null`, a FIFO), which several outputs may share.
fn identity(path: &Path) -> Option<PathBuf> {
    let Ok(Destination::File { path: real, .. }) = resolve(path) else {
        return None;
    };
    let name = real.file_name()?;
    let dir = parent(&real);
    let dir = std::fs::canonicalize(dir)
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    Some(dir.join(name))
}

/// Every output of one command, checked before any work: each against the command's inputs
/// and the overwrite rule ([`Output::check`]), and against the outputs checked before it, so
/// that two options never name one file (`--out d/scores.png --plots d`).
#[derive(Debug)]
pub struct OutputSet<'a> {
    inputs: Vec<Input<'a>>,
    overwrite: bool,
    /// Each output checked so far: its option, its path as given, where it is written.
    taken: Vec<(String, PathBuf, PathBuf)>,
}

impl<'a> OutputSet<'a> {
    /// An empty set for one command: its `inputs`, and whether the user gave `--overwrite`.
    pub fn new(inputs: Vec<Input<'a>>, overwrite: bool) -> OutputSet<'a> {
        OutputSet {
            inputs,
            overwrite,
            taken: Vec::new(),
        }
    }

    /// The inputs no output may be.
    pub fn inputs(&self) -> &[Input<'a>] {
        &self.inputs
    }

    /// Checks the output `path` of the option `flag`.
    pub fn file(&mut self, flag: &str, path: &Path) -> Result<Output, OutputError> {
        let key = identity(path);
        if let Some(key) = &key {
            if let Some((other_flag, other, _)) = self.taken.iter().find(|(_, _, k)| k == key) {
                return Err(OutputError::Twice {
                    flag: flag.to_string(),
                    path: path.to_path_buf(),
                    other_flag: other_flag.clone(),
                    other: other.clone(),
                });
            }
        }
        let out = Output::check(flag, path, &self.inputs, self.overwrite)?;
        if let Some(key) = key {
            self.taken.push((flag.to_string(), path.to_path_buf(), key));
        }
        Ok(out)
    }

    /// As [`OutputSet::file`] for an output that may be absent.
    pub fn maybe(
        &mut self,
        flag: &str,
        path: Option<&Path>,
    ) -> Result<Option<Output>, OutputError> {
        path.map(|p| self.file(flag, p)).transpose()
    }

    /// Checks a folder of outputs (`sim --plots DIR`): the folder is created if missing, and
    /// each of `names` inside it is checked as an output of its own.
    pub fn folder(
        &mut self,
        flag: &str,
        dir: &Path,
        names: &[&str],
    ) -> Result<Vec<Output>, OutputError> {
        make_folder(flag, dir)?;
        names
            .iter()
            .map(|name| self.file(flag, &dir.join(name)))
            .collect()
    }
}

/// A folder of outputs made ready: refused when it is a file, created when missing.
fn make_folder(flag: &str, dir: &Path) -> Result<(), OutputError> {
    if dir.exists() && !dir.is_dir() {
        return Err(OutputError::NotFolder {
            flag: flag.to_string(),
            path: dir.to_path_buf(),
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| OutputError::Unwritable {
        flag: flag.to_string(),
        path: dir.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_is_refused_however_it_is_spelled() {
        let (dir, rom) = crate::io::folder_with("rom.nes", b"NES");
        let other = dir.path().join("sub").join("..").join("rom.nes");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let e = Output::check("--out", &other, &[("ROM", &rom)], true).unwrap_err();
        assert!(e.to_string().contains("is the ROM"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.nes");
            std::fs::hard_link(&rom, &link).unwrap();
            let e = Output::check("--record", &link, &[("ROM", &rom)], true).unwrap_err();
            assert!(e.to_string().contains("--record"), "{e}");
        }
        assert_eq!(std::fs::read(&rom).unwrap(), b"NES");
        let new = Output::check(
            "--out",
            &dir.path().join("new.fm2"),
            &[("ROM", &rom)],
            false,
        );
        assert_eq!(new.unwrap().kind(), OutputKind::New);
    }

    #[test]
    fn an_existing_file_is_refused_unless_overwrite() {
        let (_dir, old) = crate::io::folder_with("old.fm2", b"x");
        let e = Output::check("--record", &old, &[], false).unwrap_err();
        assert!(e.to_string().contains("--overwrite"), "{e}");
        let out = Output::check("--record", &old, &[], true).unwrap();
        assert_eq!(out.kind(), OutputKind::Replace);
        out.write(b"y").unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"y");
    }

    #[test]
    fn folders_missing_folders_and_read_only_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = Output::check("--out", dir.path(), &[], true).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e =
            Output::check("--out", &dir.path().join("no/such/dir/t.jsonl"), &[], true).unwrap_err();
        assert!(e.to_string().contains("cannot write there"), "{e}");
        let ro = dir.path().join("ro.fm2");
        std::fs::write(&ro, b"x").unwrap();
        let mut perm = std::fs::metadata(&ro).unwrap().permissions();
        perm.set_readonly(true);
        std::fs::set_permissions(&ro, perm).unwrap();
        let e = Output::check("--record", &ro, &[], true).unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        #[cfg(unix)]
        {
            let out = Output::check("--out", Path::new("/dev/null"), &[], false).unwrap();
            assert_eq!(out.kind(), OutputKind::Stream);
        }
        // Nothing is left behind by the checks.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}
