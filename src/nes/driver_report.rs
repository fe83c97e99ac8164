//! What the driver reports: each frame's `Step`, the per-game and per-run counts, and the
//! errors that stop it.

use super::console::ConsoleError;
use super::menu::MenuError;
use super::observe::SnapshotError;
use crate::game::piece::Piece;
use crate::game::{CrashKind, Pos};

/// What one frame did. The pad pressed in it is `Driver::last_pad`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A menu frame (power-on, level menu, or the game over / high-score screens).
    Menu,
    /// A play frame with nothing to report.
    Playing,
    /// This frame ended with a new piece under control (the spawn frame); it is planned.
    Spawned { piece: Piece },
    /// The piece locked in this frame at (x, y, orientation id).
    Locked { x: u8, y: u8, id: u8 },
    /// The piece is not where the plan said at the end of frame `frame` (`expected` is
    /// `None` when the plan had run out). Already re-planned from the observed state.
    Desync {
        frame: u64,
        expected: Option<Pos>,
        observed: Pos,
        /// The frame whose end state the broken plan was made from.
        planned_at: u64,
    },
    /// The game topped out in this frame (the curtain starts). Score, lines and level as RAM
    /// shows them; the driver then heads back to the level menu.
    GameOver { score: u32, lines: u32, level: u8 },
    /// The cartridge stopped playing: its frame counter stopped (a crash) or only the NMI's
    /// work went on for long (a hang), from frame `frame` on; the game is over and the console
    /// plays no more (the next `step` is an error).
    Crashed {
        kind: CrashKind,
        frame: u64,
        level: u8,
        lines: u32,
        score: u32,
    },
}

/// Why the driver stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DriverError {
    #[error(transparent)]
    Console(#[from] ConsoleError),
    #[error("menu navigation failed: {0}")]
    Menu(#[from] MenuError),
    /// The menus started a game but RAM never showed it ready to play (a B-type game, a
    /// wrong address map or cartridge).
    #[error(
        "the game did not become playable within {frames} frames of leaving the menus{}",
        if problems.is_empty() { String::new() } else { format!(": {}", problems.join("; ")) }
    )]
    NotStarting { frames: u32, problems: Vec<String> },
    /// The game stopped: RAM stayed frozen, or stopped describing a game, for
    /// `FREEZE_FRAMES` frames (the cartridge crashed, or the emulator hangs).
    #[error(
        "the game froze at frame {frame}: {what} for {frames} frames; it stood at level {level}, \
         {lines} lines, score {score}"
    )]
    Frozen {
        frame: u64,
        what: String,
        frames: u32,
        level: u8,
        lines: u32,
        score: u32,
    },
    /// RAM during play does not describe a game: a wrong address map or a wrong cartridge.
    #[error("at frame {frame}: {source}")]
    Snapshot {
        frame: u64,
        #[source]
        source: SnapshotError,
    },
}

/// Counts for the current game and for the whole run: the follower's tally.
pub type GameCounts = crate::search::follow::Tally;
