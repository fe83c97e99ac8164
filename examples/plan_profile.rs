//! One board and level of the planner bench for instruction counts: `valgrind --tool=callgrind
//! target/release/examples/plan_profile mid|empty LEVEL [old|third]` (reference, default planner).

use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::testing::ReferencePlanner;
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Situation, Standard};

const MID_GAME: &str = "\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
#########.\n####.####.\n#########.\n#########.\n#########.";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = match args.get(1).map(String::as_str) {
        Some("empty") => Board::EMPTY,
        _ => Board::from_text(MID_GAME).expect("board"),
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
        for (i, piece) in Piece::ALL.iter().enumerate() {
            let s = Situation {
                board,
                active: Active::spawn(piece.spawn().id(), 0, 0),
                prev: PadState::NONE,
                level,
                lines: [0x50, 0x01],
                next: Some(Piece::ALL[(i + 3 + round) % 7]),
                progress: Default::default(),
            };
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
