//! Where the main loop is parked between two NMIs (`Wait`), and the player block a lag frame
//! still shows (`ShownBlock`): plain data the game state carries from frame to frame.

use super::legal_wait::LegalWait;
use super::play_state::PlayState;
use crate::game::timing;

/// Why the next frame runs only the NMI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wait {
    /// Normal: NMI, then the game logic.
    None,
    /// Held was exactly Down+Left+Right: the next NMI is followed by states 7-8 only.
    QuirkNmi,
    /// Score ≥ 30,000 and the curtain is down: the ending runs (not modelled past its wait).
    Ending,
    /// The last frame's logic missed the NMI (a lag frame): the next NMI is followed by the
    /// game logic again. `Some` when the NMI came before `savePlayer1State` had copied every
    /// byte the frame changed: RAM's player block then shows, for the bytes not yet copied,
    /// the frame's start ([`ShownBlock`]).
    Lag(Option<ShownBlock>),
    /// The last frame's NMI landed in the points loop and wrote 0 into its counter
    /// ([`timing::points_counter_clobbered`]): the next frame runs only the NMI as well, then
    /// [`Wait::Lag`] with the same block shown.
    LagTwice(ShownBlock),
    /// The last frame's NMI landed in the next-piece sprite staging ([`crash::CONFETTI_MODEL`](crate::game::crash::CONFETTI_MODEL)):
    /// only the NMI runs until the frame counter's low byte reaches 255 or a button is held.
    Confetti,
    /// The frame crashed the game ([`Branch::Other`](super::events::Branch::Other) in a dispatch window): the next NMI still
    /// runs, and `gameModeState` then shows one more when `true` ([`crash::crash_shows_next_state`](crate::game::crash::crash_shows_next_state)).
    Crashing(bool),
    /// The crashing frame's jump ran into the legal screen's tail ([`Branch::LegalScreen`](super::events::Branch::LegalScreen)):
    /// only the NMI runs while the tail sleeps and waits for Start, then the demo takes over.
    LegalScreen(LegalWait),
}

/// The player-block bytes play state 5 changes, as RAM shows them at the end of a frame whose
/// logic the NMI interrupted before `savePlayer1State` had copied the working block back to
/// $60 ([`timing::Landing::BeforeSave`], byte by byte: [`timing::saved_before_nmi`]), and on every frame of
/// a hang.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShownBlock {
    /// `playState` ($68).
    pub play_state: PlayState,
    /// `levelNumber` ($64), binary.
    pub level: u8,
    /// BCD lines, [$70, $71].
    pub lines: [u8; 2],
    /// BCD score, [$73, $74, $75].
    pub score: [u8; 3],
    /// Rows the lock completed ($76).
    pub completed_lines: u8,
    /// Soft-drop rows of the locking piece ($6F): 2 or more score points.
    pub hold_down_points: u8,
}

impl ShownBlock {
    /// The block as RAM shows it when the NMI lands after logic `logic` inside
    /// `savePlayer1State`: the bytes the copy has reached show `now`, the others the frame's
    /// start (`self`).
    pub(super) fn partly_saved(self, now: ShownBlock, logic: u32) -> ShownBlock {
        let copied = |addr: u8| timing::saved_before_nmi(logic, addr);
        let mut s = self;
        if copied(0x76) {
            s.completed_lines = now.completed_lines;
        }
        for (i, addr) in [0x73u8, 0x74, 0x75].into_iter().enumerate() {
            if copied(addr) {
                s.score[i] = now.score[i];
            }
        }
        for (i, addr) in [0x70u8, 0x71].into_iter().enumerate() {
            if copied(addr) {
                s.lines[i] = now.lines[i];
            }
        }
        if copied(0x6F) {
            s.hold_down_points = now.hold_down_points;
        }
        if copied(0x68) {
            s.play_state = now.play_state;
        }
        if copied(0x64) {
            s.level = now.level;
        }
        s
    }

    /// The bytes that decide the digits the NMI draws.
    pub(super) fn digits(&self) -> timing::ShownDigits {
        timing::ShownDigits {
            hold_down_points: self.hold_down_points,
            score_low: self.score[0],
            completed_lines: self.completed_lines,
            lines_low: self.lines[0],
        }
    }
}
