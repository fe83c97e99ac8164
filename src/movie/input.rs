//! One FM2 input line: the commands field and the two gamepads in FCEUX's `RLDUTSBA`
//! character order, mapped explicitly to and from nestor's `PadState` bit order.

use super::error::{quoted, Error};
use super::header::PortDevice;
use crate::game::pad::PadState;

/// Bits of the `commands` field, applied by FCEUX at the start of the frame.
pub mod commands {
    /// Soft reset (the Reset button).
    pub const SOFT_RESET: u8 = 1;
    /// Power cycle (hard reset).
    pub const POWER: u8 = 2;
    /// Famicom Disk System: insert (or eject) the disk.
    pub const FDS_INSERT: u8 = 4;
    /// Famicom Disk System: select the disk side.
    pub const FDS_SELECT: u8 = 8;
    /// VS. System: insert a coin.
    pub const VS_COIN: u8 = 16;
}

/// One frame of a movie: the commands and controllers 1 and 2 (the expansion port is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FrameInput {
    /// The `commands` bits ([`commands`]): resets and disk and coin commands.
    pub commands: u8,
    /// Controller 1.
    pub port0: PadState,
    /// Controller 2.
    pub port1: PadState,
}

impl FrameInput {
    /// No command, nothing pressed: the FCEUX lead frame.
    pub const BLANK: FrameInput = FrameInput {
        commands: 0,
        port0: PadState::NONE,
        port1: PadState::NONE,
    };

    /// `pad` on controller 1, nothing else.
    pub const fn gamepad(pad: PadState) -> FrameInput {
        FrameInput {
            commands: 0,
            port0: pad,
            port1: PadState::NONE,
        }
    }
}

/// FM2's gamepad characters in file order, each with the button it stands for. FCEUX's
/// order (Right first, A last) is not the game's (A in bit 7, Right in bit 0), so this table
/// is the one place the two meet.
const FM2_BUTTONS: [(u8, PadState); 8] = [
    (b'R', PadState::RIGHT),
    (b'L', PadState::LEFT),
    (b'D', PadState::DOWN),
    (b'U', PadState::UP),
    (b'T', PadState::START),
    (b'S', PadState::SELECT),
    (b'B', PadState::B),
    (b'A', PadState::A),
];

/// Reads an 8-byte gamepad field: `.` or space is released, any other byte pressed (as in
/// FCEUX, which reads bytes, so the field is 8 bytes, not 8 characters).
pub fn pad_from_field(field: &[u8; 8]) -> PadState {
    FM2_BUTTONS
        .iter()
        .zip(field)
        .filter(|(_, &c)| c != b'.' && c != b' ')
        .fold(PadState::NONE, |pad, ((_, button), _)| pad | *button)
}

/// The gamepad field nestor writes: the button's letter when pressed, `.` when released.
pub fn pad_to_field(pad: PadState) -> [u8; 8] {
    FM2_BUTTONS.map(|(letter, button)| if pad.contains(button) { letter } else { b'.' })
}

/// Appends the input line for `frame` (without the newline).
pub(super) fn write_line(out: &mut String, frame: &FrameInput, ports: [PortDevice; 2]) {
    out.push('|');
    out.push_str(&frame.commands.to_string());
    for (device, pad) in ports.into_iter().zip([frame.port0, frame.port1]) {
        out.push('|');
        if device == PortDevice::Gamepad {
            out.extend(pad_to_field(pad).map(char::from));
        }
    }
    // The expansion port's field is always empty, then the closing bar.
    out.push_str("||");
}

/// Splits an input line at its bars, remembering where each field starts.
struct Fields<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    /// The next field and its byte offset, or `None` when no closing `|` follows.
    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        let start = self.pos;
        let len = self.bytes.get(start..)?.iter().position(|&b| b == b'|')?;
        self.pos = start + len + 1;
        Some((start, &self.bytes[start..start + len]))
    }
}

/// Parses an input line. `body` starts with `|`; `indent` bytes of whitespace preceded it
/// and `line` is its 1-based line number, both only for error positions.
pub(super) fn parse_line(
    body: &str,
    ports: [PortDevice; 2],
    line: usize,
    indent: usize,
) -> Result<FrameInput, Error> {
    let bytes = body.as_bytes();
    let err = |offset: usize, reason: String| Error::Line {
        line,
        column: indent + offset + 1,
        reason,
    };
    let mut fields = Fields { bytes, pos: 1 };
    let mut next = |name: &str| {
        fields.next().ok_or_else(|| {
            err(
                bytes.len(),
                format!("the line ends before the `|` that closes the {name} field"),
            )
        })
    };

    let (at, text) = next("commands")?;
    let commands = parse_commands(text).ok_or_else(|| {
        err(
            at,
            format!(
                "commands field `{}` is not a number from 0 to 255",
                quoted(&String::from_utf8_lossy(text))
            ),
        )
    })?;
    let mut pads = [PadState::NONE; 2];
    for (port, (device, pad)) in ports.iter().zip(&mut pads).enumerate() {
        let (at, text) = next(&format!("port{port}"))?;
        *pad =
            parse_port(*device, text).map_err(|reason| err(at, format!("port{port}: {reason}")))?;
    }
    let (at, text) = next("port2")?;
    if !text.is_empty() {
        return Err(err(at, "port2 (expansion port) field is not empty".into()));
    }
    let rest_at = fields.pos;
    if let Some(junk) = bytes[rest_at..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
    {
        return Err(err(rest_at + junk, "text after the closing `|`".into()));
    }
    Ok(FrameInput {
        commands,
        port0: pads[0],
        port1: pads[1],
    })
}

fn parse_commands(text: &[u8]) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = text.iter().fold(0u16, |v, &d| v * 10 + u16::from(d - b'0'));
    u8::try_from(value).ok()
}

fn parse_port(device: PortDevice, text: &[u8]) -> Result<PadState, String> {
    match device {
        PortDevice::Gamepad => {
            let field: &[u8; 8] = text.try_into().map_err(|_| {
                format!(
                    "gamepad field has {} bytes, expected 8 (RLDUTSBA)",
                    text.len()
                )
            })?;
            Ok(pad_from_field(field))
        }
        PortDevice::None if text.is_empty() => Ok(PadState::NONE),
        PortDevice::None => Err("the header says no device, but the field is not empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PADS: [PortDevice; 2] = [PortDevice::Gamepad, PortDevice::Gamepad];

    #[test]
    fn each_letter_maps_to_its_button() {
        let cases = [
            ("R.......", PadState::RIGHT),
            (".L......", PadState::LEFT),
            ("..D.....", PadState::DOWN),
            ("...U....", PadState::UP),
            ("....T...", PadState::START),
            (".....S..", PadState::SELECT),
            ("......B.", PadState::B),
            (".......A", PadState::A),
        ];
        for (field, pad) in cases {
            let bytes: [u8; 8] = field.as_bytes().try_into().unwrap();
            assert_eq!(pad_from_field(&bytes), pad, "{field}");
            assert_eq!(pad_to_field(pad), bytes, "{field}");
        }
    }

    #[test]
    fn every_pad_round_trips() {
        for b in 0..=255u8 {
            assert_eq!(pad_from_field(&pad_to_field(PadState(b))), PadState(b));
        }
    }

    #[test]
    fn any_other_character_is_pressed_and_space_is_released() {
        assert_eq!(
            pad_from_field(b"x  ?   *"),
            PadState::RIGHT | PadState::UP | PadState::A
        );
        assert_eq!(pad_from_field(b"        "), PadState::NONE);
    }

    #[test]
    fn parses_a_line_with_commands() {
        let f = parse_line("|1|.L.....A|R.......||", PADS, 5, 0).unwrap();
        assert_eq!(f.commands, commands::SOFT_RESET);
        assert_eq!(f.port0, PadState::LEFT | PadState::A);
        assert_eq!(f.port1, PadState::RIGHT);
    }

    #[test]
    fn an_empty_port_has_an_empty_field() {
        let ports = [PortDevice::Gamepad, PortDevice::None];
        let f = parse_line("|0|..D.....|||", ports, 1, 0).unwrap();
        assert_eq!(f.port0, PadState::DOWN);
        let mut s = String::new();
        write_line(&mut s, &f, ports);
        assert_eq!(s, "|0|..D.....|||");
    }

    #[test]
    fn errors_give_line_column_and_reason() {
        let cases = [
            ("|0|.......|........||", 4, "7 bytes"),
            ("|x|........|........||", 2, "commands"),
            ("|256|........|........||", 2, "commands"),
            ("||........|........||", 2, "commands"),
            ("|0|........|........|", 22, "port2"),
            ("|0|........|........|.|", 22, "port2"),
            ("|0|........|........||x", 23, "after"),
            ("|0|........", 12, "port0"),
        ];
        for (text, column, why) in cases {
            match parse_line(text, PADS, 7, 0) {
                Err(Error::Line {
                    line: 7,
                    column: c,
                    reason,
                }) => {
                    assert_eq!(c, column, "{text}: {reason}");
                    assert!(reason.contains(why), "{text}: {reason}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
