//! Which columns each piece can still reach from its spawn at a given gravity: the fastest
//! routes come from the planner's own BFS on an empty field, then are checked against a board.

// The BFS on an empty field reaches every state of the piece in the fewest frames. For each
// piece and column the table keeps the route of the first state that puts a cell of the piece
// in that column, as the set of cells the route sweeps from the spawn. On a board, the column is
// within reach of the piece when none of those cells is filled. At one row per frame the piece
// falls a row for every frame it spends travelling, so a stack in the way cuts the far columns
// off; this is what the table measures, with no column or height written in by hand.

use crate::game::active::Active;
use crate::game::board::{Board, BOARD_ROWS, HIDDEN_ROWS};
use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::pos::Pos;

use super::bfs::{Bfs, MoveSet};
use super::collision::CollisionMap;

/// The cells a route sweeps, as board rows (−2..19), and the rows it spans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sweep {
    rows: [u16; BOARD_ROWS],
    first: u8,
    last: u8,
    /// No route reaches the column at all (not even on an empty field).
    none: bool,
}

impl Sweep {
    #[inline]
    fn blocked(&self, board: &Board) -> bool {
        self.none
            || (usize::from(self.first)..=usize::from(self.last))
                .any(|r| self.rows[r] & board.rows[r] != 0)
    }
}

/// Per piece and column, the fastest route's swept cells at one gravity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachTable {
    speed: u8,
    sweeps: [[Sweep; 10]; Piece::NUM],
    /// Every sweep's cells together, and the rows they span: a board that fills none of
    /// them blocks only the (piece, column) pairs no route reaches.
    any: Sweep,
    /// Pairs no route reaches even on an empty field.
    never: u32,
    /// Per board cell (row, column), the routes that sweep it, one bit per route (the
    /// routes of (piece, column) pairs no route reaches left out): a board blocks the
    /// routes of its filled cells, so a count is an OR per filled cell the routes touch.
    through: Box<[[u128; 16]; BOARD_ROWS]>,
}

/// Board row index (0 = row −2) of cell dy under a pivot at y (y wraps below 0), if on the board.
fn board_row(y: u8, dy: i8) -> Option<usize> {
    let r = i32::from(y as i8) + i32::from(dy) + HIDDEN_ROWS as i32;
    usize::try_from(r).ok().filter(|&r| r < BOARD_ROWS)
}

fn add_cells(sweep: &mut Sweep, cell: Option<Pos>) {
    let Some(Pos {
        x,
        y,
        orientation: o,
    }) = cell
    else {
        return;
    };
    for (dx, dy) in o.cells() {
        let (Some(r), Ok(c)) = (board_row(y, dy), u8::try_from(i16::from(x) + i16::from(dx)))
        else {
            continue;
        };
        if c < 10 {
            sweep.rows[r] |= 1 << c;
            sweep.first = sweep.first.min(r as u8);
            sweep.last = sweep.last.max(r as u8);
        }
    }
}

fn columns_of(cell: Option<Pos>) -> u16 {
    cell.map_or(
        0,
        |Pos {
             x, orientation: o, ..
         }| {
            o.cells()
                .iter()
                .filter_map(|&(dx, _)| u8::try_from(i16::from(x) + i16::from(dx)).ok())
                .filter(|&c| c < 10)
                .fold(0, |m, c| m | 1 << c)
        },
    )
}

impl ReachTable {
    /// Derives the table for `speed` frames per row from the BFS, tapping at 30 Hz without
    /// soft drop (the planner's move set).
    pub fn derive(speed: u8) -> ReachTable {
        let mut bfs = Bfs::once();
        let empty = Board::EMPTY;
        let mut sweeps = [[Sweep::default(); 10]; Piece::NUM];
        let mut routes: Vec<Sweep> = Vec::new();
        for piece in Piece::ALL {
            let map = CollisionMap::new(&empty, piece);
            let spawn = Active::spawn(piece.spawn().id(), 0, 0);
            bfs.search(spawn, PadState::NONE, speed, &map, MoveSet::default());
            // The BFS keeps states in order of frames, so the first state to cover a column is
            // a fastest one; among those of the same frame, the smallest sweep wins.
            let mut best: [Option<(u16, u32)>; 10] = [None; 10];
            let table = &mut sweeps[piece.index()];
            for sweep in table.iter_mut() {
                sweep.none = true;
            }
            routes.clear();
            for (i, (state, parent, frames)) in bfs.reached().enumerate() {
                let mut sweep = if i == 0 {
                    Sweep {
                        first: u8::MAX,
                        ..Sweep::default()
                    }
                } else {
                    routes[parent]
                };
                let cell = Pos::of(&state);
                add_cells(&mut sweep, cell);
                routes.push(sweep);
                let cells: u32 = sweep.rows.iter().map(|r| r.count_ones()).sum();
                let covers = columns_of(cell);
                for c in (0..10).filter(|c| covers & (1 << c) != 0) {
                    if best[c].is_none_or(|b| (frames, cells) < b) {
                        best[c] = Some((frames, cells));
                        table[c] = sweep;
                    }
                }
            }
        }
        let mut any = Sweep {
            first: u8::MAX,
            ..Sweep::default()
        };
        let mut never = 0;
        for sweep in sweeps.iter().flatten() {
            if sweep.none {
                never += 1;
                continue;
            }
            for (a, r) in any.rows.iter_mut().zip(&sweep.rows) {
                *a |= r;
            }
            any.first = any.first.min(sweep.first);
            any.last = any.last.max(sweep.last);
        }
        if any.first > any.last {
            any.none = true;
        }
        // At most 7 × 10 = 70 routes: one bit each in a u128.
        let mut through = Box::new([[0u128; 16]; BOARD_ROWS]);
        for (i, sweep) in sweeps.iter().flatten().filter(|s| !s.none).enumerate() {
            for (r, &row) in sweep.rows.iter().enumerate() {
                for c in (0..10).filter(|c| row & (1 << c) != 0) {
                    through[r][c] |= 1 << i;
                }
            }
        }
        ReachTable {
            speed,
            sweeps,
            any,
            never,
            through,
        }
    }

    /// Frames per row this table was derived for.
    pub fn speed(&self) -> u8 {
        self.speed
    }

    /// Can `piece` put a cell in `column` from its spawn on `board`?
    pub fn reaches(&self, board: &Board, piece: Piece, column: usize) -> bool {
        !self.sweeps[piece.index()][column].blocked(board)
    }

    /// (piece, column) pairs out of reach on `board`: 0 on an empty field, 70 when no piece
    /// can move at all.
    #[inline]
    pub fn unreachable(&self, board: &Board) -> u32 {
        if self.any.none {
            return self.never;
        }
        // The routes run near the spawn: few filled cells meet any of them.
        let (first, last) = (usize::from(self.any.first), usize::from(self.any.last));
        let mut blocked = 0u128;
        for r in first..=last.min(BOARD_ROWS - 1) {
            let mut cells = self.any.rows[r] & board.rows[r];
            while cells != 0 {
                blocked |= self.through[r][cells.trailing_zeros() as usize & 15];
                cells &= cells - 1;
            }
        }
        self.never + blocked.count_ones()
    }

    /// [`ReachTable::unreachable`] route by route (the fast path's oracle in tests).
    #[cfg(test)]
    pub(crate) fn unreachable_each(&self, board: &Board) -> u32 {
        let mut n = 0;
        for piece in &self.sweeps {
            for sweep in piece {
                n += u32::from(sweep.blocked(board));
            }
        }
        n
    }
}

impl ReachTable {
    /// Does some route sweep one of `cells` (column bits) in board row `row` (hidden rows
    /// first)? When none does, filling them leaves [`ReachTable::unreachable`] unchanged.
    #[inline]
    pub(crate) fn sweeps(&self, row: usize, cells: u16) -> bool {
        self.any.rows[row] & cells != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_text(text).expect("20 rows")
    }

    /// A field whose column `c` is filled from row `top` down.
    fn wall(c: usize, top: usize) -> Board {
        let mut b = Board::EMPTY;
        for r in top..20 {
            b.rows[r + HIDDEN_ROWS] |= 1 << c;
        }
        b
    }

    #[test]
    fn every_column_is_reachable_on_an_empty_field_at_every_gravity() {
        for speed in [1u8, 2, 3, 6, 48] {
            let t = ReachTable::derive(speed);
            assert_eq!(t.unreachable(&Board::EMPTY), 0, "speed {speed}");
        }
    }

    #[test]
    fn a_tall_column_cuts_off_what_lies_beyond_it_at_one_row_per_frame() {
        let t = ReachTable::derive(1);
        // A wall in column 7 up to row 4: at one row per frame the piece is still above row 4
        // when it crosses column 7? Not at this height: derive says how far it falls.
        let tall = wall(7, 2);
        for piece in Piece::ALL {
            assert!(
                !t.reaches(&tall, piece, 9),
                "{piece:?} passes a wall to row 2"
            );
            assert!(!t.reaches(&tall, piece, 8), "{piece:?}");
            assert!(t.reaches(&tall, piece, 0), "{piece:?} goes left");
        }
        assert!(t.unreachable(&tall) >= 14);
    }

    #[test]
    fn gravity_decides_how_high_a_stack_may_stand_in_the_way() {
        // The same wall in column 8: fine at two frames per row (the piece crosses it higher),
        // not at one row per frame, for some height; find the heights from the tables.
        let fast = ReachTable::derive(1);
        let slow = ReachTable::derive(3);
        let highest_passable = |t: &ReachTable| {
            (0..20)
                .rev()
                .take_while(|&top| t.reaches(&wall(8, top), Piece::I, 9))
                .last()
                .unwrap_or(20)
        };
        let (f, s) = (highest_passable(&fast), highest_passable(&slow));
        assert!(
            f > s,
            "at 1 row per frame the wall must be lower: {f} vs {s}"
        );
        assert!(f < 20 && f > 2, "{f}");
    }

    #[test]
    fn a_low_stack_blocks_nothing() {
        let t = ReachTable::derive(1);
        let low = board(
            &[".........."; 16]
                .iter()
                .chain(&["##########"; 0])
                .chain(&["#########."; 4])
                .copied()
                .collect::<Vec<_>>()
                .join("\n"),
        );
        assert_eq!(t.unreachable(&low), 0);
    }
}
