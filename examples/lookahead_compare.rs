//! Depth 2 against depth 2 + the third piece on the same seeds (no deadline; stop at level 29 or
//! top-out): `cargo run --release --example lookahead_compare -- LEVEL GAMES TOP_K [THREADS]`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use nestor::game::Game;
use nestor::lab::selfplay::{GameStats, SelfPlay};
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Standard};

/// One game's stats and its per-decision times (ms).
fn play(level: u8, seed: u64, top_k: usize) -> (GameStats, Vec<f64>) {
    let mut planner = Planner::new(Standard::default());
    planner.lookahead = Lookahead {
        top_k,
        deadline_us: 0,
    };
    let mut game = Game::seeded(level, seed);
    let mut sp = SelfPlay::new(&mut planner, &game);
    let stop_at_29 = level < 29;
    let mut times = Vec::new();
    // Time each decision: the frame on which SelfPlay plans is the one where it has no plan.
    loop {
        let fresh = game.play_state == nestor::game::PlayState::Control && sp.plan().is_none();
        let t = Instant::now();
        sp.input(&game);
        if fresh {
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        sp.step(&mut game);
        if sp.stats.topped_out
            || game.play_state == nestor::game::PlayState::Curtain
            || (stop_at_29 && sp.stats.score_at_29.is_some())
            || sp.stats.pieces >= 3000
        {
            break;
        }
    }
    sp.stats.tetris_rate = f64::from(sp.stats.tetrises * 4) / f64::from(sp.stats.lines.max(1));
    (sp.stats.clone(), times)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (level, games, top_k, threads) =
        (arg(1, 19) as u8, arg(2, 20), arg(3, 10) as usize, arg(4, 2));
    for k in [0, top_k] {
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Vec::new());
        let t = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= games {
                        break;
                    }
                    let r = play(level, i + 1, k);
                    out.lock().expect("no panics").push(r);
                });
            }
        });
        let secs = t.elapsed().as_secs_f64();
        let results = out.into_inner().expect("no panics");
        let n = results.len() as f64;
        let mean =
            |f: &dyn Fn(&GameStats) -> f64| results.iter().map(|(s, _)| f(s)).sum::<f64>() / n;
        let mut times: Vec<f64> = results
            .iter()
            .flat_map(|(_, t)| t.iter().copied())
            .collect();
        times.sort_by(f64::total_cmp);
        let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        println!(
            "level {level} top_k {k:>2}: {games} games in {secs:.0} s; mean lines {:.1}, mean score {:.0}, \
             max-out {:.0} %, reached 29 {:.0} %, tetris rate {:.1} %, mean pieces {:.0}; \
             decision p50 {:.2} ms p99 {:.2} ms",
            mean(&|s| s.lines as f64),
            mean(&|s| s.score as f64),
            100.0 * mean(&|s| f64::from(u8::from(s.maxed_before_29))),
            100.0 * mean(&|s| f64::from(u8::from(s.score_at_29.is_some()))),
            100.0 * mean(&|s| s.tetris_rate),
            mean(&|s| s.pieces as f64),
            q(0.5),
            q(0.99),
        );
    }
}
