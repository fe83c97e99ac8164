//! `BridgeConsole`: a `Console` whose frames run in another emulator, across one connection
//! speaking the bridge protocol; each `frame(pad)` answers the last frame and waits for the next.

use std::io::{BufRead, Write};

use super::protocol::{self, ClientMsg, Mode, ProtocolError, Ranges, ServerMsg, VERSION};
use crate::game::PadState;
use crate::nes::addresses::{AddressMap, RAM_SIZE};
use crate::nes::console::{Console, ConsoleError};

/// Why the connection stopped (or the frames stopped following each other).
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// Reading or writing the connection failed.
    #[error("the connection failed: {0}")]
    Io(#[from] std::io::Error),
    /// The other side closed the connection without `bye`.
    #[error("the emulator's script closed the connection")]
    Closed,
    /// The other side sent `bye`.
    #[error("the emulator's script said bye")]
    Bye,
    /// A line is not a valid message.
    #[error("line {line}: {source}")]
    Protocol {
        /// The line's number in the connection, from 1.
        line: u64,
        /// What is wrong with it.
        #[source]
        source: ProtocolError,
    },
    /// A valid message where another was due (`frame` before `hello`).
    #[error("line {line}: `{got}` where {expected} was expected")]
    Unexpected {
        /// The line's number in the connection, from 1.
        line: u64,
        /// The message received.
        got: &'static str,
        /// The message that was due.
        expected: &'static str,
    },
    /// Not an end: the emulator jumped (reset, a loaded save state, a rewind); RAM now holds
    /// the new frame and the caller re-plans from it.
    #[error("the emulator jumped from frame {from} to frame {to}")]
    Jump {
        /// The frame number the last `frame` line had.
        from: u64,
        /// The frame number the new `frame` line has.
        to: u64,
    },
}

impl BridgeError {
    /// The bridge error inside a console error, if that is what it is.
    pub fn of(e: &ConsoleError) -> Option<&BridgeError> {
        match e {
            ConsoleError::Host(h) => h.downcast_ref(),
            _ => None,
        }
    }

    /// The line nestor sends before closing for this error (none when the other side is gone).
    fn farewell(&self) -> Option<String> {
        match self {
            BridgeError::Protocol { .. } | BridgeError::Unexpected { .. } => {
                Some(format!("{self}; closing the connection"))
            }
            _ => None,
        }
    }
}

impl From<BridgeError> for ConsoleError {
    fn from(e: BridgeError) -> ConsoleError {
        ConsoleError::Host(Box::new(e))
    }
}

/// The emulator across the connection, seen as a console.
pub struct BridgeConsole<R: BufRead, W: Write> {
    reader: R,
    writer: W,
    ranges: Ranges,
    mode: Mode,
    client: String,
    ram: Box<[u8; RAM_SIZE]>,
    /// The emulator's number of the last frame received.
    number: u64,
    /// A frame was received and not answered yet.
    pending: bool,
    /// Lines read, for error messages.
    lines: u64,
    /// The lock shown with the next answer.
    lock: Option<[(i8, i8); 4]>,
    /// `bye` came instead of the first frame.
    said_bye: bool,
    line: Vec<u8>,
    out: String,
    bytes: Vec<u8>,
}

impl<R: BufRead, W: Write> BridgeConsole<R, W> {
    /// Takes the script's hello, answers with the ranges `map` needs and waits for the first
    /// frame. A refused hello gets an `error` line before the error is returned.
    pub fn accept(reader: R, writer: W, map: &AddressMap) -> Result<Self, BridgeError> {
        let ranges = Ranges::of_map(map);
        let mut c = BridgeConsole {
            reader,
            writer,
            bytes: vec![0; ranges.total()],
            ranges,
            mode: Mode::Play,
            client: String::new(),
            ram: Box::new([0; RAM_SIZE]),
            number: 0,
            pending: false,
            lines: 0,
            lock: None,
            said_bye: false,
            line: Vec::with_capacity(protocol::MAX_LINE + 1),
            out: String::with_capacity(protocol::MAX_LINE),
        };
        let hello = c.read_hello();
        let (client, mode) = c.or_farewell(hello)?;
        c.client = client;
        c.mode = mode;
        let hello = ServerMsg::Hello {
            version: VERSION,
            nestor: env!("CARGO_PKG_VERSION").into(),
            mode,
            ranges: c.ranges.clone(),
        };
        c.send(&hello)?;
        match c.read_frame() {
            // A script may stop before its first frame; it still gets its `bye` answer.
            Err(BridgeError::Bye) => c.said_bye = true,
            first => c.number = c.or_farewell(first)?,
        }
        Ok(c)
    }

    /// True when the script said `bye` right after its hello, with no frame: there is no
    /// game to see, only the `bye` to answer.
    pub fn said_bye(&self) -> bool {
        self.said_bye
    }

    fn read_hello(&mut self) -> Result<(String, Mode), BridgeError> {
        self.next_line()?;
        match ClientMsg::parse(Self::text(&self.line)) {
            Ok(ClientMsg::Hello { client, mode, .. }) => Ok((client.to_string(), mode)),
            Ok(ClientMsg::Bye) => Err(BridgeError::Bye),
            Ok(ClientMsg::Frame { .. }) => Err(BridgeError::Unexpected {
                line: self.lines,
                got: "frame",
                expected: "hello",
            }),
            Err(source) => Err(BridgeError::Protocol {
                line: self.lines,
                source,
            }),
        }
    }

    /// Says why before giving up, where the other side is still there to read it.
    fn or_farewell<T>(&mut self, r: Result<T, BridgeError>) -> Result<T, BridgeError> {
        if let Err(e) = &r {
            // Logged once, by whoever reports how the connection ended.
            if let Some(text) = e.farewell() {
                let _ = self.send(&ServerMsg::Error(text));
            }
        }
        r
    }

    /// Reads the next line into `self.line`, checked to be text of a bounded length.
    fn next_line(&mut self) -> Result<(), BridgeError> {
        self.lines += 1;
        match protocol::read_line(&mut self.reader, &mut self.line)? {
            None => Err(BridgeError::Closed),
            Some(Ok(_)) => Ok(()),
            Some(Err(source)) => Err(BridgeError::Protocol {
                line: self.lines,
                source,
            }),
        }
    }

    fn text(line: &[u8]) -> &str {
        // `read_line` checked it is ASCII.
        std::str::from_utf8(line).unwrap_or("")
    }

    /// Reads the next `frame` line into RAM; returns its number.
    fn read_frame(&mut self) -> Result<u64, BridgeError> {
        self.next_line()?;
        let lines = self.lines;
        let protocol = |source| BridgeError::Protocol {
            line: lines,
            source,
        };
        let BridgeConsole {
            line,
            bytes,
            ranges,
            ram,
            ..
        } = self;
        match ClientMsg::parse(Self::text(line)).map_err(protocol)? {
            ClientMsg::Frame { number, hex } => {
                protocol::decode_hex(hex, bytes).map_err(protocol)?;
                ranges.scatter(bytes, &mut ram[..]);
                self.pending = true;
                Ok(number)
            }
            ClientMsg::Bye => Err(BridgeError::Bye),
            ClientMsg::Hello { .. } => Err(BridgeError::Unexpected {
                line: lines,
                got: "hello",
                expected: "frame or bye",
            }),
        }
    }

    /// Writes one message and flushes it.
    pub fn send(&mut self, msg: &ServerMsg) -> Result<(), BridgeError> {
        self.out.clear();
        msg.format(&mut self.out);
        self.out.push('\n');
        self.writer.write_all(self.out.as_bytes())?;
        self.writer.flush()?;
        Ok(())
    }

    /// What the script asked for in its hello.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The client name the script gave in its hello.
    pub fn client(&self) -> &str {
        &self.client
    }

    /// The ranges every frame carries.
    pub fn ranges(&self) -> &Ranges {
        &self.ranges
    }

    /// True when the last frame received has not been answered yet.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// Sets the lock shown with the next answers (`None` hides it).
    pub fn show_lock(&mut self, cells: Option<[(i8, i8); 4]>) {
        self.lock = cells;
    }

    /// Answers the pending frame with `pad` and waits for the next frame. A jump in the
    /// emulator's frame numbers is reported as `BridgeError::Jump`, with RAM already holding
    /// the frame jumped to (answered, as always, by the next call).
    pub fn exchange(&mut self, pad: PadState) -> Result<(), BridgeError> {
        let answer = ServerMsg::Pad {
            number: self.number,
            pad,
            lock: self.lock,
        };
        self.send(&answer)?;
        self.pending = false;
        let next = self.read_frame();
        let number = self.or_farewell(next)?;
        let expected = self.number + 1;
        let from = std::mem::replace(&mut self.number, number);
        if number != expected {
            return Err(BridgeError::Jump { from, to: number });
        }
        Ok(())
    }

    /// Answers `bye` with `summary` (best effort: the script may already be gone).
    pub fn farewell(&mut self, summary: String) {
        let _ = self.send(&ServerMsg::Bye(summary));
    }
}

impl<R: BufRead, W: Write> Console for BridgeConsole<R, W> {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        Ok(self.exchange(pad)?)
    }

    fn ram(&self) -> &[u8] {
        &self.ram[..]
    }

    /// The emulator's own frame number (FCEUX's `emu.framecount()`), so logs match its movie.
    fn frame_number(&self) -> u64 {
        self.number
    }
}
