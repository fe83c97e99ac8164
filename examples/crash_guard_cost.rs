//! Decision time with and without the crash guard at levels 157, 169 (1,630 lines: the doubles
//! need the soft-drop lever there) and 235 (300 decisions each):
//! `cargo run --release --example crash_guard_cost`.
use nestor::game::active::Active;
use nestor::game::board::Board;
use nestor::game::pad::PadState;
use nestor::game::piece::Piece;
use nestor::search::eval::Standard;
use nestor::search::plan::{Planner, Situation};
use std::time::Instant;
/// The benchmark's stack; `double`: one whose column 9 is open down to two rows that lack
/// only it (an I's double, which at level 169 is safe only with a soft drop).
fn board(double: bool) -> Board {
    let rows: [&str; 6] = if double {
        [
            "..........",
            "..........",
            "##.######.",
            "####.####.",
            "#########.",
            "#########.",
        ]
    } else {
        [
            "##.######.",
            "###.######",
            "####.#####",
            "#.########",
            "########..",
            "#########.",
        ]
    };
    let text: Vec<&str> = [".........."; 14].into_iter().chain(rows).collect();
    Board::from_text(&text.join("\n")).unwrap()
}

fn main() {
    for &(level, off) in &[
        (157u8, false),
        (157, true),
        (169, false),
        (169, true),
        (235, false),
        (235, true),
    ] {
        let board = board(level == 169);
        let mut p = Planner::new(Standard::default());
        p.crash_guard.off = off;
        let mut times = Vec::new();
        for k in 0..300 {
            let s = Situation {
                board,
                active: Active::spawn([Piece::I, Piece::T, Piece::L][k % 3].spawn().id(), 0, 0),
                prev: PadState::NONE,
                level,
                lines: if level == 169 {
                    [0x30, 16]
                } else {
                    [0x71, 0x0F]
                },
                next: Some(Piece::O),
                progress: Default::default(),
            };
            let t = Instant::now();
            p.plan(&s);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        println!(
            "level {level} guard off={off}: median {:.3} ms p99 {:.3} ms refused(last) {} soft drops {}",
            times[150], times[297], p.crash_guard.refused, p.soft.count
        );
    }
}
