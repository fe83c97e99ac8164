//! The built-in weights: meatfighter's 2018 level-19 set retuned by `nestor tune` for levels
//! 0-28 and the killscreen set for 29 on (benches/README.md), equal to config/weights/default.toml.

use super::phases::{Phase, PhaseWeights, Weights};

impl PhaseWeights {
    /// meatfighter's published level-19 set (2018) and the rule constants of its evaluator.
    /// The weights keep every published digit (beyond f64's precision) so they read the same
    /// as the source and as `config/weights/default.toml`.
    #[allow(clippy::excessive_precision)]
    pub fn meatfighter() -> PhaseWeights {
        PhaseWeights {
            lines_cleared: 0.286127095297893900,
            lock_height: 1.701233676909959200,
            well_cells: 0.711304230768307700,
            deep_wells: 0.910665415998680400,
            column_holes: 1.879338064244357000,
            weighted_column_holes: 2.168463848297177000,
            column_hole_depths: -0.265587111961757270,
            min_column_hole_depth: 0.289886584949610500,
            max_column_hole_depth: 0.362361055261181730,
            column_transitions: -0.028668795795469625,
            row_transitions: 0.874179981113233100,
            column_heights: -0.507409683144361900,
            pile_height: -2.148676202831281000,
            column_height_spread: -1.187558540281141700,
            solid_cells: -2.645656132241128000,
            weighted_solid_cells: 0.242043416268706620,
            column_height_variance: 0.287838126164431440,
            unreachable_columns: 0.0,
            tetris_rules: true,
            tetris_now_bonus: 2.0e9,
            tetris_next_bonus: 1.0e9,
            ceiling_rules: true,
            top_rows: 7,
            top_rows_penalty: 1.0,
            ceiling_rows: 2,
            learned: None,
        }
    }

    /// Levels 0-28 of the default: the 2018 set's features and rules with its floating-point
    /// weights retuned by `nestor tune --phase score --objective score-at-29 --level 19`
    /// (12 generations of noisy cross-entropy; the command and its check head
    /// `config/weights/default.toml`; benches/README.md, "Tuning").
    pub fn tuned_score() -> PhaseWeights {
        PhaseWeights {
            lines_cleared: 0.28998380082736896,
            lock_height: 1.470079018083706,
            well_cells: 1.0177420007786322,
            deep_wells: 1.5189620588711708,
            column_holes: 1.4129676805959437,
            weighted_column_holes: 2.7726464997180633,
            column_hole_depths: -1.263917542583787,
            min_column_hole_depth: 0.06705411691828175,
            max_column_hole_depth: 0.25486833789450836,
            column_transitions: -0.21240946491428397,
            row_transitions: 1.511831524437675,
            column_heights: -1.15571741352614,
            pile_height: -2.2691549096176136,
            column_height_spread: -0.8059618971323437,
            solid_cells: -3.293946349423975,
            weighted_solid_cells: 0.5073536697935885,
            column_height_variance: 0.6435534256311025,
            unreachable_columns: 0.38598281427343084,
            top_rows_penalty: 0.8703846181517667,
            ..PhaseWeights::meatfighter()
        }
    }

    /// Level 29 on, one row per frame: survival. Pierre Dellacherie's hand-set weights as
    /// El-Tetris published them (landing height, rows cleared, row and column transitions,
    /// holes, wells), no Tetris rules, and the reach of the columns from the spawn. Set by
    /// hand; tuning it finds nothing better (benches/README.md, "Tuning the default").
    pub fn killscreen() -> PhaseWeights {
        PhaseWeights {
            lines_cleared: -3.4,
            lock_height: 4.5,
            well_cells: 3.4,
            deep_wells: 0.0,
            column_holes: 7.9,
            weighted_column_holes: 0.0,
            column_hole_depths: 0.0,
            min_column_hole_depth: 0.0,
            max_column_hole_depth: 0.0,
            column_transitions: 9.3,
            row_transitions: 3.2,
            column_heights: 0.0,
            pile_height: 0.0,
            column_height_spread: 0.0,
            solid_cells: 0.0,
            weighted_solid_cells: 0.0,
            column_height_variance: 0.0,
            unreachable_columns: 2.0,
            tetris_rules: false,
            tetris_now_bonus: 0.0,
            tetris_next_bonus: 0.0,
            ..PhaseWeights::meatfighter()
        }
    }
}

#[cfg(test)]
impl PhaseWeights {
    /// The killscreen set with the reach feature switched off (to measure what it adds).
    pub fn killscreen_without_reach() -> PhaseWeights {
        PhaseWeights {
            unreachable_columns: 0.0,
            ..PhaseWeights::killscreen()
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            phases: vec![
                Phase {
                    name: "score".into(),
                    from_level: 0,
                    to_level: 28,
                    weights: PhaseWeights::tuned_score(),
                },
                Phase {
                    name: "killscreen".into(),
                    from_level: 29,
                    to_level: 255,
                    weights: PhaseWeights::killscreen(),
                },
            ],
        }
    }
}
