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
    Spawned {
        /// The piece that spawned.
        piece: Piece,
    },
    /// The piece locked in this frame at (x, y, orientation id).
    Locked {
        /// Pivot column.
        x: u8,
        /// Pivot row, −2..19 as a wrapping `u8`.
        y: u8,
        /// Orientation id ($00-$12).
        id: u8,
    },
    /// The piece is not where the plan said at the end of frame `frame` (`expected` is
    /// `None` when the plan had run out). Already re-planned from the observed state.
    Desync {
        /// Frames since power-on at the end of which the piece was off the plan.
        frame: u64,
        /// Where the plan put the piece; `None` when it had run out.
        expected: Option<Pos>,
        /// Where RAM shows the piece; `None` when it shows none.
        observed: Option<Pos>,
        /// The frame whose end state the broken plan was made from.
        planned_at: u64,
    },
    /// The game topped out in this frame (the curtain starts). Score, lines and level as RAM
    /// shows them; the driver then heads back to the level menu.
    GameOver {
        /// Score as RAM shows it (BCD decoded).
        score: u32,
        /// Lines as RAM shows them (BCD decoded).
        lines: u32,
        /// `levelNumber` as RAM shows it.
        level: u8,
    },
    /// The cartridge stopped playing: its frame counter stopped (a crash) or only the NMI's
    /// work went on for long (a hang), from frame `frame` on; the game is over and the console
    /// plays no more (the next `step` is an error).
    Crashed {
        /// How it stopped: a crash (frame counter stopped), a hang, or a fall into the demo.
        kind: CrashKind,
        /// Frames since power-on at the last frame that moved.
        frame: u64,
        /// `levelNumber` when it stopped.
        level: u8,
        /// Lines when it stopped (BCD decoded).
        lines: u32,
        /// Score when it stopped (BCD decoded).
        score: u32,
    },
}

/// Why the driver stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DriverError {
    /// The console failed.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The menus could not be navigated.
    #[error("menu navigation failed: {0}")]
    Menu(#[from] MenuError),
    /// The menus started a game but RAM never showed it ready to play (a B-type game, a
    /// wrong address map or cartridge).
    #[error(
        "the game did not become playable within {frames} frames of leaving the menus{}",
        if problems.is_empty() { String::new() } else { format!(": {}", problems.join("; ")) }
    )]
    NotStarting {
        /// Frames waited after the menus.
        frames: u32,
        /// Why RAM is not a game in progress on the last frame (empty when nothing is wrong).
        problems: Vec<String>,
    },
    /// The game stopped: RAM stayed frozen, or stopped describing a game, for
    /// `FREEZE_FRAMES` frames (the cartridge crashed, or the emulator hangs).
    #[error(
        "the game froze at frame {frame}: {what} for {frames} frames; it stood at level {level}, \
         {lines} lines, score {score}"
    )]
    Frozen {
        /// Frames since power-on when the driver gave up.
        frame: u64,
        /// What was seen ("the frame counter stopped").
        what: String,
        /// Frames it stayed so.
        frames: u32,
        /// `levelNumber` when it stopped.
        level: u8,
        /// Lines when it stopped (BCD decoded).
        lines: u32,
        /// Score when it stopped (BCD decoded).
        score: u32,
    },
    /// RAM during play does not describe a game: a wrong address map or a wrong cartridge.
    #[error("at frame {frame}: {source}")]
    Snapshot {
        /// Frames since power-on of the snapshot.
        frame: u64,
        /// The fields RAM got wrong.
        #[source]
        source: SnapshotError,
    },
}

/// Counts for the current game and for the whole run: the follower's tally.
pub type GameCounts = crate::search::follow::Tally;
