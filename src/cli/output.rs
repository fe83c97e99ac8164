//! Output files of the commands, checked before any work starts: an output that is one of the
//! inputs (the same file, however it is spelled), a folder or an unwritable place is refused.

use std::path::Path;

use anyhow::{bail, Result};

/// One input of a command, by the role the user knows it under ("ROM", "movie", ...).
pub type Input<'a> = (&'static str, &'a Path);

/// Refuses `out` when it would destroy an input or could not be written: it is the same file
/// as an input (compared by device and inode through `same-file`, so `./rom.nes`, a symlink or
/// a hard link are caught as well as the same spelling), a folder, read-only, or in a folder
/// where no file can be created. The writers then replace `out` in one rename when they are
/// done, so a run that fails or is interrupted never leaves it half-written.
pub fn check_output(flag: &str, out: &Path, inputs: &[Input<'_>]) -> Result<()> {
    for (role, input) in inputs {
        // An input that cannot be opened is reported by its own reader, with its own words.
        if same_file::is_same_file(out, input).unwrap_or(false) {
            bail!(
                "{flag} {} is the {role} {}: refusing to overwrite an input (choose another \
                 output file)",
                out.display(),
                input.display()
            );
        }
    }
    if out.is_dir() {
        bail!("{flag} {} is a folder, not a file", out.display());
    }
    if let Ok(meta) = std::fs::metadata(out) {
        // A device or a pipe (`/dev/full`, `/dev/null`, a FIFO) would be replaced by the
        // writers' rename, not written to.
        if !meta.is_file() {
            bail!(
                "{flag} {} is not a regular file: refusing to replace it",
                out.display()
            );
        }
        if meta.permissions().readonly() {
            bail!(
                "{flag} {} is read-only: refusing to replace it",
                out.display()
            );
        }
    }
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // The writers create their temporary file here: try it now, not after a long run.
    if let Err(e) = tempfile::Builder::new()
        .prefix(".nestor-check-")
        .tempfile_in(dir)
    {
        bail!("{flag} {}: cannot write there: {e}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_is_refused_however_it_is_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let rom = dir.path().join("rom.nes");
        std::fs::write(&rom, b"NES").unwrap();
        let other = dir.path().join("sub").join("..").join("rom.nes");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let e = check_output("--out", &other, &[("ROM", &rom)]).unwrap_err();
        assert!(e.to_string().contains("is the ROM"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.nes");
            std::fs::hard_link(&rom, &link).unwrap();
            let e = check_output("--record", &link, &[("ROM", &rom)]).unwrap_err();
            assert!(e.to_string().contains("--record"), "{e}");
        }
        assert_eq!(std::fs::read(&rom).unwrap(), b"NES");
        // A new file next to it is fine, and so is an existing file that is no input.
        check_output("--out", &dir.path().join("new.fm2"), &[("ROM", &rom)]).unwrap();
        let old = dir.path().join("old.fm2");
        std::fs::write(&old, b"x").unwrap();
        check_output("--out", &old, &[("ROM", &rom)]).unwrap();
    }

    #[test]
    fn folders_missing_folders_and_read_only_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = check_output("--out", dir.path(), &[]).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = check_output("--out", &dir.path().join("no/such/dir/t.jsonl"), &[]).unwrap_err();
        assert!(e.to_string().contains("cannot write there"), "{e}");
        let ro = dir.path().join("ro.fm2");
        std::fs::write(&ro, b"x").unwrap();
        let mut perm = std::fs::metadata(&ro).unwrap().permissions();
        perm.set_readonly(true);
        std::fs::set_permissions(&ro, perm).unwrap();
        let e = check_output("--record", &ro, &[]).unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        #[cfg(unix)]
        {
            let e = check_output("--out", Path::new("/dev/null"), &[]).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        // Nothing is left behind by the check.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}
