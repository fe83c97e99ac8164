//! One game of a cartridge batch as the summary and a resumed batch read it: what the batch
//! plays to (`BatchSpec`), the menu wait that deals the game, how it ended and its figures.

use serde::{Deserialize, Serialize};

use crate::lab::Until;
use crate::nes::driver::RunAheadCounts;
use crate::nes::Poke;
use crate::search::follow::Crash;

/// Frames between the menu waits of consecutive games: about a second, so that the games'
/// first pieces and every spawn after them fall on other RNG states.
pub const WAIT_STEP: u32 = 61;

/// The frames game `game` (1-based) waits on the level menu before its start press.
pub fn menu_wait(game: u32) -> u32 {
    game.saturating_sub(1).saturating_mul(WAIT_STEP)
}

/// What every game of a batch plays to, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchSpec {
    /// A-type start level (0-19).
    pub level: u8,
    /// Where each game stops (besides its top-out, crash or hang).
    pub until: Until,
    /// The run-ahead check from this level (`None`: off, as on a console or in FCEUX).
    pub run_ahead_from: Option<u8>,
    /// The run-ahead only counts, never plans again (`Driver::set_run_ahead_watch`): the
    /// games are the ones played without it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run_ahead_watch: bool,
    /// Frames after which a game is stopped (`None`: no limit).
    pub frame_limit: Option<u64>,
    /// The profile's name, so that a resumed batch plays on with the same player.
    pub profile: String,
    /// Each game put at this level at its first frame of play (`cartridge::start`); `None`: played
    /// from the start level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_level: Option<u8>,
}

impl std::fmt::Display for BatchSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "start level {}, ", self.level)?;
        if let Some(l) = self.from_level {
            write!(f, "put at level {l} at the first frame of play, ")?;
        }
        write!(f, "until {}, ", self.until)?;
        match self.run_ahead_from {
            Some(l) if self.run_ahead_watch => {
                write!(f, "run-ahead from level {l} watching (every plan kept), ")?
            }
            Some(l) => write!(f, "run-ahead from level {l}, ")?,
            None => write!(f, "no run-ahead, ")?,
        }
        if let Some(n) = self.frame_limit {
            write!(f, "at most {n} frames, ")?;
        }
        write!(f, "profile {}", self.profile)
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// It reached the batch's `until`.
    Reached,
    /// The game topped out (the curtain started).
    ToppedOut,
    /// The cartridge crashed, hung or fell into the demo (`crash` says which and where).
    Crashed,
    /// The frame limit.
    Stopped,
    /// Ctrl-C or SIGTERM: the game is played again when the batch is resumed.
    Interrupted,
    /// The driver or the console failed (the message).
    Failed(String),
}

/// One game of a batch, as the summary and a resumed batch read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based index in the batch; it fixes the menu wait.
    pub game: u32,
    /// Frames waited on the level menu before the start press ([`menu_wait`]).
    pub menu_wait: u32,
    /// How the game ended.
    pub end: GameEnd,
    /// Score at the end.
    pub score: u32,
    /// Lines at the end.
    pub lines: u32,
    /// The level at the end (after a rebirth, counted from 0 again).
    pub level: u8,
    /// Pieces locked.
    pub pieces: u32,
    /// Frames where the piece left the plan.
    pub desyncs: u32,
    /// How and where the cartridge stopped, when it did.
    pub crash: Option<Crash>,
    /// The highest level shown before any roll-over.
    pub peak_level: u8,
    /// Lines when the level rolled over from 255 to 0.
    pub lines_at_rebirth: Option<u32>,
    /// Console frames run from power-on, the menus included (one pad each).
    pub frames: u64,
    /// Wall-clock time the game took, in seconds.
    pub seconds: f64,
    /// What the run-ahead check counted in this game.
    pub run_ahead: RunAheadCounts,
    /// The spec the game was played under.
    pub spec: BatchSpec,
    /// The RAM written at the first frame of play (`spec.from_level`); a replay writes it too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poke: Option<Poke>,
}

impl GameRecord {
    /// Whether the game reached `level` (a rebirth reaches every level).
    pub fn reached(&self, level: u8) -> bool {
        self.lines_at_rebirth.is_some() || self.peak_level >= level
    }

    /// Finished: not to be played again by a resumed batch.
    pub fn is_final(&self) -> bool {
        !matches!(self.end, GameEnd::Interrupted)
    }
}
