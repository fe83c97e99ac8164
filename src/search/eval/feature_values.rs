//! The 17 feature values of meatfighter's evaluator, of a board or of a pair, each board's
//! counted in one pass down the pile on whole bit rows (nothing allocates).

use super::super::features::{with_features, FEATURE_COUNT};
use super::super::pairs::PairOutcome;
use super::super::weights::PhaseWeights;
use crate::game::board::{FULL_ROW, HIDDEN_ROWS};
use crate::game::{Board, Orientation, Pos};

// Features read only the 20 visible rows (numbered 0..19 from the top) as bit rows, with the
// column profile computed once per call. Where a feature's name leaves room, the definition
// follows the original evaluator (see each doc line).

macro_rules! features_struct {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// The 17 feature values, by the names of the original evaluator (`search::features`).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Features {
            $(
                $(#[doc = $doc])*
                pub $name: u32,
            )*
        }

        impl Features {
            /// Every feature by its weights-file key, in file order (for debug views).
            pub fn terms(&self) -> [(&'static str, u32); FEATURE_COUNT] {
                [$((stringify!($name), self.$name)),*]
            }
        }

        impl PhaseWeights {
            /// The weighted feature sum, without the rules: the products added in file order.
            #[inline]
            pub fn score(&self, f: &Features) -> f64 {
                let terms = [$(self.$name * f64::from(f.$name)),*];
                let mut sum = terms[0];
                for t in &terms[1..] {
                    sum += t;
                }
                sum
            }
        }
    };
}
with_features!(features_struct);

/// All 17 features of a pair: the two placement features plus the final board's.
pub fn pair_features(outcome: &PairOutcome) -> Features {
    Features {
        lines_cleared: outcome.lines_first + outcome.lines_second,
        lock_height: lock_height(&outcome.first) + lock_height(&outcome.second),
        ..features(outcome.board)
    }
}

/// The 15 board features (`lines_cleared` and `lock_height` are 0: they belong to placements).
pub fn features(board: &Board) -> Features {
    features_of(&visible_rows(board))
}

/// Rows the piece's lowest cell sits above the floor: 19 − (pivot y + largest dy).
#[inline]
pub fn lock_height(p: &Pos) -> u32 {
    let max_dy = MAX_DY[usize::from(p.orientation.id())];
    let bottom = i32::from(p.y as i8) + i32::from(max_dy);
    (19 - bottom).max(0) as u32
}

/// Per orientation id, the largest row offset of its cells (`Orientation::extent`'s last).
const MAX_DY: [i8; Orientation::NUM] = max_dys();

const fn max_dys() -> [i8; Orientation::NUM] {
    let mut dys = [0i8; Orientation::NUM];
    let mut id = 0;
    while id < Orientation::NUM {
        if let Some(o) = Orientation::new(id as u8) {
            dys[id] = o.extent().3;
        }
        id += 1;
    }
    dys
}

/// The 15 board features of the visible rows (0..19 from the top, masked to ten columns), in
/// one pass down the pile on whole bit rows (the definitions, feature by feature, are the
/// oracle's in `eval/oracle.rs`, which the tests compare against on random boards):
/// - wells: empty cells above their column's top (not `covered`) with both neighbours
///   filled (walls count); per-column counts of 1, 2 and 3 or more as three bit masks;
/// - holes: empty cells under a filled one; their depth is the row minus the column's top;
/// - column transitions: filled/empty changes between a row and the one above, in columns
///   already covered; row transitions: along each row with walls, from the pile's top down.
#[inline(always)]
pub(super) fn features_of(rows: &[u16; 20]) -> Features {
    let pile_top = rows.iter().position(|&r| r != 0).unwrap_or(20);
    let mut f = Features {
        min_column_hole_depth: 20,
        ..Features::default()
    };
    // 16 entries, indexed by a masked bit position: no bounds check in the loops below.
    let mut top = [20u8; 16];
    let mut covered = 0u16;
    // The row where the last column was first covered (20: some column never is).
    let mut full_at = 20u32;
    let (mut wells1, mut wells2, mut wells3) = (0u16, 0u16, 0u16);
    let mut above = 0u16;
    for (r, &row) in rows.iter().enumerate().skip(pile_top) {
        let holes = !row & above;
        if holes != 0 {
            let n = holes.count_ones();
            f.column_holes += n;
            f.weighted_column_holes += (r as u32 + 1) * n;
            let mut h = holes;
            while h != 0 {
                let depth = (r - usize::from(top[h.trailing_zeros() as usize & 15])) as u32;
                f.column_hole_depths += depth;
                f.min_column_hole_depth = f.min_column_hole_depth.min(depth);
                f.max_column_hole_depth = f.max_column_hole_depth.max(depth);
                h &= h - 1;
            }
        }
        f.column_transitions += ((row ^ above) & covered).count_ones();
        let mut new = row & !covered;
        if new != 0 {
            covered |= row;
            if covered == FULL_ROW {
                full_at = r as u32;
            }
            while new != 0 {
                top[new.trailing_zeros() as usize & 15] = r as u8;
                new &= new - 1;
            }
        }
        let walls = !covered & ((row << 1) | 1) & ((row >> 1) | (1 << 9)) & FULL_ROW;
        f.well_cells += walls.count_ones();
        wells3 |= wells2 & walls;
        wells2 |= wells1 & walls;
        wells1 |= walls;
        let walled = (row << 1) | 1 | (1 << 11);
        f.row_transitions += ((walled ^ (walled >> 1)) & 0x7FF).count_ones();
        // Running sums: a column first covered in row r adds 1 to each row from r to 19, its
        // height 20 − r; a filled cell in row r likewise adds its weight 20 − r.
        f.column_heights += covered.count_ones();
        f.solid_cells += row.count_ones();
        f.weighted_solid_cells += f.solid_cells;
        above = row;
    }
    f.deep_wells = wells3.count_ones();
    f.pile_height = 20 - pile_top as u32;
    // The lowest column is 0 high until every column is covered.
    f.column_height_spread = f.pile_height - (20 - full_at);
    let mut variance = 0;
    for c in 1..10 {
        variance += u32::from(top[c].abs_diff(top[c - 1]));
    }
    f.column_height_variance = variance;
    f
}

/// The 20 visible rows of `board` (0..19 from the top), masked to the ten columns: how the
/// features, the learned value and the trainer's data read a board.
pub fn visible_rows(board: &Board) -> [u16; 20] {
    let mut rows = [0u16; 20];
    for (dst, &src) in rows.iter_mut().zip(&board.rows[HIDDEN_ROWS..]) {
        *dst = src & FULL_ROW;
    }
    rows
}
