//! The game's state as bytes and as trace lines (the format of tests/fixtures/traces).

use nestor::game::active::Active;
use nestor::game::crash::CrashKind;
use nestor::game::pad::PadState;
use nestor::game::piece::{Piece, HIDDEN_ID};
use nestor::game::playfield::Playfield;
use nestor::game::rng::Picker;
use nestor::game::state::{Game, LegalWait, PlayState, ShownBlock, Wait};
use nestor::trace::record::{game_from_line, FrameRecord};

use super::*;

// ---- state bytes ----

// NST4: the progress's last two bytes are the last tap's frame + 1 (0: none), not a tap count.
const MAGIC: &[u8; 4] = b"NST4";
/// Magic, the $0400 page, 36 bytes of counters, 9 of the player block a lag frame shows,
/// `displayNextPiece` ($DF), 3 of piece progress.
pub const STATE_BYTES: usize = 4 + 256 + 36 + 9 + 1 + 5;

pub fn to_bytes(t: &Tracked) -> Vec<u8> {
    let g = &t.game;
    let mut b = Vec::with_capacity(STATE_BYTES);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&g.field.page);
    let a = g.active;
    b.extend_from_slice(&[
        a.x,
        a.y,
        a.id,
        a.fall_timer,
        a.das,
        a.ary,
        a.hold_down_points,
    ]);
    b.extend_from_slice(&[g.play_state as u8, g.next, g.level, g.start_level]);
    b.extend_from_slice(&g.lines);
    b.extend_from_slice(&g.score);
    b.extend_from_slice(&g.picker.rng.to_le_bytes());
    b.extend_from_slice(&[g.picker.spawn_id, g.picker.spawn_count]);
    b.extend_from_slice(&g.frame_counter.to_le_bytes());
    b.extend_from_slice(&[g.held.bits(), g.newly.bits(), g.vram_row, g.completed_lines]);
    b.extend_from_slice(&g.completed_rows);
    b.extend_from_slice(&[g.line_index, g.row_y, g.curtain_row, g.game_mode_state]);
    let wait = match g.wait {
        Wait::None => 0,
        Wait::QuirkNmi => 1,
        Wait::Ending => 2,
        Wait::Lag(None) => 3,
        Wait::Lag(Some(_)) => 4,
        Wait::Confetti => 5,
        Wait::Crashing(false) => 6,
        Wait::Crashing(true) => 7,
        Wait::LagTwice(_) => 8,
        Wait::LegalScreen(_) => 9,
    };
    let crashed = match g.crashed {
        None => 0,
        Some(CrashKind::Crash) => 1,
        Some(CrashKind::Hang) => 2,
        Some(CrashKind::Demo) => 3,
    };
    b.extend_from_slice(&[wait, crashed]);
    // The legal screen's counters take the shown block's first three bytes (never both).
    if let Wait::LegalScreen(w) = g.wait {
        b.extend_from_slice(&[w.lead, w.sleep, w.general, 0, 0, 0, 0, 0, 0]);
        b.push(g.display_next_piece);
        b.extend_from_slice(&t.piece_frames.to_le_bytes());
        b.push(t.piece_pressed);
        b.extend_from_slice(&last_tap_bytes(t.piece_last_tap));
        debug_assert_eq!(b.len(), STATE_BYTES);
        return b;
    }
    let shown = match g.wait {
        Wait::Lag(Some(s)) | Wait::LagTwice(s) => s,
        _ => ShownBlock {
            play_state: PlayState::Ended,
            level: 0,
            lines: [0; 2],
            score: [0; 3],
            completed_lines: 0,
            hold_down_points: 0,
        },
    };
    b.extend_from_slice(&[shown.play_state as u8, shown.level]);
    b.extend_from_slice(&shown.lines);
    b.extend_from_slice(&shown.score);
    b.extend_from_slice(&[shown.completed_lines, shown.hold_down_points]);
    b.push(g.display_next_piece);
    // The piece-progress bytes stay last: they are the wrapper's own bookkeeping.
    b.extend_from_slice(&t.piece_frames.to_le_bytes());
    b.push(t.piece_pressed);
    b.extend_from_slice(&last_tap_bytes(t.piece_last_tap));
    debug_assert_eq!(b.len(), STATE_BYTES);
    b
}

/// The last tap's frame + 1, 0 for none (frames are below `u16::MAX`: a piece locks long before).
fn last_tap_bytes(last_tap: Option<u16>) -> [u8; 2] {
    last_tap.map_or(0, |f| f.saturating_add(1)).to_le_bytes()
}

pub fn from_bytes(b: &[u8]) -> Result<Tracked, String> {
    if b.len() != STATE_BYTES || &b[..4] != MAGIC {
        return Err(format!(
            "not a nestor game state: expected {STATE_BYTES} bytes starting with {:?}, got {} bytes",
            std::str::from_utf8(MAGIC).unwrap_or(""),
            b.len()
        ));
    }
    let mut page = [0u8; 256];
    page.copy_from_slice(&b[4..260]);
    let r = &b[260..];
    let u16_at = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
    let play_state =
        PlayState::from_u8(r[7]).ok_or_else(|| format!("bad play state {} in the state", r[7]))?;
    let wait = match r[34] {
        0 => Wait::None,
        1 => Wait::QuirkNmi,
        2 => Wait::Ending,
        3 => Wait::Lag(None),
        4 | 8 => {
            let shown = ShownBlock {
                play_state: PlayState::from_u8(r[36])
                    .ok_or_else(|| format!("bad shown play state {} in the state", r[36]))?,
                level: r[37],
                lines: [r[38], r[39]],
                score: [r[40], r[41], r[42]],
                completed_lines: r[43],
                hold_down_points: r[44],
            };
            if r[34] == 4 {
                Wait::Lag(Some(shown))
            } else {
                Wait::LagTwice(shown)
            }
        }
        5 => Wait::Confetti,
        6 => Wait::Crashing(false),
        7 => Wait::Crashing(true),
        9 => Wait::LegalScreen(LegalWait {
            lead: r[36],
            sleep: r[37],
            general: r[38],
        }),
        v => return Err(format!("bad wait {v} in the state")),
    };
    let crashed = match r[35] {
        0 => None,
        1 => Some(CrashKind::Crash),
        2 => Some(CrashKind::Hang),
        3 => Some(CrashKind::Demo),
        v => return Err(format!("bad crash kind {v} in the state")),
    };
    // The model indexes its cell tables by these ids: anything else is not a state it made.
    if r[2] > HIDDEN_ID {
        return Err(format!(
            "bad piece orientation id {:#04x} in the state",
            r[2]
        ));
    }
    if Piece::from_spawn_id(r[8]).is_none() {
        return Err(format!("bad next piece id {:#04x} in the state", r[8]));
    }
    let game = Game {
        field: Playfield { page },
        active: Active {
            x: r[0],
            y: r[1],
            id: r[2],
            fall_timer: r[3],
            das: r[4],
            ary: r[5],
            hold_down_points: r[6],
        },
        play_state,
        next: r[8],
        level: r[9],
        start_level: r[10],
        lines: [r[11], r[12]],
        score: [r[13], r[14], r[15]],
        picker: Picker {
            rng: u16_at(16),
            spawn_id: r[18],
            spawn_count: r[19],
        },
        frame_counter: u16_at(20),
        held: PadState(r[22]),
        newly: PadState(r[23]),
        vram_row: r[24],
        completed_lines: r[25],
        completed_rows: [r[26], r[27], r[28], r[29]],
        line_index: r[30],
        row_y: r[31],
        curtain_row: r[32],
        game_mode_state: r[33],
        wait,
        crashed,
        display_next_piece: r[45],
    };
    Ok(Tracked {
        game,
        piece_frames: u16_at(46),
        piece_pressed: r[48],
        piece_last_tap: u16_at(49).checked_sub(1),
    })
}

// ---- traces ----

/// The model's bytes a trace line leaves out (the row check's work rows, the next-piece
/// display flag the traces keep only in `ram`, the piece's progress): written beside the
/// trace's own fields so that `from_trace_line(trace_record(g)) == g`.
const EXTRA: &str = "nestor";

/// The trace line (tests/fixtures/traces format) of the game as it stands after a frame.
pub fn trace_record(t: &Tracked, input: u8) -> String {
    let rec = FrameRecord::from_game(&t.game, 0, 0, PadState(input));
    let mut map = rec.to_json(None);
    let g = &t.game;
    map.insert(
        EXTRA.into(),
        serde_json::json!({
            "completed_rows": g.completed_rows,
            "line_index": g.line_index,
            "display_next_piece": g.display_next_piece,
            "piece_frames": t.piece_frames,
            "piece_pressed": t.piece_pressed,
            "piece_last_tap": t.piece_last_tap,
        }),
    );
    serde_json::Value::Object(map).to_string()
}

/// A game started from a trace line.
pub fn from_trace_line(json: &str) -> Result<Tracked, String> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("not a JSON trace line: {e}"))?;
    let map = v
        .as_object()
        .ok_or_else(|| "a trace line is a JSON object".to_string())?;
    let game = game_from_line(map).map_err(|e| format!("trace line: {}: {}", e.field, e.reason))?;
    let mut t = Tracked::from_game(game);
    if let Some(extra) = map.get(EXTRA) {
        apply_extra(&mut t, extra).map_err(|e| format!("trace line: {EXTRA}: {e}"))?;
    }
    Ok(t)
}

fn apply_extra(t: &mut Tracked, extra: &serde_json::Value) -> Result<(), String> {
    let num = |key: &str, max: u64| -> Result<u64, String> {
        let v = extra
            .get(key)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| format!("{key} missing or not a number"))?;
        (v <= max)
            .then_some(v)
            .ok_or_else(|| format!("{key} must be at most {max}, got {v}"))
    };
    let rows = extra
        .get("completed_rows")
        .and_then(serde_json::Value::as_array)
        .filter(|a| a.len() == 4)
        .ok_or("completed_rows must be 4 numbers")?;
    for (slot, v) in t.game.completed_rows.iter_mut().zip(rows) {
        *slot = v
            .as_u64()
            .and_then(|v| u8::try_from(v).ok())
            .ok_or("completed_rows must be bytes")?;
    }
    t.game.line_index = num("line_index", 255)? as u8;
    t.game.display_next_piece = num("display_next_piece", 255)? as u8;
    t.piece_frames = num("piece_frames", u64::from(u16::MAX))? as u16;
    t.piece_pressed = num("piece_pressed", 255)? as u8;
    // Lines written before the last tap was kept have a tap count (or, older, nothing): a
    // count above 0 is read as a tap on the frame before, the latest it can have been (an
    // adjustment then waits at least as long as the rule asks).
    t.piece_last_tap = match (extra.get("piece_last_tap"), extra.get("piece_taps")) {
        (Some(v), _) if v.is_null() => None,
        (Some(_), _) => {
            let last = num("piece_last_tap", u64::from(u16::MAX) - 1)? as u16;
            if last >= t.piece_frames {
                return Err(format!(
                    "piece_last_tap {last} must be below piece_frames {}",
                    t.piece_frames
                ));
            }
            Some(last)
        }
        (None, Some(_)) if num("piece_taps", u64::from(u16::MAX))? > 0 => {
            t.piece_frames.checked_sub(1)
        }
        (None, _) => None,
    };
    Ok(())
}
