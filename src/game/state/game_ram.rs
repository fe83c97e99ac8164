//! The cartridge's game state as plain data (`Game`: every RAM quantity the play logic reads
//! or writes); the frame logic that steps it lives in `state.rs` and its children.

use super::play_state::PlayState;
use super::wait::Wait;
use crate::game::active::Active;
use crate::game::crash::CrashKind;
use crate::game::pad::PadState;
use crate::game::playfield::Playfield;
use crate::game::rng::Picker;

/// The cartridge's game state: every RAM quantity the play logic reads or writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The $0400 page.
    pub field: Playfield,
    /// The piece and its counters ($60-$62, $65, $66, $6E, $6F).
    pub active: Active,
    /// `playState` ($68).
    pub play_state: PlayState,
    /// Spawn-orientation id of the next piece ($BF).
    pub next: u8,
    /// `levelNumber` ($64), binary.
    pub level: u8,
    /// The level chosen on the menu ($67).
    pub start_level: u8,
    /// BCD lines, [$70, $71].
    pub lines: [u8; 2],
    /// BCD score, [$73, $74, $75].
    pub score: [u8; 3],
    /// RNG ($17-$18), spawn id ($19), spawn count ($1A).
    pub picker: Picker,
    /// $B1-$B2.
    pub frame_counter: u16,
    /// Buttons polled this frame ($F7) and newly pressed ($F5).
    pub held: PadState,
    /// Buttons down this frame that were up the frame before ($F5).
    pub newly: PadState,
    /// $69: next playfield row the NMI copies; 32 when done.
    pub vram_row: u8,
    /// $76.
    pub completed_lines: u8,
    /// $6A-$6D.
    pub completed_rows: [u8; 4],
    /// $77.
    pub line_index: u8,
    /// $72: line-clear animation step.
    pub row_y: u8,
    /// $78: curtain progress.
    pub curtain_row: u8,
    /// $A7 at the frame end: 2, 7 (the $07 quirk) or 4 (the ending's wait).
    pub game_mode_state: u8,
    /// Where the main loop is parked between NMIs.
    pub wait: Wait,
    /// Set once the cartridge has crashed or hung: no frame changes the game any more.
    pub crashed: Option<CrashKind>,
    /// `displayNextPiece` ($DF): 0 shows the next-piece preview; a new Select press toggles
    /// bit 0. Hidden, the play-state-5 frame skips the preview's sprite staging
    /// ([`PREVIEW_STAGING`](crate::game::timing::PREVIEW_STAGING)).
    pub display_next_piece: u8,
}
