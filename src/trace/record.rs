//! One frame of a trace as typed values, made from the rules model (or RAM), turned into the
//! schema's JSON object, and parsed back into a model state to start a verification from.

use serde_json::{json, Map, Value};

use crate::game::pad::PadState;
use crate::game::playfield::{offset, EMPTY};
use crate::game::score::bcd_value;
use crate::game::state::{tile_from_char, Game};
use crate::nes::addresses::AddressMap;
use crate::nes::observe::{RamSnapshot, GAME_MODE_PLAY, RENDER_MODE_PLAY};

/// Every field of the trace schema, in the order the cartridge traces write them.
pub const FIELDS: &[&str] = &[
    "frame",
    "t",
    "input",
    "game_mode",
    "game_mode_state",
    "render_mode",
    "game_type",
    "play_state",
    "piece",
    "x",
    "y",
    "next",
    "fall_timer",
    "das",
    "soft_drop",
    "hold_down_points",
    "level",
    "start_level",
    "lines",
    "lines_bcd",
    "score",
    "score_bcd",
    "rng",
    "spawn_id",
    "spawn_count",
    "frame_counter",
    "held",
    "newly",
    "vram_row",
    "completed_lines",
    "row_y",
    "curtain_row",
    "active_matches_p1",
    "field",
    "hidden",
];

/// One trace line: the frame's identity and the RAM quantities it records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRecord {
    /// Frames since power-on, this one included.
    pub frame: u64,
    /// The line's index in the trace, from 0.
    pub t: u64,
    /// The buttons held in the frame.
    pub input: PadState,
    /// RAM at the end of the frame.
    pub ram: RamSnapshot,
}

fn tile_char(b: u8) -> char {
    match b {
        EMPTY.. => '.',
        0x7B => '1',
        0x7C => '2',
        0x7D => '3',
        _ => '#',
    }
}

impl FrameRecord {
    /// The model's view of a frame: the game as it stands at the end of frame `frame`, as RAM
    /// shows it (on a frame the NMI interrupted before `savePlayer1State`, the player block
    /// still holds the frame's start: [`Game::shown_block`]).
    pub fn from_game(game: &Game, frame: u64, t: u64, input: PadState) -> FrameRecord {
        FrameRecord::from_snapshot(&RamSnapshot::shown(game), frame, t, input)
    }

    /// The console's view of a frame: every field read from 2 KiB of CPU RAM through `map`
    /// (the same schema as [`FrameRecord::from_game`]).
    pub fn from_ram(
        ram: &[u8],
        map: &AddressMap,
        frame: u64,
        t: u64,
        input: PadState,
    ) -> FrameRecord {
        FrameRecord::from_snapshot(&RamSnapshot::read(ram, map), frame, t, input)
    }

    /// A frame record from an already-read snapshot.
    pub fn from_snapshot(s: &RamSnapshot, frame: u64, t: u64, input: PadState) -> FrameRecord {
        FrameRecord {
            frame,
            t,
            input,
            ram: s.clone(),
        }
    }

    /// The value of schema field `name`, encoded as the traces encode it.
    pub fn field(&self, name: &str) -> Option<Value> {
        let s = &self.ram;
        let rows = |rows: std::ops::Range<i16>| -> Value {
            Value::Array(
                rows.map(|r| {
                    Value::String((0..10).map(|c| tile_char(s.page[offset(r, c)])).collect())
                })
                .collect(),
            )
        };
        Some(match name {
            "frame" => json!(self.frame),
            "t" => json!(self.t),
            "input" => json!(self.input.to_letters()),
            "game_mode" => json!(s.game_mode),
            "game_mode_state" => json!(s.game_mode_state),
            "render_mode" => json!(s.render_mode),
            "game_type" => json!(s.game_type),
            "play_state" => json!(s.play_state),
            "piece" => json!(s.orientation),
            "x" => json!(s.x),
            "y" => json!(s.y),
            "next" => json!(s.next),
            "fall_timer" => json!(s.fall_timer),
            "das" => json!(s.das),
            "soft_drop" => json!(s.soft_drop),
            "hold_down_points" => json!(s.hold_down_points),
            "level" => json!(s.level),
            "start_level" => json!(s.start_level),
            "lines" => json!(bcd_value(&s.lines_bcd)),
            "lines_bcd" => json!(format!("{:02X}{:02X}", s.lines_bcd[1], s.lines_bcd[0])),
            "score" => json!(bcd_value(&s.score_bcd)),
            "score_bcd" => json!(format!(
                "{:02X}{:02X}{:02X}",
                s.score_bcd[2], s.score_bcd[1], s.score_bcd[0]
            )),
            "rng" => json!(s.rng),
            "spawn_id" => json!(s.spawn_id),
            "spawn_count" => json!(s.spawn_count),
            "frame_counter" => json!(s.frame_counter),
            "held" => json!(s.held),
            "newly" => json!(s.newly),
            "vram_row" => json!(s.vram_row),
            "completed_lines" => json!(s.completed_lines),
            "row_y" => json!(s.row_y),
            "curtain_row" => json!(s.curtain_row),
            "active_matches_p1" => json!(s.active_matches_p1),
            "field" => rows(0..20),
            "hidden" => rows(-2..0),
            _ => return None,
        })
    }

    /// The whole line as a JSON object, keeping only `fields` (all when `None`).
    pub fn to_json(&self, fields: Option<&[String]>) -> Map<String, Value> {
        let mut m = Map::new();
        for &name in FIELDS {
            if fields.is_none_or(|f| f.iter().any(|n| n == name) || name == "t") {
                if let Some(v) = self.field(name) {
                    m.insert(name.to_string(), v);
                }
            }
        }
        m
    }
}

/// Why a trace line cannot start the model.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("field `{field}`: {reason}")]
pub struct StartError {
    /// The trace field that is missing or wrong.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

fn get_u64(line: &Map<String, Value>, key: &str) -> Result<u64, StartError> {
    line.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| StartError {
            field: key.into(),
            reason: "missing or not a non-negative integer".into(),
        })
}

/// One byte of the line's `ram` (4,096 hex digits of $0000-$07FF), when it has one.
fn ram_byte(line: &Map<String, Value>, addr: usize) -> Option<u8> {
    let hex = line.get("ram")?.as_str()?.get(2 * addr..2 * addr + 2)?;
    u8::from_str_radix(hex, 16).ok()
}

fn get_u8(line: &Map<String, Value>, key: &str) -> Result<u8, StartError> {
    let v = get_u64(line, key)?;
    u8::try_from(v).map_err(|_| StartError {
        field: key.into(),
        reason: format!("{v} does not fit a byte"),
    })
}

fn get_hex<const N: usize>(line: &Map<String, Value>, key: &str) -> Result<[u8; N], StartError> {
    let bad = || StartError {
        field: key.into(),
        reason: format!("expected {} hex digits", 2 * N),
    };
    let s = line.get(key).and_then(Value::as_str).ok_or_else(bad)?;
    if s.len() != 2 * N {
        return Err(bad());
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        // High byte first in the text, little-endian in RAM.
        let at = 2 * (N - 1 - i);
        *b = u8::from_str_radix(s.get(at..at + 2).ok_or_else(bad)?, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

fn get_rows(line: &Map<String, Value>, key: &str, n: usize) -> Result<Vec<String>, StartError> {
    let bad = || StartError {
        field: key.into(),
        reason: format!("expected {n} strings of 10 cells"),
    };
    let rows = line.get(key).and_then(Value::as_array).ok_or_else(bad)?;
    if rows.len() != n {
        return Err(bad());
    }
    rows.iter()
        .map(|r| {
            r.as_str()
                .filter(|s| s.chars().count() == 10)
                .map(str::to_string)
                .ok_or_else(bad)
        })
        .collect()
}

/// The fields `game_from_line` needs, in schema order; the others are optional or only
/// compared. It does without the frame's identity and input, the menu bytes (defaulted), and
/// what it derives (`lines`, `score`) or assumes. A trace that `trace verify` can check keeps
/// all of these (plus `input` or `held` on every line).
pub fn start_fields() -> impl Iterator<Item = &'static str> {
    FIELDS.iter().copied().filter(|f| {
        !matches!(
            *f,
            "frame"
                | "t"
                | "input"
                | "game_mode"
                | "game_mode_state"
                | "render_mode"
                | "game_type"
                | "lines"
                | "score"
                | "active_matches_p1"
        )
    })
}

/// Builds the model from a trace line (the state at the end of that frame): the line is read
/// as the RAM it records, then checked and turned into a `Game` like RAM from a console.
pub fn game_from_line(line: &Map<String, Value>) -> Result<Game, StartError> {
    let mut page = [EMPTY; 256];
    let hidden = get_rows(line, "hidden", 2)?;
    let visible = get_rows(line, "field", 20)?;
    for (r, row) in hidden.iter().chain(visible.iter()).enumerate() {
        for (c, ch) in row.chars().enumerate() {
            page[offset(r as i16 - 2, c as i16)] = tile_from_char(ch);
        }
    }
    let optional = |key: &str, default: u8| -> Result<u8, StartError> {
        if line.contains_key(key) {
            get_u8(line, key)
        } else {
            Ok(default)
        }
    };
    let wide = |key: &str| -> Result<u16, StartError> {
        let v = get_u64(line, key)?;
        u16::try_from(v).map_err(|_| StartError {
            field: key.into(),
            reason: format!("{v} does not fit 16 bits"),
        })
    };
    let snapshot = RamSnapshot {
        game_mode: optional("game_mode", GAME_MODE_PLAY)?,
        game_mode_state: optional("game_mode_state", 2)?,
        render_mode: optional("render_mode", RENDER_MODE_PLAY)?,
        game_type: optional("game_type", 0)?,
        play_state: get_u8(line, "play_state")?,
        orientation: get_u8(line, "piece")?,
        x: get_u8(line, "x")?,
        y: get_u8(line, "y")?,
        next: get_u8(line, "next")?,
        fall_timer: get_u8(line, "fall_timer")?,
        das: get_u8(line, "das")?,
        soft_drop: get_u8(line, "soft_drop")?,
        hold_down_points: get_u8(line, "hold_down_points")?,
        level: get_u8(line, "level")?,
        start_level: get_u8(line, "start_level")?,
        lines_bcd: get_hex::<2>(line, "lines_bcd")?,
        score_bcd: get_hex::<3>(line, "score_bcd")?,
        rng: wide("rng")?,
        spawn_id: get_u8(line, "spawn_id")?,
        spawn_count: get_u8(line, "spawn_count")?,
        frame_counter: wide("frame_counter")?,
        held: get_u8(line, "held")?,
        newly: get_u8(line, "newly")?,
        vram_row: get_u8(line, "vram_row")?,
        completed_lines: get_u8(line, "completed_lines")?,
        // Not in the schema: only read by the row check, which sets them before use.
        completed_rows: [0; 4],
        line_index: 0,
        row_y: get_u8(line, "row_y")?,
        curtain_row: get_u8(line, "curtain_row")?,
        // Not in the schema: the traces carry it in `ram` ($DF).
        display_next_piece: ram_byte(line, 0xDF).unwrap_or(0),
        active_matches_p1: true,
        page,
    };
    snapshot.to_game().map_err(|e| StartError {
        field: e.bad.iter().map(|b| b.field).collect::<Vec<_>>().join(", "),
        reason: e.to_string(),
    })
}
