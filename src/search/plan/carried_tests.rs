//! The two-piece loop's carried pair values (`Evaluator::each_pair_after`, one pass per first
//! lock) against the loop as it was, each pair locked and fully valued: the same plans.

use super::Planner;
use crate::game::piece::Piece;
use crate::movegen::profile::Profile;
use crate::search::eval::Standard;
use crate::search::fixtures::{planner_boards, random_boards};
use crate::search::third::Lookahead;
use crate::search::Situation;

#[test]
fn the_layers_pairs_valued_carried_give_the_full_passs_plans() {
    let mut all = planner_boards();
    all.extend(random_boards(12, 0x2545_F491_4F6C_DD1D));
    let (mut plans, mut layered) = (0, 0);
    for preset in ["unlimited", "10hz"] {
        let profile = Profile::preset(preset).expect("a preset");
        let mut carried = Planner::new(Standard::default());
        let mut full = Planner::new(Standard::default());
        full.full_pass_pairs = true;
        for p in [&mut carried.profile, &mut full.profile] {
            *p = profile.clone();
        }
        assert_eq!(carried.lookahead, Lookahead::default());
        assert!(carried.lookahead.top_k > 0, "the layer is on by default");
        for (b, &board) in all.iter().enumerate() {
            for (level, lines) in [(18, [0x30, 0x01]), (19, [0x95, 0x01]), (29, [0x00, 0x03])] {
                for piece in Piece::ALL {
                    for next in Piece::ALL {
                        let s = Situation::at_spawn(board, piece, level, lines, Some(next));
                        let (a, want) = (carried.plan(&s), full.plan(&s));
                        assert_eq!(
                            a, want,
                            "{preset} board {b} level {level} {piece:?} {next:?}"
                        );
                        plans += 1;
                        layered += usize::from(!carried.keys.is_empty());
                    }
                }
            }
        }
    }
    // Nearly every decision went through the layer's loop (a board full enough to top out
    // may leave no pair).
    assert!(
        layered > plans * 9 / 10,
        "{layered} of {plans} through the layer"
    );
}
