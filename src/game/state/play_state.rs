//! `playState` ($68): the ten states of one piece's life, in the order the cartridge steps them.
//! Kept apart from the game it drives so the state machine's names read on their own.

/// `playState` ($68).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PlayState {
    /// Game ended (after the curtain and Start).
    Ended = 0,
    /// The player controls the piece.
    Control = 1,
    /// Lock: game-over test, wait for the screen copy, write the piece.
    Lock = 2,
    /// Row check, one row per frame for four frames.
    RowCheck = 3,
    /// Line-clear animation (driven by the NMI).
    LineClear = 4,
    /// Lines, level and points.
    Score = 5,
    /// B-type goal check (A-type: next).
    GoalCheck = 6,
    /// Garbage (1 player: next).
    Garbage = 7,
    /// Spawn the next piece once the screen copy is done.
    Spawn = 8,
    /// Unused no-op state.
    Noop = 9,
    /// Top-out curtain.
    Curtain = 10,
    /// Unused "increment play state".
    Increment = 11,
}

impl PlayState {
    /// The state with value `v`, if it is one of 0-11.
    pub fn from_u8(v: u8) -> Option<PlayState> {
        use PlayState::*;
        Some(match v {
            0 => Ended,
            1 => Control,
            2 => Lock,
            3 => RowCheck,
            4 => LineClear,
            5 => Score,
            6 => GoalCheck,
            7 => Garbage,
            8 => Spawn,
            9 => Noop,
            10 => Curtain,
            11 => Increment,
            _ => return None,
        })
    }

    pub(super) fn next(self) -> PlayState {
        PlayState::from_u8(self as u8 + 1).unwrap_or(PlayState::Ended)
    }
}
