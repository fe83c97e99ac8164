//! The lock set with every lock's inputs, the placement step, the planner and its
//! explanation, and nestor's own loop for the tests.

use nestor::game::pad::PadState;
use nestor::game::piece::{Orientation, Piece};
use nestor::game::score::drop_speed;
use nestor::game::state::{Game, PlayState};
use nestor::game::Pos;
use nestor::lab::selfplay::SelfPlay;
use nestor::movegen::prefix::{self, PrefixStart};
use nestor::movegen::{LockQuery, LockSets, MoveSet};
use nestor::search::eval::Standard;
use nestor::search::explain::explain_top;
use nestor::search::plan::{Plan, Planner};
use nestor::search::profile::Profile;
use nestor::search::rank::Ranker;
use nestor::search::weights::Weights;

use super::*;

// ---- the lock set ----

/// Orientation id → rotation slot within its piece (spawn orientation first, then clockwise).
fn slot_of(id: u8) -> usize {
    let Some(o) = Orientation::new(id) else {
        return 0;
    };
    let spawn = o.piece().spawn();
    let mut r = spawn;
    for s in 0..4 {
        if r == o {
            return s;
        }
        r = r.cw();
    }
    0
}

/// The placement action of a lock: slot × row × column.
#[inline]
pub fn action_of(x: u8, y: u8, id: u8) -> usize {
    let row = (y as i8 as i32 + 2).clamp(0, 21) as usize;
    (slot_of(id) * 22 + row) * 10 + (x as usize).min(9)
}

/// One reachable lock and the buttons, frame by frame from the next frame, that reach it.
#[derive(Clone, Debug, Default)]
pub struct LockPath {
    pub x: u8,
    pub y: u8,
    pub id: u8,
    pub inputs: Vec<u8>,
}

/// Reusable search arrays.
pub struct Searcher {
    paths: LockSets,
    spawn: LockSets,
    inputs: Vec<PadState>,
    expected: Vec<Pos>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher {
            paths: LockSets::new(),
            spawn: LockSets::new(),
            inputs: Vec::new(),
            expected: Vec::new(),
        }
    }
}

impl Searcher {
    /// Every lock the current piece of `t` can reach under `profile`, with its inputs from the
    /// next frame on. The first piece's delay is ended by a Down press first (as the planner
    /// does). Empty when no piece is under control.
    pub fn locks(
        &mut self,
        t: &Tracked,
        profile: &Profile,
        soft_drop: bool,
        out: &mut Vec<LockPath>,
    ) {
        out.clear();
        let g = &t.game;
        if g.play_state != PlayState::Control || t.finished() {
            return;
        }
        let Some(o) = Orientation::new(g.active.id) else {
            return;
        };
        let speed = drop_speed(g.level);
        let board = g.board();
        let map = self.paths.prepare(&board, o.piece());
        // The frames before the search (a start delay, the first-piece delay), as `Planner`'s.
        let from = PrefixStart {
            active: g.active,
            prev: g.held,
            frames: t.progress().frames,
            speed,
        };
        let (mut pads, mut seen) = (Vec::new(), Vec::new());
        let (a, prev, locked) =
            prefix::start_prefix(from, map, profile.start_delay, &mut pads, &mut seen);
        let prefix: Vec<u8> = pads.iter().map(|p| p.bits()).collect();
        if locked {
            out.push(LockPath {
                x: a.x,
                y: a.y,
                id: a.id,
                inputs: prefix,
            });
            return;
        }
        let progress = t.progress().then(&pads, g.held);
        let moves = MoveSet { soft_drop };
        let q = LockQuery::spawn(&board, o.piece(), speed, profile, moves).at(a, prev, progress);
        let locks = self.paths.search_prepared(&q).to_vec();
        for l in &locks {
            self.paths.path(l, &mut self.inputs, &mut self.expected);
            let mut inputs = prefix.clone();
            inputs.extend(self.inputs.iter().map(|p| p.bits()));
            out.push(LockPath {
                x: l.at.x,
                y: l.at.y,
                id: l.at.id(),
                inputs,
            });
        }
    }

    /// The planner's own lock set of `piece` from its spawn on `board` (20 visible rows as
    /// bit rows, bit c = column c) at `level`: the search the planner uses for next pieces.
    pub fn spawn_locks(
        &mut self,
        rows: &[u16; 20],
        piece: Piece,
        level: u8,
        profile: &Profile,
    ) -> Vec<(u8, u8, u8)> {
        let mut board = nestor::game::board::Board::EMPTY;
        for (r, &bits) in rows.iter().enumerate() {
            for c in 0..10u8 {
                if bits & (1 << c) != 0 {
                    board.set(r as i8, c);
                }
            }
        }
        self.spawn
            .search(&LockQuery::spawn(
                &board,
                piece,
                drop_speed(level),
                profile,
                MoveSet::default(),
            ))
            .iter()
            .map(|l| (l.at.x, l.at.y, l.at.id()))
            .collect()
    }
}

/// Plays `inputs` then nothing until the piece locks; then nothing until the next decision or
/// the end. Returns (lines cleared, score gained, frames played, whether the lock matched).
pub fn play_placement(t: &mut Tracked, lock: &LockPath, max_frames: u32) -> (u32, u32, u32, bool) {
    let (lines0, score0) = (t.game.lines(), t.game.score());
    let mut frames = 0u32;
    let mut matched = false;
    let mut locked = false;
    let mut cleared = 0u32;
    let mut i = 0usize;
    while frames < max_frames && !t.finished() {
        let input = if locked {
            0
        } else {
            let b = lock.inputs.get(i).copied().unwrap_or(0);
            i += 1;
            b
        };
        let ev = t.step(input);
        frames += 1;
        cleared += u32::from(ev.cleared);
        if let Some(l) = ev.locked {
            locked = true;
            matched = l == (lock.x, lock.y, lock.id);
        }
        if locked && t.at_decision() {
            break;
        }
    }
    let lines = t.game.lines().saturating_sub(lines0).max(cleared.min(4));
    (
        lines,
        t.game.score().saturating_sub(score0),
        frames,
        matched,
    )
}

/// Runs until the first decision (the game's first piece) without pressing anything.
pub fn to_first_decision(t: &mut Tracked) {
    let mut n = 0;
    while !t.at_decision() && !t.finished() && n < 10_000 {
        t.step(0);
        n += 1;
    }
}

// ---- the planner ----

pub struct PlannerBox {
    planner: Planner<Standard>,
    ranker: Ranker<Standard>,
}

/// The planner's decision in plain numbers.
pub struct PlanView {
    pub inputs: Vec<u8>,
    pub lock: (u8, u8, u8),
    pub next_lock: Option<(u8, u8, u8)>,
    pub value: Option<f64>,
    pub candidates: usize,
    pub replan_after: Option<usize>,
}

impl PlannerBox {
    pub fn new(weights: Weights, profile: Profile) -> PlannerBox {
        let mut planner = Planner::new(Standard::new(weights.clone()));
        planner.profile = profile.clone();
        let mut ranker = Ranker::new(Standard::new(weights));
        ranker.set_profile(profile);
        PlannerBox { planner, ranker }
    }

    pub fn plan(&mut self, t: &Tracked) -> Option<PlanView> {
        if t.game.play_state != PlayState::Control || t.finished() {
            return None;
        }
        let p: Plan = self.planner.plan(&t.situation())?;
        Some(PlanView {
            inputs: p.inputs.iter().map(|b| b.bits()).collect(),
            lock: (p.lock.x, p.lock.y, p.lock.orientation.id()),
            next_lock: p.next_lock.map(|n| (n.x, n.y, n.orientation.id())),
            value: p.value,
            candidates: p.candidates,
            replan_after: p.replan_after,
        })
    }

    /// The top `n` placements with their value split by feature, as JSON.
    pub fn explain(&mut self, t: &Tracked, n: usize) -> String {
        if t.game.play_state != PlayState::Control || t.finished() {
            return "[]".into();
        }
        let top = explain_top(&mut self.ranker, &t.situation(), n);
        serde_json::to_string(&top).unwrap_or_else(|_| "[]".into())
    }
}

/// The letter of the piece of orientation id `id` ('?' for none).
pub fn piece_letter_of(id: u8) -> char {
    Orientation::new(id).map_or('?', |o| o.piece().letter())
}

// ---- the Rust side's own play, for the tests ----

/// nestor's own loop (`SelfPlay`, planner under `profile`) on `Game::seeded(level, seed)` for
/// up to `frames` frames, in Rust alone: the buttons of every frame and the game's state bytes
/// after it (piece-progress bytes zero), for checking the Python model against.
pub fn selfplay_record(
    level: u8,
    seed: u64,
    frames: usize,
    profile: Profile,
) -> (Vec<u8>, Vec<u8>) {
    let mut planner = Planner::new(Standard::new(Weights::default_set()));
    planner.profile = profile;
    let mut game = Game::seeded(level, seed);
    let mut play = SelfPlay::new(&mut planner, &game);
    let mut inputs = Vec::with_capacity(frames);
    let mut states = Vec::with_capacity(frames * STATE_BYTES);
    for _ in 0..frames {
        if game.is_over() {
            break;
        }
        play.step(&mut game);
        // The NMI stores the frame's buttons as `held`: the input the loop pressed.
        inputs.push(game.held.bits());
        states.extend_from_slice(&to_bytes(&Tracked::from_game(game.clone())));
    }
    (inputs, states)
}

/// nestor's synthetic NROM test cartridge (for timing nes-py without the user's ROM).
pub fn test_cartridge() -> Vec<u8> {
    nestor::nes::testcart::nrom_image()
}
