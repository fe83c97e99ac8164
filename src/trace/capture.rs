//! Capturing a RAM trace from a replay: which frames to write (the whole movie, or the first
//! game as the cartridge traces do), which fields, and the header that says how it was made.

use std::ops::ControlFlow;
use std::path::Path;

use serde_json::{json, Map, Value};

use super::file::{TraceError, TraceWriter};
use super::record::{FrameRecord, FIELDS};
use crate::game::PlayState;
use crate::movie::{Replay, ReplayEnd, ReplayError, ReplayFrame};
use crate::nes::addresses::AddressMap;
use crate::nes::console::Console;
use crate::nes::modes::{
    GAME_MODE_PLAY, GMS_INIT as STATE_INIT, GMS_PLAY as STATE_PLAYING,
    RENDER_MODE_PLAY as RENDER_PLAY,
};
use crate::nes::observe::RamSnapshot;
/// `playState` 1: a piece under control.
const PLAY_STATE_CONTROL: u8 = PlayState::Control as u8;
/// `playState` 0 ends the game (handleGameOver); above 10 is not a play state.
const PLAY_STATE_ENDED: u8 = PlayState::Ended as u8;
const PLAY_STATE_MAX: u8 = PlayState::Curtain as u8;

/// Which frames of the replay become trace lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureSpan {
    /// Every replayed frame, from power-on (menus included).
    Movie,
    /// The first game, framed as the cartridge traces are: the game's first game-loop frame
    /// (the one after `initGameState`) is run but not written, `t = 0` is the frame after it,
    /// and writing stops before the first frame that leaves the play screen (the game ended,
    /// high-score entry, ending) or at the movie's end. The rules model can follow such a
    /// trace, so `nestor trace verify` checks it.
    FirstGame,
}

impl CaptureSpan {
    /// The span's name in the trace header (`movie`, `first_game`).
    pub fn name(self) -> &'static str {
        match self {
            CaptureSpan::Movie => "movie",
            CaptureSpan::FirstGame => "first_game",
        }
    }
}

/// Why a capture cannot be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// `--fields` names fields the schema does not have.
    #[error("unknown trace field(s) {unknown}; the fields are: {valid}")]
    UnknownFields {
        /// The unknown names, quoted and comma-separated.
        unknown: String,
        /// Every field of the schema, comma-separated.
        valid: String,
    },
    /// `--fields` names no field at all.
    #[error("--fields names no field; give some of: {valid} (or leave it out for all)")]
    NoFields {
        /// Every field of the schema, comma-separated.
        valid: String,
    },
    /// A first-game capture of a movie that never starts an A-type game.
    #[error(
        "the movie never starts an A-type game ({frames} frames replayed), so there is no \
         game to trace"
    )]
    NoGame {
        /// Frames replayed.
        frames: usize,
    },
    /// The movie holds only its lead frame.
    #[error("the movie has no frames after its lead frame: nothing to trace")]
    EmptyMovie,
    /// The movie could not be replayed.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The trace file could not be written.
    #[error(transparent)]
    Trace(#[from] TraceError),
}

/// Checks `--fields` names against the schema; `None` keeps every field. An empty list (or
/// only blanks, as `--fields ""` gives) names no field and is refused too.
pub fn check_fields(fields: Option<&[String]>) -> Result<(), CaptureError> {
    let Some(fields) = fields else {
        return Ok(());
    };
    if fields.iter().all(|f| f.trim().is_empty()) {
        return Err(CaptureError::NoFields {
            valid: FIELDS.join(", "),
        });
    }
    let unknown: Vec<String> = fields
        .iter()
        .filter(|f| !FIELDS.contains(&f.as_str()))
        .map(|f| format!("`{f}`"))
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(CaptureError::UnknownFields {
            unknown: unknown.join(", "),
            valid: FIELDS.join(", "),
        })
    }
}

/// Where a `FirstGame` capture stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the game: waiting for the frame that ran `initGameState`.
    Menus,
    /// The init frame has ended; the next logic frame is the untraced first one.
    Init,
    /// The untraced first game-loop frame has run: write from the next frame.
    Writing,
    Done,
}

/// Turns replayed frames into trace lines.
#[derive(Debug)]
pub struct TraceCapture {
    map: AddressMap,
    span: CaptureSpan,
    fields: Option<Vec<String>>,
    phase: Phase,
    t: u64,
}

impl TraceCapture {
    /// A capture of `span` through `map`, writing `fields` (`None`: every field); the names
    /// are checked against the schema.
    pub fn new(
        map: AddressMap,
        span: CaptureSpan,
        fields: Option<Vec<String>>,
    ) -> Result<TraceCapture, CaptureError> {
        check_fields(fields.as_deref())?;
        Ok(TraceCapture {
            map,
            span,
            fields,
            phase: match span {
                CaptureSpan::Movie => Phase::Writing,
                CaptureSpan::FirstGame => Phase::Menus,
            },
            t: 0,
        })
    }

    /// Lines written so far.
    pub fn lines(&self) -> u64 {
        self.t
    }

    /// Whether a `FirstGame` capture has finished its game (later frames are not needed).
    pub fn done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The trace line for `frame`, if it is one to write; `Break` once nothing more will be.
    pub fn line(&mut self, frame: &ReplayFrame<'_>) -> ControlFlow<(), Option<Map<String, Value>>> {
        let s = RamSnapshot::read(frame.ram, &self.map);
        if self.span == CaptureSpan::FirstGame {
            let in_game = s.game_mode == GAME_MODE_PLAY;
            match self.phase {
                Phase::Menus | Phase::Init if in_game && s.game_mode_state == STATE_INIT => {
                    self.phase = Phase::Init;
                    return ControlFlow::Continue(None);
                }
                Phase::Init
                    if in_game
                        && s.game_mode_state == STATE_PLAYING
                        && s.play_state == PLAY_STATE_CONTROL =>
                {
                    self.phase = Phase::Writing;
                    return ControlFlow::Continue(None);
                }
                Phase::Menus | Phase::Init => return ControlFlow::Continue(None),
                Phase::Writing => {
                    let playing = in_game
                        && s.render_mode == RENDER_PLAY
                        && s.play_state != PLAY_STATE_ENDED
                        && s.play_state <= PLAY_STATE_MAX;
                    if !playing {
                        self.phase = Phase::Done;
                        return ControlFlow::Break(());
                    }
                }
                Phase::Done => return ControlFlow::Break(()),
            }
        }
        let record = FrameRecord::from_snapshot(&s, frame.frame, self.t, frame.pad);
        self.t += 1;
        ControlFlow::Continue(Some(record.to_json(self.fields.as_deref())))
    }

    /// The header object: what recorded the trace and how, in the cartridge traces' spirit
    /// (`note`, `rom`, `emulator`, `tool`, `format`) plus the movie and the span.
    pub fn header(&self, note: &str, rom: &str, movie: &str, movie_frames: usize) -> Value {
        let fields: Vec<&str> = match &self.fields {
            Some(f) => FIELDS
                .iter()
                .copied()
                .filter(|n| *n == "t" || f.iter().any(|x| x == n))
                .collect(),
            None => FIELDS.to_vec(),
        };
        json!({
            "note": note,
            "rom": rom,
            "emulator": "tetanes-core 0.17, NTSC, power-on RAM fill zeros",
            "tool": format!("nestor {}", env!("CARGO_PKG_VERSION")),
            "format": "nes-probe trace",
            "movie": movie,
            "movie_frames": movie_frames,
            "span": self.span.name(),
            "fields": fields,
        })
    }
}

/// Replays `replay` on `console` (freshly powered on) and writes the trace to `out`
/// (gzip when it ends in `.gz`): the header line, then one line per captured frame.
/// `on_frame` sees every replayed frame and may stop the replay (`Break`, e.g. on Ctrl-C):
/// the trace then holds every frame up to there and is complete and valid all the same.
/// The file appears only when complete (see `TraceWriter`). Returns the replay's end and the
/// number of frame lines.
pub fn capture_to_file<C: Console + ?Sized>(
    replay: &Replay,
    console: &mut C,
    mut capture: TraceCapture,
    out: &Path,
    header: &Value,
    mut on_frame: impl FnMut(&ReplayFrame<'_>) -> ControlFlow<()>,
) -> Result<(ReplayEnd, u64), CaptureError> {
    let mut writer = TraceWriter::create(out, header)?;
    let mut failed = None;
    let end = replay.run(console, |frame| {
        on_frame(frame)?;
        match capture.line(frame) {
            ControlFlow::Continue(Some(line)) => match writer.write_line(&line) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            },
            ControlFlow::Continue(None) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(()),
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if capture.lines() == 0 {
        // A header-only file is not a trace (`read_trace` refuses it): none is written, and
        // the error says why.
        drop(writer);
        return Err(match capture.span {
            CaptureSpan::Movie => CaptureError::EmptyMovie,
            CaptureSpan::FirstGame => CaptureError::NoGame { frames: end.frames },
        });
    }
    writer.finish()?;
    Ok((end, capture.lines()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_are_listed_with_the_valid_ones() {
        assert!(check_fields(None).is_ok());
        assert!(check_fields(Some(&["score".into(), "field".into()])).is_ok());
        let e = check_fields(Some(&["score".into(), "scroe".into(), "zz".into()]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`scroe`, `zz`"), "{e}");
        assert!(e.contains("frame, t, input"), "{e}");
        for empty in [vec![], vec![String::new()], vec![" ".into(), String::new()]] {
            let e = check_fields(Some(&empty)).unwrap_err().to_string();
            assert!(e.contains("names no field"), "{e}");
        }
        let e = check_fields(Some(&["score".into(), String::new()])).unwrap_err();
        assert!(e.to_string().contains("``"), "{e}");
    }

    /// RAM whose game fields say `mode`, `state`, `play`, on the play screen.
    fn ram(mode: u8, state: u8, play: u8) -> Vec<u8> {
        let map = AddressMap::default();
        let mut r = vec![0u8; 0x800];
        r[usize::from(map.game_mode)] = mode;
        r[usize::from(map.game_mode_state)] = state;
        r[usize::from(map.play_state)] = play;
        r[usize::from(map.render_mode)] = RENDER_PLAY;
        r
    }

    #[test]
    fn first_game_skips_the_init_and_first_frames_and_stops_after_the_game() {
        let mut c = TraceCapture::new(AddressMap::default(), CaptureSpan::FirstGame, None).unwrap();
        let rams = [
            ram(3, 0, 0),  // level menu
            ram(4, 0, 0),  // play screen loading
            ram(4, 1, 1),  // initGameState
            ram(4, 2, 1),  // first game-loop frame: not written
            ram(4, 2, 1),  // t = 0
            ram(4, 2, 10), // t = 1, curtain
            ram(4, 2, 0),  // the game ended: not written, stop
            ram(4, 2, 1),
        ];
        let mut out = Vec::new();
        for (i, r) in rams.iter().enumerate() {
            let f = ReplayFrame {
                index: i,
                frame: i as u64 + 1,
                pad: crate::game::PadState::NONE,
                ram: r,
            };
            match c.line(&f) {
                ControlFlow::Continue(Some(line)) => out.push(line),
                ControlFlow::Continue(None) => {}
                ControlFlow::Break(()) => break,
            }
        }
        let frames: Vec<_> = out
            .iter()
            .map(|l| (l["frame"].clone(), l["t"].clone()))
            .collect();
        assert_eq!(frames, vec![(json!(5), json!(0)), (json!(6), json!(1))]);
        assert!(c.done());
    }
}
