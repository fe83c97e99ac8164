//! One full two-piece decision (BFS of the current piece, a BFS of the next piece for every
//! lock, evaluation of every pair) on named boards at levels 19, 29, 9 and 0.
//!
//! Run: `cargo bench --bench planner` (one core). Prints p50/p99/max per board after a
//! warm-up, and asserts each board's candidate count so a broken search cannot post a time.

use std::time::Instant;

use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::{Planner, Situation, Standard};

const EMPTY: &str = "";
/// A typical level-19 mid-game stack: 6-8 rows, a well on the right, one covered hole.
const MID_GAME: &str = "\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
#########.\n####.####.\n#########.\n#########.\n#########.";
/// Tall and ragged: a 14-row stack with holes, overhangs and deep wells.
const TALL_RAGGED: &str = "\
..........\n..........\n..........\n..........\n..........\n\
......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
#.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
####.####.\n###.#####.\n#########.\n##.######.\n#########.";

fn board(text: &str) -> Board {
    if text.is_empty() {
        Board::EMPTY
    } else {
        Board::from_text(text).expect("bench board")
    }
}

fn main() {
    let mut planner = Planner::new(Standard::default());
    println!(
        "{:<12} {:>5} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "board", "level", "locks", "p50 ms", "p99 ms", "max ms", "mean ms"
    );
    for (name, text) in [
        ("empty", EMPTY),
        ("mid-game", MID_GAME),
        ("tall-ragged", TALL_RAGGED),
    ] {
        let b = board(text);
        for level in [19u8, 29, 9, 0] {
            let mut times = Vec::new();
            let mut candidates = 0;
            for round in 0..8 {
                for (i, piece) in Piece::ALL.iter().enumerate() {
                    let next = Piece::ALL[(i + 3 + round) % 7];
                    let s = Situation {
                        board: b,
                        active: Active::spawn(piece.spawn().id(), 0, 0),
                        prev: PadState::NONE,
                        level,
                        lines: [0x50, 0x01],
                        next: Some(next),
                    };
                    let t = Instant::now();
                    let plan = planner.plan(&s).expect("a plan");
                    let el = t.elapsed().as_secs_f64() * 1000.0;
                    assert!(plan.candidates > 0 && !plan.inputs.is_empty());
                    if round > 0 {
                        times.push(el);
                        candidates += plan.candidates;
                    }
                }
            }
            times.sort_by(f64::total_cmp);
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            println!(
                "{:<12} {:>5} {:>6} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
                name,
                level,
                candidates / times.len(),
                pct(0.5),
                pct(0.99),
                pct(1.0),
                mean
            );
        }
    }
}
