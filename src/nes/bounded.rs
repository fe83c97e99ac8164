//! Reading a user's file with a size limit, so that `/dev/zero`, a FIFO or a huge file given
//! by mistake is refused after reading just past the limit instead of filling memory.

use std::io::Read;
use std::path::Path;

/// The largest settings or address-map file read (they are a few KiB).
pub const MAX_TOML_BYTES: u64 = 1 << 20;

/// Reads a small text file (TOML) with the `MAX_TOML_BYTES` bound; bytes that are not UTF-8
/// are an `InvalidData` error, as with `std::fs::read_to_string`.
pub fn read_toml_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_at_most(path, MAX_TOML_BYTES)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// Reads all of `path` if it holds at most `limit` bytes. A longer file (or an endless stream)
/// is an `InvalidData` error saying so, after reading `limit + 1` bytes.
pub fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
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
    fn endless_and_oversized_files_are_refused_small_ones_read() {
        #[cfg(unix)]
        {
            let e = read_at_most(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert!(e.to_string().contains("larger than 1 MiB"), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, [7u8; 2048]).unwrap();
        assert_eq!(read_at_most(&p, 2048).unwrap().len(), 2048);
        let e = read_at_most(&p, 2047).unwrap_err();
        assert!(e.to_string().contains("2047 bytes"), "{e}");
        assert!(read_at_most(&p, 1024)
            .unwrap_err()
            .to_string()
            .contains("1 KiB"));
    }
}
