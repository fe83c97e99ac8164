//! The lock set of a piece without paths, frame by frame as bit sets: every reachable
//! (x, orientation) of one frame in one `u64`, for the next piece of every current-piece lock.

// Without soft drop the fall timer, and so the row, does not depend on the buttons: every state
// of frame t shares one (y, fall timer), and the states differ only in x, orientation and the
// tapped buttons held. A frame is then a few shifts and ANDs per held-button class on a word
// holding four 16-bit lanes (one per orientation, bit x = column x), against per-row fit masks
// built from the board's bit rows. The lock set equals `Bfs::search`'s under the same move set
// (tested below and by the decision-equality test); lock order and paths are not kept.

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::game::score::minus;

mod hold;
mod hold_sets;
mod lanes;
mod lock;
mod resume;
mod shared;
mod state;
mod timeline;

use lanes::{INPUTS, ROWS};
pub use lock::ReachLock;
pub use shared::TimelineStart;
pub use state::Reach;
use state::{Frame, Open, OPEN_KEYS};

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

impl Reach {
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
