//! The learned board value's weights (`nestor learn` fits them): the tables' layout and the
//! weights file's `[phase.NAME.learned]` table, checked for size when read.

use serde::{Deserialize, Serialize};

use crate::search::features::FEATURE_COUNT;

/// Heights above this count as this in the single-column tables.
pub const HEIGHT_CAP: usize = 15;
/// Heights above this count as this in the neighbour-pair tables.
pub const PAIR_CAP: usize = 9;
/// Holes (empty cells under a column's top) above this count as this.
pub const HOLE_CAP: usize = 9;
/// Rows holding a hole above this count as this.
pub const HOLE_ROW_CAP: usize = 7;
/// Height steps to a column's neighbours beyond this either way count as this.
pub const STEP_CAP: i32 = 3;

/// Entries of the single-column tables.
pub const HEIGHTS: usize = 10 * (HEIGHT_CAP + 1);
/// Entries of the neighbour-pair tables.
pub const PAIRS: usize = 9 * (PAIR_CAP + 1) * (PAIR_CAP + 1);
/// Entries of the three-column tables: the steps from a column to its left and right
/// neighbours (walls as 20 high), per column.
pub const TRIPLES: usize = 10 * STEPS * STEPS;
/// Values a capped step takes.
pub const STEPS: usize = 2 * STEP_CAP as usize + 1;
/// Entries of the holes' table.
pub const HOLES: usize = HOLE_CAP + 1;
/// Entries of the hole rows' table.
pub const HOLE_ROWS: usize = HOLE_ROW_CAP + 1;
/// Table entries in all: the one-hot inputs' count.
pub const TABLE_LEN: usize = HEIGHTS + PAIRS + TRIPLES + HOLES + HOLE_ROWS;
/// Looked-up entries per board: ten heights, nine pairs, ten triples, the holes and the
/// hole rows.
pub const ACTIVE: usize = 10 + 9 + 10 + 1 + 1;
/// The board features a learned value weighs (every feature but the two of placements).
pub const REALS: usize = FEATURE_COUNT - 2;

/// A board as the learned value reads it: the table entries it looks up and its board
/// features as numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encoded {
    /// Indices into the tables, in summation order.
    pub active: [u16; ACTIVE],
    /// The board features from `well_cells` on, in file order.
    pub reals: [f64; REALS],
}

/// A learned board value (lower is better, like every pair value): the cost of leaving the
/// board, in the units of `lines_cleared`'s weight (minus the discounted lines to come).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "LearnedFile", into = "LearnedFile")]
pub struct LearnedValue {
    /// Added to every board.
    pub bias: f64,
    /// The lookup tables, [`TABLE_LEN`] entries.
    pub table: Vec<f64>,
    /// Per board feature from `well_cells` on, in file order.
    pub features: [f64; REALS],
}

impl LearnedValue {
    /// The value of a board as `eval::encode` reads it.
    #[inline]
    pub fn value_of(&self, e: &Encoded) -> f64 {
        let mut v = self.bias;
        for &i in &e.active {
            v += self.table[usize::from(i)];
        }
        for (w, x) in self.features.iter().zip(&e.reals) {
            v += w * x;
        }
        v
    }

    /// Every weight, for the weights file's finiteness and size checks.
    pub fn all(&self) -> impl Iterator<Item = f64> + '_ {
        std::iter::once(self.bias)
            .chain(self.table.iter().copied())
            .chain(self.features.iter().copied())
    }
}

/// The weights file's `[phase.NAME.learned]` table: each table under its own key.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LearnedFile {
    /// Added to every board.
    pub(crate) bias: f64,
    /// Column c's height h (capped at 15) at `c * 16 + h`.
    pub(crate) heights: Vec<f64>,
    /// Columns c and c + 1 at heights a and b (capped at 9) at `c * 100 + a * 10 + b`.
    pub(crate) pairs: Vec<f64>,
    /// Column c with steps l and r to its neighbours (capped at ±3, walls 20 high) at
    /// `c * 49 + (l + 3) * 7 + (r + 3)`.
    pub(crate) triples: Vec<f64>,
    /// By the holes' count, capped at 9.
    pub(crate) holes: Vec<f64>,
    /// By the count of rows holding a hole, capped at 7.
    pub(crate) hole_rows: Vec<f64>,
    /// Per board feature from `well_cells` to `column_height_variance`.
    pub(crate) features: Vec<f64>,
}

impl TryFrom<LearnedFile> for LearnedValue {
    type Error = String;

    fn try_from(f: LearnedFile) -> Result<LearnedValue, String> {
        let sizes = [
            ("heights", f.heights.len(), HEIGHTS),
            ("pairs", f.pairs.len(), PAIRS),
            ("triples", f.triples.len(), TRIPLES),
            ("holes", f.holes.len(), HOLES),
            ("hole_rows", f.hole_rows.len(), HOLE_ROWS),
            ("features", f.features.len(), REALS),
        ];
        if let Some((key, got, want)) = sizes.iter().find(|(_, got, want)| got != want) {
            return Err(format!("learned.{key} has {got} numbers, expected {want}"));
        }
        let mut features = [0.0; REALS];
        features.copy_from_slice(&f.features);
        let table = [f.heights, f.pairs, f.triples, f.holes, f.hole_rows].concat();
        Ok(LearnedValue {
            bias: f.bias,
            table,
            features,
        })
    }
}

impl From<LearnedValue> for LearnedFile {
    fn from(v: LearnedValue) -> LearnedFile {
        let t = &v.table;
        let (h, rest) = t.split_at(HEIGHTS);
        let (p, rest) = rest.split_at(PAIRS);
        let (t, rest) = rest.split_at(TRIPLES);
        let (o, r) = rest.split_at(HOLES);
        LearnedFile {
            bias: v.bias,
            heights: h.to_vec(),
            pairs: p.to_vec(),
            triples: t.to_vec(),
            holes: o.to_vec(),
            hole_rows: r.to_vec(),
            features: v.features.to_vec(),
        }
    }
}
