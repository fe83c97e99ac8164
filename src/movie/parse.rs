//! Reading FM2 text: header lines are `key value` (installed into a `Header`), input lines
//! start with `|`; every rejection carries the line, column and reason.

use super::error::{quoted, Error};
use super::header::{decode_checksum, Header, PortDevice, Subtitle};
use super::input::parse_line;
use super::Movie;

/// Keys FM2 requires (`version` is checked first, on its own).
const REQUIRED: [&str; 7] = [
    "emuVersion",
    "romFilename",
    "romChecksum",
    "guid",
    "port0",
    "port1",
    "port2",
];

/// A header line split as FCEUX splits it: the key runs to the first space or tab, the value
/// is the rest after that run of whitespace (trailing whitespace kept).
struct HeaderLine<'a> {
    line: usize,
    key: &'a str,
    value: &'a str,
    /// 1-based byte column of the value, for error positions.
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
        value_column: indent + body.len() - value.len() + 1,
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
        let bad = |reason: String| Error::Line {
            line: hl.line,
            column: hl.value_column,
            reason,
        };
        let number = || -> Result<u32, Error> {
            hl.value.trim_end().parse::<u32>().map_err(|_| {
                bad(format!(
                    "`{}` needs a whole number, not `{}`",
                    hl.key,
                    quoted(hl.value)
                ))
            })
        };
        let flag = || -> Result<bool, Error> {
            match hl.value.trim_end() {
                "0" => Ok(false),
                "1" => Ok(true),
                v => Err(bad(format!(
                    "`{}` must be 0 or 1, not `{}`",
                    hl.key,
                    quoted(v)
                ))),
            }
        };
        let port = || -> Result<PortDevice, Error> {
            match number()? {
                0 => Ok(PortDevice::None),
                1 => Ok(PortDevice::Gamepad),
                2 => Err(unsupported(hl, "a zapper")),
                n => Err(bad(format!(
                    "unknown device {n} (0 none, 1 gamepad, 2 zapper)"
                ))),
            }
        };
        let h = &mut self.header;
        let key: &'static str = match hl.key {
            "comment" => {
                h.comments.push(hl.value.to_string());
                return Ok(());
            }
            "subtitle" => {
                h.subtitles.push(parse_subtitle(hl)?);
                return Ok(());
            }
            "version" => {
                if number()? != 3 {
                    return Err(bad("only FM2 version 3 exists".into()));
                }
                "version"
            }
            "emuVersion" => {
                h.emu_version = number()?;
                "emuVersion"
            }
            "rerecordCount" => {
                h.rerecord_count = number()?;
                "rerecordCount"
            }
            "palFlag" => {
                h.pal = flag()?;
                "palFlag"
            }
            "romFilename" => {
                h.rom_filename = hl.value.to_string();
                "romFilename"
            }
            "romChecksum" => {
                h.rom_checksum = decode_checksum(hl.value).ok_or_else(|| Error::RomChecksum {
                    line: hl.line,
                    value: quoted(hl.value),
                })?;
                "romChecksum"
            }
            "guid" => {
                h.guid = hl.value.to_string();
                "guid"
            }
            "fourscore" => {
                if flag()? {
                    return Err(unsupported(hl, "a four-score (four-player) movie"));
                }
                "fourscore"
            }
            "microphone" => {
                h.microphone = flag()?;
                "microphone"
            }
            "port0" => {
                h.port0 = port()?;
                "port0"
            }
            "port1" => {
                h.port1 = port()?;
                "port1"
            }
            "port2" => {
                if number()? != 0 {
                    return Err(unsupported(hl, "an expansion-port device"));
                }
                "port2"
            }
            "FDS" => {
                h.fds = flag()?;
                "FDS"
            }
            "NewPPU" => {
                h.new_ppu = flag()?;
                "NewPPU"
            }
            "RAMInitOption" => {
                h.ram_init_option = Some(number()?);
                "RAMInitOption"
            }
            "RAMInitSeed" => {
                let seed = hl.value.trim_end().parse::<i32>().map_err(|_| {
                    bad(format!(
                        "`RAMInitSeed` needs a 32-bit integer, not `{}`",
                        quoted(hl.value)
                    ))
                })?;
                h.ram_init_seed = Some(seed);
                "RAMInitSeed"
            }
            "binary" => {
                if flag()? {
                    return Err(unsupported(hl, "a binary input log (`binary 1`)"));
                }
                h.extra.push((hl.key.to_string(), hl.value.to_string()));
                return Ok(());
            }
            _ => {
                h.extra.push((hl.key.to_string(), hl.value.to_string()));
                return Ok(());
            }
        };
        if self.seen.contains(&key) {
            return Err(Error::Line {
                line: hl.line,
                column: hl.value_column - hl.key.len() - 1,
                reason: format!("`{key}` appears twice"),
            });
        }
        self.seen.push(key);
        Ok(())
    }

    /// Errors with the first required key not seen yet.
    fn check_complete(&self) -> Result<(), Error> {
        match REQUIRED.iter().find(|k| !self.seen.contains(k)) {
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
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
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
