//! One full two-piece decision (BFS of the current piece, the next piece's locks for every
//! lock, evaluation of every pair) on named boards at levels 19, 29, 9 and 0; then the
//! default planner, which adds the third-piece expectation, at level 19.
//!
//! Run: `cargo bench --bench planner` (one core). Prints p50/p99/max per board after a
//! warm-up for the planner, then for `search::reference` (the search before issue 14) on the
//! same decisions in the same run; asserts both choose the same lock, value and buttons. The
//! last two columns are thread CPU time, which leaves out time the core spent on other work.
//! Then one row per player profile (issue 12): the default planner's decisions on the level-19
//! mid-game board under each preset; under a reaction time, the blind decision at the spawn and
//! the re-plan at the reaction frame are timed apart. `cargo bench --bench planner -- profiles`
//! prints that table alone.

use std::time::Instant;

use nestor::game::{Active, Board, Buttons, PadState, Piece};
use nestor::movegen::profile::{PieceProgress, Profile, PRESETS};
use nestor::search::testing::ReferencePlanner;
use nestor::search::third::Lookahead;
use nestor::search::{Planner, Situation, Standard};

pub const EMPTY: &str = "";
/// A typical level-19 mid-game stack: 6-8 rows, a well on the right, one covered hole.
pub const MID_GAME: &str = "\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n..........\n..........\n..........\n\
..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
#########.\n####.####.\n#########.\n#########.\n#########.";
/// Tall and ragged: a 14-row stack with holes, overhangs and deep wells.
pub const TALL_RAGGED: &str = "\
..........\n..........\n..........\n..........\n..........\n\
......#...\n#.....##..\n##.#..##.#\n##.##.##.#\n####..####\n\
#.##.####.\n####.####.\n##.#######\n####.####.\n#.#######.\n\
####.####.\n###.#####.\n#########.\n##.######.\n#########.";

pub fn board(text: &str) -> Board {
    if text.is_empty() {
        Board::EMPTY
    } else {
        Board::from_text(text).expect("bench board")
    }
}

/// Decision `i` of `round`: `Piece::ALL[i]` at its spawn with next `ALL[(i + 3 + round) % 7]`
/// (rounds 1-7 give all 49 pairs, round 0 warms up), 150 lines, nothing held.
pub fn situation(board: Board, level: u8, round: usize, i: usize) -> Situation {
    Situation {
        board,
        active: Active::spawn(Piece::ALL[i].spawn().id(), 0, 0),
        prev: PadState::NONE,
        level,
        lines: [0x50, 0x01],
        next: Some(Piece::ALL[(i + 3 + round) % 7]),
        progress: Default::default(),
    }
}

/// This thread's CPU time in ms: unlike the wall clock it does not count the time the
/// scheduler gave the core to other work, which on a loaded machine makes most of the p99.
pub fn cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
}

/// Per-decision wall and CPU times (ms) and candidate count of one planner on one board and level.
#[derive(Default)]
struct Row {
    times: Vec<f64>,
    cpu: Vec<f64>,
    candidates: usize,
}

/// `f`'s result and the CPU time (ms) this thread spent in it.
pub fn cpu_timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = cpu_ms();
    let r = f();
    (r, cpu_ms() - t)
}

/// `f`'s result with the wall and the CPU time (ms) this thread spent in it.
fn wall_cpu_timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), cpu_ms());
    let r = f();
    (r, t.elapsed().as_secs_f64() * 1000.0, cpu_ms() - c)
}

/// The CPU times (ms, sorted) of `planner`'s spawn decisions on `board` at `level`: the
/// bench's 7 × 7 pairs `repeat` times after a warm-up round, each a plan with candidates
/// and buttons.
pub fn spawn_cpu_times(
    planner: &mut Planner<Standard>,
    board: Board,
    level: u8,
    repeat: usize,
) -> Vec<f64> {
    let mut times = Vec::new();
    for round in (0..8).cycle().take(8 * repeat) {
        for i in 0..Piece::NUM {
            let s = situation(board, level, round, i);
            let (plan, el) = cpu_timed(|| planner.plan(&s));
            let plan = plan.expect("a plan");
            assert!(plan.candidates > 0 && !plan.inputs.is_empty());
            if round > 0 {
                times.push(el);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    times
}

/// The p-quantile of sorted `times`, as `times[round((n − 1)·p)]`.
pub fn quantile(times: &[f64], p: f64) -> f64 {
    times[((times.len() - 1) as f64 * p).round() as usize]
}

impl Row {
    /// One timed decision past the warm-up.
    fn add(&mut self, wall: f64, cpu: f64, candidates: usize) {
        self.times.push(wall);
        self.cpu.push(cpu);
        self.candidates += candidates;
    }

    fn print(&self, name: &str, level: u8) {
        let mut times = self.times.clone();
        times.sort_by(f64::total_cmp);
        let mut cpu = self.cpu.clone();
        cpu.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "{:<16} {:>5} {:>6} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            name,
            level,
            self.candidates / times.len(),
            quantile(&times, 0.5),
            quantile(&times, 0.99),
            quantile(&times, 1.0),
            mean,
            quantile(&cpu, 0.5),
            quantile(&cpu, 0.99),
        );
    }
}

fn header() {
    println!(
        "{:<16} {:>5} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "board", "level", "locks", "p50 ms", "p99 ms", "max ms", "mean ms", "cpu p50", "cpu p99"
    );
}

/// The default planner under every preset on the level-19 mid-game board: every (piece, next)
/// pair, 8 rounds after a warm-up round.
fn profiles() {
    let b = board(MID_GAME);
    let level = 19;
    println!(
        "player profiles: the default planner (third piece on), mid-game board, level {level}:"
    );
    header();
    for (name, _) in PRESETS {
        let profile = Profile::preset(name).expect("a preset");
        let mut planner = Planner::new(Standard::default());
        planner.profile = profile.clone();
        let (mut spawn, mut replan) = (Row::default(), Row::default());
        for round in 0..9 {
            for i in 0..Piece::ALL.len() {
                let s = situation(b, level, round, i);
                let (plan, el, cpu) = wall_cpu_timed(|| planner.plan(&s));
                let plan = plan.expect("a plan");
                if round > 0 {
                    spawn.add(el, cpu, plan.candidates);
                }
                let Some(r) = plan.replan_after else {
                    continue;
                };
                // The re-plan at the reaction frame, from the piece in flight.
                let (mut a, mut prev) = (s.active, PadState::NONE);
                for &input in &plan.inputs[..r] {
                    a.frame(Buttons::after(input, prev), 2, &b);
                    prev = input;
                }
                let inflight = Situation {
                    active: a,
                    prev,
                    progress: PieceProgress::after(&plan.inputs[..r], PadState::NONE),
                    ..s
                };
                let (again, el, cpu) = wall_cpu_timed(|| planner.plan(&inflight));
                let again = again.expect("a re-plan");
                if round > 0 {
                    replan.add(el, cpu, again.candidates);
                }
            }
        }
        let label = if replan.times.is_empty() {
            ""
        } else {
            " blind"
        };
        spawn.print(&format!("{name}{label}"), level);
        if !replan.times.is_empty() {
            replan.print(&format!("{name} re-plan"), level);
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "profiles") {
        profiles();
        return;
    }
    let mut planner = Planner::new(Standard::default());
    planner.lookahead = Lookahead::OFF;
    let mut reference = ReferencePlanner::new(Standard::default());
    let mut rows = Vec::new();
    let mut deeper = Planner::new(Standard::default());
    deeper.lookahead = Lookahead::default();
    let mut third = Vec::new();
    for (name, text) in [
        ("empty", EMPTY),
        ("mid-game", MID_GAME),
        ("tall-ragged", TALL_RAGGED),
    ] {
        let b = board(text);
        for level in [19u8, 29, 9, 0] {
            let (mut new, mut old) = (Row::default(), Row::default());
            for round in 0..8 {
                for (i, piece) in Piece::ALL.iter().enumerate() {
                    let next = Piece::ALL[(i + 3 + round) % 7];
                    let s = situation(b, level, round, i);
                    let (plan, el, cpu) = wall_cpu_timed(|| planner.plan(&s));
                    let plan = plan.expect("a plan");
                    let (want, el_old, cpu_old) = wall_cpu_timed(|| reference.plan(&s));
                    let want = want.expect("a reference plan");
                    assert!(plan.candidates > 0 && !plan.inputs.is_empty());
                    assert_eq!(
                        (plan.lock, plan.value, &plan.inputs),
                        (want.lock, want.value, &want.inputs),
                        "{name} level {level} {piece:?} then {next:?}: the search changed its answer"
                    );
                    if round > 0 {
                        new.add(el, cpu, plan.candidates);
                        old.add(el_old, cpu_old, want.candidates);
                    }
                }
            }
            rows.push((name, level, new, old));
            if level == 19 {
                let mut row = Row::default();
                for round in 0..8 {
                    for i in 0..Piece::NUM {
                        let s = situation(b, level, round, i);
                        let (plan, el, cpu) = wall_cpu_timed(|| deeper.plan(&s));
                        let plan = plan.expect("a plan");
                        if round > 0 {
                            row.add(el, cpu, plan.candidates);
                        }
                    }
                }
                third.push((name, level, row));
            }
        }
    }
    header();
    for (name, level, new, _) in &rows {
        new.print(name, *level);
    }
    println!();
    println!(
        "the default planner: with the third-piece expectation (top_k {}, no deadline):",
        Lookahead::default().top_k
    );
    header();
    for (name, level, row) in &third {
        row.print(&format!("3rd:{name}"), *level);
    }
    println!();
    println!("before (search::reference, the same decisions timed in the same run):");
    header();
    for (name, level, _, old) in &rows {
        old.print(&format!("old:{name}"), *level);
    }
    println!();
    profiles();
}
