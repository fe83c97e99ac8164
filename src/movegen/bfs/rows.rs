//! `Bfs::search` for the usual start (soft drop off and not pressed): the same nodes in the same
//! order, with the visited keys of one frame and one row held as a few small bit sets.

// Without soft drop the fall timer and the row depend only on the frame number, so every node
// of BFS depth d shares one (y, fall timer). The general search's visited key
// (position, fall timer, tapped buttons held) then only ever matches nodes of the same depth,
// and its waiting rule ("a smaller fall timer at the same position") only nodes of earlier
// depths in the same row. So one 16-bit tap-set mask per (orientation slot, x) for the depth
// being built, and one x mask per slot for the row so far, answer `Bfs::dominated` exactly;
// the expansion order, and so the locks' order and paths, are the general search's.

use crate::game::active::Active;
use crate::game::pad::PadState;
use crate::game::score::minus;

use super::node::{Node, Run, CANDIDATES, SLOT};
use super::rows_shape::{Depth, Fit, Shape};
use super::state::Bfs;

/// `SUBSETS[t]`: bit s set for every tap set s ⊆ t (s, t as `Bfs::tapped_bits` values).
const SUBSETS: [u16; 16] = subsets();

const fn subsets() -> [u16; 16] {
    let mut out = [0u16; 16];
    let mut t = 0;
    while t < 16 {
        let mut s = 0;
        while s < 16 {
            if s & t == s {
                out[t] |= 1 << s;
            }
            s += 1;
        }
        t += 1;
    }
    out
}

impl Bfs {
    /// The search of [`Bfs::search`] for a start `Kernel::choose` gives `Rows` (`speed` ≥ 1),
    /// resumed from the empty board's nodes down to the first row this board differs in
    /// ([`Bfs::rows_resume`]).
    pub(super) fn rows_search(&mut self, r: &Run) {
        let (start, prev, speed) = (r.start, r.roots[0], r.speed);
        let shape = Shape::of(start.id);
        let fit = shape.fit(r.map);
        let from = self.rows_resume((start, prev, speed), &shape, &fit);
        self.rows_loop(&shape, &fit, (start, speed), from, None);
    }

    /// The rows search on `fit` from `from` (its nodes already in `self.nodes`); with
    /// `depths`, every depth's start is recorded there.
    pub(super) fn rows_loop(
        &mut self,
        shape: &Shape,
        fit: &Fit,
        (start, speed): (Active, u8),
        from: Depth,
        mut depths: Option<&mut Vec<Depth>>,
    ) {
        let (base, cw, ccw) = (shape.base, shape.cw, shape.ccw);
        let mut row_seen = from.row_seen;
        let (mut y, mut fall) = (from.y, from.fall);
        let mut level_start = from.level_start;
        let mut frames: u16 = from.frames;
        while level_start < self.nodes.len() {
            let level_end = self.nodes.len();
            if let Some(d) = depths.as_deref_mut() {
                d.push(Depth {
                    level_start,
                    level_end,
                    y,
                    fall,
                    frames,
                    row_seen,
                    locks: self.locks.len(),
                });
            }
            let next_fall = fall.wrapping_add(1);
            let gravity = !minus(next_fall, speed);
            let child_fall = if gravity { 0 } else { next_fall };
            let child_y = if gravity { y + 1 } else { y };
            // The row's earlier depths, as the children see them.
            let earlier = if gravity { [0u16; 4] } else { row_seen };
            // 16 columns and 4 slots, indexed by masked values: no bounds checks in the loop.
            let mut now = [[0u16; 16]; 4];
            let mut now_pos = [0u16; 4];
            frames += 1;
            for i in level_start..level_end {
                let n = self.nodes[i];
                // `Bfs::waited_in_place`: pressed nothing, from a parent that held nothing, on a
                // frame that did not drop (the parent was on the same row as this depth).
                let waited = n.parent != u32::MAX
                    && n.input == PadState::NONE
                    && self.nodes[n.parent as usize].prev == PadState::NONE
                    && self.nodes[n.parent as usize].state.y == n.state.y
                    && child_waits_from(n.state.fall_timer, speed);
                let (x, slot) = (n.state.x, SLOT[n.state.id as usize] as usize);
                let here = fit[y as usize];
                let below = fit[y as usize + 1];
                // Shift results by the input's direction bits: none, Right (0x01), Left (0x02).
                let shifted = [
                    x,
                    if here[slot] & (2 << x) != 0 { x + 1 } else { x },
                    if x > 0 && here[slot] & (1 << (x - 1)) != 0 {
                        x - 1
                    } else {
                        x
                    },
                    x,
                ];
                // A tap resets the counter and moves, or parks it at 16 when blocked.
                let das_after = [
                    n.state.das,
                    if shifted[1] != x { 0 } else { 16 },
                    if shifted[2] != x { 0 } else { 16 },
                    n.state.das,
                ];
                // Turn targets by the input's turn bits: none, B (0x40), A (0x80).
                let turned = [slot, ccw[slot], cw[slot], slot];
                // After a plain wait only pressing nothing is left (`General::allows`), and
                // nothing was held, so the tap rule passes every candidate.
                let candidates = if waited {
                    &TAP_MOVES[..1]
                } else {
                    &TAP_MOVES[..]
                };
                let held = n.prev.0 & 0xC3;
                for &TapMove { c, dir, turn, taps } in candidates {
                    if c & held != 0 {
                        continue;
                    }
                    let nx = shifted[dir as usize & 3];
                    let das = das_after[dir as usize & 3];
                    let to = turned[turn as usize & 3] & 3;
                    let nslot = if here[to] & (1 << nx) != 0 { to } else { slot };
                    let state = Active {
                        x: nx,
                        y,
                        id: base + nslot as u8,
                        fall_timer: child_fall,
                        das,
                        ..start
                    };
                    if gravity && below[nslot] & (1 << nx) == 0 {
                        self.record_lock(&state, frames, i, PadState(c));
                        continue;
                    }
                    if child_y >= 20 {
                        continue;
                    }
                    let taps = usize::from(taps);
                    let seen = &mut now[nslot & 3][nx as usize & 15];
                    if (taps != 0 && earlier[nslot] & (1 << nx) != 0)
                        || *seen & SUBSETS[taps & 15] != 0
                    {
                        continue;
                    }
                    *seen |= 1 << taps;
                    now_pos[nslot] |= 1 << nx;
                    let state = Active {
                        y: child_y,
                        ..state
                    };
                    self.nodes
                        .push(Node::new(state, PadState(c), i as u32, frames));
                }
            }
            for s in 0..4 {
                row_seen[s] = earlier[s] | now_pos[s];
            }
            y = child_y;
            fall = child_fall;
            level_start = level_end;
        }
    }
}

/// One of the nine tap candidates (`CANDIDATES[..9]`, in their order) with its parts as
/// indices: direction (0 none, 1 Right, 2 Left), turn (0 none, 1 B, 2 A), tapped bits.
#[derive(Clone, Copy)]
struct TapMove {
    c: u8,
    dir: u8,
    turn: u8,
    taps: u8,
}

const TAP_MOVES: [TapMove; 9] = tap_moves();

const fn tap_moves() -> [TapMove; 9] {
    let mut out = [TapMove {
        c: 0,
        dir: 0,
        turn: 0,
        taps: 0,
    }; 9];
    let mut i = 0;
    while i < 9 {
        let c = CANDIDATES[i];
        out[i] = TapMove {
            c,
            dir: c & 0x03,
            turn: c >> 6,
            taps: (c & 0x03) | ((c >> 4) & 0x0C),
        };
        i += 1;
    }
    out
}

/// A node with this fall timer will not drop on its next frame.
#[inline(always)]
fn child_waits_from(fall_timer: u8, speed: u8) -> bool {
    fall_timer.saturating_add(1) < speed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::{Board, Collide};
    use crate::game::piece::{Orientation, Piece};
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::{Lock, MoveSet};
    use crate::movegen::collision::CollisionMap;
    use crate::movegen::fixtures::boards::{ROOF, TALL};
    use crate::movegen::fixtures::with_empty;
    use crate::movegen::kernel::Kernel;
    use crate::movegen::profile::{PieceProgress, Profile};

    const BOARDS: [&str; 2] = [ROOF, TALL];

    /// A lock (with its node and last input) and its path: inputs and positions.
    type Found = (Lock, Vec<PadState>, Vec<crate::game::Pos>);

    /// Every lock of one search with its path.
    fn outcome(bfs: &Bfs) -> Vec<Found> {
        bfs.locks()
            .iter()
            .map(|l| {
                let (mut inputs, mut expected) = (Vec::new(), Vec::new());
                bfs.path(l, &mut inputs, &mut expected);
                (*l, inputs, expected)
            })
            .collect()
    }

    fn compare(board: &Board, start: Active, prev: PadState, speed: u8) {
        let piece = Orientation::new(start.id).unwrap().piece();
        let map = CollisionMap::new(board, piece);
        assert_eq!(
            Kernel::choose(
                &start,
                speed,
                MoveSet::default(),
                &Profile::default(),
                PieceProgress::default(),
                true
            ),
            Kernel::Rows
        );
        let mut fast = Bfs::new();
        fast.search(start, prev, speed, &map, MoveSet::default());
        let mut general = Bfs::general();
        general.search(start, prev, speed, &map, MoveSet::default());
        assert_eq!(
            fast.nodes.len(),
            general.nodes.len(),
            "{start:?} {prev} {speed}"
        );
        assert_eq!(
            outcome(&fast),
            outcome(&general),
            "{start:?} {prev} {speed}"
        );
    }

    #[test]
    fn the_same_nodes_locks_and_paths_as_the_general_search() {
        for board in &with_empty(&BOARDS) {
            for level in [0u8, 8, 18, 19, 29] {
                for piece in Piece::ALL {
                    let start = Active::spawn(piece.spawn().id(), 0, 0);
                    compare(board, start, PadState::NONE, drop_speed(level));
                }
            }
        }
        let board = Board::from_text(BOARDS[0]).unwrap();
        let prevs = [
            PadState::LEFT,
            PadState::RIGHT | PadState::A,
            PadState::B,
            PadState::DOWN,
        ];
        for o in Orientation::all() {
            for (x, y) in [(4u8, 3u8), (1, 6), (8, 9)] {
                if !board.fits(x, y, o.id()) {
                    continue;
                }
                for (i, &prev) in prevs.iter().enumerate() {
                    for speed in [1u8, 2, 3, 6] {
                        let mut start = Active::spawn(o.id(), 5, 3);
                        (start.x, start.y, start.fall_timer) = (x, y, i as u8 % speed);
                        compare(&board, start, prev, speed);
                    }
                }
            }
        }
    }
}
