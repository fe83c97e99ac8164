//! The spawn decision of one player profile as CPU time of the planning thread: the planner
//! bench's mid-game board at level 19, the bench's 7 × 7 pairs after a warm-up round.
//!
//! Run: `cargo run --release --example preset_cpu [PRESET] [REPEAT]` (default `human`, 1).
//! REPEAT plays the rounds that many times (for perf and callgrind).

use nestor::movegen::profile::Profile;
use nestor::search::{Planner, Standard};

/// The planner bench's boards, decisions and CPU clock (one definition, in the bench).
#[allow(dead_code)]
#[path = "../benches/planner.rs"]
mod bench;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .iter()
        .find(|a| a.parse::<usize>().is_err())
        .map_or("human", String::as_str);
    let repeat: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1);
    let Some(profile) = Profile::preset(name) else {
        eprintln!("preset_cpu: no preset {name:?}");
        std::process::exit(2);
    };
    let board = bench::board(bench::MID_GAME);
    let mut planner = Planner::new(Standard::default());
    planner.profile = profile;
    let times = bench::spawn_cpu_times(&mut planner, board, 19, repeat);
    let pct = |p: f64| bench::quantile(&times, p);
    println!(
        "{name}: {} spawn decisions, cpu p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
}
