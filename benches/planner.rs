//! One full two-piece decision (BFS of the current piece, a BFS of the next piece for every
//! lock, evaluation of every pair) on named boards at levels 19, 29, 9 and 0.
//!
//! Run: `cargo bench --bench planner` (one core). Prints p50/p99/max per board after a
//! warm-up for the planner, then for `search::reference` (the search before issue 14) on the
//! same decisions in the same run; asserts both choose the same lock, value and buttons.

use std::time::Instant;

use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::reference::ReferencePlanner;
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

/// Per-decision times (ms) and mean candidate count of one planner on one board and level.
struct Row {
    times: Vec<f64>,
    candidates: usize,
}

impl Row {
    fn print(&self, name: &str, level: u8) {
        let mut times = self.times.clone();
        times.sort_by(f64::total_cmp);
        let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "{:<12} {:>5} {:>6} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            name,
            level,
            self.candidates / times.len(),
            pct(0.5),
            pct(0.99),
            pct(1.0),
            mean
        );
    }
}

fn header() {
    println!(
        "{:<12} {:>5} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "board", "level", "locks", "p50 ms", "p99 ms", "max ms", "mean ms"
    );
}

fn main() {
    let mut planner = Planner::new(Standard::default());
    let mut reference = ReferencePlanner::new(Standard::default());
    let mut rows = Vec::new();
    for (name, text) in [
        ("empty", EMPTY),
        ("mid-game", MID_GAME),
        ("tall-ragged", TALL_RAGGED),
    ] {
        let b = board(text);
        for level in [19u8, 29, 9, 0] {
            let mut new = Row {
                times: Vec::new(),
                candidates: 0,
            };
            let mut old = Row {
                times: Vec::new(),
                candidates: 0,
            };
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
                    let t = Instant::now();
                    let want = reference.plan(&s).expect("a reference plan");
                    let el_old = t.elapsed().as_secs_f64() * 1000.0;
                    assert!(plan.candidates > 0 && !plan.inputs.is_empty());
                    assert_eq!(
                        (plan.lock, plan.value, &plan.inputs),
                        (want.lock, want.value, &want.inputs),
                        "{name} level {level} {piece:?} then {next:?}: the search changed its answer"
                    );
                    if round > 0 {
                        new.times.push(el);
                        new.candidates += plan.candidates;
                        old.times.push(el_old);
                        old.candidates += want.candidates;
                    }
                }
            }
            rows.push((name, level, new, old));
        }
    }
    header();
    for (name, level, new, _) in &rows {
        new.print(name, *level);
    }
    println!();
    println!("before (search::reference, the same decisions timed in the same run):");
    header();
    for (name, level, _, old) in &rows {
        old.print(&format!("old:{name}"), *level);
    }
}
