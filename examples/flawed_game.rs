//! Records a model-console game in which every 7th piece takes a worse placement (rank 5 or
//! below, or the worst when there is none) and every 23rd a much worse one (rank 12 or below):
//! the sample movie of the README's `nestor analyze` pictures.
//!
//! cargo run --release --example flawed_game -- OUT.fm2 [SEED] [PIECES] [LEVEL]
//! nestor analyze OUT.fm2 --model-console SEED --model-level LEVEL --report DIR

use std::collections::VecDeque;

use nestor::game::state::PlayState;
use nestor::game::{Game, PadState};
use nestor::movie::Movie;
use nestor::search::rank::Ranker;
use nestor::search::{Situation, Standard};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .ok_or("usage: flawed_game OUT.fm2 [SEED] [PIECES] [LEVEL]")?;
    let seed: u64 = args.next().map_or(Ok(7), |s| s.parse())?;
    let pieces: usize = args.next().map_or(Ok(150), |s| s.parse())?;
    let level: u8 = args.next().map_or(Ok(19), |s| s.parse())?;
    let mut ranker = Ranker::new(Standard::default());
    let mut game = Game::seeded(level, seed);
    let mut movie = Movie::new_recording(
        "nestor-model",
        [0; 16],
        vec![format!(
            "model console: seed {seed}, start level {level} (flawed_game example)"
        )],
    );
    let (mut queue, mut prev, mut n) = (VecDeque::new(), None, 0usize);
    while n < pieces && !game.is_over() {
        let control = game.play_state == PlayState::Control;
        if control && prev != Some(PlayState::Control) {
            let ranking = ranker.rank(&Situation::of(&game)).ok_or("no placement")?;
            let last = ranking.entries.len() - 1;
            let pick = match n {
                n if n % 23 == 22 => ranking
                    .entries
                    .iter()
                    .position(|e| e.rank >= 12)
                    .unwrap_or(last),
                n if n % 7 == 6 => ranking
                    .entries
                    .iter()
                    .position(|e| e.rank >= 5)
                    .unwrap_or(last),
                _ => 0,
            };
            let lock = ranking.entries[pick].lock;
            queue = ranker
                .inputs_to(&lock)
                .ok_or("no path")?
                .into_iter()
                .collect();
            n += 1;
        }
        prev = Some(game.play_state);
        let pad = queue.pop_front().unwrap_or(PadState::NONE);
        game.step(pad);
        movie.push(pad);
    }
    movie.save(std::path::Path::new(&out))?;
    eprintln!(
        "{out}: {n} pieces, score {}, lines {}",
        game.score(),
        game.lines()
    );
    Ok(())
}
