//! The rows search's piece and depths: the piece's orientation slots in A order (`Shape`), where
//! each fits row by row (`Fit`), and where the rows loop stands at a depth (`Depth`).

use crate::game::active::Active;
use crate::game::board::Collide;
use crate::game::pad::PadState;
use crate::game::piece::Orientation;
use crate::movegen::collision::CollisionMap;

use super::node::SLOT;

/// A piece's orientations as slots 0..turns in A order (`SLOT` numbers them so): the first
/// slot's id and the slot each turn leads to.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) base: u8,
    turns: usize,
    pub(super) cw: [usize; 4],
    pub(super) ccw: [usize; 4],
}

/// Per pivot row, a column mask of where each slot fits (row 22 and beyond: nowhere).
pub(super) type Fit = [[u16; 4]; ROWS + 1];

impl Shape {
    pub(super) fn of(id: u8) -> Shape {
        let slot0 = SLOT[id as usize];
        let turns = turns_of(id);
        let (mut cw, mut ccw) = ([0usize; 4], [0usize; 4]);
        for k in 0..turns {
            cw[k] = (k + 1) % turns;
            ccw[k] = (k + turns - 1) % turns;
        }
        Shape {
            base: id - slot0,
            turns,
            cw,
            ccw,
        }
    }

    pub(super) fn fit(&self, map: &CollisionMap) -> Fit {
        let mut fit = [[0u16; 4]; ROWS + 1];
        for (y, row) in fit.iter_mut().enumerate().take(ROWS) {
            for (k, lane) in row.iter_mut().enumerate().take(self.turns) {
                for x in 0..10u8 {
                    if map.fits(x, y as u8, self.base + k as u8) {
                        *lane |= 1 << x;
                    }
                }
            }
        }
        fit
    }
}

/// Where the rows loop stands when it starts a depth: its nodes are `level_start..level_end`
/// (every node before is kept), their row and fall timer, the frames so far, the row's
/// visited positions ([`Bfs::rows_search`]) and how many locks were recorded before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Depth {
    pub level_start: usize,
    pub level_end: usize,
    pub y: u8,
    pub fall: u8,
    pub frames: u16,
    pub row_seen: [u16; 4],
    pub locks: usize,
}

impl Depth {
    /// The start's depth, its root node being node 0.
    pub(super) fn root(start: Active, prev: PadState) -> Depth {
        // Visited (x, slot) of the row so far with nothing pressed into them: the start counts
        // when Down is up (its key is then "plain").
        let mut row_seen = [0u16; 4];
        if prev.0 & 0x04 == 0 {
            row_seen[SLOT[start.id as usize] as usize] |= 1 << start.x;
        }
        Depth {
            level_start: 0,
            level_end: 1,
            y: start.y,
            fall: start.fall_timer,
            frames: 0,
            row_seen,
            locks: 0,
        }
    }
}

/// Pivot rows the collision map answers for.
const ROWS: usize = 22;

/// How many orientations the piece of orientation `id` has.
fn turns_of(id: u8) -> usize {
    let piece = Orientation::new(id).expect("checked start").piece();
    Orientation::all().filter(|o| o.piece() == piece).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_number_each_piece_in_a_order_from_its_first_id() {
        for o in Orientation::all() {
            let (slot, turns) = (SLOT[o.id() as usize] as usize, turns_of(o.id()));
            let base = o.id() - slot as u8;
            assert_eq!(SLOT[base as usize], 0);
            assert_eq!(
                SLOT[o.cw().id() as usize] as usize,
                (slot + 1) % turns,
                "{o:?}"
            );
            assert_eq!(o.cw().id(), base + ((slot + 1) % turns) as u8, "{o:?}");
            assert_eq!(
                o.ccw().id(),
                base + ((slot + turns - 1) % turns) as u8,
                "{o:?}"
            );
        }
    }
}
