//! One board and level of the planner bench for instruction counts: `valgrind --tool=callgrind
//! target/release/examples/plan_profile mid|empty LEVEL [old|third]` (reference, default planner).

use nestor::game::{Board, Piece};
use nestor::search::testing::ReferencePlanner;
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Standard};

/// The planner bench's boards, decisions and CPU clock (one definition, in the bench).
#[allow(dead_code)]
#[path = "../benches/planner.rs"]
mod bench;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = match args.get(1).map(String::as_str) {
        Some("empty") => Board::EMPTY,
        _ => bench::board(bench::MID_GAME),
    };
    let level: u8 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(19);
    let old = args.get(3).is_some_and(|a| a == "old");
    let mut planner = Planner::new(Standard::default());
    // The two-piece decision unless asked for the default planner's third piece too.
    if args.get(3).is_none_or(|a| a != "third") {
        planner.lookahead = Lookahead::OFF;
    }
    let mut reference = ReferencePlanner::new(Standard::default());
    let mut candidates = 0;
    for round in 1..8 {
        for i in 0..Piece::NUM {
            let s = bench::situation(board, level, round, i);
            let plan = if old {
                reference.plan(&s)
            } else {
                planner.plan(&s)
            };
            candidates += plan.expect("a plan").candidates;
        }
    }
    println!("49 decisions, {candidates} current-piece locks");
}
