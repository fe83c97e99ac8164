//! The lock set of a piece without paths, frame by frame as bit sets: every reachable
//! (x, orientation) of one frame in one `u64`, for the next piece of every current-piece lock.

// Without soft drop the fall timer, and so the row, does not depend on the buttons: every state
// of frame t shares one (y, fall timer), and the states differ only in x, orientation and the
// tapped buttons held. A frame is then a few shifts and ANDs per held-button class on a word
// holding four 16-bit lanes (one per orientation, bit x = column x), against per-row fit masks
// built from the board's bit rows. The lock set equals `Bfs::search`'s under the same move set
// (tested below and by the decision-equality test); lock order and paths are not kept.

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS, FULL_ROW};
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::pos::Pos;
use crate::game::score::minus;

mod hold;
mod resume;
mod timeline;

pub use resume::TimelineStart;

/// Pivot rows with a fit mask (0..=21), plus one always-blocked row below.
const ROWS: usize = BOARD_ROWS + 1;

/// The frame's button sets with Down up, in `Bfs`'s order; index = held-button class.
const INPUTS: [u8; 9] = [0x00, 0x02, 0x01, 0x80, 0x40, 0x82, 0x81, 0x42, 0x41];

/// Per input, the positions it may be pressed on: those held with none of its buttons (the
/// classes in `INPUTS` order: none, L, R, A, B, LA, RA, LB, RB).
#[inline(always)]
fn sources(h: &[u64; 9]) -> [u64; 9] {
    let [n, l, r, a, b, la, ra, lb, rb] = *h;
    let (no_lr, no_ab) = (n | a | b, n | l | r);
    [
        no_lr | l | r | la | ra | lb | rb,
        no_lr | r | ra | rb,
        no_lr | l | la | lb,
        no_ab | b | lb | rb,
        no_ab | a | la | ra,
        n | r | b | rb,
        n | l | b | lb,
        n | r | a | ra,
        n | l | a | la,
    ]
}

/// Bits of one 16-bit lane that are columns.
const LANES: u64 = 0x03FF_03FF_03FF_03FF;

/// A reachable lock: where the piece locks, reached first on frame `frames`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReachLock {
    /// Where the piece locks.
    pub at: Pos,
    /// Frames from the search's start to the lock frame, counting the lock frame.
    pub frames: u16,
}

/// Reusable lock-set search: fit masks and the lock list, allocated once.
pub struct Reach {
    /// `fit[y]` lane s bit x: orientation `ids[s]` fits with its pivot at (x, y).
    fit: [u64; ROWS],
    ids: [Orientation; 4],
    /// Orientations of the piece: 1 (O), 2 (S, Z, I) or 4.
    turns: usize,
    locks: Vec<ReachLock>,
    /// The frames of the last few starts on the empty board, up to their first lock: on any
    /// board whose fit masks equal the empty board's down to some row, the frames above that
    /// row are these, so a search resumes from the last of them instead of from the start.
    /// Several starts, so that a caller cycling through the seven pieces (the third-piece
    /// layer) finds each piece's frames kept.
    opens: Vec<Open>,
    /// The entry of `opens` the next new start replaces once it is full.
    evict: usize,
    /// The per-class sets of `Reach::search_hold`.
    hold: hold::HoldSets,
    /// The next pieces' references of `Reach::search_timeline_after`.
    shared: resume::Shared,
}

/// Starts kept in [`Reach::opens`]: one per piece and a few more.
const OPEN_KEYS: usize = 8;

/// A start's frames on the empty board (see [`Reach::opens`]).
struct Open {
    key: (Active, PadState, u8),
    frames: Vec<Frame>,
    fit: [u64; ROWS],
}

/// The search's state at the start of a frame.
#[derive(Clone, Copy, Debug)]
struct Frame {
    src: [u64; 9],
    cur: [u64; 9],
    y: usize,
    fall: u8,
    frames: u16,
}

impl Default for Reach {
    fn default() -> Self {
        Self::new()
    }
}

/// Turns every lane to its A (clockwise) successor's lane: slots are numbered in A order.
#[inline(always)]
fn turn_a<const TURNS: usize>(m: u64) -> u64 {
    match TURNS {
        4 => m.rotate_left(16),
        2 => ((m & 0xFFFF) << 16) | ((m >> 16) & 0xFFFF),
        _ => m,
    }
}

/// The inverse of [`turn_a`]: to each lane its B (counter-clockwise) successor's lane.
#[inline(always)]
fn turn_b<const TURNS: usize>(m: u64) -> u64 {
    match TURNS {
        4 => m.rotate_right(16),
        _ => turn_a::<TURNS>(m),
    }
}

/// A frame's shift of the positions `m` by `input`'s direction at fit mask `fit`: (those that
/// moved, those blocked where they stand); (`m`, 0) without a direction.
#[inline(always)]
fn shift(m: u64, input: u8, fit: u64) -> (u64, u64) {
    if input & 0x01 != 0 {
        ((m << 1) & fit, m & !(fit >> 1))
    } else if input & 0x02 != 0 {
        ((m >> 1) & fit, m & !(fit << 1))
    } else {
        (m, 0)
    }
}

/// The rest of a frame after the shift: the turn of `input` (A clockwise, else B
/// counter-clockwise; a position stays where the turn does not fit), then gravity when it
/// fires, the positions that cannot fall added to `locked` and left out of the result.
#[inline(always)]
fn turn_and_drop<const TURNS: usize>(
    mut m: u64,
    input: u8,
    fit: u64,
    below: u64,
    gravity: bool,
    locked: &mut u64,
) -> u64 {
    if input & 0x80 != 0 {
        m = (turn_a::<TURNS>(m) & fit) | (m & !turn_b::<TURNS>(fit));
    } else if input & 0x40 != 0 {
        m = (turn_b::<TURNS>(m) & fit) | (m & !turn_a::<TURNS>(fit));
    }
    m &= LANES;
    if gravity {
        *locked |= m & !below;
        m &= below;
    }
    m
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
            hold: hold::HoldSets::default(),
            shared: resume::Shared::default(),
        }
    }

    /// Fills the fit masks of the piece of orientation `id` on `board`.
    fn build(&mut self, board: &Board, id: u8) {
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
    fn frame<const TURNS: usize>(
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

    /// Every lock reachable from `start` (the state at the end of the last frame, `prev` the
    /// buttons held in it), pressing on each frame one of `Bfs`'s candidate sets without Down.
    /// `None` when the start is outside what this search models (soft drop active, first-piece
    /// delay, a position off the field, a fall timer past the gravity test): use `Bfs` then.
    pub fn search(
        &mut self,
        board: &Board,
        start: Active,
        prev: PadState,
        speed: u8,
    ) -> Option<&[ReachLock]> {
        let speed = speed.max(1);
        if start.ary != 0
            || start.x >= 10
            || start.y as usize >= BOARD_ROWS
            || start.fall_timer >= speed
            || Orientation::new(start.id).is_none()
        {
            return None;
        }
        let key = (start, prev, speed);
        let e = match self.opens.iter().position(|o| o.key == key) {
            Some(e) => e,
            None => {
                let mut open = if self.opens.len() < OPEN_KEYS {
                    Open {
                        key,
                        frames: Vec::with_capacity(256),
                        fit: [0; ROWS],
                    }
                } else {
                    self.opens.swap_remove(self.evict)
                };
                self.build(&Board::EMPTY, start.id);
                open.key = key;
                open.fit = self.fit;
                open.frames.clear();
                self.locks.clear();
                self.run_turns(
                    Self::first_frame(start, prev),
                    speed,
                    Some(&mut open.frames),
                );
                self.opens.push(open);
                if self.opens.len() == OPEN_KEYS {
                    self.evict = (self.evict + 1) % OPEN_KEYS;
                }
                self.opens.len() - 1
            }
        };
        self.build(board, start.id);
        let open = &self.opens[e];
        // Frames at row y read the masks of rows y and y + 1.
        let same = (0..ROWS)
            .find(|&y| self.fit[y] != open.fit[y])
            .unwrap_or(ROWS);
        let resume = match open.frames.iter().rposition(|f| f.y + 1 < same) {
            Some(i) => open.frames[i],
            None => Self::first_frame(start, prev),
        };
        self.locks.clear();
        self.run_turns(resume, speed, None);
        Some(&self.locks)
    }

    /// The state before the first frame from `start`, `prev` held.
    fn first_frame(start: Active, prev: PadState) -> Frame {
        let mut src = [0u64; 9];
        for (c, s) in src.iter_mut().enumerate() {
            if INPUTS[c] & prev.0 == 0 {
                *s = 1u64 << start.x;
            }
        }
        Frame {
            src,
            cur: [0; 9],
            y: start.y as usize,
            fall: start.fall_timer,
            frames: 0,
        }
    }

    fn run_turns(&mut self, from: Frame, speed: u8, record: Option<&mut Vec<Frame>>) {
        match self.turns {
            4 => self.run::<4>(from, speed, record),
            2 => self.run::<2>(from, speed, record),
            _ => self.run::<1>(from, speed, record),
        }
    }

    /// The frames from `from` for a piece of `TURNS` orientations; with `record`, keeps the
    /// state before each frame there until something locks.
    fn run<const TURNS: usize>(
        &mut self,
        from: Frame,
        speed: u8,
        mut record: Option<&mut Vec<Frame>>,
    ) {
        let Frame {
            mut src,
            mut cur,
            mut y,
            mut fall,
            mut frames,
        } = from;
        let mut seen = [0u64; ROWS];
        loop {
            if let Some(open) = record.as_deref_mut().filter(|_| self.locks.is_empty()) {
                open.push(Frame {
                    src,
                    cur,
                    y,
                    fall,
                    frames,
                });
            }
            fall = fall.wrapping_add(1);
            frames += 1;
            let gravity = !minus(fall, speed);
            let mut next = [0u64; 9];
            let locked = self.frame::<TURNS>(&src, y, gravity, &mut next);
            self.push_new_locks(&mut seen[y], locked, y, frames);
            if gravity {
                fall = 0;
                y += 1;
            } else if next == cur && fall < speed {
                // A frame that changed nothing repeats until the gravity frame.
                let skip = speed - 1 - fall;
                frames += u16::from(skip);
                fall = speed - 1;
            }
            if next.iter().all(|&m| m == 0) {
                break;
            }
            cur = next;
            src = sources(&cur);
        }
    }

    /// Records the positions of `locked` at row `y` not yet in `seen` (the row's locks so far),
    /// reached on frame `frames`.
    #[inline(always)]
    fn push_new_locks(&mut self, seen: &mut u64, locked: u64, y: usize, frames: u16) {
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

    /// The locks of the last search.
    pub fn locks(&self) -> &[ReachLock] {
        &self.locks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::piece::Piece;
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::{Bfs, MoveSet};
    use crate::movegen::collision::CollisionMap;
    use crate::movegen::fixtures::boards::{ROOF, TALL, TWO_CAVES};
    use crate::movegen::fixtures::with_empty;
    use std::collections::HashMap;

    const BOARDS: [&str; 3] = [ROOF, TWO_CAVES, TALL];

    /// Locks as (x, y, id) → first frame, from the path-keeping BFS.
    fn bfs_locks(
        board: &Board,
        start: Active,
        prev: PadState,
        speed: u8,
    ) -> HashMap<(u8, u8, u8), u16> {
        let piece = Orientation::new(start.id).unwrap().piece();
        let map = CollisionMap::new(board, piece);
        let mut bfs = Bfs::new();
        bfs.search(start, prev, speed, &map, MoveSet::default())
            .iter()
            .map(|l| ((l.at.x, l.at.y, l.at.id()), l.frames))
            .collect()
    }

    fn reach_locks(
        board: &Board,
        start: Active,
        prev: PadState,
        speed: u8,
    ) -> HashMap<(u8, u8, u8), u16> {
        let mut reach = Reach::new();
        let locks = reach
            .search(board, start, prev, speed)
            .expect("modelled start");
        let map: HashMap<_, _> = locks
            .iter()
            .map(|l| ((l.at.x, l.at.y, l.at.id()), l.frames))
            .collect();
        assert_eq!(map.len(), locks.len(), "each lock once");
        map
    }

    /// The test stacks and the empty board.
    pub(super) fn boards() -> Vec<Board> {
        with_empty(&BOARDS)
    }

    #[test]
    fn same_locks_and_first_frames_as_the_bfs() {
        let mut boards = boards();
        let mut hidden = boards[0];
        hidden.set(-1, 5);
        hidden.set(-2, 3);
        boards.push(hidden);
        for (b, board) in boards.iter().enumerate() {
            for level in [0u8, 8, 15, 18, 19, 28, 29] {
                let speed = drop_speed(level);
                for piece in Piece::ALL {
                    let start = Active::spawn(piece.spawn().id(), 0, 0);
                    let want = bfs_locks(board, start, PadState::NONE, speed);
                    let got = reach_locks(board, start, PadState::NONE, speed);
                    assert_eq!(got, want, "board {b}, level {level}, {piece:?}");
                }
            }
        }
    }

    #[test]
    fn one_search_reused_across_boards_keeps_the_same_locks() {
        // The empty-board frames are kept from one search to the next: boards in turn, with a
        // stack high and low, must each get the locks a fresh BFS finds.
        let mut reach = Reach::new();
        let mut boards: Vec<Board> = BOARDS
            .iter()
            .map(|t| Board::from_text(t).unwrap())
            .collect();
        boards.push(Board::EMPTY);
        let mut top = Board::EMPTY;
        top.set(1, 4);
        boards.push(top);
        for level in [19u8, 0, 29] {
            let speed = drop_speed(level);
            for piece in Piece::ALL {
                let start = Active::spawn(piece.spawn().id(), 0, 0);
                for board in boards.iter().chain(boards.iter().rev()) {
                    let want = bfs_locks(board, start, PadState::NONE, speed);
                    let got: HashMap<_, _> = reach
                        .search(board, start, PadState::NONE, speed)
                        .expect("modelled start")
                        .iter()
                        .map(|l| ((l.at.x, l.at.y, l.at.id()), l.frames))
                        .collect();
                    assert_eq!(got, want, "level {level}, {piece:?}, {board:?}");
                }
            }
        }
    }

    #[test]
    fn same_locks_from_in_flight_states_with_buttons_held() {
        let board = Board::from_text(BOARDS[0]).unwrap();
        let prevs = [
            PadState::NONE,
            PadState::LEFT,
            PadState::RIGHT | PadState::A,
            PadState::B,
            PadState::A | PadState::B,
            PadState::DOWN,
        ];
        let mut checked = 0;
        for o in Orientation::all() {
            for (x, y) in [(4u8, 3u8), (1, 6), (8, 9), (5, 12)] {
                if !board_fits(&board, x, y, o.id()) {
                    continue;
                }
                for (i, &prev) in prevs.iter().enumerate() {
                    for speed in [1u8, 2, 3, 6] {
                        let mut start = Active::spawn(o.id(), 9, 0);
                        (start.x, start.y) = (x, y);
                        start.fall_timer = (i as u8) % speed;
                        let want = bfs_locks(&board, start, prev, speed);
                        let got = reach_locks(&board, start, prev, speed);
                        assert_eq!(got, want, "{o:?} at ({x},{y}) prev {prev} speed {speed}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    fn board_fits(board: &Board, x: u8, y: u8, id: u8) -> bool {
        use crate::game::board::Collide;
        board.fits(x, y, id)
    }

    #[test]
    fn sources_are_the_classes_holding_none_of_the_inputs_buttons() {
        let mut h = [0u64; 9];
        for (k, m) in h.iter_mut().enumerate() {
            *m = 1 << k;
        }
        let got = sources(&h);
        for (c, &input) in INPUTS.iter().enumerate() {
            let want: u64 = (0..9)
                .filter(|&k| input & INPUTS[k] == 0)
                .map(|k| 1u64 << k)
                .sum();
            assert_eq!(got[c], want, "input {input:#04x}");
        }
    }

    #[test]
    fn declines_what_it_does_not_model() {
        let mut reach = Reach::new();
        let mut a = Active::spawn(Piece::T.spawn().id(), 0, 0);
        a.ary = 1;
        assert!(reach.search(&Board::EMPTY, a, PadState::DOWN, 2).is_none());
        let mut a = Active::spawn(Piece::T.spawn().id(), 0, 0);
        a.fall_timer = 2;
        assert!(reach.search(&Board::EMPTY, a, PadState::NONE, 2).is_none());
        a.fall_timer = 1;
        assert!(reach.search(&Board::EMPTY, a, PadState::NONE, 2).is_some());
    }
}
