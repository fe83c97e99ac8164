//! Decision time as CPU time of the planning thread (not wall time), so the figure holds on a
//! machine shared with other work: the planner bench's boards at levels 19 and 29.
//!
//! Run: `cargo run --release --example decision_cpu [depth2] [REPEAT]`. Prints p50/p99/max per
//! board and level; `depth2` turns the third-piece expectation off (the planner bench's
//! main table), REPEAT plays the rounds that many times (for perf and callgrind).

use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Situation, Standard};

const MID_GAME: &str = "\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
#########.\n####.####.\n#########.\n#########.\n#########.";
const TALL_RAGGED: &str = "\
..........\n..........\n..........\n..........\n..........\n\
......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
#.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
####.####.\n###.#####.\n#########.\n##.######.\n#########.";

/// CPU time this thread has used, in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid pointer to a timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1.0e6
}

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
        ("empty", Board::EMPTY),
        ("mid-game", Board::from_text(MID_GAME).expect("board")),
        ("tall-ragged", Board::from_text(TALL_RAGGED).expect("board")),
    ] {
        for level in [19u8, 29] {
            let mut times = Vec::new();
            for round in (0..8).cycle().take(8 * repeat) {
                for (i, piece) in Piece::ALL.iter().enumerate() {
                    let s = Situation {
                        board,
                        active: Active::spawn(piece.spawn().id(), 0, 0),
                        prev: PadState::NONE,
                        level,
                        lines: [0x50, 0x01],
                        next: Some(Piece::ALL[(i + 3 + round) % 7]),
                        progress: Default::default(),
                    };
                    let t = thread_cpu_ms();
                    let plan = planner.plan(&s).expect("a plan");
                    let el = thread_cpu_ms() - t;
                    assert!(plan.candidates > 0 && !plan.inputs.is_empty());
                    if round > 0 {
                        times.push(el);
                    }
                }
            }
            times.sort_by(f64::total_cmp);
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
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
