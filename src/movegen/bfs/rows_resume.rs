//! The rows search's nodes on the empty board, kept per start: a board that fits the piece as
//! the empty board does down to some row has the same nodes above it, so the search resumes.

// The rows loop reads the board only through `fit[y]` and `fit[y + 1]` of the depth's row y,
// and its dedup state (`row_seen`) is carried in `Depth`. So every depth whose row and the
// row below fit as on the empty board builds the same nodes in the same order with the same
// parents; a search copies the empty board's nodes up to the first depth that reads a
// differing row (and before any lock: none is recorded above the floor on the empty board)
// and runs on from there. The locks, their order and their paths are then the full search's.

use crate::game::active::Active;
use crate::game::board::Board;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;

use super::node::Node;
use super::rows_opens::{Open, OPEN_KEYS};
use super::rows_shape::{Depth, Fit, Shape};
use super::state::Bfs;
use crate::movegen::collision::CollisionMap;

impl Bfs {
    /// Puts the nodes of `(start, prev, speed)`'s search on `fit` that the empty board's
    /// search shares into `self.nodes` (empty on entry) and returns the depth to go on from.
    pub(super) fn rows_resume(
        &mut self,
        key: (Active, PadState, u8),
        shape: &Shape,
        fit: &Fit,
    ) -> Depth {
        let (start, prev, _) = key;
        if self.opens.off {
            self.nodes.push(Node::new(start, prev, u32::MAX, 0));
            return Depth::root(start, prev);
        }
        let e = match self.opens.opens.position(|o| o.key == key) {
            Some(e) => e,
            None => self.open(key, shape),
        };
        let open = &self.opens.opens[e];
        // The first pivot row whose fit differs; a depth at row y reads rows y and y + 1.
        let differs = (0..fit.len())
            .find(|&y| fit[y] != open.fit[y])
            .unwrap_or(fit.len());
        let mut at = Depth::root(start, prev);
        for d in &open.depths {
            if d.locks > 0 {
                break;
            }
            at = *d;
            if usize::from(d.y) + 1 >= differs {
                break;
            }
        }
        self.nodes.extend_from_slice(&open.nodes[..at.level_end]);
        at
    }

    /// Runs `key`'s search on the empty board into a new (or the evicted) entry and leaves
    /// this search fresh again; returns the entry's index.
    #[cold]
    fn open(&mut self, key: (Active, PadState, u8), shape: &Shape) -> usize {
        let (start, prev, speed) = key;
        let piece = Orientation::new(start.id)
            .expect("the rows kernel's start")
            .piece();
        let fit = shape.fit(&CollisionMap::new(&Board::EMPTY, piece));
        let mut depths = Vec::with_capacity(64);
        self.nodes.push(Node::new(start, prev, u32::MAX, 0));
        self.rows_loop(
            shape,
            &fit,
            (start, speed),
            Depth::root(start, prev),
            Some(&mut depths),
        );
        let open = Open {
            key,
            fit,
            nodes: self.nodes.clone(),
            depths,
        };
        // The empty board's locks and visited marks must not leak into the search itself.
        self.next_epoch(speed);
        self.nodes.clear();
        self.locks.clear();
        self.opens.opens.keep(open, OPEN_KEYS)
    }
}

#[cfg(test)]
pub(in crate::movegen::bfs) mod tests {
    use super::*;
    use crate::game::board::{Collide, BOARD_ROWS};
    use crate::game::piece::Piece;
    use crate::game::pos::Pos;
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::{Lock, MoveSet};

    /// Every kept node, then every lock with its path.
    type Outcome = (
        Vec<(Active, usize, u16)>,
        Vec<(Lock, Vec<PadState>, Vec<Pos>)>,
    );

    fn outcome(bfs: &mut Bfs, board: &Board, start: Active, prev: PadState, speed: u8) -> Outcome {
        let piece = Orientation::new(start.id).unwrap().piece();
        let map = CollisionMap::new(board, piece);
        bfs.search(start, prev, speed, &map, MoveSet::default());
        let locks = bfs.locks().iter().map(|l| with_path(bfs, l)).collect();
        (bfs.reached().collect(), locks)
    }

    /// Lock `l` of `bfs`'s last search with its buttons and positions (what the resume tests
    /// compare).
    pub(in crate::movegen::bfs) fn with_path(
        bfs: &Bfs,
        l: &Lock,
    ) -> (Lock, Vec<PadState>, Vec<Pos>) {
        let (mut inputs, mut expected) = (Vec::new(), Vec::new());
        bfs.path(l, &mut inputs, &mut expected);
        (*l, inputs, expected)
    }

    /// A board of `height` rows of garbage (one or two holes a row, some rows cut by a
    /// taller column) from a xorshift state.
    pub(in crate::movegen::bfs) fn random_board(rng: &mut u64, height: usize) -> Board {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            *rng
        };
        let mut board = Board::EMPTY;
        for r in BOARD_ROWS - height..BOARD_ROWS {
            let mut row = 0x3FF & !(1 << (next() % 10)) & !(1 << (next() % 10));
            if next() % 4 == 0 {
                row &= (next() & 0x3FF) as u16;
            }
            board.rows[r] = row;
        }
        // A lone block higher up now and then: a board that differs from the empty one far
        // above its stack.
        if next() % 5 == 0 {
            let r = 2 + (next() % 10) as usize;
            board.rows[r] |= 1 << (next() % 10);
        }
        board
    }

    #[test]
    fn a_resumed_search_has_the_nodes_locks_and_paths_of_a_fresh_one() {
        // One search reused over many boards, so that its kept starts are resumed from (and
        // evicted), against a search that never resumes and the general kernel.
        let mut resumed = Bfs::new();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut compared = 0;
        for round in 0..60 {
            let height = round % 19;
            let board = random_board(&mut rng, height);
            for level in [18u8, 19, 29] {
                for piece in Piece::ALL {
                    for (das, prev) in [(0, PadState::NONE), (16, PadState::NONE), (0, PadState::B)]
                    {
                        let mut start = Active::spawn(piece.spawn().id(), 0, 0);
                        start.das = das;
                        if !board.fits(start.x, start.y, start.id) {
                            continue;
                        }
                        let speed = drop_speed(level);
                        let want = outcome(&mut Bfs::once(), &board, start, prev, speed);
                        let general = outcome(&mut Bfs::general(), &board, start, prev, speed);
                        assert_eq!(want, general, "round {round} {piece:?} level {level}");
                        let got = outcome(&mut resumed, &board, start, prev, speed);
                        assert_eq!(got, want, "round {round} {piece:?} level {level}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 2000, "{compared}");
    }
}
