use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::{Bfs, CollisionMap, MoveSet};
use std::time::Instant;

fn main() {
    let b = Board::EMPTY;
    let mut bfs = Bfs::new();
    for soft in [true, false] {
        for p in Piece::ALL {
            let m = CollisionMap::new(&b, p);
            let t = Instant::now();
            let n = 200;
            let mut locks = 0;
            for _ in 0..n {
                locks = bfs
                    .search(
                        Active::spawn(p.spawn().id(), 0, 0),
                        PadState::NONE,
                        2,
                        &m,
                        MoveSet { soft_drop: soft },
                    )
                    .len();
            }
            println!(
                "soft={soft} {p:?}: nodes={} locks={} {:.1} us",
                bfs.expanded,
                locks,
                t.elapsed().as_secs_f64() * 1e6 / n as f64
            );
        }
    }
}
