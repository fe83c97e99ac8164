//! One frame of a trace as typed values, made from the rules model (or RAM), turned into the
//! schema's JSON object, and parsed back into a model state to start a verification from.

use serde_json::{json, Map, Value};

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::playfield::{offset, Playfield, EMPTY};
use crate::game::rng::Picker;
use crate::game::score::bcd_value;
use crate::game::state::{tile_from_char, Game, PlayState, Wait};
use crate::nes::addresses::AddressMap;
use crate::nes::observe::RamSnapshot;

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

/// The RAM quantities one trace line records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRecord {
    pub frame: u64,
    pub t: u64,
    pub input: PadState,
    pub game_mode: u8,
    pub game_mode_state: u8,
    pub render_mode: u8,
    pub game_type: u8,
    pub play_state: u8,
    pub piece: u8,
    pub x: u8,
    pub y: u8,
    pub next: u8,
    pub fall_timer: u8,
    pub das: u8,
    pub soft_drop: u8,
    pub hold_down_points: u8,
    pub level: u8,
    pub start_level: u8,
    /// [$70, $71].
    pub lines_bcd: [u8; 2],
    /// [$73, $74, $75].
    pub score_bcd: [u8; 3],
    pub rng: u16,
    pub spawn_id: u8,
    pub spawn_count: u8,
    pub frame_counter: u16,
    pub held: u8,
    pub newly: u8,
    pub vram_row: u8,
    pub completed_lines: u8,
    pub row_y: u8,
    pub curtain_row: u8,
    pub active_matches_p1: bool,
    /// Rows −2..19 of the $0400 page.
    pub cells: [[u8; 10]; 22],
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
    /// The model's view of a frame: the game as it stands at the end of frame `frame`.
    pub fn from_game(game: &Game, frame: u64, t: u64, input: PadState) -> FrameRecord {
        let mut cells = [[EMPTY; 10]; 22];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = game.field.get(r as i16 - 2, c as i16);
            }
        }
        FrameRecord {
            frame,
            t,
            input,
            game_mode: 4,
            game_mode_state: game.game_mode_state,
            render_mode: 3,
            game_type: 0,
            play_state: game.play_state as u8,
            piece: game.active.id,
            x: game.active.x,
            y: game.active.y,
            next: game.next,
            fall_timer: game.active.fall_timer,
            das: game.active.das,
            soft_drop: game.active.ary,
            hold_down_points: game.active.hold_down_points,
            level: game.level,
            start_level: game.start_level,
            lines_bcd: game.lines,
            score_bcd: game.score,
            rng: game.picker.rng,
            spawn_id: game.picker.spawn_id,
            spawn_count: game.picker.spawn_count,
            frame_counter: game.frame_counter,
            held: game.held.bits(),
            newly: game.newly.bits(),
            vram_row: game.vram_row,
            completed_lines: game.completed_lines,
            row_y: game.row_y,
            curtain_row: game.curtain_row,
            active_matches_p1: true,
            cells,
        }
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
        let mut cells = [[EMPTY; 10]; 22];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = s.page[offset(r as i16 - 2, c as i16)];
            }
        }
        FrameRecord {
            frame,
            t,
            input,
            game_mode: s.game_mode,
            game_mode_state: s.game_mode_state,
            render_mode: s.render_mode,
            game_type: s.game_type,
            play_state: s.play_state,
            piece: s.orientation,
            x: s.x,
            y: s.y,
            next: s.next,
            fall_timer: s.fall_timer,
            das: s.das,
            soft_drop: s.soft_drop,
            hold_down_points: s.hold_down_points,
            level: s.level,
            start_level: s.start_level,
            lines_bcd: s.lines_bcd,
            score_bcd: s.score_bcd,
            rng: s.rng,
            spawn_id: s.spawn_id,
            spawn_count: s.spawn_count,
            frame_counter: s.frame_counter,
            held: s.held,
            newly: s.newly,
            vram_row: s.vram_row,
            completed_lines: s.completed_lines,
            row_y: s.row_y,
            curtain_row: s.curtain_row,
            active_matches_p1: s.active_matches_p1,
            cells,
        }
    }

    /// The value of schema field `name`, encoded as the traces encode it.
    pub fn field(&self, name: &str) -> Option<Value> {
        let rows = |range: std::ops::Range<usize>| -> Value {
            Value::Array(
                self.cells[range]
                    .iter()
                    .map(|row| Value::String(row.iter().map(|&b| tile_char(b)).collect()))
                    .collect(),
            )
        };
        Some(match name {
            "frame" => json!(self.frame),
            "t" => json!(self.t),
            "input" => json!(self.input.to_letters()),
            "game_mode" => json!(self.game_mode),
            "game_mode_state" => json!(self.game_mode_state),
            "render_mode" => json!(self.render_mode),
            "game_type" => json!(self.game_type),
            "play_state" => json!(self.play_state),
            "piece" => json!(self.piece),
            "x" => json!(self.x),
            "y" => json!(self.y),
            "next" => json!(self.next),
            "fall_timer" => json!(self.fall_timer),
            "das" => json!(self.das),
            "soft_drop" => json!(self.soft_drop),
            "hold_down_points" => json!(self.hold_down_points),
            "level" => json!(self.level),
            "start_level" => json!(self.start_level),
            "lines" => json!(bcd_value(&self.lines_bcd)),
            "lines_bcd" => json!(format!(
                "{:02X}{:02X}",
                self.lines_bcd[1], self.lines_bcd[0]
            )),
            "score" => json!(bcd_value(&self.score_bcd)),
            "score_bcd" => json!(format!(
                "{:02X}{:02X}{:02X}",
                self.score_bcd[2], self.score_bcd[1], self.score_bcd[0]
            )),
            "rng" => json!(self.rng),
            "spawn_id" => json!(self.spawn_id),
            "spawn_count" => json!(self.spawn_count),
            "frame_counter" => json!(self.frame_counter),
            "held" => json!(self.held),
            "newly" => json!(self.newly),
            "vram_row" => json!(self.vram_row),
            "completed_lines" => json!(self.completed_lines),
            "row_y" => json!(self.row_y),
            "curtain_row" => json!(self.curtain_row),
            "active_matches_p1" => json!(self.active_matches_p1),
            "field" => rows(2..22),
            "hidden" => rows(0..2),
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
    pub field: String,
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

/// Builds the model from a trace line (the state at the end of that frame).
pub fn game_from_line(line: &Map<String, Value>) -> Result<Game, StartError> {
    let mut field = Playfield::new();
    let hidden = get_rows(line, "hidden", 2)?;
    let visible = get_rows(line, "field", 20)?;
    for (r, row) in hidden.iter().chain(visible.iter()).enumerate() {
        for (c, ch) in row.chars().enumerate() {
            field.set(r as i16 - 2, c as i16, tile_from_char(ch));
        }
    }
    let play_state = get_u8(line, "play_state")?;
    let play_state = PlayState::from_u8(play_state).ok_or_else(|| StartError {
        field: "play_state".into(),
        reason: format!("{play_state} is not a play state"),
    })?;
    let held = PadState(get_u8(line, "held")?);
    let game_mode_state = line
        .get("game_mode_state")
        .and_then(Value::as_u64)
        .unwrap_or(2) as u8;
    let wait = match game_mode_state {
        7 => Wait::QuirkNmi,
        4 => Wait::Ending,
        _ => Wait::None,
    };
    let rng = get_u64(line, "rng")?;
    let frame_counter = get_u64(line, "frame_counter")?;
    let game = Game {
        field,
        active: Active {
            x: get_u8(line, "x")?,
            y: get_u8(line, "y")?,
            id: get_u8(line, "piece")?,
            fall_timer: get_u8(line, "fall_timer")?,
            das: get_u8(line, "das")?,
            ary: get_u8(line, "soft_drop")?,
            hold_down_points: get_u8(line, "hold_down_points")?,
        },
        play_state,
        next: get_u8(line, "next")?,
        level: get_u8(line, "level")?,
        start_level: get_u8(line, "start_level")?,
        lines: get_hex::<2>(line, "lines_bcd")?,
        score: get_hex::<3>(line, "score_bcd")?,
        picker: Picker {
            rng: u16::try_from(rng).map_err(|_| StartError {
                field: "rng".into(),
                reason: "does not fit 16 bits".into(),
            })?,
            spawn_id: get_u8(line, "spawn_id")?,
            spawn_count: get_u8(line, "spawn_count")?,
        },
        frame_counter: u16::try_from(frame_counter).map_err(|_| StartError {
            field: "frame_counter".into(),
            reason: "does not fit 16 bits".into(),
        })?,
        held,
        newly: PadState(get_u8(line, "newly")?),
        vram_row: get_u8(line, "vram_row")?,
        completed_lines: get_u8(line, "completed_lines")?,
        completed_rows: [0; 4],
        line_index: 0,
        row_y: get_u8(line, "row_y")?,
        curtain_row: get_u8(line, "curtain_row")?,
        game_mode_state,
        wait,
    };
    if game.active.id > 0x13 {
        return Err(StartError {
            field: "piece".into(),
            reason: format!("{} is not an orientation id", game.active.id),
        });
    }
    Ok(game)
}
