//! The FM2 header: the keys FCEUX writes (typed), `comment` and `subtitle` lines, and any
//! other keys kept verbatim in file order; plus the values nestor records with.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

use super::guid::fresh_guid;
use crate::movegen::profile::Profile;
use crate::nes::Poke;

/// How a recording's `comment` line naming its player profile begins.
const PROFILE_COMMENT: &str = "profile ";
const POKE_COMMENT: &str = "nestor poke after frame ";

/// `emuVersion` nestor writes: FCEUX 2.6.5, the version the lead-frame alignment was measured
/// on (FCEUX encodes major*10000 + minor*100 + patch).
pub const EMU_VERSION: u32 = 20605;

/// `RAMInitOption` nestor writes: 2 fills power-on RAM with zeros in FCEUX, which matches
/// tetanes-core's `RamState::AllZeros`, so even never-cleared RAM agrees frame by frame.
pub const RAM_INIT_ZEROS: u32 = 2;

/// Header keys FM2 requires besides `version` (which must open the file).
pub const REQUIRED_KEYS: [&str; 7] = [
    "emuVersion",
    "romFilename",
    "romChecksum",
    "guid",
    "port0",
    "port1",
    "port2",
];

/// What is plugged into a controller port (`port0`/`port1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PortDevice {
    /// `0`: the port's input field is empty.
    None,
    /// `1`: a standard controller, 8 button characters per frame.
    Gamepad,
}

impl PortDevice {
    /// The number FM2 writes for the device.
    pub fn code(self) -> u32 {
        match self {
            PortDevice::None => 0,
            PortDevice::Gamepad => 1,
        }
    }
}

/// A `subtitle FRAME TEXT` line: FCEUX shows TEXT from input line FRAME on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtitle {
    /// Input line from which FCEUX shows the text.
    pub frame: u32,
    /// The text shown.
    pub text: String,
}

/// Every header line of a movie. Known keys are typed; `extra` keeps the rest in file order
/// so that nothing a newer FCEUX (or another tool) wrote is silently dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `emuVersion`: the FCEUX version that wrote it (major*10000 + minor*100 + patch).
    pub emu_version: u32,
    /// `rerecordCount`.
    pub rerecord_count: u32,
    /// `palFlag`: the movie runs on a PAL console.
    pub pal: bool,
    /// `romFilename`: the ROM's name as the recorder gave it (not checked).
    pub rom_filename: String,
    /// MD5 of PRG-ROM followed by CHR-ROM (no iNES header), as `romChecksum` encodes it.
    pub rom_checksum: [u8; 16],
    /// `guid`: the movie's identifier.
    pub guid: String,
    /// Four-player adapter. Parsed movies always have it off (four-score input is refused).
    pub fourscore: bool,
    /// `microphone`: the Famicom microphone in use.
    pub microphone: bool,
    /// `port0`: the device on controller port 1.
    pub port0: PortDevice,
    /// `port1`: the device on controller port 2.
    pub port1: PortDevice,
    /// Famicom expansion port device; parsed movies always have 0 (none).
    pub port2: u32,
    /// `FDS`: a Famicom Disk System movie.
    pub fds: bool,
    /// `NewPPU`: recorded with FCEUX's new PPU core.
    pub new_ppu: bool,
    /// `RAMInitOption`: how FCEUX fills RAM at power-on ([`RAM_INIT_ZEROS`] for zeros).
    pub ram_init_option: Option<u32>,
    /// `RAMInitSeed`: the seed for a random RAM fill.
    pub ram_init_seed: Option<i32>,
    /// Unknown keys as (key, value), in file order (e.g. `savestate`, `length`).
    pub extra: Vec<(String, String)>,
    /// The `comment` lines' text, in file order.
    pub comments: Vec<String>,
    /// The `subtitle` lines, in file order.
    pub subtitles: Vec<Subtitle>,
}

impl Header {
    /// The header FCEUX writes for a new power-on recording, with nestor's comments: who
    /// made it, the caller's settings, and how the input log aligns with nestor's frames.
    pub fn for_recording(
        rom_filename: String,
        prg_chr_md5: [u8; 16],
        settings: Vec<String>,
    ) -> Header {
        let mut comments = vec![format!("author nestor {}", env!("CARGO_PKG_VERSION"))];
        comments.extend(settings);
        comments.push(format!(
            "alignment: the first {} input line(s) are blank lead frames for FCEUX's extra \
             power-on frame; the next line is nestor's (tetanes-core's) first emulated frame",
            super::lead::FCEUX_LEAD_FRAMES
        ));
        Header {
            emu_version: EMU_VERSION,
            rerecord_count: 0,
            pal: false,
            rom_filename,
            rom_checksum: prg_chr_md5,
            guid: fresh_guid(),
            fourscore: false,
            microphone: false,
            port0: PortDevice::Gamepad,
            port1: PortDevice::Gamepad,
            port2: 0,
            fds: false,
            new_ppu: false,
            ram_init_option: Some(RAM_INIT_ZEROS),
            ram_init_seed: Some(0),
            extra: Vec::new(),
            comments,
            subtitles: Vec::new(),
        }
    }

    /// The `comment` line that names the player profile a recording was made with.
    pub fn profile_comment(profile: &Profile) -> String {
        format!("{PROFILE_COMMENT}{}", profile.describe())
    }

    /// The name of the profile the movie's comment gives (`None` when no comment names one,
    /// as in movies recorded before profiles, which were all `unlimited`).
    pub fn profile_name(&self) -> Option<&str> {
        self.comments.iter().find_map(|c| {
            let rest = c.strip_prefix(PROFILE_COMMENT)?;
            Some(rest.split(" (").next().unwrap_or(rest))
        })
    }

    /// The `comment` line that records RAM written during the game (`nestor cartridge
    /// --from-level`): `nestor poke after frame F: 0064=9B 0070=60 …`, F counted as nestor
    /// counts frames (the input lines after the lead).
    pub fn poke_comment(poke: &Poke) -> String {
        let bytes: Vec<String> = poke
            .bytes
            .iter()
            .map(|(a, v)| format!("{a:04X}={v:02X}"))
            .collect();
        format!("{POKE_COMMENT}{}: {}", poke.frame, bytes.join(" "))
    }

    /// The RAM the movie's comment says was written, if any; `Err` names a malformed one.
    pub fn poke(&self) -> Result<Option<Poke>, String> {
        let Some(rest) = self
            .comments
            .iter()
            .find_map(|c| c.strip_prefix(POKE_COMMENT))
        else {
            return Ok(None);
        };
        let bad = || format!("malformed poke comment \"{POKE_COMMENT}{rest}\"");
        let (frame, list) = rest.split_once(": ").ok_or_else(bad)?;
        let frame = frame.parse().map_err(|_| bad())?;
        let bytes = list
            .split_whitespace()
            .map(|pair| {
                let (a, v) = pair.split_once('=')?;
                let a = u16::from_str_radix(a, 16).ok().filter(|&a| a < 0x800)?;
                Some((a, u8::from_str_radix(v, 16).ok()?))
            })
            .collect::<Option<Vec<_>>>()
            .filter(|b| !b.is_empty())
            .ok_or_else(bad)?;
        Ok(Some(Poke { frame, bytes }))
    }

    /// The value of the first unknown key named `key`.
    pub fn extra_value(&self, key: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the movie starts from an embedded FCEUX save state rather than power-on
    /// (nestor can only replay power-on movies).
    pub fn starts_from_savestate(&self) -> bool {
        self.extra_value("savestate").is_some_and(|v| !v.is_empty())
    }

    /// `romChecksum` as FCEUX writes it: `base64:` and the padded standard base64 of the MD5.
    pub fn rom_checksum_text(&self) -> String {
        encode_checksum(&self.rom_checksum)
    }
}

/// `romChecksum` text for `md5`: `base64:` and the padded standard base64 of the MD5.
pub fn encode_checksum(md5: &[u8; 16]) -> String {
    format!("base64:{}", STANDARD.encode(md5))
}

/// The 16 MD5 bytes of a `romChecksum` value, or `None` if it is not `base64:` + an MD5.
pub fn decode_checksum(value: &str) -> Option<[u8; 16]> {
    let b64 = value.trim_end().strip_prefix("base64:")?;
    let bytes = STANDARD.decode(b64).ok()?;
    bytes.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_matches_the_host_notes_example() {
        let md5 = [
            0x3f, 0x5d, 0x20, 0xe2, 0x9b, 0x8e, 0x73, 0xf3, 0x4e, 0x4d, 0x99, 0x6c, 0x6e, 0x86,
            0xbe, 0xaa,
        ];
        assert_eq!(encode_checksum(&md5), "base64:P10g4puOc/NOTZlsboa+qg==");
        assert_eq!(
            decode_checksum("base64:P10g4puOc/NOTZlsboa+qg=="),
            Some(md5)
        );
    }

    #[test]
    fn the_profile_comment_names_the_profile() {
        let human = Profile::preset("human").unwrap();
        let mut h = Header::for_recording("t".into(), [0; 16], vec!["weights w".into()]);
        assert_eq!(h.profile_name(), None);
        h.comments.push(Header::profile_comment(&human));
        assert_eq!(
            h.comments.last().unwrap(),
            "profile human (timeline X., tap, reaction 18, start delay 18, 3 blind placements)"
        );
        assert_eq!(h.profile_name(), Some("human"));
    }

    #[test]
    fn the_poke_comment_reads_back_and_a_malformed_one_is_named() {
        let mut h = Header::for_recording("t".into(), [0; 16], vec![]);
        assert_eq!(h.poke(), Ok(None));
        let poke = Poke {
            frame: 1234,
            bytes: vec![(0x64, 155), (0x70, 0x90), (0x71, 0x14), (0x73, 0x99)],
        };
        h.comments.push(Header::poke_comment(&poke));
        assert_eq!(
            h.comments.last().unwrap(),
            "nestor poke after frame 1234: 0064=9B 0070=90 0071=14 0073=99"
        );
        assert_eq!(h.poke(), Ok(Some(poke)));
        for bad in [
            "x: 0064=9B",
            "12 0064=9B",
            "12: ",
            "12: 0064",
            "12: 0800=01",
            "12: 64=1FF",
        ] {
            h.comments = vec![format!("{POKE_COMMENT}{bad}")];
            let e = h.poke().expect_err(bad);
            assert!(
                e.contains("malformed poke comment") && e.contains(bad),
                "{e}"
            );
        }
    }

    #[test]
    fn checksum_rejects_non_md5() {
        for bad in [
            "",
            "P10g4puOc/NOTZlsboa+qg==",
            "base64:P10g4puOc/NOTZlsboa+qg",
            "base64:AAAA",
            "base64:!!!!",
            "0x3f5d20e29b8e73f34e4d996c6e86beaa",
        ] {
            assert_eq!(decode_checksum(bad), None, "{bad}");
        }
    }
}
