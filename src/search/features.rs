//! The 17 evaluation features of meatfighter's 2018 evaluator, named once: every list of them
//! (`Features`, `PhaseWeights`, the TOML keys, explain's labels) is generated from this table.

// `with_features!(m)` calls `m! { name, name, ... }` with the features in file order: the
// order of the weights file, of `Features::terms`, of `PhaseWeights::floats` and of the sum in
// `PhaseWeights::score` (floating-point addition is not associative, so the order is part of
// the value). A new feature is a line here, its weights in `weights/defaults.rs` (the compiler
// asks for them) and its function in `eval.rs`.

macro_rules! with_features {
    ($m:ident) => {
        $m! {
            lines_cleared,
            lock_height,
            well_cells,
            deep_wells,
            column_holes,
            weighted_column_holes,
            column_hole_depths,
            min_column_hole_depth,
            max_column_hole_depth,
            column_transitions,
            row_transitions,
            column_heights,
            pile_height,
            column_height_spread,
            solid_cells,
            weighted_solid_cells,
            column_height_variance,
        }
    };
}
pub(crate) use with_features;

macro_rules! names {
    ($($name:ident),* $(,)?) => {
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
