//! Nodes visited and time of one BFS per piece on the empty board at level 19, with and
//! without soft drop: `cargo run --release --example bfsstat`.

use std::time::Instant;

use nestor::game::{Active, Board, PadState, Piece};
use nestor::movegen::{LockQuery, LockSets, MoveSet, PieceProgress, Profile};

fn main() {
    let board = Board::EMPTY;
    let mut searches = LockSets::new();
    let unlimited = Profile::unlimited();
    for soft_drop in [false, true] {
        for piece in Piece::ALL {
            let start = Active::spawn(piece.spawn().id(), 0, 0);
            let runs = 200;
            let t = Instant::now();
            let mut locks = 0;
            for _ in 0..runs {
                let q = LockQuery::spawn(&board, piece, 2, unlimited, MoveSet { soft_drop }).at(
                    start,
                    PadState::NONE,
                    PieceProgress::default(),
                );
                locks = searches.search_paths(&q).len();
            }
            println!(
                "soft drop {soft_drop:5} {piece:?}: {:5} nodes, {:2} locks, {:7.1} µs",
                searches.expanded(),
                locks,
                t.elapsed().as_secs_f64() * 1e6 / runs as f64
            );
        }
    }
}
