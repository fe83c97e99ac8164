//! Every use of the main crate's API by the Python module, in one place: the game state's
//! bytes, profiles and weights by name, the lock set with its inputs, the placement step.

// Kept thin on purpose: the other files of the extension only see the types defined here,
// so a change to the main crate's API is fixed in this file alone.

use std::path::Path;

use nestor::game::active::Active;
use nestor::game::crash::CrashKind;
use nestor::game::pad::PadState;
use nestor::game::piece::{Orientation, Piece};
use nestor::game::playfield::EMPTY;
use nestor::game::rng::Picker;
use nestor::game::score::drop_speed;
use nestor::game::state::{Events, Game, PlayState, Wait};
use nestor::search::bfs::{Bfs, MoveSet};
use nestor::search::collision::CollisionMap;
use nestor::search::eval::Standard;
use nestor::search::explain::explain_top;
use nestor::search::locks::SpawnLocks;
use nestor::search::plan::{Plan, Planner, Situation};
use nestor::search::profile::{preset_names, PieceProgress, Profile};
use nestor::search::rank::Ranker;
use nestor::search::weights::Weights;
use nestor::trace::record::{game_from_line, FrameRecord};

/// Rotation slots × pivot rows (−2..19) × columns: the placement action space.
pub const ACTIONS: usize = 4 * 22 * 10;

/// A game and what its current piece has done so far (what a plan made in flight counts from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracked {
    pub game: Game,
    /// Frames the current piece has been under control, and the directions newly pressed in them.
    pub piece_frames: u16,
    pub piece_pressed: u8,
}

/// One frame's events in plain numbers.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameEvents {
    pub spawned: bool,
    pub locked: Option<(u8, u8, u8)>,
    pub cleared: u8,
    pub level_up: bool,
    pub topped_out: bool,
    pub lag: bool,
    pub logic: bool,
    /// "crash" or "hang".
    pub crashed: Option<&'static str>,
}

impl From<Events> for FrameEvents {
    fn from(e: Events) -> FrameEvents {
        FrameEvents {
            spawned: e.spawned,
            locked: e.locked,
            cleared: e.cleared,
            level_up: e.level_up,
            topped_out: e.topped_out,
            lag: e.lag,
            logic: e.logic,
            crashed: e.crashed.map(CrashKind::name),
        }
    }
}

impl Tracked {
    pub fn seeded(level: u8, seed: u64) -> Tracked {
        Tracked::from_game(Game::seeded(level, seed))
    }

    pub fn from_game(game: Game) -> Tracked {
        Tracked {
            game,
            piece_frames: 0,
            piece_pressed: 0,
        }
    }

    /// One frame of the rules model with `buttons` held.
    #[inline]
    pub fn step(&mut self, buttons: u8) -> FrameEvents {
        let input = PadState(buttons);
        let controlled = self.game.play_state == PlayState::Control;
        let newly = input.newly_from(self.game.held);
        let ev = self.game.step(input);
        if controlled {
            self.piece_frames = self.piece_frames.saturating_add(1);
            self.piece_pressed |= newly.bits() & 0x03;
        }
        if ev.locked.is_some() {
            self.piece_frames = 0;
            self.piece_pressed = 0;
        }
        ev.into()
    }

    /// The curtain has started or the cartridge stopped: nothing a player does matters any more.
    pub fn finished(&self) -> bool {
        self.game.is_over()
            || self.game.play_state == PlayState::Curtain
            || self.game.crashed.is_some()
    }

    /// The piece is under control and nothing has been played of it yet: a placement decision.
    pub fn at_decision(&self) -> bool {
        self.game.play_state == PlayState::Control
            && self.piece_frames == 0
            && Orientation::new(self.game.active.id).is_some()
    }

    fn progress(&self) -> PieceProgress {
        PieceProgress {
            frames: self.piece_frames,
            pressed: PadState(self.piece_pressed),
        }
    }

    fn situation(&self) -> Situation {
        Situation {
            progress: self.progress(),
            ..Situation::of(&self.game)
        }
    }
}

// ---- state bytes ----

const MAGIC: &[u8; 4] = b"NST1";
pub const STATE_BYTES: usize = 4 + 256 + 39;

pub fn to_bytes(t: &Tracked) -> Vec<u8> {
    let g = &t.game;
    let mut b = Vec::with_capacity(STATE_BYTES);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&g.field.page);
    let a = g.active;
    b.extend_from_slice(&[
        a.x,
        a.y,
        a.id,
        a.fall_timer,
        a.das,
        a.ary,
        a.hold_down_points,
    ]);
    b.extend_from_slice(&[g.play_state as u8, g.next, g.level, g.start_level]);
    b.extend_from_slice(&g.lines);
    b.extend_from_slice(&g.score);
    b.extend_from_slice(&g.picker.rng.to_le_bytes());
    b.extend_from_slice(&[g.picker.spawn_id, g.picker.spawn_count]);
    b.extend_from_slice(&g.frame_counter.to_le_bytes());
    b.extend_from_slice(&[g.held.bits(), g.newly.bits(), g.vram_row, g.completed_lines]);
    b.extend_from_slice(&g.completed_rows);
    b.extend_from_slice(&[g.line_index, g.row_y, g.curtain_row, g.game_mode_state]);
    let wait = match g.wait {
        Wait::None => 0,
        Wait::QuirkNmi => 1,
        Wait::Ending => 2,
        Wait::Lag => 3,
    };
    let crashed = match g.crashed {
        None => 0,
        Some(CrashKind::Crash) => 1,
        Some(CrashKind::Hang) => 2,
    };
    b.extend_from_slice(&[wait, crashed]);
    b.extend_from_slice(&t.piece_frames.to_le_bytes());
    b.push(t.piece_pressed);
    debug_assert_eq!(b.len(), STATE_BYTES);
    b
}

pub fn from_bytes(b: &[u8]) -> Result<Tracked, String> {
    if b.len() != STATE_BYTES || &b[..4] != MAGIC {
        return Err(format!(
            "not a nestor game state: expected {STATE_BYTES} bytes starting with {:?}, got {} bytes",
            std::str::from_utf8(MAGIC).unwrap_or(""),
            b.len()
        ));
    }
    let mut page = [0u8; 256];
    page.copy_from_slice(&b[4..260]);
    let r = &b[260..];
    let u16_at = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
    let play_state =
        PlayState::from_u8(r[7]).ok_or_else(|| format!("bad play state {} in the state", r[7]))?;
    let wait = match r[34] {
        0 => Wait::None,
        1 => Wait::QuirkNmi,
        2 => Wait::Ending,
        3 => Wait::Lag,
        v => return Err(format!("bad wait {v} in the state")),
    };
    let crashed = match r[35] {
        0 => None,
        1 => Some(CrashKind::Crash),
        2 => Some(CrashKind::Hang),
        v => return Err(format!("bad crash kind {v} in the state")),
    };
    let game = Game {
        field: nestor::game::playfield::Playfield { page },
        active: Active {
            x: r[0],
            y: r[1],
            id: r[2],
            fall_timer: r[3],
            das: r[4],
            ary: r[5],
            hold_down_points: r[6],
        },
        play_state,
        next: r[8],
        level: r[9],
        start_level: r[10],
        lines: [r[11], r[12]],
        score: [r[13], r[14], r[15]],
        picker: Picker {
            rng: u16_at(16),
            spawn_id: r[18],
            spawn_count: r[19],
        },
        frame_counter: u16_at(20),
        held: PadState(r[22]),
        newly: PadState(r[23]),
        vram_row: r[24],
        completed_lines: r[25],
        completed_rows: [r[26], r[27], r[28], r[29]],
        line_index: r[30],
        row_y: r[31],
        curtain_row: r[32],
        game_mode_state: r[33],
        wait,
        crashed,
    };
    Ok(Tracked {
        game,
        piece_frames: u16_at(36),
        piece_pressed: r[38],
    })
}

// ---- traces ----

/// The trace line (tests/fixtures/traces format) of the game as it stands after a frame.
pub fn trace_record(t: &Tracked, input: u8) -> String {
    let rec = FrameRecord::from_game(&t.game, 0, 0, PadState(input));
    serde_json::Value::Object(rec.to_json(None)).to_string()
}

/// A game started from a trace line.
pub fn from_trace_line(json: &str) -> Result<Tracked, String> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("not a JSON trace line: {e}"))?;
    let map = v
        .as_object()
        .ok_or_else(|| "a trace line is a JSON object".to_string())?;
    let game = game_from_line(map).map_err(|e| format!("trace line: {}: {}", e.field, e.reason))?;
    Ok(Tracked::from_game(game))
}

// ---- boards ----

/// Visible rows 0..19 as 0/1 cells, row-major.
#[inline]
pub fn write_board(g: &Game, out: &mut [u8]) {
    for (o, &tile) in out.iter_mut().zip(g.field.page[..200].iter()) {
        *o = u8::from(tile < EMPTY);
    }
}

/// Piece index 0..6 in `Piece::ALL` order, 7 when none.
pub fn piece_index(p: Option<Piece>) -> u8 {
    p.and_then(|p| Piece::ALL.iter().position(|&q| q == p))
        .map_or(7, |i| i as u8)
}

pub fn current_piece(g: &Game) -> Option<Piece> {
    Orientation::new(g.active.id).map(Orientation::piece)
}

pub fn piece_letter(p: Option<Piece>) -> Option<char> {
    p.map(Piece::letter)
}

pub fn piece_letters() -> String {
    Piece::ALL.iter().map(|p| p.letter()).collect()
}

pub fn piece_from_letter(c: &str) -> Option<Piece> {
    Piece::ALL.iter().copied().find(|p| {
        c.len() == 1
            && p.letter()
                .eq_ignore_ascii_case(&c.chars().next().unwrap_or(' '))
    })
}

// ---- profiles and weights ----

pub fn profile(spec: &str) -> Result<Profile, String> {
    if let Some(p) = Profile::preset(spec) {
        return Ok(p);
    }
    let path = Path::new(spec);
    if spec.ends_with(".toml") || path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read profile file {spec}: {e}"))?;
        return Profile::from_file_text(&text, path).map_err(|e| e.to_string());
    }
    Err(format!(
        "unknown profile {spec:?}: a preset ({}) or a .toml profile file",
        preset_names().join(", ")
    ))
}

pub fn profile_names() -> Vec<&'static str> {
    preset_names()
}

pub fn weights(path: Option<&str>) -> Result<Weights, String> {
    match path {
        None => Ok(Weights::default_set()),
        Some(p) => Weights::load(Path::new(p)).map_err(|e| e.to_string()),
    }
}

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
    bfs: Bfs,
    map: CollisionMap,
    spawn: SpawnLocks,
    inputs: Vec<PadState>,
    expected: Vec<(u8, u8, u8)>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher {
            bfs: Bfs::new(),
            map: CollisionMap::default(),
            spawn: SpawnLocks::new(),
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
        self.map.build(&g.board(), o.piece());
        // The first-piece delay: Down (after a release if held) ends it, as `Planner` does.
        let mut a = g.active;
        let mut prev = g.held;
        let mut prefix = Vec::new();
        while a.ary & 0x80 != 0 {
            let held = if prev.intersects(PadState::DOWN) {
                PadState::NONE
            } else {
                PadState::DOWN
            };
            let locked = a.frame(held, held.newly_from(prev), speed, &self.map)
                == nestor::game::active::Control::Locked;
            prev = held;
            prefix.push(held.bits());
            if locked {
                out.push(LockPath {
                    x: a.x,
                    y: a.y,
                    id: a.id,
                    inputs: prefix,
                });
                return;
            }
        }
        let mut progress = t.progress();
        progress.frames = progress.frames.saturating_add(prefix.len() as u16);
        let locks = self
            .bfs
            .search_profiled(
                a,
                prev,
                speed,
                &self.map,
                MoveSet { soft_drop },
                profile,
                progress,
            )
            .to_vec();
        for l in &locks {
            self.bfs.path(l, &mut self.inputs, &mut self.expected);
            let mut inputs = prefix.clone();
            inputs.extend(self.inputs.iter().map(|p| p.bits()));
            out.push(LockPath {
                x: l.x,
                y: l.y,
                id: l.id,
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
            .search(
                &board,
                piece,
                drop_speed(level),
                profile,
                MoveSet::default(),
            )
            .iter()
            .map(|l| (l.x, l.y, l.id))
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
    use nestor::search::selfplay::SelfPlay;
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
