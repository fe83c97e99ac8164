//! The RAM map the host reads: `addresses.toml` loaded and checked at run time, with the
//! repository's copy compiled in as the default.

use std::path::Path;

use toml::{Table, Value};

/// The repository's `addresses.toml`, compiled in.
pub const DEFAULT_TOML: &str = include_str!("../../addresses.toml");
/// Name used in errors for the compiled-in map.
pub const DEFAULT_NAME: &str = "built-in addresses.toml";
/// Size of the CPU RAM the addresses point into ($0000-$07FF).
pub const RAM_SIZE: usize = 0x800;
/// Bytes in the playfield page.
const PAGE: u16 = 0x100;
/// Offset of row −2 in the page (the game's address wrap, nes-tetris.md §2.3).
const HIDDEN_OFFSET: u16 = 0xEC;

/// Why an address map was refused. Each variant names the file and, where there is one, the key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    #[error("cannot read address map {file}: {source}")]
    Io {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The OS's error.
        #[source]
        source: std::io::Error,
    },
    /// The text is not TOML.
    #[error("{file} is not valid TOML: {message}")]
    Syntax {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The TOML parser's message.
        message: String,
    },
    /// A key the map does not have (a misspelling, or a field of another version).
    #[error("{file}: unknown key `{key}`")]
    UnknownKey {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The key, with its section (`ram.level`).
        key: String,
    },
    /// A key the map needs is not in the file.
    #[error("{file}: missing key `{key}`")]
    MissingKey {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The key, with its section (`ram.level`).
        key: String,
    },
    /// A key holds a value of the wrong type.
    #[error("{file}: `{key}` must be {expected}")]
    WrongType {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The key, with its section (`ram.level`).
        key: String,
        /// What the key must hold, in words ("an integer").
        expected: &'static str,
    },
    /// `width` is the field's size in bytes; 0 means the value is a tile, not an address.
    #[error(
        "{file}: `{key}` = {shown} is out of range: {}",
        if *width == 0 {
            "a tile value is one byte, 0x00-0xFF".to_string()
        } else {
            format!("an address whose {width} byte(s) lie in $0000-$07FF")
        },
        shown = Shown(*value)
    )]
    OutOfRange {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The key, with its section (`ram.level`).
        key: String,
        /// The value as written.
        value: i64,
        /// Bytes the field spans; 0 for a tile value.
        width: u16,
    },
    /// A value that cannot work with the rest of the map (a playfield off a page boundary).
    #[error("{file}: `{key}` = {shown}: {reason}", shown = Shown(*value))]
    Inconsistent {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The key, with its section (`playfield.base`).
        key: String,
        /// The value as written.
        value: i64,
        /// Why it cannot work.
        reason: &'static str,
    },
    /// Two fields claim the same RAM byte.
    #[error("{file}: `{first}` and `{second}` share the byte ${address:04X}: each field has bytes of its own (only ram.player_block and ram.working_block hold other fields)")]
    Overlap {
        /// The file's name as given (or [`DEFAULT_NAME`]).
        file: String,
        /// The first field's key.
        first: String,
        /// The second field's key.
        second: String,
        /// The byte both claim.
        address: u16,
    },
}

/// A number from the file as the user wrote it: hex when it is not negative (-5 stays -5,
/// not 0xfffffffffffffffb).
struct Shown(i64);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 < 0 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:#06x}", self.0)
        }
    }
}

macro_rules! address_map {
    ($( $(#[doc = $doc:literal])* $name:ident : $width:literal, )*) => {
        /// Where each game quantity lives in CPU RAM. Built only by parsing (every address checked).
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct AddressMap {
            $( $(#[doc = $doc])* pub $name: u16, )*
            /// First byte of the playfield page (page-aligned).
            pub playfield: u16,
            /// Row −2, column 0 (= playfield + $EC).
            pub hidden_rows: u16,
            /// Bytes ≥ this are empty cells.
            pub empty_tile: u8,
        }

        /// The `[ram]` keys and their widths in bytes.
        pub const RAM_KEYS: &[(&str, u16)] = &[ $( (stringify!($name), $width), )* ];

        impl AddressMap {
            fn from_ram_table(ram: &std::collections::BTreeMap<&str, u16>, pf: [u16; 3]) -> AddressMap {
                AddressMap {
                    $( $name: ram.get(stringify!($name)).copied().unwrap_or_default(), )*
                    playfield: pf[0],
                    hidden_rows: pf[1],
                    empty_tile: pf[2] as u8,
                }
            }

            /// Every `[ram]` quantity as (first address, width in bytes), then the playfield
            /// page: all the RAM a host must see (what `nestor serve` asks an emulator for).
            pub fn spans(&self) -> Vec<(u16, u16)> {
                vec![ $( (self.$name, $width), )* (self.playfield, PAGE) ]
            }
        }
    };
}

address_map! {
    /// `tetriminoX` ($60).
    piece_x: 1,
    /// `tetriminoY` ($61).
    piece_y: 1,
    /// `currentPiece` ($62).
    orientation: 1,
    /// `levelNumber` ($64).
    level: 1,
    /// `fallTimer` ($65).
    fall_timer: 1,
    /// `autorepeatX` ($66).
    das: 1,
    /// `startLevel` ($67).
    start_level: 1,
    /// `playState` ($68).
    play_state: 1,
    /// `vramRow` ($69).
    vram_row: 1,
    /// `completedRow[4]` ($6A-$6D).
    completed_rows: 4,
    /// `autorepeatY` ($6E).
    soft_drop: 1,
    /// `holdDownPoints` ($6F).
    hold_down_points: 1,
    /// Lines, BCD little-endian ($70-$71).
    lines: 2,
    /// `rowY` ($72).
    row_y: 1,
    /// Score, BCD little-endian ($73-$75).
    score: 3,
    /// `completedLines` ($76).
    completed_lines: 1,
    /// `lineIndex` ($77).
    line_index: 1,
    /// `curtainRow` ($78).
    curtain_row: 1,
    /// Player-1 block ($60-$7F).
    player_block: 32,
    /// Working copy ($40-$5F).
    working_block: 32,
    /// LFSR, high byte first ($17-$18).
    rng: 2,
    /// `spawnID` ($19).
    spawn_id: 1,
    /// `spawnCount` ($1A).
    spawn_count: 1,
    /// `gameModeState` ($A7).
    game_mode_state: 1,
    /// `frameCounter`, little-endian ($B1-$B2).
    frame_counter: 2,
    /// `renderMode` ($BD).
    render_mode: 1,
    /// `nextPiece` ($BF).
    next: 1,
    /// `gameMode` ($C0).
    game_mode: 1,
    /// `gameType` ($C1).
    game_type: 1,
    /// `displayNextPiece` ($DF).
    display_next_piece: 1,
    /// `newlyPressedButtons_player1` ($F5).
    newly: 1,
    /// `heldButtons_player1` ($F7).
    held: 1,
}

/// The `[playfield]` keys: (name, width in bytes; 0 for a plain byte value).
const PLAYFIELD_KEYS: &[(&str, u16)] = &[("base", PAGE), ("hidden_rows", 20), ("empty_tile", 0)];

impl Default for AddressMap {
    /// The compiled-in map (checked by the `default_map_parses` test).
    fn default() -> Self {
        match AddressMap::parse(DEFAULT_TOML, DEFAULT_NAME) {
            Ok(map) => map,
            Err(e) => panic!("the compiled-in addresses.toml is invalid: {e}"),
        }
    }
}

impl AddressMap {
    /// Reads and checks the map in `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<AddressMap, Error> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = crate::io::read_toml_text(path).map_err(|source| Error::Io {
            file: file.clone(),
            source,
        })?;
        AddressMap::parse(&text, &file)
    }

    /// The map in `path` (see [`AddressMap::load`]), or the built-in one when there is none.
    pub fn load_or_default(path: Option<&Path>) -> Result<AddressMap, Error> {
        path.map_or_else(|| Ok(AddressMap::default()), AddressMap::load)
    }

    /// Parses and checks a map; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<AddressMap, Error> {
        let table: Table = text.parse().map_err(|e: toml::de::Error| Error::Syntax {
            file: file.into(),
            message: crate::io::TomlError::new(&e, text).to_string(),
        })?;
        let err_key = |key: String| Error::UnknownKey {
            file: file.into(),
            key,
        };
        if let Some(key) = table.keys().find(|k| *k != "ram" && *k != "playfield") {
            return Err(err_key(key.clone()));
        }
        let ram = section(&table, "ram", RAM_KEYS, file)?;
        let pf = section(&table, "playfield", PLAYFIELD_KEYS, file)?;
        let get = |m: &std::collections::BTreeMap<&str, u16>, k: &str| {
            m.get(k).copied().unwrap_or_default()
        };
        let (base, hidden) = (get(&pf, "base"), get(&pf, "hidden_rows"));
        if base % PAGE != 0 {
            return Err(Error::Inconsistent {
                file: file.into(),
                key: "playfield.base".into(),
                value: base.into(),
                reason: "the playfield must start a page (the game's row addresses wrap in it)",
            });
        }
        if hidden != base + HIDDEN_OFFSET {
            return Err(Error::Inconsistent {
                file: file.into(),
                key: "playfield.hidden_rows".into(),
                value: hidden.into(),
                reason: "rows -2/-1 are where row addresses wrap: playfield.base + $EC",
            });
        }
        check_overlaps(&ram, base, file)?;
        Ok(AddressMap::from_ram_table(
            &ram,
            [base, hidden, get(&pf, "empty_tile")],
        ))
    }

    /// The byte at `addr` (0 outside `ram`).
    #[inline]
    pub fn byte(ram: &[u8], addr: u16) -> u8 {
        ram.get(usize::from(addr)).copied().unwrap_or(0)
    }

    /// `N` bytes from `addr` (0 outside `ram`).
    pub fn bytes<const N: usize>(ram: &[u8], addr: u16) -> [u8; N] {
        std::array::from_fn(|i| AddressMap::byte(ram, addr.wrapping_add(i as u16)))
    }

    /// The playfield page.
    pub fn page(&self, ram: &[u8]) -> [u8; 256] {
        AddressMap::bytes::<256>(ram, self.playfield)
    }
}

/// Keys added after users had written their own maps, with the cartridge's address: a file
/// without one still loads (the address is the same in every known dump), with a warning.
const ADDED_LATER: &[(&str, &str, u16)] = &[("ram", "display_next_piece", 0xDF)];

/// The `[ram]` keys that are blocks holding other fields, not fields of their own.
const BLOCKS: [&str; 2] = ["player_block", "working_block"];

/// Refuses two fields on one byte (the blocks aside), a field in the playfield page included:
/// a typo would have two quantities read from one place.
fn check_overlaps(
    ram: &std::collections::BTreeMap<&str, u16>,
    base: u16,
    file: &str,
) -> Result<(), Error> {
    let mut spans: Vec<(u16, u16, String)> = RAM_KEYS
        .iter()
        .filter(|(key, _)| !BLOCKS.contains(key))
        .filter_map(|&(key, width)| ram.get(key).map(|&at| (at, width, format!("ram.{key}"))))
        .collect();
    spans.push((base, PAGE, "playfield.base".to_string()));
    spans.sort();
    for pair in spans.windows(2) {
        let ((a, width, first), (b, _, second)) = (&pair[0], &pair[1]);
        if *b < a + width {
            return Err(Error::Overlap {
                file: file.into(),
                first: first.clone(),
                second: second.clone(),
                address: *b,
            });
        }
    }
    Ok(())
}

/// Checks one section: every key known, present (or added later), an integer in range.
fn section<'k>(
    table: &Table,
    name: &str,
    keys: &[(&'k str, u16)],
    file: &str,
) -> Result<std::collections::BTreeMap<&'k str, u16>, Error> {
    let Some(value) = table.get(name) else {
        return Err(Error::MissingKey {
            file: file.into(),
            key: name.into(),
        });
    };
    let Value::Table(sec) = value else {
        return Err(Error::WrongType {
            file: file.into(),
            key: name.into(),
            expected: "a table",
        });
    };
    if let Some(k) = sec.keys().find(|k| !keys.iter().any(|(n, _)| n == k)) {
        return Err(Error::UnknownKey {
            file: file.into(),
            key: format!("{name}.{k}"),
        });
    }
    let mut out = std::collections::BTreeMap::new();
    for &(key, width) in keys {
        let full = || format!("{name}.{key}");
        let Some(v) = sec.get(key) else {
            if let Some(&(_, _, addr)) =
                ADDED_LATER.iter().find(|(s, k, _)| *s == name && *k == key)
            {
                log::warn!("{file}: no `{}`: using ${addr:02X}", full());
                out.insert(key, addr);
                continue;
            }
            return Err(Error::MissingKey {
                file: file.into(),
                key: full(),
            });
        };
        let Some(v) = v.as_integer() else {
            return Err(Error::WrongType {
                file: file.into(),
                key: full(),
                expected: "an integer",
            });
        };
        let limit = if width == 0 {
            0xFF
        } else {
            RAM_SIZE as i64 - i64::from(width)
        };
        if !(0..=limit).contains(&v) {
            return Err(Error::OutOfRange {
                file: file.into(),
                key: full(),
                value: v,
                width,
            });
        }
        out.insert(key, v as u16);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
