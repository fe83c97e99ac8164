//! The evaluator's features as first written, one function per feature: the test oracle the
//! one-pass `features_of` and the reach table's fast path are compared against, bit for bit.

use super::feature_values::{visible_rows, Features};
use crate::game::board::FULL_ROW;
use crate::game::Board;

/// The 15 board features as the evaluator computed them before `features_of`: one function
/// per feature over the column profile.
pub fn features(board: &Board) -> Features {
    let p = Profile::new(board);
    let wells = well_counts(&p);
    Features {
        lines_cleared: 0,
        lock_height: 0,
        well_cells: well_cells(&wells),
        deep_wells: deep_wells(&wells),
        column_holes: column_holes(&p),
        weighted_column_holes: weighted_column_holes(&p),
        column_hole_depths: column_hole_depths(&p),
        min_column_hole_depth: min_column_hole_depth(&p),
        max_column_hole_depth: max_column_hole_depth(&p),
        column_transitions: column_transitions(&p),
        row_transitions: row_transitions(&p),
        column_heights: column_heights(&p),
        pile_height: pile_height(&p),
        column_height_spread: column_height_spread(&p),
        solid_cells: solid_cells(&p),
        weighted_solid_cells: weighted_solid_cells(&p),
        column_height_variance: column_height_variance(&p),
    }
}

/// The visible rows and the column profile, computed once per board.
struct Profile {
    /// Visible rows 0..19 from the top, masked to the ten columns.
    rows: [u16; 20],
    /// Row of each column's top filled cell; 20 for an empty column.
    top: [u8; 10],
    /// Row of the pile's top filled cell; 20 for an empty field.
    pile_top: usize,
}

impl Profile {
    fn new(board: &Board) -> Profile {
        let rows = visible_rows(board);
        let mut top = [20u8; 10];
        let mut pile_top = 20;
        let mut seen = 0u16;
        for (r, &row) in rows.iter().enumerate() {
            let mut new = row & !seen;
            if new != 0 && pile_top == 20 {
                pile_top = r;
            }
            while new != 0 {
                top[new.trailing_zeros() as usize] = r as u8;
                new &= new - 1;
            }
            seen |= row;
            if seen == FULL_ROW {
                break;
            }
        }
        Profile {
            rows,
            top,
            pile_top,
        }
    }

    #[inline]
    fn height(&self, c: usize) -> u32 {
        20 - u32::from(self.top[c])
    }

    /// Calls `f(row, column)` for every hole: an empty cell with a filled cell directly above.
    #[inline]
    fn for_each_hole(&self, mut f: impl FnMut(usize, usize)) {
        for r in self.pile_top + 1..20 {
            let mut holes = !self.rows[r] & self.rows[r - 1] & FULL_ROW;
            while holes != 0 {
                f(r, holes.trailing_zeros() as usize);
                holes &= holes - 1;
            }
        }
    }

    /// Distance from the column's top cell down to a hole at (r, c): 1 right under the top.
    #[inline]
    fn hole_depth(&self, r: usize, c: usize) -> u32 {
        (r - usize::from(self.top[c])) as u32
    }
}

/// Well cells per column: empty cells above the column's top whose left and right neighbours
/// are filled (walls count as filled). Stacked or not, they all count toward their column.
fn well_counts(p: &Profile) -> [u8; 10] {
    let mut counts = [0u8; 10];
    let mut covered = 0u16;
    for &row in &p.rows[p.pile_top..] {
        covered |= row;
        if covered == FULL_ROW {
            break;
        }
        let left_filled = (row << 1) | 1;
        let right_filled = (row >> 1) | (1 << 9);
        let mut wells = !covered & left_filled & right_filled & FULL_ROW;
        while wells != 0 {
            counts[wells.trailing_zeros() as usize] += 1;
            wells &= wells - 1;
        }
    }
    counts
}

/// Well cells in all columns.
fn well_cells(wells: &[u8; 10]) -> u32 {
    wells.iter().map(|&n| u32::from(n)).sum()
}

/// Columns holding 3 or more well cells.
fn deep_wells(wells: &[u8; 10]) -> u32 {
    wells.iter().filter(|&&n| n >= 3).count() as u32
}

/// Empty cells with a filled cell directly above (a gap of several cells counts once).
fn column_holes(p: &Profile) -> u32 {
    (p.pile_top + 1..20)
        .map(|r| (!p.rows[r] & p.rows[r - 1] & FULL_ROW).count_ones())
        .sum()
}

/// Sum of the holes' row numbers counted from the top starting at 1 (deeper holes weigh more).
fn weighted_column_holes(p: &Profile) -> u32 {
    (p.pile_top + 1..20)
        .map(|r| (r as u32 + 1) * (!p.rows[r] & p.rows[r - 1] & FULL_ROW).count_ones())
        .sum()
}

/// Sum over holes of the distance from the column's top cell down to the hole.
fn column_hole_depths(p: &Profile) -> u32 {
    let mut sum = 0;
    p.for_each_hole(|r, c| sum += p.hole_depth(r, c));
    sum
}

/// Smallest hole depth; 20 when there are no holes.
fn min_column_hole_depth(p: &Profile) -> u32 {
    let mut min = 20;
    p.for_each_hole(|r, c| min = min.min(p.hole_depth(r, c)));
    min
}

/// Largest hole depth; 0 when there are no holes.
fn max_column_hole_depth(p: &Profile) -> u32 {
    let mut max = 0;
    p.for_each_hole(|r, c| max = max.max(p.hole_depth(r, c)));
    max
}

/// Filled/empty changes down each column from its top cell to row 19; the air above the top
/// and the floor below row 19 are not counted.
fn column_transitions(p: &Profile) -> u32 {
    let mut covered = 0u16;
    let mut count = 0;
    for r in p.pile_top..20 {
        if r > 0 {
            count += ((p.rows[r] ^ p.rows[r - 1]) & covered).count_ones();
        }
        covered |= p.rows[r];
    }
    count
}

/// Filled/empty changes along each row, walls counted as filled, from the pile's top row down
/// (the empty rows above the pile are skipped; an empty row inside the pile counts 2).
fn row_transitions(p: &Profile) -> u32 {
    p.rows[p.pile_top..]
        .iter()
        .map(|&row| {
            let walled = (row << 1) | 1 | (1 << 11);
            ((walled ^ (walled >> 1)) & 0x7FF).count_ones()
        })
        .sum()
}

/// Sum of the ten column heights (a column's height counts from the floor to its top cell).
fn column_heights(p: &Profile) -> u32 {
    (0..10).map(|c| p.height(c)).sum()
}

/// Height of the tallest column.
fn pile_height(p: &Profile) -> u32 {
    20 - p.pile_top as u32
}

/// Tallest column height minus lowest column height.
fn column_height_spread(p: &Profile) -> u32 {
    let lowest = (0..10).map(|c| p.height(c)).min().unwrap_or(0);
    pile_height(p) - lowest
}

/// Filled cells in the visible rows.
fn solid_cells(p: &Profile) -> u32 {
    p.rows.iter().map(|r| r.count_ones()).sum()
}

/// Sum of each filled cell's height above the floor (bottom row = 1).
fn weighted_solid_cells(p: &Profile) -> u32 {
    p.rows
        .iter()
        .enumerate()
        .map(|(r, row)| (20 - r as u32) * row.count_ones())
        .sum()
}

/// Sum of the absolute height differences of adjacent columns (bumpiness).
fn column_height_variance(p: &Profile) -> u32 {
    (1..10).map(|c| p.height(c).abs_diff(p.height(c - 1))).sum()
}

/// `Standard::evaluate` with the oracle's features and the reach table route by route (the
/// rules are the evaluator's own: they did not change).
pub fn evaluate(e: &super::Standard, outcome: &super::PairOutcome) -> Option<f64> {
    if !e.playable(outcome.board, outcome.level) {
        return None;
    }
    let rows = visible_rows(outcome.board);
    Some(e.value(
        outcome,
        &rows,
        features(outcome.board),
        None,
        super::ReachTable::unreachable_each,
    ))
}
