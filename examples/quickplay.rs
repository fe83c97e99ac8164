use nestor::game::Game;
use nestor::search::eval::Standard;
use nestor::search::selfplay::{Limits, SelfPlay};
use nestor::search::Planner;
use std::time::Instant;

fn main() {
    let mut planner = Planner::new(Standard::default());
    for seed in 0..3u32 {
        let mut game = Game::seeded(19, seed as u64);
        let t = Instant::now();
        let stats = SelfPlay::new(&mut planner, &game).run(
            &mut game,
            Limits {
                max_pieces: Some(300),
                max_frames: None,
            },
        );
        let el = t.elapsed();
        println!(
            "seed {seed}: {:?} pieces={} lines={} score={} desyncs={} {:.2} ms/piece",
            stats.topped_out,
            stats.pieces,
            stats.lines,
            stats.score,
            stats.desyncs,
            el.as_secs_f64() * 1000.0 / stats.pieces as f64
        );
    }
}
