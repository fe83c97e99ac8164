//! The per-class sets `Reach::search_hold` moves frame by frame (held input × DAS counter ×
//! directions pressed), and the empty-board frames it keeps per start, which a `Reach` owns.

use crate::game::active::{Active, DAS_RESET};
use crate::movegen::profile::{Rules, Shift};
use crate::movegen::ring::Ring;

use super::lanes::{INPUTS, ROWS};

/// Counter values 0..=16 a class keeps.
pub(super) const DAS_VALUES: usize = DAS_RESET as usize + 1;
/// Classes: held input (the nine `INPUTS`) × DAS counter × directions pressed.
pub(super) const CLASSES: usize = INPUTS.len() * DAS_VALUES * 4;

/// The class of a position: `input` its index in `INPUTS`.
#[inline(always)]
pub(super) fn class(input: usize, das: u8, pressed: u8) -> usize {
    let das = if INPUTS[input] & 0x03 != 0 {
        das as usize
    } else {
        0
    };
    (input * DAS_VALUES + das) * 4 + pressed as usize
}

/// Empty-board searches kept (round robin past that): the next pieces of one decision start
/// with a few counters, the third pieces with none.
pub(super) const OPEN_KEYS: usize = 64;

/// What a search's frames depend on, the board apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OpenKey {
    pub(super) start: Active,
    /// The root holds (the first `n`).
    pub(super) roots: [u8; 3],
    pub(super) n: u8,
    pub(super) speed: u8,
    pub(super) rules: Rules,
}

/// The state before one frame of an empty-board search: its row, fall timer and frame count,
/// and its classes' sets in `Open::sets[at..end]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct OpenFrame {
    pub y: u8,
    pub fall: u8,
    pub frames: u16,
    pub at: u32,
    pub end: u32,
}

/// The frames of one start on the empty board up to its first lock: on a board whose fit
/// masks equal the empty board's down to some row, the frames above that row are these (as
/// `Reach::search` does for taps).
#[derive(Default)]
pub(super) struct Open {
    pub(super) key: Option<OpenKey>,
    pub(super) fit: [u64; ROWS],
    pub(super) frames: Vec<OpenFrame>,
    pub(super) sets: Vec<(u16, u64)>,
}

/// Reusable per-class sets of one frame and the next, with the lists of classes in use, and
/// the empty-board searches kept.
pub(crate) struct HoldSets {
    pub(super) cur: Vec<u64>,
    pub(super) next: Vec<u64>,
    pub(super) live: Vec<u16>,
    pub(super) born: Vec<u16>,
    pub(super) open: Ring<Open>,
}

impl Default for HoldSets {
    /// Empty, so that taking it out of `Reach` for a search costs nothing; sized on first use.
    fn default() -> Self {
        HoldSets {
            cur: Vec::new(),
            next: Vec::new(),
            live: Vec::new(),
            born: Vec::new(),
            open: Ring::default(),
        }
    }
}

impl HoldSets {
    /// The start's classes, one per root hold.
    pub(super) fn seed(&mut self, key: &OpenKey) {
        let pressed = if key.rules.shift == Shift::Hold {
            key.rules.pressed
        } else {
            0
        };
        for &h in &key.roots[..usize::from(key.n)] {
            let input = INPUTS.iter().position(|&c| c == h).expect("checked roots");
            self.add(class(input, key.start.das, pressed), 1u64 << key.start.x);
        }
    }

    #[inline(always)]
    pub(super) fn add(&mut self, k: usize, m: u64) {
        if m != 0 {
            if self.next[k] == 0 {
                self.born.push(k as u16);
            }
            self.next[k] |= m;
        }
    }
}
