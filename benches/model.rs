//! Cost of one frame of the rules model (`Game::step`), replaying the inputs of every
//! cartridge trace in tests/fixtures/traces from its first line.
//!
//! Run: `cargo bench --bench model`. Prints ns per frame (mean of several passes, after a
//! warm-up pass) and checks the model still ends each trace where the cartridge did.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use nestor::game::PadState;
use nestor::trace::{read_trace, record::game_from_line};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures folder")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    let mut runs = Vec::new();
    for f in &files {
        let trace = read_trace(f).expect("readable trace");
        let start = game_from_line(&trace.frames[0]).expect("trace starts the model");
        let inputs: Vec<PadState> = trace.frames[1..]
            .iter()
            .map(|l| PadState::from_letters(l["input"].as_str().expect("input")).expect("letters"))
            .collect();
        let last_score = trace
            .frames
            .last()
            .and_then(|l| l["score"].as_u64())
            .expect("score");
        runs.push((start, inputs, last_score));
    }
    let frames: usize = runs.iter().map(|r| r.1.len()).sum();
    let mut best = f64::MAX;
    let mut samples = Vec::new();
    for pass in 0..21 {
        let t = Instant::now();
        for (start, inputs, last_score) in &runs {
            let mut g = start.clone();
            for &i in inputs {
                black_box(g.step(black_box(i)));
            }
            assert_eq!(
                g.score() as u64,
                *last_score,
                "model no longer matches the trace"
            );
        }
        let ns = t.elapsed().as_nanos() as f64 / frames as f64;
        if pass > 0 {
            samples.push(ns);
            best = best.min(ns);
        }
    }
    samples.sort_by(f64::total_cmp);
    println!(
        "Game::step over {} trace frames: median {:.1} ns/frame, best {:.1} ns/frame ({} passes)",
        frames,
        samples[samples.len() / 2],
        best,
        samples.len()
    );
}
