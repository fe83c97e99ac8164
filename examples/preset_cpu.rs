//! The spawn decision of one player profile as CPU time of the planning thread: the planner
//! bench's mid-game board at level 19, the bench's 7 × 7 pairs after a warm-up round.
//!
//! Run: `cargo run --release --example preset_cpu [PRESET] [REPEAT]` (default `human`, 1).
//! REPEAT plays the rounds that many times (for perf and callgrind).

use nestor::game::{Active, Board, PadState, Piece};
use nestor::search::profile::Profile;
use nestor::search::{Planner, Situation, Standard};

const MID_GAME: &str = "\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
#########.\n####.####.\n#########.\n#########.\n#########.";

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
    let name = args
        .iter()
        .find(|a| a.parse::<usize>().is_err())
        .map_or("human", String::as_str);
    let repeat: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1);
    let Some(profile) = Profile::preset(name) else {
        eprintln!("preset_cpu: no preset {name:?}");
        std::process::exit(2);
    };
    let board = Board::from_text(MID_GAME).expect("board");
    let mut planner = Planner::new(Standard::default());
    planner.profile = profile;
    let mut times = Vec::new();
    for round in (0..8).cycle().take(8 * repeat) {
        for (i, piece) in Piece::ALL.iter().enumerate() {
            let s = Situation {
                board,
                active: Active::spawn(piece.spawn().id(), 0, 0),
                prev: PadState::NONE,
                level: 19,
                lines: [0x50, 0x01],
                next: Some(Piece::ALL[(i + 3 + round) % 7]),
                progress: Default::default(),
            };
            let t = thread_cpu_ms();
            let plan = planner.plan(&s).expect("a plan");
            let el = thread_cpu_ms() - t;
            assert!(plan.candidates > 0);
            if round > 0 {
                times.push(el);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name}: {} spawn decisions, cpu p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
}
