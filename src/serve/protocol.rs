//! The bridge protocol, version 1 (`docs/protocol.md`): one line of ASCII text per message
//! between an emulator's script and `nestor serve`; parsing and formatting only, no I/O policy.

use std::fmt::{self, Write as _};
use std::io::{BufRead, Read};

use crate::game::PadState;
use crate::movie::input::{pad_from_field, pad_to_field};
use crate::nes::addresses::{AddressMap, RAM_SIZE};

/// The protocol version this nestor speaks.
pub const VERSION: u32 = 1;

/// The longest line either side may send, newline excluded: the whole 2 KiB RAM in hex plus
/// room for the words around it. A longer line is refused before it is all read.
pub const MAX_LINE: usize = 2 * RAM_SIZE + 256;

/// Spans closer than this many bytes are asked for as one range (fewer ranges, fewer calls
/// in the emulator's script, a few unused bytes more).
const MERGE_GAP: u16 = 16;

/// What the emulator's script asks nestor to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// nestor plays: the script presses the buttons of each `pad` answer.
    Play,
    /// The person plays: nestor only says where it would lock each piece.
    Assist,
}

impl Mode {
    /// The mode's word on a `hello` line (`play`, `assist`).
    pub fn word(self) -> &'static str {
        match self {
            Mode::Play => "play",
            Mode::Assist => "assist",
        }
    }
}

/// A message from the emulator's script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMsg<'a> {
    /// `hello VERSION CLIENT MODE`: the first line of a connection.
    Hello {
        /// The protocol version the script speaks.
        version: u32,
        /// The script's name for itself (one word).
        client: &'a str,
        /// What the script asks nestor to do.
        mode: Mode,
    },
    /// `frame N HEX`: RAM at the end of the emulator's frame N, the ranges' bytes in order.
    Frame {
        /// The emulator's frame number N.
        number: u64,
        /// The ranges' bytes in hex, two digits a byte.
        hex: &'a str,
    },
    /// `bye`: the script stops; nestor answers with its summary and closes.
    Bye,
}

/// A message from nestor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMsg {
    /// `hello VERSION nestor NESTOR_VERSION MODE ranges A-B ...`: the RAM ranges every
    /// `frame` line carries, inclusive, in hex.
    Hello {
        /// The protocol version nestor speaks ([`VERSION`]).
        version: u32,
        /// nestor's version (`CARGO_PKG_VERSION`).
        nestor: String,
        /// The mode, as the script asked.
        mode: Mode,
        /// The RAM ranges each `frame` line carries.
        ranges: Ranges,
    },
    /// `pad N BUTTONS [lock C:R C:R C:R C:R]`: the buttons (FM2's `RLDUTSBA` field) to hold
    /// in the frame after frame N, and the cells (column 0-9, row 0-19) of the planned lock.
    Pad {
        /// The frame N the answer is for.
        number: u64,
        /// The buttons to hold in the frame after frame N.
        pad: PadState,
        /// The planned lock's four cells as (column 0-9, row 0-19), or `None` when none is shown.
        lock: Option<[(i8, i8); 4]>,
    },
    /// `note TEXT`: something the script should show its user; more lines follow.
    Note(String),
    /// `error TEXT`: nestor closes the connection after this line.
    Error(String),
    /// `bye TEXT`: the answer to `bye`, a one-line summary; nestor closes the connection.
    Bye(String),
}

/// Why a line is not a valid message.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    /// A line is longer than the limit.
    #[error("a line is longer than {limit} bytes")]
    TooLong {
        /// The limit in bytes ([`MAX_LINE`]).
        limit: usize,
    },
    /// A line holds a control character (tab aside) or a byte that is not ASCII.
    #[error("a line is not ASCII text")]
    NotText,
    /// A line holds no word.
    #[error("an empty line")]
    Empty,
    /// A line's first word names no message.
    #[error("unknown message `{word}` (expected {expected})")]
    Unknown {
        /// The word received (cut short when long).
        word: String,
        /// The messages that may come here, in words.
        expected: &'static str,
    },
    /// A known message with bad arguments.
    #[error("`{message}`: {what}")]
    Bad {
        /// The message's word (`frame`).
        message: &'static str,
        /// What is wrong with its arguments.
        what: String,
    },
    /// The script speaks another protocol version.
    #[error(
        "protocol version {theirs} is not spoken here: this nestor speaks version {VERSION} \
         (use the script shipped with it, lua/nestor-fceux.lua)"
    )]
    Version {
        /// The version the script speaks.
        theirs: u32,
    },
}

fn bad(message: &'static str, what: impl Into<String>) -> ProtocolError {
    ProtocolError::Bad {
        message,
        what: what.into(),
    }
}

/// Reads one line into `buf` (cleared first) without ever holding more than `MAX_LINE` + 1
/// bytes. `Ok(None)` at the end of the stream; a trailing `\r` is dropped.
pub fn read_line<'b>(
    reader: &mut impl BufRead,
    buf: &'b mut Vec<u8>,
) -> std::io::Result<Option<Result<&'b str, ProtocolError>>> {
    buf.clear();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_LINE {
        return Ok(Some(Err(ProtocolError::TooLong { limit: MAX_LINE })));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(check_text(buf)))
}

fn check_text(buf: &[u8]) -> Result<&str, ProtocolError> {
    if buf.len() > MAX_LINE {
        return Err(ProtocolError::TooLong { limit: MAX_LINE });
    }
    if !buf
        .iter()
        .all(|b| b.is_ascii() && (!b.is_ascii_control() || *b == b'\t'))
    {
        return Err(ProtocolError::NotText);
    }
    std::str::from_utf8(buf).map_err(|_| ProtocolError::NotText)
}

fn number<T: std::str::FromStr>(
    message: &'static str,
    what: &str,
    word: Option<&str>,
) -> Result<T, ProtocolError> {
    let word = word.ok_or_else(|| bad(message, format!("no {what}")))?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(
            message,
            format!("{what} `{word}` is not a decimal number"),
        ));
    }
    word.parse()
        .map_err(|_| bad(message, format!("{what} `{word}` is out of range")))
}

/// A frame message's head: the frame number, then its one required word (`missing` says
/// what is missing without it).
fn numbered<'w>(
    message: &'static str,
    missing: &'static str,
    words: &mut impl Iterator<Item = &'w str>,
) -> Result<(u64, &'w str), ProtocolError> {
    let number = number(message, "frame number", words.next())?;
    let word = words.next().ok_or_else(|| bad(message, missing))?;
    Ok((number, word))
}

fn mode(message: &'static str, word: Option<&str>) -> Result<Mode, ProtocolError> {
    match word {
        Some("play") => Ok(Mode::Play),
        Some("assist") => Ok(Mode::Assist),
        Some(w) => Err(bad(
            message,
            format!("mode `{w}` is neither `play` nor `assist`"),
        )),
        None => Err(bad(message, "no mode (`play` or `assist`)")),
    }
}

fn no_more(
    message: &'static str,
    mut words: std::str::SplitAsciiWhitespace,
) -> Result<(), ProtocolError> {
    match words.next() {
        Some(w) => Err(bad(message, format!("unexpected `{w}` at the end"))),
        None => Ok(()),
    }
}

impl<'a> ClientMsg<'a> {
    /// Parses one line (without its newline).
    pub fn parse(line: &'a str) -> Result<ClientMsg<'a>, ProtocolError> {
        let line = check_text(line.as_bytes())?;
        let mut words = line.split_ascii_whitespace();
        let Some(word) = words.next() else {
            return Err(ProtocolError::Empty);
        };
        let msg = match word {
            "hello" => {
                let version = number("hello", "version", words.next())?;
                if version != VERSION {
                    return Err(ProtocolError::Version { theirs: version });
                }
                let client = words.next().ok_or_else(|| bad("hello", "no client name"))?;
                let mode = mode("hello", words.next())?;
                ClientMsg::Hello {
                    version,
                    client,
                    mode,
                }
            }
            "frame" => {
                let (number, hex) = numbered("frame", "no RAM bytes", &mut words)?;
                if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(bad(
                        "frame",
                        "the RAM bytes are not an even number of hex digits",
                    ));
                }
                ClientMsg::Frame { number, hex }
            }
            "bye" => ClientMsg::Bye,
            w => {
                return Err(ProtocolError::Unknown {
                    word: w.chars().take(32).collect(),
                    expected: "hello, frame or bye",
                })
            }
        };
        no_more(
            match msg {
                ClientMsg::Hello { .. } => "hello",
                ClientMsg::Frame { .. } => "frame",
                ClientMsg::Bye => "bye",
            },
            words,
        )?;
        Ok(msg)
    }

    /// Writes the line (without its newline): what a client sends.
    pub fn format(&self, out: &mut String) {
        match self {
            ClientMsg::Hello {
                version,
                client,
                mode,
            } => {
                let _ = write!(out, "hello {version} {client} {}", mode.word());
            }
            ClientMsg::Frame { number, hex } => {
                let _ = write!(out, "frame {number} {hex}");
            }
            ClientMsg::Bye => out.push_str("bye"),
        }
    }
}

/// Decodes hex digits (checked by `ClientMsg::parse`) into `out`, which must be half as long.
pub fn decode_hex(hex: &str, out: &mut [u8]) -> Result<(), ProtocolError> {
    if hex.len() != 2 * out.len() {
        return Err(bad(
            "frame",
            format!(
                "{} RAM bytes, expected {} (the ranges of the hello)",
                hex.len() / 2,
                out.len()
            ),
        ));
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Ok(b - b'0'),
        b'a'..=b'f' => Ok(b - b'a' + 10),
        b'A'..=b'F' => Ok(b - b'A' + 10),
        _ => Err(bad("frame", "a RAM byte is not hex")),
    };
    for (o, pair) in out.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
        *o = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Ok(())
}

/// Appends `bytes` in lower-case hex.
pub fn encode_hex(bytes: &[u8], out: &mut String) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
}

/// The RAM ranges a `frame` line carries: (first address, length), sorted, disjoint, inside
/// the 2 KiB CPU RAM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranges(Vec<(u16, u16)>);

impl Ranges {
    /// Every byte the map names, in as few ranges as reasonable.
    pub fn of_map(map: &AddressMap) -> Ranges {
        let mut spans: Vec<(u16, u16)> = map
            .spans()
            .into_iter()
            .filter(|&(_, len)| len > 0)
            .map(|(a, len)| {
                let a = a.min(RAM_SIZE as u16 - 1);
                (a, len.min(RAM_SIZE as u16 - a))
            })
            .collect();
        spans.sort_unstable();
        let mut out: Vec<(u16, u16)> = Vec::new();
        for (a, len) in spans {
            match out.last_mut() {
                Some((start, l)) if a <= *start + *l + MERGE_GAP => {
                    *l = (*l).max(a + len - *start);
                }
                _ => out.push((a, len)),
            }
        }
        Ranges(out)
    }

    /// The ranges as (first address, length).
    pub fn spans(&self) -> &[(u16, u16)] {
        &self.0
    }

    /// Bytes in a `frame` line.
    pub fn total(&self) -> usize {
        self.0.iter().map(|&(_, l)| usize::from(l)).sum()
    }

    /// Copies the ranges' bytes of `ram` into `out` (a client's side of a `frame` line).
    pub fn gather(&self, ram: &[u8], out: &mut Vec<u8>) {
        out.clear();
        for &(a, l) in &self.0 {
            let (a, l) = (usize::from(a), usize::from(l));
            out.extend((a..a + l).map(|i| ram.get(i).copied().unwrap_or(0)));
        }
    }

    /// Lays `bytes` (as `gather` made them) out at their addresses in `ram`.
    pub fn scatter(&self, bytes: &[u8], ram: &mut [u8]) {
        let mut at = 0;
        for &(a, l) in &self.0 {
            let (a, l) = (usize::from(a), usize::from(l));
            if let (Some(dst), Some(src)) = (ram.get_mut(a..a + l), bytes.get(at..at + l)) {
                dst.copy_from_slice(src);
            }
            at += l;
        }
    }

    /// Parses `A-B` words (inclusive, hex), as the hello carries them.
    pub fn parse<'w>(words: impl Iterator<Item = &'w str>) -> Result<Ranges, ProtocolError> {
        let mut out = Vec::new();
        for w in words {
            let (a, b) = w
                .split_once('-')
                .ok_or_else(|| bad("hello", format!("range `{w}` is not A-B")))?;
            let hex = |s: &str| {
                u16::from_str_radix(s, 16)
                    .ok()
                    .filter(|&v| usize::from(v) < RAM_SIZE)
            };
            match (hex(a), hex(b)) {
                (Some(a), Some(b)) if a <= b => {
                    if out.last().is_some_and(|&(s, l): &(u16, u16)| s + l > a) {
                        return Err(bad("hello", format!("range `{w}` overlaps or is unsorted")));
                    }
                    out.push((a, b - a + 1));
                }
                _ => {
                    return Err(bad(
                        "hello",
                        format!("range `{w}` is not inside $0000-$07FF"),
                    ))
                }
            }
        }
        if out.is_empty() {
            return Err(bad("hello", "no ranges"));
        }
        Ok(Ranges(out))
    }
}

impl fmt::Display for Ranges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(a, l)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            write!(f, "{sep}{a:04x}-{:04x}", a + l - 1)?;
        }
        Ok(())
    }
}

impl ServerMsg {
    /// Writes the line (without its newline).
    pub fn format(&self, out: &mut String) {
        match self {
            ServerMsg::Hello {
                version,
                nestor,
                mode,
                ranges,
            } => {
                let _ = write!(
                    out,
                    "hello {version} nestor {nestor} {} ranges {ranges}",
                    mode.word()
                );
            }
            ServerMsg::Pad { number, pad, lock } => {
                let _ = write!(out, "pad {number} ");
                out.extend(pad_to_field(*pad).map(char::from));
                if let Some(cells) = lock {
                    out.push_str(" lock");
                    for (c, r) in cells {
                        let _ = write!(out, " {c}:{r}");
                    }
                }
            }
            // Text is kept to one line whatever it held.
            ServerMsg::Note(t) => one_line(out, "note ", t),
            ServerMsg::Error(t) => one_line(out, "error ", t),
            ServerMsg::Bye(t) => one_line(out, "bye ", t),
        }
    }

    /// Parses one line from nestor (a client's side; the tests' client uses it).
    pub fn parse(line: &str) -> Result<ServerMsg, ProtocolError> {
        let line = check_text(line.as_bytes())?;
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let mut words = rest.split_ascii_whitespace();
        match word {
            "hello" => {
                let version = number("hello", "version", words.next())?;
                if words.next() != Some("nestor") {
                    return Err(bad("hello", "no `nestor` after the version"));
                }
                let nestor = words
                    .next()
                    .ok_or_else(|| bad("hello", "no nestor version"))?
                    .to_string();
                let mode = mode("hello", words.next())?;
                if words.next() != Some("ranges") {
                    return Err(bad("hello", "no `ranges`"));
                }
                let ranges = Ranges::parse(words)?;
                Ok(ServerMsg::Hello {
                    version,
                    nestor,
                    mode,
                    ranges,
                })
            }
            "pad" => {
                let (number, field) = numbered("pad", "no buttons", &mut words)?;
                let field: [u8; 8] = field
                    .as_bytes()
                    .try_into()
                    .map_err(|_| bad("pad", "the buttons are not 8 characters (RLDUTSBA)"))?;
                let pad = pad_from_field(&field);
                let lock = match words.next() {
                    None => None,
                    Some("lock") => {
                        let mut cells = [(0i8, 0i8); 4];
                        for cell in &mut cells {
                            let w = words
                                .next()
                                .ok_or_else(|| bad("pad", "a lock has 4 cells"))?;
                            let (c, r) = w
                                .split_once(':')
                                .and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)))
                                .ok_or_else(|| bad("pad", format!("lock cell `{w}` is not C:R")))?;
                            *cell = (c, r);
                        }
                        Some(cells)
                    }
                    Some(w) => return Err(bad("pad", format!("unexpected `{w}`"))),
                };
                no_more("pad", words)?;
                Ok(ServerMsg::Pad { number, pad, lock })
            }
            // A tab is text here, written back as the space `format` makes of it.
            "note" => Ok(ServerMsg::Note(rest.replace('\t', " "))),
            "error" => Ok(ServerMsg::Error(rest.replace('\t', " "))),
            "bye" => Ok(ServerMsg::Bye(rest.replace('\t', " "))),
            "" => Err(ProtocolError::Empty),
            w => Err(ProtocolError::Unknown {
                word: w.chars().take(32).collect(),
                expected: "hello, pad, note, error or bye",
            }),
        }
    }
}

fn one_line(out: &mut String, word: &str, text: &str) {
    out.push_str(word);
    out.extend(
        text.chars()
            .map(|c| {
                if c.is_ascii() && !c.is_ascii_control() {
                    c
                } else {
                    ' '
                }
            })
            .take(MAX_LINE - word.len()),
    );
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
