//! The entry points the fuzz targets (`fuzz/fuzz_targets/`) and `tests/fuzz_regressions.rs`
//! share, so a kept input runs on stable exactly as the fuzzer ran it.

#![allow(dead_code)] // each fuzz target uses one entry

use std::path::Path;

use nestor::movie::Movie;
use nestor::nes::addresses::AddressMap;
use nestor::nes::rom::{Header, Rom};
use nestor::nes::settings::PlaySettings;
use nestor::search::Weights;
use nestor::trace::record::FIELDS;
use nestor::trace::verify::verify_frames;
use nestor::trace::{read_trace_bytes, Trace};
use serde_json::{Map, Value};

/// The name every entry gives its input; refusals must mention it.
pub const LABEL: &str = "fuzz-input";

/// What an entry made of its input: accepted, or refused with the message a user would see.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Accepted,
    Refused(String),
}

impl Outcome {
    fn from_result<T, E: std::fmt::Display>(r: Result<T, E>) -> Outcome {
        match r {
            Ok(_) => Outcome::Accepted,
            Err(e) => Outcome::Refused(e.to_string()),
        }
    }
}

/// A target's entry point: the fuzz input in, what nestor made of it out.
pub type Entry = fn(&[u8]) -> Outcome;

/// The targets, by the name of their fuzz target and corpus directory.
pub const TARGETS: &[(&str, Entry)] = &[
    ("fm2_parse", fm2_parse),
    ("trace_read", trace_read),
    ("trace_verify", trace_verify),
    ("settings_toml", settings_toml),
    ("weights_toml", weights_toml),
    ("addresses_toml", addresses_toml),
    ("ines_rom", ines_rom),
    ("protocol", protocol),
];

/// FM2 text as `Movie::load` reads it (lossy UTF-8); an accepted movie must survive a write
/// and a re-read unchanged, since nestor writes movies it later replays.
pub fn fm2_parse(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    match Movie::parse(&text) {
        Ok(movie) => {
            let again = Movie::parse(&movie.to_fm2_string())
                .unwrap_or_else(|e| panic!("a written movie does not parse: {e}"));
            assert_eq!(movie, again, "a movie changed on a write and re-read");
            let _ = movie.gameplay_pads();
            let _ = movie.first_command();
            Outcome::Accepted
        }
        Err(e) => Outcome::Refused(e.to_string()),
    }
}

/// Trace bytes (plain or gzip) as `read_trace` reads a file, then verified if they parse.
pub fn trace_read(data: &[u8]) -> Outcome {
    let path = Path::new(LABEL);
    match read_trace_bytes(data, path) {
        Ok(trace) => match verify_frames(LABEL, &trace).error {
            None => Outcome::Accepted,
            Some(e) => Outcome::Refused(e),
        },
        Err(e) => Outcome::Refused(e.to_string()),
    }
}

/// The play settings file.
pub fn settings_toml(data: &[u8]) -> Outcome {
    match std::str::from_utf8(data) {
        Ok(text) => Outcome::from_result(PlaySettings::from_toml(text, Path::new(LABEL))),
        Err(_) => Outcome::Refused(format!("{LABEL}: not UTF-8")),
    }
}

/// A weights file.
pub fn weights_toml(data: &[u8]) -> Outcome {
    match std::str::from_utf8(data) {
        Ok(text) => Outcome::from_result(Weights::from_toml(text, Path::new(LABEL))),
        Err(_) => Outcome::Refused(format!("{LABEL}: not UTF-8")),
    }
}

/// The RAM address map; an accepted map is used to read a RAM image, as the driver does.
pub fn addresses_toml(data: &[u8]) -> Outcome {
    let Ok(text) = std::str::from_utf8(data) else {
        return Outcome::Refused(format!("{LABEL}: not UTF-8"));
    };
    match AddressMap::parse(text, LABEL) {
        Ok(map) => {
            let ram: Vec<u8> = (0..0x800u32).map(|i| i as u8).collect();
            let _ = map.page(&ram);
            Outcome::Accepted
        }
        Err(e) => Outcome::Refused(e.to_string()),
    }
}

/// iNES identification of a file's bytes, strict and with `--allow-unknown-rom`.
pub fn ines_rom(data: &[u8]) -> Outcome {
    let header = Header::parse(LABEL, data);
    let strict = Rom::from_bytes(LABEL, data.to_vec(), false);
    let lax = Rom::from_bytes(LABEL, data.to_vec(), true);
    if let Ok(rom) = &lax {
        let _ = rom.name();
        assert!(header.is_ok(), "a ROM was accepted with a refused header");
    }
    match (strict, lax) {
        (Ok(_), _) | (_, Ok(_)) => Outcome::Accepted,
        (Err(e), Err(_)) => Outcome::Refused(e.to_string()),
    }
}

/// A first trace line that starts the model (the cartridge's l19-das-walls trace, t=0).
pub const BASE_LINE: &str = r#"{"frame":313,"t":0,"input":"......L.","game_mode":4,"game_mode_state":2,"render_mode":3,"game_type":0,"play_state":1,"piece":2,"x":4,"y":0,"next":7,"fall_timer":2,"das":0,"soft_drop":162,"hold_down_points":0,"level":19,"start_level":19,"lines":0,"lines_bcd":"0000","score":0,"score_bcd":"000000","rng":4069,"spawn_id":7,"spawn_count":2,"frame_counter":52,"held":2,"newly":2,"vram_row":8,"completed_lines":0,"row_y":0,"curtain_row":0,"active_matches_p1":true,"field":["..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........","..........",".........."],"hidden":["..........",".........."]}"#;

/// The schema's fields that are not integers: the input, the decimal counters (`lines` and
/// `score` are only compared), the BCD strings, the flag and the playfield rows.
const NOT_INT_FIELDS: &[&str] = &[
    "input",
    "lines",
    "lines_bcd",
    "score",
    "score_bcd",
    "active_matches_p1",
    "field",
    "hidden",
];

/// Fields `game_from_line` reads as integers, in the schema's order.
fn int_fields() -> Vec<&'static str> {
    FIELDS
        .iter()
        .copied()
        .filter(|f| !NOT_INT_FIELDS.contains(f))
        .collect()
}

/// Reads fuzz bytes one at a time, zeros once they run out (so every input decodes).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn wide(&mut self) -> u64 {
        (0..8).fold(0, |v, _| v << 8 | u64::from(self.byte()))
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An integer for a fuzzed field: usually a byte, sometimes anything a JSON number holds.
fn fuzzed_int(b: &mut Bytes) -> Value {
    match b.byte() % 8 {
        0 => Value::from(b.wide()),
        1 => Value::from(b.wide() as i64),
        2 => Value::from(u16::from_be_bytes([b.byte(), b.byte()])),
        _ => Value::from(b.byte()),
    }
}

/// Ten cells from bytes: the characters traces use and one they never do.
fn fuzzed_row(b: &mut Bytes) -> Value {
    const CELLS: [char; 6] = ['.', '.', '1', '2', '3', '#'];
    Value::from(
        (0..10)
            .map(|_| CELLS[usize::from(b.byte()) % CELLS.len()])
            .collect::<String>(),
    )
}

/// A structured record sequence: the first line is a real one with fuzzed fields (any
/// integer field, the playfield, the BCD counters), then one line per byte pair with the
/// input and, now and then, a recorded field to compare.
pub fn fuzzed_trace(data: &[u8]) -> Trace {
    let int_fields = int_fields();
    let mut b = Bytes(data);
    let mut first: Map<String, Value> =
        serde_json::from_str(BASE_LINE).expect("the base line is JSON");
    let edits = b.byte() % 16;
    for _ in 0..edits {
        let pick = usize::from(b.byte());
        match pick % (int_fields.len() + 4) {
            i if i < int_fields.len() => {
                first.insert(int_fields[i].into(), fuzzed_int(&mut b));
            }
            i if i == int_fields.len() => {
                let rows: Vec<Value> = (0..20).map(|_| fuzzed_row(&mut b)).collect();
                first.insert("field".into(), Value::from(rows));
            }
            i if i == int_fields.len() + 1 => {
                first.insert(
                    "hidden".into(),
                    Value::from(vec![fuzzed_row(&mut b), fuzzed_row(&mut b)]),
                );
            }
            i if i == int_fields.len() + 2 => {
                let s = format!("{:02X}{:02X}", b.byte(), b.byte());
                first.insert("lines_bcd".into(), Value::from(s));
            }
            _ => {
                let s = format!("{:02X}{:02X}{:02X}", b.byte(), b.byte(), b.byte());
                first.insert("score_bcd".into(), Value::from(s));
            }
        }
    }
    let mut frames = vec![first];
    while !b.is_empty() {
        let input = nestor::game::PadState(b.byte());
        let mut line = Map::new();
        line.insert("input".into(), Value::from(input.to_letters()));
        let extra = b.byte();
        if extra >= 0xF0 {
            let name = int_fields[usize::from(extra) % int_fields.len()];
            line.insert(name.into(), fuzzed_int(&mut b));
        }
        frames.push(line);
    }
    Trace {
        header: None,
        frames,
    }
}

/// `trace verify` on a fuzzed record sequence: it may refuse the start, report a divergence
/// or pass, but never panic.
pub fn trace_verify(data: &[u8]) -> Outcome {
    let trace = fuzzed_trace(data);
    match verify_frames(LABEL, &trace).error {
        None => Outcome::Accepted,
        Some(e) => Outcome::Refused(e),
    }
}

/// The bridge protocol (`nestor serve`): the bytes as a client's stream, line by line, through
/// the bounded line reader and both parsers; an accepted line must format back to itself
/// (modulo spacing), and a `frame` line's RAM must decode at its own length. Refused when any
/// line is refused, as the server closes the connection at the first bad line.
pub fn protocol(data: &[u8]) -> Outcome {
    use nestor::serve::protocol::{decode_hex, read_line};
    use nestor::serve::{ClientMsg, ServerMsg};
    let mut reader: &[u8] = data;
    let mut buf = Vec::new();
    let mut first_error = None;
    loop {
        let line = match read_line(&mut reader, &mut buf) {
            Ok(None) => break,
            Ok(Some(Ok(line))) => line.to_string(),
            Ok(Some(Err(e))) => {
                first_error.get_or_insert(e.to_string());
                continue;
            }
            Err(e) => panic!("reading a byte slice failed: {e}"),
        };
        assert!(
            line.len() <= nestor::serve::MAX_LINE,
            "an over-long line was returned"
        );
        // Whatever a server or client line parses to formats back to a line that parses the
        // same (a macro: the two message types share no trait).
        macro_rules! formats_back {
            ($ty:ident, $msg:expr) => {
                let mut again = String::new();
                $msg.format(&mut again);
                assert_eq!(
                    $ty::parse(&again).as_ref(),
                    Ok(&$msg),
                    "{line:?} → {again:?}"
                );
            };
        }
        if let Ok(msg) = ServerMsg::parse(&line) {
            formats_back!(ServerMsg, msg);
        }
        match ClientMsg::parse(&line) {
            Ok(msg) => {
                formats_back!(ClientMsg, msg);
                if let ClientMsg::Frame { hex, .. } = msg {
                    let mut ram = vec![0u8; hex.len() / 2];
                    if let Err(e) = decode_hex(hex, &mut ram) {
                        panic!("checked hex does not decode: {e}");
                    }
                }
            }
            Err(e) => {
                let text = e.to_string();
                assert!(!text.trim().is_empty(), "an empty refusal");
                first_error.get_or_insert(text);
            }
        }
    }
    match first_error {
        None => Outcome::Accepted,
        Some(e) => Outcome::Refused(e),
    }
}
