//! The first board's pass ([`Prefix`]): per column and per row, what the board features after
//! a second lock are counted from, redoing only the rows and columns the lock touched.

// A second lock that clears no line only adds four cells. The row features (solid cells, row
// transitions, hole counts, the pile height) are the first board's corrected on the rows the
// lock spans and the row below; the column features (tops, holes' depths, column transitions,
// wells) are sums over columns, kept per column of the first board, and only the lock's columns
// and their neighbours are redone, each from its column as a 20-bit mask; the minimum and
// maximum over columns come from the unchanged columns' running extremes on either side, kept
// as bit sets (a column's hole depths as bits, its top as one bit) so that an extreme over
// columns is an OR and one bit scan at the end, not a comparison per column.
// Integers throughout, so `PhaseWeights::score` gives the one-pass value bit for bit
// (`eval::incremental_tests` checks features and values against the full pass).

use super::feature_values::{features_of, Features};
use crate::game::Orientation;
use crate::game::Pos;

/// The first board's pass, kept for its pairs (`Standard::evaluate_after`).
#[derive(Clone, Debug)]
pub struct Prefix {
    /// The visible rows, masked to ten columns.
    pub(super) rows: [u16; 20],
    /// Each column as a mask of its filled rows (bit r), and [`ALL`] for the walls either
    /// side (index 0 is the left wall, column c is at c + 1).
    cols: [u32; 12],
    /// Per column: its column features on the first board.
    per: [Column; 10],
    /// Per column c, the extremes over the columns left of c and right of c (the hole depths
    /// and the tops as bit sets).
    left: [Extremes; 11],
    right: [Extremes; 11],
    pile_top: u8,
    /// Per row, its row transitions as the first board's pass counted them (0 above the pile).
    row_trans: [u8; 20],
    features: Features,
}

const ALL: u32 = (1 << 20) - 1;

/// One column's share of the board features.
#[derive(Clone, Copy, Debug, Default)]
struct Column {
    top: u8,
    holes: u8,
    transitions: u8,
    wells: u8,
    /// Its holes' depths as bits (bit d: a hole d rows under its top).
    depths: u32,
}

/// The hole depths and the tops of some columns as bit sets: bit d of `depths` for a hole
/// d rows under its column's top (1 to 19), bit t of `tops` for a column whose top is t (0 to
/// 20). The minimum and maximum over the columns are the lowest and highest bits, and the
/// union of two sets is their extremes' extremes.
#[derive(Clone, Copy, Debug)]
struct Extremes {
    depths: u32,
    tops: u32,
}

const NO_EXTREMES: Extremes = Extremes { depths: 0, tops: 0 };

impl Extremes {
    #[inline(always)]
    fn union(&self, other: &Extremes) -> Extremes {
        Extremes {
            depths: self.depths | other.depths,
            tops: self.tops | other.tops,
        }
    }

    #[inline(always)]
    fn with(self, c: &Column) -> Extremes {
        Extremes {
            depths: self.depths | c.depths,
            tops: self.tops | (1 << c.top),
        }
    }

    /// The smallest hole depth (20: no hole), the largest (0: no hole) and the lowest top (0
    /// with no column).
    #[inline(always)]
    fn values(&self) -> (u32, u32, u32) {
        let d = self.depths;
        let (min, max) = if d == 0 {
            (20, 0)
        } else {
            (d.trailing_zeros(), 31 - d.leading_zeros())
        };
        (min, max, 31 - (self.tops | 1).leading_zeros())
    }
}

/// Column `col` (filled rows as bits) between columns `left` and `right`: its top (20: empty),
/// holes (empty cells right under a filled one) and their depths, column transitions
/// below its top, and well cells (empty above its top, both neighbours filled).
#[inline(always)]
fn column(left: u32, col: u32, right: u32) -> Column {
    let top = (col | (1 << 20)).trailing_zeros();
    let holes = !col & (col << 1) & ALL;
    let below_top = ALL & !((2u32 << top) - 1);
    let above_top = (1u32 << top) - 1;
    Column {
        top: top as u8,
        holes: holes.count_ones() as u8,
        depths: holes >> top,
        transitions: ((col ^ (col << 1)) & below_top).count_ones() as u8,
        wells: (left & right & above_top).count_ones() as u8,
    }
}

/// Filled/empty changes along `row` between the walls.
#[inline(always)]
fn row_transitions(row: u16) -> u32 {
    let w = (row << 1) | 1 | (1 << 11);
    ((w ^ (w >> 1)) & 0x7FF).count_ones()
}

/// Calls `f(column)` for every set bit of `m`.
#[inline(always)]
fn each_column(mut m: u16, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize & 15);
        m &= m - 1;
    }
}

/// Per orientation id, the smallest and largest row offsets of its cells.
pub(super) const DY: [(i8, i8); Orientation::NUM] = dys();

const fn dys() -> [(i8, i8); Orientation::NUM] {
    let mut dys = [(0i8, 0i8); Orientation::NUM];
    let mut id = 0;
    while id < Orientation::NUM {
        if let Some(o) = Orientation::new(id as u8) {
            let e = o.extent();
            dys[id] = (e.2, e.3);
        }
        id += 1;
    }
    dys
}

/// Per orientation id, its cells (dx, dy).
pub(super) const CELLS: [[(i8, i8); 4]; Orientation::NUM] = cells();

const fn cells() -> [[(i8, i8); 4]; Orientation::NUM] {
    let mut cells = [[(0i8, 0i8); 4]; Orientation::NUM];
    let mut id = 0;
    while id < Orientation::NUM {
        if let Some(o) = Orientation::new(id as u8) {
            cells[id] = o.cells();
        }
        id += 1;
    }
    cells
}

/// An orientation's cells by column: the leftmost column's offset, how many columns, and
/// each column's cells as row bits counted from its top row (offset `DY`'s first).
#[derive(Clone, Copy)]
struct Span {
    dx: i8,
    width: u8,
    cols: [u32; 4],
}

/// Per orientation id, its [`Span`].
const SPANS: [Span; Orientation::NUM] = spans();

const fn spans() -> [Span; Orientation::NUM] {
    let mut spans = [Span {
        dx: 0,
        width: 1,
        cols: [0; 4],
    }; Orientation::NUM];
    let mut id = 0;
    while id < Orientation::NUM {
        let cells = CELLS[id];
        let (mut lo, mut hi, mut top) = (cells[0].0, cells[0].0, cells[0].1);
        let mut i = 1;
        while i < 4 {
            if cells[i].0 < lo {
                lo = cells[i].0;
            }
            if cells[i].0 > hi {
                hi = cells[i].0;
            }
            if cells[i].1 < top {
                top = cells[i].1;
            }
            i += 1;
        }
        let mut cols = [0u32; 4];
        i = 0;
        while i < 4 {
            cols[(cells[i].0 - lo) as usize] |= 1 << (cells[i].1 - top);
            i += 1;
        }
        spans[id] = Span {
            dx: lo,
            width: (hi - lo + 1) as u8,
            cols,
        };
        id += 1;
    }
    spans
}

impl Prefix {
    /// The pass over the visible rows of the board after the first lock.
    #[inline(always)]
    pub(super) fn of_rows(rows: &[u16; 20]) -> Prefix {
        let mut cols = [0u32; 12];
        cols[0] = ALL;
        cols[11] = ALL;
        for (r, &row) in rows.iter().enumerate() {
            each_column(row, |c| cols[c + 1] |= 1 << r);
        }
        let mut per = [Column::default(); 10];
        for c in 0..10 {
            per[c] = column(cols[c], cols[c + 1], cols[c + 2]);
        }
        let (mut left, mut right) = ([NO_EXTREMES; 11], [NO_EXTREMES; 11]);
        for c in 0..10 {
            left[c + 1] = left[c].with(&per[c]);
            right[9 - c] = right[10 - c].with(&per[9 - c]);
        }
        let pile_top = rows.iter().position(|&r| r != 0).unwrap_or(20);
        let mut row_trans = [0u8; 20];
        for r in pile_top..20 {
            row_trans[r] = row_transitions(rows[r]) as u8;
        }
        Prefix {
            rows: *rows,
            cols,
            per,
            left,
            right,
            pile_top: pile_top as u8,
            row_trans,
            features: features_of(rows),
        }
    }

    /// The board features of `rows`: this board with `second` locked on it and no line cleared.
    #[inline(always)]
    pub(super) fn features_after(&self, rows: &[u16; 20], second: &Pos) -> Features {
        let id = usize::from(second.orientation.id());
        let (dy0, dy1) = DY[id];
        let y = i32::from(second.y as i8);
        let (a, b) = (y + i32::from(dy0), y + i32::from(dy1));
        if b < 0 {
            return self.features;
        }
        if b > 19 {
            return features_of(rows);
        }
        // The rows the lock filled, and the row below them.
        let (a, b) = (a.max(0) as usize, b as usize);
        let e = (b + 1).min(19);
        debug_assert!((0..20).all(|r| (a..=b).contains(&r) || rows[r] == self.rows[r]));
        let pt1 = usize::from(self.pile_top);
        let mut f = self.features;
        let (mut holes_delta, mut weighted_delta) = (0i32, 0i32);
        for r in a..e + 1 {
            let (old, new) = (self.rows[r], rows[r]);
            let n = (new & !old).count_ones();
            f.solid_cells += n;
            f.weighted_solid_cells += (20 - r as u32) * n;
            // Rows above the first board's pile were not counted there.
            f.row_transitions =
                f.row_transitions + row_transitions(new) - u32::from(self.row_trans[r]);
            let (above1, above2) = if r == 0 {
                (0, 0)
            } else {
                (self.rows[r - 1], rows[r - 1])
            };
            let d = (!new & above2).count_ones() as i32 - (!old & above1).count_ones() as i32;
            holes_delta += d;
            weighted_delta += d * (r as i32 + 1);
        }
        // Empty rows between the new pile top and the old one: two row transitions each.
        if pt1 > e + 1 {
            f.row_transitions += 2 * (pt1 - 1 - e) as u32;
        }
        f.pile_height = 20 - pt1.min(a) as u32;
        // The lock's columns, as masks; then its columns and their neighbours are redone.
        let mut cols = self.cols;
        let (mut c0, mut c1) = (9usize, 0usize);
        if y + i32::from(dy0) >= 0 {
            // Every cell visible: the columns from the orientation's table, no cell loop.
            let span = &SPANS[id];
            c0 = (i32::from(second.x) + i32::from(span.dx)) as usize;
            c1 = c0 + usize::from(span.width) - 1;
            let shift = y + i32::from(dy0);
            for (k, bits) in span.cols.iter().enumerate().take(usize::from(span.width)) {
                cols[(c0 + 1 + k).min(11)] |= bits << shift;
            }
        } else {
            for (dx, dy) in CELLS[id] {
                let (c, r) = (
                    (i32::from(second.x) + i32::from(dx)) as usize,
                    y + i32::from(dy),
                );
                if r >= 0 {
                    cols[(c + 1).min(11)] |= 1 << r;
                    (c0, c1) = (c0.min(c), c1.max(c));
                }
            }
        }
        let mut ext = self.left[c0].union(&self.right[c1 + 1]);
        let (mut d0, mut d1, mut d2, mut d3, mut d4) = (0i32, 0i32, 0i32, 0i32, 0i32);
        // A neighbour of the lock keeps its cells, so all but its well cells (which read its
        // neighbours) and its extremes are in `left[c0]` / `right[c1 + 1]` already.
        let mut neighbour = |c: usize| {
            let old = &self.per[c];
            let wells = (cols[c] & cols[c + 2] & ((1u32 << old.top) - 1)).count_ones() as i32;
            d1 += wells - i32::from(old.wells);
            d2 += i32::from(wells >= 3) - i32::from(old.wells >= 3);
        };
        if c0 > 0 {
            neighbour(c0 - 1);
        }
        if c1 < 9 {
            neighbour(c1 + 1);
        }
        let mut top_prev = if c0 == 0 {
            None
        } else {
            Some(self.per[c0 - 1].top)
        };
        let mut old_prev = top_prev;
        for c in c0..c1 + 1 {
            let (old, new) = (&self.per[c], column(cols[c], cols[c + 1], cols[c + 2]));
            ext = ext.with(&new);
            d0 += i32::from(new.transitions) - i32::from(old.transitions);
            d1 += i32::from(new.wells) - i32::from(old.wells);
            d2 += i32::from(new.wells >= 3) - i32::from(old.wells >= 3);
            d3 += i32::from(old.top) - i32::from(new.top);
            // Σ count × top over the holes, for their depths.
            d4 += i32::from(new.holes) * i32::from(new.top)
                - i32::from(old.holes) * i32::from(old.top);
            if let (Some(p), Some(q)) = (top_prev, old_prev) {
                f.column_height_variance =
                    (f.column_height_variance as i32 + i32::from(new.top.abs_diff(p))
                        - i32::from(old.top.abs_diff(q))) as u32;
            }
            (top_prev, old_prev) = (Some(new.top), Some(old.top));
        }
        if c1 < 9 {
            let (next, p, q) = (
                self.per[c1 + 1].top,
                top_prev.unwrap_or(0),
                old_prev.unwrap_or(0),
            );
            f.column_height_variance = (f.column_height_variance as i32
                + i32::from(next.abs_diff(p))
                - i32::from(next.abs_diff(q))) as u32;
        }
        let add = |x: u32, d: i32| (x as i32 + d) as u32;
        f.column_holes = add(f.column_holes, holes_delta);
        f.weighted_column_holes = add(f.weighted_column_holes, weighted_delta);
        // Σ (row − top) over holes = Σ rows − Σ count × top, Σ rows = Σ (row + 1) − count.
        f.column_hole_depths = add(f.column_hole_depths, weighted_delta - holes_delta - d4);
        f.column_transitions = add(f.column_transitions, d0);
        f.well_cells = add(f.well_cells, d1);
        f.deep_wells = add(f.deep_wells, d2);
        f.column_heights = add(f.column_heights, d3);
        let (min_depth, max_depth, lowest) = ext.values();
        f.min_column_hole_depth = min_depth;
        f.max_column_hole_depth = max_depth;
        // The row where the last column is first covered (20: some column never is).
        f.column_height_spread = f.pile_height - (20 - lowest);
        f
    }
}
