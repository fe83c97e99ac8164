//! The 17 evaluation features of meatfighter's 2018 evaluator, named once: every list of them
//! (`Features`, `PhaseWeights`, the TOML keys, explain's labels) is generated from this table.

// `with_features!(m)` calls `m! { /// doc name, /// doc name, ... }` with the features in file
// order: the order of the weights file, of `Features::terms`, of `PhaseWeights::floats` and of
// the sum in `PhaseWeights::score` (floating-point addition is not associative, so the order is
// part of the value). Each name's doc line is its `Features` field's (the definitions are
// `eval/oracle.rs`'s). A new feature is an entry here, its weights in `weights/defaults.rs`
// (the compiler asks for them) and its function in `eval.rs`.

macro_rules! with_features {
    ($m:ident) => {
        $m! {
            /// Lines the pair's two placements clear together (0 for a board alone).
            lines_cleared,
            /// Rows between each placement's lowest cell and the floor, summed over the pair
            /// (0 for a board alone).
            lock_height,
            /// Empty cells above their column's top with both neighbours in the row filled
            /// (walls count as filled).
            well_cells,
            /// Columns holding 3 or more well cells.
            deep_wells,
            /// Empty cells with a filled cell directly above (a gap of several rows counts once).
            column_holes,
            /// The holes' rows counted from the top starting at 1, summed (deeper weighs more).
            weighted_column_holes,
            /// Rows from each hole's column top down to the hole, summed over holes.
            column_hole_depths,
            /// Smallest hole depth; 20 when there is no hole.
            min_column_hole_depth,
            /// Largest hole depth; 0 when there is no hole.
            max_column_hole_depth,
            /// Filled/empty changes down each column from its top cell to row 19.
            column_transitions,
            /// Filled/empty changes along each row from the pile's top down, walls as filled.
            row_transitions,
            /// The ten column heights (floor to top filled cell), summed.
            column_heights,
            /// Height of the tallest column.
            pile_height,
            /// Tallest column's height minus the lowest's.
            column_height_spread,
            /// Filled cells in the visible rows.
            solid_cells,
            /// Each filled cell's height above the floor (bottom row = 1), summed.
            weighted_solid_cells,
            /// Height differences of adjacent columns, absolute, summed (bumpiness).
            column_height_variance,
        }
    };
}
pub(crate) use with_features;

macro_rules! names {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// The features' names (their weights-file keys), in file order.
        pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [$(stringify!($name)),*];
        /// How many features there are.
        pub const FEATURE_COUNT: usize = [$(stringify!($name)),*].len();
    };
}
with_features!(names);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::Features;
    use crate::search::weights::PhaseWeights;

    #[test]
    fn one_list_in_file_order() {
        assert_eq!(FEATURE_COUNT, 17);
        assert_eq!(FEATURE_NAMES[0], "lines_cleared");
        assert_eq!(FEATURE_NAMES[16], "column_height_variance");
        let terms = Features::default().terms();
        let floats = PhaseWeights::meatfighter().floats();
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            assert_eq!(terms[i].0, *name);
            assert_eq!(floats[i].0, *name);
        }
    }
}
