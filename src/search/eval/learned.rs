//! A board read for the learned value (`weights::LearnedValue`): the table entries it looks
//! up and its board features as numbers; training and the evaluator both read boards here.

// The tables are an n-tuple network: each column's height, each pair of neighbouring columns'
// heights together, the holes and the rows with holes, each looked up in its own table; the
// value is the bias, then the looked-up weights in `Encoded::active` order, then the board
// features times their weights in file order. Training (`lab::learn`) and the evaluator both
// read a board through `encode`, so they see the same inputs, and the trainer's check values
// come from `LearnedValue::value_of` itself (the committed check file pins them bit for bit).

use super::feature_values::features_of;
use super::Features;
use crate::game::board::FULL_ROW;
pub use crate::search::weights::learned::Encoded;
use crate::search::weights::learned::{
    LearnedValue, ACTIVE, HEIGHTS, HEIGHT_CAP, HOLES, HOLE_CAP, HOLE_ROW_CAP, PAIRS, PAIR_CAP,
    REALS, STEPS, STEP_CAP, TRIPLES,
};

/// Reads visible rows (row 0 at the top) and their board features.
#[inline]
pub fn encode(rows: &[u16; 20], board: &Features) -> Encoded {
    let mut heights = [0usize; 10];
    let mut seen = 0u16;
    let (mut holes, mut hole_rows) = (0u32, 0usize);
    for (r, &row) in rows.iter().enumerate() {
        let mut new = row & !seen & FULL_ROW;
        while new != 0 {
            heights[new.trailing_zeros() as usize] = 20 - r;
            new &= new - 1;
        }
        let empty_below = !row & seen & FULL_ROW;
        holes += empty_below.count_ones();
        hole_rows += usize::from(empty_below != 0);
        seen |= row;
    }
    let mut active = [0u16; ACTIVE];
    for (c, &h) in heights.iter().enumerate() {
        active[c] = (c * (HEIGHT_CAP + 1) + h.min(HEIGHT_CAP)) as u16;
    }
    for c in 0..9 {
        let (a, b) = (heights[c].min(PAIR_CAP), heights[c + 1].min(PAIR_CAP));
        active[10 + c] =
            (HEIGHTS + c * (PAIR_CAP + 1) * (PAIR_CAP + 1) + a * (PAIR_CAP + 1) + b) as u16;
    }
    // Off the field (column −1 or 10) a wall, as high as the field.
    let height = |c: usize| heights.get(c).map_or(20, |&h| h as i32);
    for c in 0..10 {
        let step =
            |n: usize| ((height(n) - height(c)).clamp(-STEP_CAP, STEP_CAP) + STEP_CAP) as usize;
        let (l, r) = (step(c.wrapping_sub(1)), step(c + 1));
        active[19 + c] = (HEIGHTS + PAIRS + c * STEPS * STEPS + l * STEPS + r) as u16;
    }
    let base = HEIGHTS + PAIRS + TRIPLES;
    active[29] = (base + (holes as usize).min(HOLE_CAP)) as u16;
    active[30] = (base + HOLES + hole_rows.min(HOLE_ROW_CAP)) as u16;
    let terms = board.terms();
    let mut reals = [0.0; REALS];
    for (x, (_, v)) in reals.iter_mut().zip(&terms[2..]) {
        *x = f64::from(*v);
    }
    Encoded { active, reals }
}

/// [`encode`] of visible rows, their features counted here: how the trainer reads a position.
pub fn encode_rows(rows: &[u16; 20]) -> Encoded {
    encode(rows, &features_of(rows))
}

impl LearnedValue {
    /// The value of the board with these visible rows and board features.
    #[inline]
    pub fn value(&self, rows: &[u16; 20], board: &Features) -> f64 {
        self.value_of(&encode(rows, board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::weights::learned::{LearnedFile, HOLE_ROWS, TABLE_LEN};

    fn rows_of(picture: &[&str]) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (r, line) in picture.iter().rev().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                if ch == '#' {
                    rows[19 - r] |= 1 << c;
                }
            }
        }
        rows
    }

    #[test]
    fn a_board_is_read_as_heights_pairs_and_holes() {
        // Column 0 three high with a hole, column 9 one high, column 4 two high.
        let rows = rows_of(&["#.........", "....#.....", "#...#....#"]);
        let e = encode(&rows, &features_of(&rows));
        let h = |c: usize, height: usize| (c * 16 + height) as u16;
        assert_eq!(e.active[0], h(0, 3));
        assert_eq!(e.active[4], h(4, 2));
        assert_eq!(e.active[9], h(9, 1));
        assert_eq!(e.active[1], h(1, 0));
        // Columns 3 and 4: heights 0 and 2.
        assert_eq!(e.active[13], (HEIGHTS + 3 * 100 + 2) as u16);
        // Column 4 two high, columns 3 and 5 empty: steps −2 and −2; column 0 by the wall.
        assert_eq!(e.active[19 + 4], (HEIGHTS + PAIRS + 4 * 49 + 7 + 1) as u16);
        assert_eq!(e.active[19], (HEIGHTS + PAIRS + 6 * 7) as u16);
        let base = HEIGHTS + PAIRS + TRIPLES;
        assert_eq!(e.active[29], (base + 1) as u16);
        assert_eq!(e.active[30], (base + HOLES + 1) as u16);
    }

    #[test]
    fn tall_columns_and_many_holes_are_capped() {
        let mut rows = [0u16; 20];
        rows[0] = 0b11;
        let e = encode(&rows, &features_of(&rows));
        assert_eq!(e.active[0], 15);
        assert_eq!(e.active[10], (HEIGHTS + 9 * 10 + 9) as u16);
        let base = HEIGHTS + PAIRS + TRIPLES;
        assert_eq!(e.active[29], (base + HOLE_CAP) as u16);
        assert_eq!(e.active[30], (base + HOLES + HOLE_ROW_CAP) as u16);
    }

    #[test]
    fn the_value_sums_bias_tables_and_features() {
        let mut v = LearnedValue {
            bias: 0.5,
            table: vec![0.0; TABLE_LEN],
            features: [0.0; REALS],
        };
        let rows = rows_of(&["##........"]);
        let f = features_of(&rows);
        v.table[17] = 2.0; // column 1 at height 1
        v.features[0] = 1.0; // well_cells
        let expected = 0.5 + 2.0 + f64::from(f.well_cells);
        assert_eq!(v.value(&rows, &f), expected);
    }

    #[test]
    fn a_table_of_the_wrong_size_is_refused_by_name() {
        let f = LearnedFile {
            bias: 0.0,
            heights: vec![0.0; HEIGHTS],
            pairs: vec![0.0; PAIRS - 1],
            triples: vec![0.0; TRIPLES],
            holes: vec![0.0; HOLES],
            hole_rows: vec![0.0; HOLE_ROWS],
            features: vec![0.0; REALS],
        };
        let e = LearnedValue::try_from(f).unwrap_err();
        assert!(e.contains("learned.pairs has 899"), "{e}");
    }

    /// The 20 visible rows of a check file's line, 4 hex digits a row.
    fn rows_from_hex(hex: &str) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (r, row) in rows.iter_mut().enumerate() {
            *row = u16::from_str_radix(&hex[r * 4..r * 4 + 4], 16).expect("hex rows");
        }
        rows
    }

    /// The shipped learned values give, on the positions their training run wrote to its
    /// check file (`nestor learn --data DIR`: DIR/check.csv), the values it wrote, to the bit.
    #[test]
    fn the_shipped_values_match_their_training_export_bit_for_bit() {
        let checks = [
            (
                "12hz",
                include_str!("../../../tests/fixtures/learned/12hz-check.csv"),
            ),
            (
                "15hz",
                include_str!("../../../tests/fixtures/learned/15hz-check.csv"),
            ),
        ];
        for (set, check) in checks {
            let weights = crate::search::Weights::built_in(set).unwrap();
            let learned = weights
                .at(29)
                .learned
                .as_ref()
                .expect("a learned killscreen");
            let mut lines = check.lines();
            assert_eq!(lines.next(), Some("rows,value_bits,value"));
            let mut n = 0;
            let mut distinct = std::collections::BTreeSet::new();
            for line in lines {
                let f: Vec<&str> = line.split(',').collect();
                let bits = u64::from_str_radix(f[1], 16).unwrap();
                let v = learned.value_of(&encode_rows(&rows_from_hex(f[0])));
                assert_eq!(v.to_bits(), bits, "{set}: {line}");
                distinct.insert(bits);
                n += 1;
            }
            assert_eq!(n, 256, "{set}");
            assert!(distinct.len() > 100, "{set}: the positions differ");
        }
    }
}
