//! The `Reach` search state every kernel shares: the piece's fit masks on a board, the locks
//! found, the kernels' kept frames; one frame over the masks and the recording of its locks.

use crate::game::active::Active;
use crate::game::board::{Board, FULL_ROW};
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::pos::Pos;

use super::hold_sets::HoldSets;
use super::lanes::{shift, turn_and_drop, INPUTS, ROWS};
use super::lock::ReachLock;
use super::shared::Shared;

/// Reusable lock-set search: fit masks and the lock list, allocated once.
pub struct Reach {
    /// `fit[y]` lane s bit x: orientation `ids[s]` fits with its pivot at (x, y).
    pub(super) fit: [u64; ROWS],
    pub(super) ids: [Orientation; 4],
    /// Orientations of the piece: 1 (O), 2 (S, Z, I) or 4.
    pub(super) turns: usize,
    pub(super) locks: Vec<ReachLock>,
    /// The frames of the last few starts on the empty board, up to their first lock: on any
    /// board whose fit masks equal the empty board's down to some row, the frames above that
    /// row are these, so a search resumes from the last of them instead of from the start.
    /// Several starts, so that a caller cycling through the seven pieces (the third-piece
    /// layer) finds each piece's frames kept.
    pub(super) opens: Vec<Open>,
    /// The entry of `opens` the next new start replaces once it is full.
    pub(super) evict: usize,
    /// The per-class sets of `Reach::search_hold`.
    pub(super) hold: HoldSets,
    /// The next pieces' references of `Reach::search_timeline_after`.
    pub(super) shared: Shared,
}

/// Starts kept in [`Reach::opens`]: one per piece and a few more.
pub(super) const OPEN_KEYS: usize = 8;

/// A start's frames on the empty board (see [`Reach::opens`]).
pub(super) struct Open {
    pub(super) key: (Active, PadState, u8),
    pub(super) frames: Vec<Frame>,
    pub(super) fit: [u64; ROWS],
}

/// The search's state at the start of a frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) src: [u64; 9],
    pub(super) cur: [u64; 9],
    pub(super) y: usize,
    pub(super) fall: u8,
    pub(super) frames: u16,
}

impl Default for Reach {
    fn default() -> Self {
        Self::new()
    }
}

impl Reach {
    pub fn new() -> Reach {
        Reach {
            fit: [0; ROWS],
            ids: [Orientation::default(); 4],
            turns: 1,
            locks: Vec::with_capacity(256),
            opens: Vec::with_capacity(OPEN_KEYS),
            evict: 0,
            hold: HoldSets::default(),
            shared: Shared::default(),
        }
    }

    /// Fills the fit masks of the piece of orientation `id` on `board`.
    pub(super) fn build(&mut self, board: &Board, id: u8) {
        let o = Orientation::new(id).expect("checked by the caller");
        // Slot s is the orientation reached by s presses of A from the spawn's slot 0 chain.
        let mut ids = [o; 4];
        let mut turns = 1;
        let mut t = o.cw();
        while t != o {
            ids[turns] = t;
            turns += 1;
            t = t.cw();
        }
        self.ids = ids;
        self.turns = turns;
        // Free columns of board row r (rows past the board: none), padded for y + dy + 2.
        let mut free = [0u16; ROWS + 4];
        for (f, &row) in free.iter_mut().zip(&board.rows) {
            *f = !row & FULL_ROW;
        }
        let mut lanes = [[FULL_ROW; ROWS]; 4];
        for (lane, &so) in lanes.iter_mut().zip(&ids).take(turns) {
            for (dx, dy) in so.cells() {
                let rows = &free[(dy + 2) as usize..];
                for (l, &f) in lane.iter_mut().zip(rows) {
                    *l &= if dx >= 0 {
                        f >> dx
                    } else {
                        (f << -dx) & FULL_ROW
                    };
                }
            }
        }
        for (y, word) in self.fit.iter_mut().enumerate() {
            *word = (0..turns).fold(0, |w, s| w | u64::from(lanes[s][y]) << (16 * s));
        }
    }

    /// One frame from the per-input source sets `src` (input c is pressed on the positions in
    /// `src[c]`) at row `y`; writes the sets after it into `out` and returns the positions that
    /// lock if `gravity` fires this frame (those are not in `out`).
    #[inline(always)]
    pub(super) fn frame<const TURNS: usize>(
        &self,
        src: &[u64; 9],
        y: usize,
        gravity: bool,
        out: &mut [u64; 9],
    ) -> u64 {
        let fit = self.fit[y];
        let below = self.fit[(y + 1).min(ROWS - 1)];
        let mut locked = 0;
        for c in 0..9 {
            let m = src[c];
            if m == 0 {
                out[c] = 0;
                continue;
            }
            let input = INPUTS[c];
            // Shift (Right wins over Left, but they never come together here).
            let (moved, blocked) = shift(m, input, fit);
            out[c] =
                turn_and_drop::<TURNS>(moved | blocked, input, fit, below, gravity, &mut locked);
        }
        locked
    }

    /// Records the positions of `locked` at row `y` not yet in `seen` (the row's locks so far),
    /// reached on frame `frames`.
    #[inline(always)]
    pub(super) fn push_new_locks(&mut self, seen: &mut u64, locked: u64, y: usize, frames: u16) {
        let new = locked & !*seen;
        if new != 0 {
            *seen |= new;
            self.push_locks(new, y, frames);
        }
    }

    fn push_locks(&mut self, mut bits: u64, y: usize, frames: u16) {
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.locks.push(ReachLock {
                at: Pos::new((b % 16) as u8, y as u8, self.ids[b / 16]),
                frames,
            });
        }
    }
}
