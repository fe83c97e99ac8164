//! Cartridge images: reading an iNES file, checking its header (MMC1 only), hashing it and
//! naming the dump, so nothing but a known `Tetris (U) [!]` runs unless the user asks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use md5::{Digest as _, Md5};
use sha1::Sha1;

use crate::io::read_at_most;

/// Length of the iNES header.
pub const HEADER_LEN: usize = 16;
/// Length of the optional trainer that follows the header.
pub const TRAINER_LEN: usize = 512;
/// PRG-ROM bank size (header byte 4 counts these).
pub const PRG_BANK: usize = 16 * 1024;
/// CHR-ROM bank size (header byte 5 counts these).
pub const CHR_BANK: usize = 8 * 1024;
/// The only mapper the NTSC cartridge uses (MMC1, SxROM).
pub const MAPPER_MMC1: u16 = 1;
/// The largest file read as a ROM: the biggest MMC1 board (512 KiB PRG, 256 KiB CHR) with
/// header and trainer fits; Tetris itself is 40 KiB. Anything longer (or `/dev/zero`) is
/// refused after reading just past this, instead of being read until memory runs out.
pub const MAX_ROM_BYTES: u64 = 1 << 20;

/// The environment variable naming the user's own cartridge for the tests that need it. Those
/// tests are compiled as ignored ("needs NESTOR_ROM") unless it is set at build time
/// (`build.rs`), so `cargo test` shows them skipped instead of passing silently.
pub const ROM_ENV: &str = "NESTOR_ROM";

/// The cartridge named by `NESTOR_ROM`, for the tests that need it; panics with the reason
/// when it is unset or not the known dump (such a test was asked to run, so that is a failure).
/// Not in the product: the integration tests get it through the `test-hooks` feature.
#[cfg(any(test, feature = "test-hooks"))]
pub fn rom_for_tests() -> Rom {
    let path = std::env::var_os(ROM_ENV)
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| {
            panic!("{ROM_ENV} is not set: the path to your own Tetris (U) [!] .nes")
        });
    Rom::load(&path, false).unwrap_or_else(|e| panic!("{ROM_ENV}: {e}"))
}

/// A cartridge dump this program knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownDump {
    /// The dump's name (`Tetris (U) [!]`).
    pub name: &'static str,
    /// MD5 of the whole file as it is usually distributed (16-byte iNES 1.0 header, no trainer).
    pub file_md5: [u8; 16],
    /// MD5 of PRG-ROM followed by CHR-ROM (header and trainer excluded): the FM2 `romChecksum`.
    pub prg_chr_md5: [u8; 16],
    /// SHA-1 of PRG-ROM followed by CHR-ROM.
    pub prg_chr_sha1: [u8; 20],
}

/// `Tetris (U) [!]`. The whole-file MD5 is the one the public disassembly rebuilds
/// (nes-tetris.md). The PRG+CHR hashes were not computed here (no ROM is available to this
/// project's authors); they are the "ignoring the 16 byte iNES header" MD5 and SHA-1 that
/// ejona86/taus `INSTALL.md` gives for that same file (MD5 ec58574d…, header
/// `4E 45 53 1A 02 02 10 00 …`, so no trainer: PRG+CHR is exactly the file minus 16 bytes).
/// The `NESTOR_ROM` test `real_rom_is_identified` checks them against a real dump.
pub const TETRIS_U: KnownDump = KnownDump {
    name: "Tetris (U) [!]",
    file_md5: hex16("ec58574d96bee8c8927884ae6e7a2508"),
    prg_chr_md5: hex16("5b0e571558c8c796937b96af469561c6"),
    prg_chr_sha1: hex20("fd9079cb5e8479eb06d93c2ae5175bfce871746a"),
};

/// Every dump `Rom::load` accepts without `allow_unknown`.
pub const KNOWN_DUMPS: &[KnownDump] = &[TETRIS_U];

const fn hex_nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("bad hex digit in a constant"),
    }
}

const fn hex_bytes<const N: usize>(s: &str) -> [u8; N] {
    let b = s.as_bytes();
    assert!(b.len() == 2 * N, "bad hex length in a constant");
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = hex_nibble(b[2 * i]) << 4 | hex_nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

const fn hex16(s: &str) -> [u8; 16] {
    hex_bytes::<16>(s)
}

const fn hex20(s: &str) -> [u8; 20] {
    hex_bytes::<20>(s)
}

/// Lower-case hex of a hash.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Why a ROM file was refused. Each variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read ROM file {name}: {source}")]
    Io {
        /// The file's path as given.
        name: String,
        /// The OS's error.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with `NES\x1A`.
    #[error("{name} is not an iNES ROM: the file does not start with \"NES\\x1A\"")]
    BadMagic {
        /// The file's path as given.
        name: String,
    },
    /// A header byte holds a value this program refuses.
    #[error("{name}: iNES header byte {byte} is {value:#04x}: {reason}")]
    BadHeader {
        /// The file's path as given.
        name: String,
        /// The byte's index in the header (0-15).
        byte: usize,
        /// Its value.
        value: u8,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The file is shorter than its header says.
    #[error(
        "{name} is truncated: its header promises {expected} bytes \
         (header {HEADER_LEN}{trainer}, PRG {prg}, CHR {chr}) but the file has {actual}",
        trainer = if *trainer { " + trainer 512" } else { "" }
    )]
    Truncated {
        /// The file's path as given.
        name: String,
        /// Bytes the header promises.
        expected: usize,
        /// Bytes in the file.
        actual: usize,
        /// PRG-ROM bytes the header promises.
        prg: usize,
        /// CHR-ROM bytes the header promises.
        chr: usize,
        /// Whether the header promises a 512-byte trainer.
        trainer: bool,
    },
    /// The image is not an MMC1 cartridge.
    #[error("{name} uses mapper {mapper}; NES Tetris (NTSC) is an MMC1 (mapper 1) cartridge")]
    WrongMapper {
        /// The file's path as given.
        name: String,
        /// The mapper number the header gives.
        mapper: u16,
    },
    /// An MMC1 image that is not a known dump, without `--allow-unknown-rom`.
    #[error(
        "{name} is a well-formed MMC1 image but not a known Tetris (U) [!] dump \
         (file MD5 {file_md5}, PRG+CHR MD5 {prg_chr_md5}); pass --allow-unknown-rom to run it anyway"
    )]
    UnknownDump {
        /// The file's path as given.
        name: String,
        /// MD5 of the whole file, in hex.
        file_md5: String,
        /// MD5 of PRG-ROM then CHR-ROM, in hex.
        prg_chr_md5: String,
    },
}

/// The parts of an iNES header this program needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// PRG-ROM size in bytes.
    pub prg_len: usize,
    /// CHR-ROM size in bytes (0 for CHR-RAM).
    pub chr_len: usize,
    /// Whether a 512-byte trainer sits between the header and PRG-ROM.
    pub trainer: bool,
    /// iNES mapper number (1 = MMC1).
    pub mapper: u16,
    /// Whether the header is NES 2.0 (byte 7 bits 2-3 = 2).
    pub nes2: bool,
}

impl Header {
    /// Parses and checks the header of `bytes` (the magic, the sizes); the length and the
    /// mapper are checked by the caller.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<Header, Error> {
        if bytes.len() < 4 || &bytes[..4] != b"NES\x1A" {
            return Err(Error::BadMagic { name: name.into() });
        }
        let Some(h) = bytes.get(..HEADER_LEN) else {
            return Err(Error::Truncated {
                name: name.into(),
                expected: HEADER_LEN,
                actual: bytes.len(),
                prg: 0,
                chr: 0,
                trainer: false,
            });
        };
        let nes2 = h[7] & 0x0C == 0x08;
        let (prg_units, chr_units, mapper) = if nes2 {
            if h[9] & 0x0F == 0x0F || h[9] >> 4 == 0x0F {
                return Err(Error::BadHeader {
                    name: name.into(),
                    byte: 9,
                    value: h[9],
                    reason: "NES 2.0 exponent-multiplier ROM sizes are not supported",
                });
            }
            (
                usize::from(h[9] & 0x0F) << 8 | usize::from(h[4]),
                usize::from(h[9] >> 4) << 8 | usize::from(h[5]),
                u16::from(h[8] & 0x0F) << 8 | u16::from(h[7] & 0xF0) | u16::from(h[6] >> 4),
            )
        } else {
            // Old dumps with junk ("DiskDude!") in bytes 7-15 carry a bogus upper mapper
            // nibble; emulators ignore byte 7 when bytes 12-15 are not zero.
            let upper = if h[12..16].iter().all(|&b| b == 0) {
                h[7] & 0xF0
            } else {
                0
            };
            (
                usize::from(h[4]),
                usize::from(h[5]),
                u16::from(upper | h[6] >> 4),
            )
        };
        if prg_units == 0 {
            return Err(Error::BadHeader {
                name: name.into(),
                byte: 4,
                value: h[4],
                reason: "a cartridge needs at least one PRG-ROM bank",
            });
        }
        Ok(Header {
            prg_len: prg_units * PRG_BANK,
            chr_len: chr_units * CHR_BANK,
            trainer: h[6] & 0x04 != 0,
            mapper,
            nes2,
        })
    }

    /// Offset of PRG-ROM in the file.
    pub fn prg_offset(&self) -> usize {
        HEADER_LEN + if self.trainer { TRAINER_LEN } else { 0 }
    }

    /// Bytes the header promises: header, trainer, PRG and CHR.
    pub fn image_len(&self) -> usize {
        self.prg_offset() + self.prg_len + self.chr_len
    }
}

/// A checked cartridge image.
#[derive(Clone, Debug)]
#[must_use]
pub struct Rom {
    /// The file's path as given.
    pub path: PathBuf,
    /// The whole file, as read.
    pub bytes: Vec<u8>,
    /// The checked iNES header.
    pub header: Header,
    /// MD5 of PRG-ROM then CHR-ROM (the FM2 `romChecksum`).
    pub prg_chr_md5: [u8; 16],
    /// SHA-1 of PRG-ROM then CHR-ROM.
    pub prg_chr_sha1: [u8; 20],
    /// MD5 of the whole file.
    pub file_md5: [u8; 16],
    /// iNES mapper number, as in [`Header::mapper`].
    pub mapper: u16,
    /// The known dump's name, or `None` when accepted with `allow_unknown`.
    pub known: Option<&'static str>,
}

impl Rom {
    /// Reads and checks the ROM at `path`. An MMC1 image that is not a known dump is refused
    /// unless `allow_unknown`.
    pub fn load(path: impl AsRef<Path>, allow_unknown: bool) -> Result<Rom, Error> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = read_at_most(path, MAX_ROM_BYTES).map_err(|source| Error::Io {
            name: name.clone(),
            source,
        })?;
        let mut rom = Rom::from_bytes(&name, bytes, allow_unknown)?;
        rom.path = path.to_path_buf();
        Ok(rom)
    }

    /// Checks an image held in memory; `name` is used in errors and as the path.
    pub fn from_bytes(name: &str, bytes: Vec<u8>, allow_unknown: bool) -> Result<Rom, Error> {
        let header = Header::parse(name, &bytes)?;
        if bytes.len() < header.image_len() {
            return Err(Error::Truncated {
                name: name.into(),
                expected: header.image_len(),
                actual: bytes.len(),
                prg: header.prg_len,
                chr: header.chr_len,
                trainer: header.trainer,
            });
        }
        if header.mapper != MAPPER_MMC1 {
            return Err(Error::WrongMapper {
                name: name.into(),
                mapper: header.mapper,
            });
        }
        let image = &bytes[header.prg_offset()..header.image_len()];
        let prg_chr_md5: [u8; 16] = Md5::digest(image).into();
        let prg_chr_sha1: [u8; 20] = Sha1::digest(image).into();
        let file_md5: [u8; 16] = Md5::digest(&bytes).into();
        // A re-headered copy of the same PRG+CHR is the same cartridge.
        let known = KNOWN_DUMPS
            .iter()
            .find(|d| d.file_md5 == file_md5 || d.prg_chr_md5 == prg_chr_md5)
            .map(|d| d.name);
        if known.is_none() && !allow_unknown {
            return Err(Error::UnknownDump {
                name: name.into(),
                file_md5: hex(&file_md5),
                prg_chr_md5: hex(&prg_chr_md5),
            });
        }
        Ok(Rom {
            path: PathBuf::from(name),
            mapper: header.mapper,
            bytes,
            header,
            prg_chr_md5,
            prg_chr_sha1,
            file_md5,
            known,
        })
    }

    /// The image the emulator is given: a plain iNES 1.0 header (the file's PRG and CHR sizes
    /// and flags, no trainer, nothing in bytes 7-15) and PRG+CHR, so a trainer, a dirty header
    /// or trailing bytes never reach tetanes: the cartridge accepted is the cartridge played.
    /// For the known dump's own file this is the file, byte for byte.
    pub fn playable_image(&self) -> Vec<u8> {
        let mut image = Vec::with_capacity(HEADER_LEN + self.header.prg_len + self.header.chr_len);
        image.extend_from_slice(&self.bytes[..8]);
        image[6] &= !0x04;
        // Mapper 1's high nibble is 0; an iNES 1.0 header has nothing else in byte 7.
        image[7] = 0;
        image.resize(HEADER_LEN, 0);
        image.extend_from_slice(&self.bytes[self.header.prg_offset()..self.header.image_len()]);
        image
    }

    /// True when PRG+CHR is a known dump's but the file as a whole is not that dump's file
    /// (another header, a trainer, trailing bytes): it plays the same, and callers say so.
    pub fn header_differs(&self) -> bool {
        KNOWN_DUMPS
            .iter()
            .any(|d| d.prg_chr_md5 == self.prg_chr_md5 && d.file_md5 != self.file_md5)
    }

    /// The file's name without its folder, for a movie header (never the absolute path).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(|| "rom".to_string(), |s| s.to_string_lossy().into_owned())
    }

    /// A short name for the emulator (the file stem).
    pub fn name(&self) -> String {
        self.path
            .file_stem()
            .map_or_else(|| "rom".to_string(), |s| s.to_string_lossy().into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::testcart;

    #[test]
    fn hex_constants_decode() {
        assert_eq!(hex(&TETRIS_U.file_md5), "ec58574d96bee8c8927884ae6e7a2508");
        assert_eq!(
            hex(&TETRIS_U.prg_chr_md5),
            "5b0e571558c8c796937b96af469561c6"
        );
        assert_eq!(
            hex(&TETRIS_U.prg_chr_sha1),
            "fd9079cb5e8479eb06d93c2ae5175bfce871746a"
        );
    }

    #[test]
    fn bad_magic_is_refused() {
        let mut img = testcart::mmc1_image();
        img[3] = 0;
        let e = Rom::from_bytes("x.nes", img, true).unwrap_err();
        assert!(
            matches!(e, Error::BadMagic { ref name } if name == "x.nes"),
            "{e}"
        );
        let e = Rom::from_bytes("empty.nes", vec![], true).unwrap_err();
        assert!(matches!(e, Error::BadMagic { .. }), "{e}");
    }

    #[test]
    fn truncated_is_refused_with_lengths() {
        let img = testcart::mmc1_image();
        let full = img.len();
        for cut in [5, HEADER_LEN, full - 1] {
            let e = Rom::from_bytes("t.nes", img[..cut].to_vec(), true).unwrap_err();
            match e {
                Error::Truncated {
                    expected, actual, ..
                } => {
                    assert_eq!(actual, cut);
                    assert!(expected > actual);
                }
                e => panic!("cut {cut}: {e}"),
            }
        }
        // A trainer flag makes the same bytes 512 short.
        let mut img = testcart::mmc1_image();
        img[6] |= 0x04;
        let e = Rom::from_bytes("t.nes", img, true).unwrap_err();
        assert!(
            matches!(e, Error::Truncated { expected, actual, .. } if expected == actual + TRAINER_LEN),
            "{e}"
        );
        assert!(e.to_string().contains("t.nes"));
    }

    #[test]
    fn wrong_mapper_is_refused() {
        let e = Rom::from_bytes("nrom.nes", testcart::nrom_image(), true).unwrap_err();
        assert!(matches!(e, Error::WrongMapper { mapper: 0, .. }), "{e}");
        let mut img = testcart::mmc1_image();
        img[6] = 0x40; // mapper 4
        let e = Rom::from_bytes("m4.nes", img, true).unwrap_err();
        assert!(matches!(e, Error::WrongMapper { mapper: 4, .. }), "{e}");
        assert!(e.to_string().contains("m4.nes"));
    }

    #[test]
    fn unknown_dump_refused_unless_allowed() {
        let e = Rom::from_bytes("u.nes", testcart::mmc1_image(), false).unwrap_err();
        assert!(matches!(e, Error::UnknownDump { .. }), "{e}");
        assert!(e.to_string().contains("u.nes"));
        let rom = Rom::from_bytes("u.nes", testcart::mmc1_image(), true).unwrap();
        assert_eq!(rom.known, None);
        assert_eq!(rom.mapper, 1);
        // The hashes cover PRG+CHR only: changing the header's padding keeps them.
        let mut img = testcart::mmc1_image();
        img[10] = 0x55;
        let other = Rom::from_bytes("u2.nes", img, true).unwrap();
        assert_eq!(other.prg_chr_md5, rom.prg_chr_md5);
        assert_eq!(other.prg_chr_sha1, rom.prg_chr_sha1);
        assert_ne!(other.file_md5, rom.file_md5);
    }

    #[test]
    fn a_known_prg_chr_in_another_file_is_flagged_and_files_are_named_without_folders() {
        let mut rom = Rom::from_bytes("dir/u.nes", testcart::mmc1_image(), true).unwrap();
        assert!(!rom.header_differs(), "an unknown dump");
        assert_eq!(rom.file_name(), "u.nes");
        // The known PRG+CHR under another whole-file hash (a changed header, extra bytes).
        rom.prg_chr_md5 = TETRIS_U.prg_chr_md5;
        assert!(rom.header_differs());
        rom.file_md5 = TETRIS_U.file_md5;
        assert!(!rom.header_differs(), "the usual file");
    }

    #[test]
    fn an_endless_or_huge_file_is_refused_after_the_limit() {
        #[cfg(unix)]
        {
            let e = Rom::load("/dev/zero", true).unwrap_err().to_string();
            assert!(
                e.contains("/dev/zero") && e.contains("not a regular file"),
                "{e}"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.nes");
        let mut img = testcart::mmc1_image();
        img.resize(MAX_ROM_BYTES as usize + 1, 0);
        std::fs::write(&big, img).unwrap();
        let e = Rom::load(&big, true).unwrap_err().to_string();
        assert!(e.contains("big.nes") && e.contains("larger than"), "{e}");
    }

    #[test]
    fn hashes_match_a_direct_computation() {
        let img = testcart::mmc1_image();
        let rom = Rom::from_bytes("u.nes", img.clone(), true).unwrap();
        let md5: [u8; 16] = Md5::digest(&img[HEADER_LEN..]).into();
        assert_eq!(rom.prg_chr_md5, md5);
        let whole: [u8; 16] = Md5::digest(&img).into();
        assert_eq!(rom.file_md5, whole);
    }

    #[test]
    fn missing_file_is_io_error_naming_it() {
        let e = Rom::load("/nonexistent/dir/Tetris.nes", false).unwrap_err();
        assert!(matches!(e, Error::Io { .. }), "{e}");
        assert!(e.to_string().contains("/nonexistent/dir/Tetris.nes"));
    }

    /// Needs the real cartridge: `NESTOR_ROM=/path/to/Tetris (U) [!].nes`.
    #[test]
    #[cfg_attr(not(nestor_rom), ignore = "needs NESTOR_ROM (your own Tetris ROM)")]
    fn real_rom_is_identified() {
        let rom = rom_for_tests();
        assert!(!rom.header_differs(), "the usual dump's file");
        assert_eq!(rom.known, Some(TETRIS_U.name));
        assert_eq!(rom.mapper, 1);
        eprintln!(
            "{}: file MD5 {}, PRG+CHR MD5 {}, PRG+CHR SHA-1 {}",
            rom.path.display(),
            hex(&rom.file_md5),
            hex(&rom.prg_chr_md5),
            hex(&rom.prg_chr_sha1)
        );
        if rom.file_md5 != TETRIS_U.file_md5 {
            // A re-headered dump (e.g. NES 2.0) is the same game: the PRG+CHR hashes decide.
            eprintln!("note: not the usual iNES header; identified by its PRG+CHR hashes");
        }
        assert_eq!(rom.prg_chr_md5, TETRIS_U.prg_chr_md5);
        assert_eq!(rom.prg_chr_sha1, TETRIS_U.prg_chr_sha1);
    }
}
