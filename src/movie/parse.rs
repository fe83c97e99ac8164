//! Reading FM2 text: header lines are `key value` (installed into a `Header`), input lines
//! start with `|`; every rejection carries the line, column and reason.

use super::error::{quoted, Error};
use super::header::{decode_checksum, Header, PortDevice, Subtitle, REQUIRED_KEYS};
use super::input::parse_line;
use super::value::Movie;

/// A header line split as FCEUX splits it: the key runs to the first space or tab, the value
/// is the rest after that run of whitespace (trailing whitespace kept).
struct HeaderLine<'a> {
    line: usize,
    key: &'a str,
    value: &'a str,
    /// 1-based byte columns of the key and the value, for error positions.
    key_column: usize,
    value_column: usize,
}

fn split_header_line(body: &str, line: usize, indent: usize) -> HeaderLine<'_> {
    let is_space = |c: char| c == ' ' || c == '\t';
    let (key, rest) = body.split_at(body.find(is_space).unwrap_or(body.len()));
    let value = rest.trim_start_matches(is_space);
    HeaderLine {
        line,
        key,
        value,
        key_column: indent + 1,
        value_column: indent + body.len() - value.len() + 1,
    }
}

/// Installs one known key's value into the header.
type Install = fn(&mut Header, &HeaderLine) -> Result<(), Error>;

/// The keys nestor interprets (besides `comment` and `subtitle`), each at most once.
const KNOWN_KEYS: [(&str, Install); 16] = [
    ("version", |_, hl| match number(hl)? {
        3 => Ok(()),
        _ => Err(bad_value(hl, "only FM2 version 3 exists".into())),
    }),
    ("emuVersion", |h, hl| number(hl).map(|v| h.emu_version = v)),
    ("rerecordCount", |h, hl| {
        number(hl).map(|v| h.rerecord_count = v)
    }),
    ("palFlag", |h, hl| flag(hl).map(|v| h.pal = v)),
    ("romFilename", |h, hl| {
        h.rom_filename = hl.value.to_string();
        Ok(())
    }),
    ("romChecksum", |h, hl| {
        h.rom_checksum = decode_checksum(hl.value).ok_or_else(|| Error::RomChecksum {
            line: hl.line,
            value: quoted(hl.value),
        })?;
        Ok(())
    }),
    ("guid", |h, hl| {
        h.guid = hl.value.to_string();
        Ok(())
    }),
    ("fourscore", |_, hl| match flag(hl)? {
        false => Ok(()),
        true => Err(unsupported(hl, "a four-score (four-player) movie")),
    }),
    ("microphone", |h, hl| flag(hl).map(|v| h.microphone = v)),
    ("port0", |h, hl| port(hl).map(|v| h.port0 = v)),
    ("port1", |h, hl| port(hl).map(|v| h.port1 = v)),
    ("port2", |_, hl| match number(hl)? {
        0 => Ok(()),
        _ => Err(unsupported(hl, "an expansion-port device")),
    }),
    ("FDS", |h, hl| flag(hl).map(|v| h.fds = v)),
    ("NewPPU", |h, hl| flag(hl).map(|v| h.new_ppu = v)),
    ("RAMInitOption", |h, hl| {
        number(hl).map(|v| h.ram_init_option = Some(v))
    }),
    ("RAMInitSeed", |h, hl| {
        let seed = hl.value.trim_end().parse::<i32>().map_err(|_| {
            bad_value(
                hl,
                format!(
                    "`RAMInitSeed` needs a 32-bit integer, not `{}`",
                    quoted(hl.value)
                ),
            )
        })?;
        h.ram_init_seed = Some(seed);
        Ok(())
    }),
];

fn bad_value(hl: &HeaderLine, reason: String) -> Error {
    Error::Line {
        line: hl.line,
        column: hl.value_column,
        reason,
    }
}

/// A whole number (FCEUX tolerates junk after the digits; a careful reader does not).
fn number(hl: &HeaderLine) -> Result<u32, Error> {
    hl.value.trim_end().parse::<u32>().map_err(|_| {
        let reason = format!(
            "`{}` needs a whole number, not `{}`",
            hl.key,
            quoted(hl.value)
        );
        bad_value(hl, reason)
    })
}

fn flag(hl: &HeaderLine) -> Result<bool, Error> {
    match hl.value.trim_end() {
        "0" => Ok(false),
        "1" => Ok(true),
        v => Err(bad_value(
            hl,
            format!("`{}` must be 0 or 1, not `{}`", hl.key, quoted(v)),
        )),
    }
}

fn port(hl: &HeaderLine) -> Result<PortDevice, Error> {
    match number(hl)? {
        0 => Ok(PortDevice::None),
        1 => Ok(PortDevice::Gamepad),
        2 => Err(unsupported(hl, "a zapper")),
        n => Err(bad_value(
            hl,
            format!("unknown device {n} (0 none, 1 gamepad, 2 zapper)"),
        )),
    }
}

/// Collects header lines until the first input line, then checks the result.
struct HeaderBuilder {
    header: Header,
    /// Known keys already installed, to reject duplicates.
    seen: Vec<&'static str>,
}

impl HeaderBuilder {
    fn new() -> HeaderBuilder {
        HeaderBuilder {
            header: Header {
                emu_version: 0,
                rerecord_count: 0,
                pal: false,
                rom_filename: String::new(),
                rom_checksum: [0; 16],
                guid: String::new(),
                fourscore: false,
                microphone: false,
                port0: PortDevice::None,
                port1: PortDevice::None,
                port2: 0,
                fds: false,
                new_ppu: false,
                ram_init_option: None,
                ram_init_seed: None,
                extra: Vec::new(),
                comments: Vec::new(),
                subtitles: Vec::new(),
            },
            seen: Vec::new(),
        }
    }

    fn install(&mut self, hl: &HeaderLine) -> Result<(), Error> {
        match hl.key {
            "comment" => self.header.comments.push(hl.value.to_string()),
            "subtitle" => self.header.subtitles.push(parse_subtitle(hl)?),
            _ => match KNOWN_KEYS.iter().find(|(key, _)| *key == hl.key) {
                Some(&(key, install)) => {
                    if self.seen.contains(&key) {
                        return Err(Error::Line {
                            line: hl.line,
                            column: hl.key_column,
                            reason: format!("`{key}` appears twice"),
                        });
                    }
                    install(&mut self.header, hl)?;
                    self.seen.push(key);
                }
                None => {
                    // FCEUX's own `binary 1` means the input log is not text.
                    if hl.key == "binary" && flag(hl)? {
                        return Err(unsupported(hl, "a binary input log (`binary 1`)"));
                    }
                    self.header
                        .extra
                        .push((hl.key.to_string(), hl.value.to_string()));
                }
            },
        }
        Ok(())
    }

    /// Errors with the first required key not seen yet.
    fn check_complete(&self) -> Result<(), Error> {
        match REQUIRED_KEYS.iter().find(|k| !self.seen.contains(k)) {
            Some(key) => Err(Error::MissingKey { key }),
            None => Ok(()),
        }
    }
}

fn unsupported(hl: &HeaderLine, what: &str) -> Error {
    Error::Unsupported {
        line: hl.line,
        what: what.to_string(),
    }
}

fn parse_subtitle(hl: &HeaderLine) -> Result<Subtitle, Error> {
    let frame_text = hl.value.split([' ', '\t']).next().unwrap_or("");
    let frame = frame_text.parse::<u32>().map_err(|_| Error::Line {
        line: hl.line,
        column: hl.value_column,
        reason: format!(
            "a subtitle starts with its frame number, not `{}`",
            quoted(frame_text)
        ),
    })?;
    let text = hl.value[frame_text.len()..].trim_start_matches([' ', '\t']);
    Ok(Subtitle {
        frame,
        text: text.to_string(),
    })
}

pub(super) fn parse_movie(text: &str) -> Result<Movie, Error> {
    // FCEUX compares the first nine bytes and nothing else before parsing.
    if !text.starts_with("version 3") {
        return Err(Error::NotVersion3);
    }
    let mut builder = HeaderBuilder::new();
    // The controller ports, once the input log has begun (the header is then complete).
    let mut log_ports: Option<[PortDevice; 2]> = None;
    let mut frames = Vec::new();
    // FCEUX ends a line at CR as well as at LF (a CRLF is a line end and a blank line);
    // line numbers count LFs, as editors do.
    let lines = text
        .split('\n')
        .enumerate()
        .flat_map(|(index, raw)| raw.split('\r').map(move |part| (index + 1, part)));
    for (line, raw) in lines {
        // FCEUX skips leading blanks and blank lines.
        let body = raw.trim_start_matches([' ', '\t']);
        let indent = raw.len() - body.len();
        if body.is_empty() {
            continue;
        }
        if body.starts_with('|') {
            let ports = match log_ports {
                Some(ports) => ports,
                None => {
                    builder.check_complete()?;
                    *log_ports.insert([builder.header.port0, builder.header.port1])
                }
            };
            frames.push(parse_line(body, ports, line, indent)?);
        } else if log_ports.is_none() {
            builder.install(&split_header_line(body, line, indent))?;
        } else {
            return Err(Error::Line {
                line,
                column: indent + 1,
                reason: "a header line after the input log began".into(),
            });
        }
    }
    builder.check_complete()?;
    Ok(Movie {
        header: builder.header,
        frames,
    })
}
