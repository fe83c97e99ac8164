//! Decision time as CPU time of the planning thread (not wall time), so the figure holds on a
//! machine shared with other work: the planner bench's boards at levels 19 and 29.
//!
//! Run: `cargo run --release --example decision_cpu [depth2] [REPEAT]`. Prints p50/p99/max per
//! board and level; `depth2` turns the third-piece expectation off (the planner bench's
//! main table), REPEAT plays the rounds that many times (for perf and callgrind).

use nestor::search::third::Lookahead;
use nestor::search::{Planner, Standard};

/// The planner bench's boards, decisions and CPU clock (one definition, in the bench).
#[allow(dead_code)]
#[path = "../benches/planner.rs"]
mod bench;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut planner = Planner::new(Standard::default());
    if args.iter().any(|a| a == "depth2") {
        planner.lookahead = Lookahead::OFF;
    }
    let repeat: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1);
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>10}",
        "board", "level", "p50 ms", "p99 ms", "max ms"
    );
    for (name, board) in [
        ("empty", bench::board(bench::EMPTY)),
        ("mid-game", bench::board(bench::MID_GAME)),
        ("tall-ragged", bench::board(bench::TALL_RAGGED)),
    ] {
        for level in [19u8, 29] {
            let times = bench::spawn_cpu_times(&mut planner, board, level, repeat);
            let pct = |p: f64| bench::quantile(&times, p);
            println!(
                "{:<12} {:>5} {:>10.2} {:>10.2} {:>10.2}",
                name,
                level,
                pct(0.5),
                pct(0.99),
                pct(1.0)
            );
        }
    }
}
