//! `nestor._nestor`: the PyO3 classes behind `import nestor` (the game, the lock search, the
//! planner, and the batched core of the Gymnasium environments). Main-crate calls: bridge.rs.

mod bridge;

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use bridge::{FrameEvents, LockPath, PlannerBox, Searcher, Tracked, ACTIONS};

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An integer argument checked against its range (a level of 300 is a ValueError, not an
/// OverflowError deep in the conversion).
fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(value_error(format!(
            "{what} must be an integer, got a bool"
        )));
    }
    let v: i64 = obj
        .extract()
        .map_err(|_| value_error(format!("{what} must be an integer, got {}", type_name(obj))))?;
    if v < lo || v > hi {
        return Err(value_error(format!(
            "{what} must be in {lo}..={hi}, got {v}"
        )));
    }
    Ok(v)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn seed_of(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    obj.extract::<u64>().map_err(|_| {
        value_error(format!(
            "seed must be an integer in 0..2**64, got {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

const BUTTON_NAMES: [(&str, u8); 8] = [
    ("a", 0x80),
    ("b", 0x40),
    ("select", 0x20),
    ("start", 0x10),
    ("up", 0x08),
    ("down", 0x04),
    ("left", 0x02),
    ("right", 0x01),
];

/// Buttons as an int (the controller byte: A $80, B $40, Select $20, Start $10, Up $08,
/// Down $04, Left $02, Right $01), the trace form `A.....L.`, or names `"left+a"`.
fn buttons_of(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    if obj.is_instance_of::<PyString>() {
        let owned: String = obj.extract()?;
        let s = owned.as_str();
        if let Some(p) = nestor::game::pad::PadState::from_letters(s) {
            return Ok(p.bits());
        }
        let mut bits = 0u8;
        let t = s.trim().to_ascii_lowercase();
        if t.is_empty() || t == "none" || t == "noop" {
            return Ok(0);
        }
        for part in t.split(['+', ',', ' ']).filter(|p| !p.is_empty()) {
            let (_, b) = BUTTON_NAMES
                .iter()
                .find(|(n, _)| *n == part)
                .ok_or_else(|| {
                    value_error(format!(
                        "unknown button {part:?} in {s:?}: use a, b, select, start, up, down, \
                         left, right joined by '+', or the trace form like 'A.....L.'"
                    ))
                })?;
            bits |= b;
        }
        return Ok(bits);
    }
    Ok(int_in(obj, "buttons", 0, 255)? as u8)
}

/// What happened in one frame.
#[pyclass(frozen, name = "Events", module = "nestor")]
#[derive(Clone)]
struct PyEvents {
    /// A new piece appeared this frame.
    #[pyo3(get)]
    spawned: bool,
    /// The piece locked this frame at (x, y, orientation id); None otherwise.
    #[pyo3(get)]
    locked: Option<(u8, i8, u8)>,
    /// Lines cleared this frame (0-4).
    #[pyo3(get)]
    cleared: u8,
    #[pyo3(get)]
    level_up: bool,
    /// The lock test failed: the curtain starts (game over).
    #[pyo3(get)]
    topped_out: bool,
    /// "crash" or "hang" when the cartridge stopped on this frame.
    #[pyo3(get)]
    crashed: Option<&'static str>,
    /// The next frame runs only the NMI (a lag frame).
    #[pyo3(get)]
    lag: bool,
    /// The game logic ran this frame.
    #[pyo3(get)]
    logic: bool,
}

impl From<FrameEvents> for PyEvents {
    fn from(e: FrameEvents) -> PyEvents {
        PyEvents {
            spawned: e.spawned,
            locked: e.locked.map(|(x, y, id)| (x, y as i8, id)),
            cleared: e.cleared,
            level_up: e.level_up,
            topped_out: e.topped_out,
            crashed: e.crashed,
            lag: e.lag,
            logic: e.logic,
        }
    }
}

#[pymethods]
impl PyEvents {
    fn __repr__(&self) -> String {
        let mut parts = Vec::new();
        if self.spawned {
            parts.push("spawned=True".to_string());
        }
        if let Some(l) = self.locked {
            parts.push(format!("locked={l:?}"));
        }
        if self.cleared > 0 {
            parts.push(format!("cleared={}", self.cleared));
        }
        if self.level_up {
            parts.push("level_up=True".into());
        }
        if self.topped_out {
            parts.push("topped_out=True".into());
        }
        if let Some(c) = self.crashed {
            parts.push(format!("crashed={c:?}"));
        }
        format!("Events({})", parts.join(", "))
    }
}

/// The NES Tetris (NTSC) A-type game, frame for frame as the cartridge runs it.
#[pyclass(name = "Game", module = "nestor")]
#[derive(Clone)]
struct PyGame {
    t: Tracked,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (level = None, seed = None))]
    fn new(level: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let level = match level {
            Some(l) => int_in(l, "level", 0, 255)? as u8,
            None => 19,
        };
        let seed = match seed {
            Some(s) => seed_of(s)?,
            None => 0,
        };
        Ok(PyGame {
            t: Tracked::seeded(level, seed),
        })
    }

    /// Runs one frame with `buttons` held; returns its events.
    fn step(&mut self, buttons: &Bound<'_, PyAny>) -> PyResult<PyEvents> {
        let b = buttons_of(buttons)?;
        Ok(self.t.step(b).into())
    }

    /// Runs one frame per byte of `inputs`; returns the lines cleared in them.
    fn run(&mut self, inputs: &[u8]) -> u32 {
        let mut lines = 0;
        for &b in inputs {
            lines += u32::from(self.t.step(b).cleared);
        }
        lines
    }

    /// The 20 visible rows as a (20, 10) uint8 array of 0/1 (without the falling piece).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let mut cells = vec![0u8; 200];
        bridge::write_board(&self.t.game, &mut cells);
        PyArray1::from_vec(py, cells).reshape([20, 10])
    }

    /// The cartridge's playfield bytes, rows −2, −1 (hidden) then 0..19: (22, 10) uint8
    /// ($EF empty, $7B-$7D blocks, $4F curtain).
    #[getter]
    fn playfield<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let page = &self.t.game.field.page;
        let mut v = Vec::with_capacity(220);
        v.extend_from_slice(&page[236..256]);
        v.extend_from_slice(&page[..200]);
        PyArray1::from_vec(py, v).reshape([22, 10])
    }

    /// The falling piece's letter (T J Z O S L I), None when none is shown.
    #[getter]
    fn piece(&self) -> Option<char> {
        bridge::piece_letter(bridge::current_piece(&self.t.game))
    }

    #[getter]
    fn next_piece(&self) -> Option<char> {
        bridge::piece_letter(self.t.game.next_piece())
    }

    /// Orientation id $00-$12 of the falling piece ($13 = none shown).
    #[getter]
    fn orientation(&self) -> u8 {
        self.t.game.active.id
    }

    #[getter]
    fn x(&self) -> u8 {
        self.t.game.active.x
    }

    /// The pivot row (−2, −1: hidden rows).
    #[getter]
    fn y(&self) -> i8 {
        self.t.game.active.y as i8
    }

    /// (x, y) of the falling piece's pivot.
    #[getter]
    fn position(&self) -> (u8, i8) {
        (self.t.game.active.x, self.t.game.active.y as i8)
    }

    #[getter]
    fn score(&self) -> u32 {
        self.t.game.score()
    }

    #[getter]
    fn lines(&self) -> u32 {
        self.t.game.lines()
    }

    #[getter]
    fn level(&self) -> u8 {
        self.t.game.level
    }

    #[getter]
    fn start_level(&self) -> u8 {
        self.t.game.start_level
    }

    /// `playState` ($68): 1 control, 2 lock, 3 row check, 4 line clear, ... 8 spawn, 10 curtain.
    #[getter]
    fn play_state(&self) -> u8 {
        self.t.game.play_state as u8
    }

    #[getter]
    fn frame_counter(&self) -> u16 {
        self.t.game.frame_counter
    }

    /// Frames the current piece has been under control.
    #[getter]
    fn piece_frames(&self) -> u16 {
        self.t.piece_frames
    }

    /// "crash" or "hang" once the cartridge has stopped.
    #[getter]
    fn crashed(&self) -> Option<&'static str> {
        self.t.game.crashed.map(|c| c.name())
    }

    /// The curtain has started (top-out) or the cartridge stopped.
    #[getter]
    fn game_over(&self) -> bool {
        self.t.finished()
    }

    /// An independent copy.
    #[pyo3(name = "clone")]
    fn copy(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyGame>>()
            .is_ok_and(|o| o.t == self.t)
    }

    /// The whole state as bytes (every RAM quantity the game logic uses).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &bridge::to_bytes(&self.t))
    }

    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<PyGame> {
        Ok(PyGame {
            t: bridge::from_bytes(data).map_err(value_error)?,
        })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let cls = py.get_type::<PyGame>().getattr("from_bytes")?;
        Ok((cls, (self.to_bytes(py),)))
    }

    /// The game as a trace line (the format of tests/fixtures/traces), as a dict.
    #[pyo3(signature = (input = 0))]
    fn trace_record<'py>(&self, py: Python<'py>, input: u8) -> PyResult<Bound<'py, PyAny>> {
        let s = bridge::trace_record(&self.t, input);
        py.import("json")?.call_method1("loads", (s,))
    }

    /// A game started from a trace line (a dict or its JSON text).
    #[staticmethod]
    fn from_trace_line(py: Python<'_>, line: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let text: String = if let Ok(s) = line.extract::<String>() {
            s
        } else {
            py.import("json")?
                .call_method1("dumps", (line,))?
                .extract()?
        };
        Ok(PyGame {
            t: bridge::from_trace_line(&text).map_err(value_error)?,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "nestor.Game(level={}, lines={}, score={}, piece={}, next={}, play_state={})",
            self.t.game.level,
            self.t.game.lines(),
            self.t.game.score(),
            self.piece().map_or("None".into(), |c| format!("'{c}'")),
            self.next_piece()
                .map_or("None".into(), |c| format!("'{c}'")),
            self.t.game.play_state as u8
        )
    }
}

/// A lock for Python: x, y, orientation id, piece letter, inputs, placement action.
type LockTuple<'py> = (u8, i8, u8, char, Bound<'py, PyBytes>, usize);

fn lock_tuples<'py>(py: Python<'py>, locks: &[LockPath]) -> Vec<LockTuple<'py>> {
    locks
        .iter()
        .map(|l| {
            (
                l.x,
                l.y as i8,
                l.id,
                bridge::piece_letter_of(l.id),
                PyBytes::new(py, &l.inputs),
                bridge::action_of(l.x, l.y, l.id),
            )
        })
        .collect()
}

/// Every lock reachable by the current piece, with its inputs per frame.
#[pyfunction]
#[pyo3(signature = (game, profile = "30hz", soft_drop = false))]
fn _locks<'py>(
    py: Python<'py>,
    game: PyRef<'_, PyGame>,
    profile: &str,
    soft_drop: bool,
) -> PyResult<Vec<LockTuple<'py>>> {
    let profile = bridge::profile(profile).map_err(value_error)?;
    let mut s = Searcher::default();
    let mut out = Vec::new();
    s.locks(&game.t, &profile, soft_drop, &mut out);
    Ok(lock_tuples(py, &out))
}

/// The planner's own (bit-set) lock search from the spawn: (x, y, orientation id) of `piece`
/// on `rows` (20 ints, bit c = column c) at `level`. For checking `locks` against it.
#[pyfunction]
#[pyo3(signature = (rows, piece, level, profile = "30hz"))]
fn _spawn_locks(
    rows: Vec<u16>,
    piece: &str,
    level: &Bound<'_, PyAny>,
    profile: &str,
) -> PyResult<Vec<(u8, i8, u8)>> {
    let rows: [u16; 20] = rows
        .try_into()
        .map_err(|_| value_error("rows must be 20 integers"))?;
    let p = bridge::piece_from_letter(piece)
        .ok_or_else(|| value_error(format!("unknown piece {piece:?}")))?;
    let level = int_in(level, "level", 0, 255)? as u8;
    let profile = bridge::profile(profile).map_err(value_error)?;
    Ok(Searcher::default()
        .spawn_locks(&rows, p, level, &profile)
        .into_iter()
        .map(|(x, y, id)| (x, y as i8, id))
        .collect())
}

/// nestor's own loop run in Rust alone: (inputs, state bytes after every frame).
#[pyfunction]
#[pyo3(signature = (level, seed, frames, profile = "30hz"))]
fn _rust_selfplay<'py>(
    py: Python<'py>,
    level: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    frames: usize,
    profile: &str,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let level = int_in(level, "level", 0, 255)? as u8;
    let seed = seed_of(seed)?;
    let profile = bridge::profile(profile).map_err(value_error)?;
    let (inputs, states) = bridge::selfplay_record(level, seed, frames, profile);
    Ok((PyBytes::new(py, &inputs), PyBytes::new(py, &states)))
}

/// nestor's synthetic NROM test cartridge (no ROM data: assembled in nestor), for timing an
/// emulator where the user's ROM is missing.
#[pyfunction]
fn _test_cartridge<'py>(py: Python<'py>) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &bridge::test_cartridge())
}

/// The preset profile names.
#[pyfunction]
fn profiles() -> Vec<&'static str> {
    bridge::profile_names()
}

/// A plan for Python: inputs, lock, next lock, value, candidates.
type PlanTuple<'py> = (
    Bound<'py, PyBytes>,
    (u8, i8, u8),
    Option<(u8, i8, u8)>,
    Option<f64>,
    usize,
);

/// nestor's planner: its decision for the current piece and the evaluation by feature.
#[pyclass(name = "Planner", module = "nestor")]
struct PyPlanner {
    inner: PlannerBox,
    #[pyo3(get)]
    profile: String,
}

#[pymethods]
impl PyPlanner {
    #[new]
    #[pyo3(signature = (weights = None, profile = "30hz"))]
    fn new(weights: Option<std::path::PathBuf>, profile: &str) -> PyResult<Self> {
        let w =
            bridge::weights(weights.as_deref().and_then(|p| p.to_str())).map_err(value_error)?;
        let p = bridge::profile(profile).map_err(value_error)?;
        Ok(PyPlanner {
            inner: PlannerBox::new(w, p),
            profile: profile.to_string(),
        })
    }

    /// The decision for the current piece as (inputs, lock, next_lock, value, candidates);
    /// None when no piece is under control.
    fn _plan<'py>(&mut self, py: Python<'py>, game: PyRef<'_, PyGame>) -> Option<PlanTuple<'py>> {
        let p = self.inner.plan(&game.t)?;
        Some((
            PyBytes::new(py, &p.inputs),
            (p.lock.0, p.lock.1 as i8, p.lock.2),
            p.next_lock.map(|(x, y, id)| (x, y as i8, id)),
            p.value,
            p.candidates,
        ))
    }

    /// The top `n` placements with their value split into one term per feature.
    #[pyo3(signature = (game, n = 5))]
    fn explain<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'_, PyGame>,
        n: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = self.inner.explain(&game.t, n);
        py.import("json")?.call_method1("loads", (s,))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Frame,
    Placement,
}

/// N games stepped together in Rust: the core of the Gymnasium environments (one game for
/// the single environments, N for the vector ones). Observations are written straight into
/// the caller's numpy arrays.
#[pyclass(name = "_Core", module = "nestor")]
struct Core {
    mode: Mode,
    games: Vec<Tracked>,
    locks: Vec<Vec<LockPath>>,
    searcher: Searcher,
    profile: nestor::search::profile::Profile,
    soft_drop: bool,
    level: u8,
    reward_score: bool,
    next_seed: u64,
}

impl Core {
    fn prepare(&mut self, i: usize) {
        if self.mode == Mode::Placement {
            bridge::to_first_decision(&mut self.games[i]);
            let mut out = std::mem::take(&mut self.locks[i]);
            self.searcher
                .locks(&self.games[i], &self.profile, self.soft_drop, &mut out);
            self.locks[i] = out;
        }
    }

    fn reset_one(&mut self, i: usize, seed: u64) {
        self.games[i] = Tracked::seeded(self.level, seed);
        self.prepare(i);
    }
}

#[pymethods]
impl Core {
    #[new]
    #[pyo3(signature = (n, mode, level, seed, profile = "30hz", soft_drop = false, reward = "lines"))]
    fn new(
        n: usize,
        mode: &str,
        level: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        profile: &str,
        soft_drop: bool,
        reward: &str,
    ) -> PyResult<Self> {
        let mode = match mode {
            "frame" => Mode::Frame,
            "placement" => Mode::Placement,
            m => {
                return Err(value_error(format!(
                    "mode is 'frame' or 'placement', got {m:?}"
                )))
            }
        };
        let reward_score = match reward {
            "lines" => false,
            "score" => true,
            r => {
                return Err(value_error(format!(
                    "reward is 'lines' or 'score', got {r:?}"
                )))
            }
        };
        if n == 0 {
            return Err(value_error("at least one game"));
        }
        let level = int_in(level, "level", 0, 255)? as u8;
        let seed = seed_of(seed)?;
        let mut core = Core {
            mode,
            games: vec![Tracked::seeded(level, 0); n],
            locks: vec![Vec::new(); n],
            searcher: Searcher::default(),
            profile: bridge::profile(profile).map_err(value_error)?,
            soft_drop,
            level,
            reward_score,
            next_seed: seed,
        };
        core.reset(None)?;
        Ok(core)
    }

    /// Starts every game again: game i with seed `seeds[i]`, or the next seeds in turn.
    #[pyo3(signature = (seeds = None))]
    fn reset(&mut self, seeds: Option<Vec<u64>>) -> PyResult<()> {
        if let Some(s) = &seeds {
            if s.len() != self.games.len() {
                return Err(value_error(format!(
                    "{} seeds for {} games",
                    s.len(),
                    self.games.len()
                )));
            }
        }
        for i in 0..self.games.len() {
            let seed = match &seeds {
                Some(s) => s[i],
                None => {
                    self.next_seed = self.next_seed.wrapping_add(1);
                    self.next_seed.wrapping_sub(1)
                }
            };
            self.reset_one(i, seed);
        }
        Ok(())
    }

    /// Sets the start level of the following resets.
    fn set_level(&mut self, level: &Bound<'_, PyAny>) -> PyResult<()> {
        self.level = int_in(level, "level", 0, 255)? as u8;
        Ok(())
    }

    /// Sets the seed of the following resets (game i gets seed + i, then the next ones).
    fn set_seed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.next_seed = seed_of(seed)?;
        Ok(())
    }

    /// Steps every game with its action: a controller byte (frame mode) or a placement index
    /// (placement mode). Writes rewards and terminations; a game that ends is started again
    /// at once when `autoreset`. Returns the games whose placement was not reachable (their
    /// piece was dropped with nothing pressed).
    fn step(
        &mut self,
        actions: PyReadonlyArray1<'_, i64>,
        reward: &Bound<'_, PyArray1<f64>>,
        terminated: &Bound<'_, PyArray1<bool>>,
        autoreset: bool,
    ) -> PyResult<Vec<usize>> {
        let actions = actions.as_slice()?;
        let n = self.games.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        let mut rw = reward.readwrite();
        let rw = rw.as_slice_mut()?;
        let mut tw = terminated.readwrite();
        let tw = tw.as_slice_mut()?;
        let limit = match self.mode {
            Mode::Frame => 256,
            Mode::Placement => ACTIONS as i64,
        };
        if let Some((i, a)) = actions
            .iter()
            .enumerate()
            .find(|(_, a)| !(0..limit).contains(*a))
        {
            return Err(value_error(format!(
                "action {a} of game {i} is out of range: actions are 0..{limit}"
            )));
        }
        let mut invalid = Vec::new();
        for (i, &a) in actions.iter().enumerate() {
            let t = &mut self.games[i];
            let (score0, lines0) = (t.game.score(), t.game.lines());
            if t.finished() {
                rw[i] = 0.0;
                tw[i] = true;
            } else {
                match self.mode {
                    Mode::Frame => {
                        t.step(a as u8);
                    }
                    Mode::Placement => {
                        let lock = self.locks[i]
                            .iter()
                            .find(|l| bridge::action_of(l.x, l.y, l.id) == a as usize)
                            .cloned();
                        // Not a reachable lock: nothing is pressed, the piece falls and locks
                        // where gravity takes it.
                        let lock = lock.unwrap_or_else(|| {
                            invalid.push(i);
                            LockPath::default()
                        });
                        bridge::play_placement(t, &lock, 100_000);
                    }
                }
                let t = &self.games[i];
                rw[i] = if self.reward_score {
                    f64::from(t.game.score().saturating_sub(score0))
                } else {
                    f64::from(t.game.lines().saturating_sub(lines0))
                };
                tw[i] = t.finished();
                if !tw[i] && self.mode == Mode::Placement {
                    self.prepare(i);
                    tw[i] = self.games[i].finished() || self.locks[i].is_empty();
                }
            }
            if tw[i] && autoreset {
                let seed = self.next_seed;
                self.next_seed = self.next_seed.wrapping_add(1);
                self.reset_one(i, seed);
            }
        }
        Ok(invalid)
    }

    /// Writes the observation of every game: board (n, 20, 10) 0/1, piece and next (n,) 0-7
    /// (7 none), level and lines (n, 1), active (n, 4) [x, y, orientation, play state] and the
    /// placement mask (n, 880) when given.
    #[pyo3(signature = (board, piece, next, level, lines, active = None, mask = None))]
    #[allow(clippy::too_many_arguments)]
    fn observe(
        &self,
        board: &Bound<'_, PyArray3<u8>>,
        piece: &Bound<'_, PyArray1<i64>>,
        next: &Bound<'_, PyArray1<i64>>,
        level: &Bound<'_, PyArray2<i32>>,
        lines: &Bound<'_, PyArray2<i32>>,
        active: Option<&Bound<'_, PyArray2<u8>>>,
        mask: Option<&Bound<'_, PyArray2<i8>>>,
    ) -> PyResult<()> {
        let n = self.games.len();
        let mut b = board.readwrite();
        let b = b.as_slice_mut()?;
        let mut p = piece.readwrite();
        let p = p.as_slice_mut()?;
        let mut nx = next.readwrite();
        let nx = nx.as_slice_mut()?;
        let mut lv = level.readwrite();
        let lv = lv.as_slice_mut()?;
        let mut ln = lines.readwrite();
        let ln = ln.as_slice_mut()?;
        if b.len() != n * 200 || p.len() != n || nx.len() != n || lv.len() != n || ln.len() != n {
            return Err(value_error("observation arrays of the wrong size"));
        }
        for (i, t) in self.games.iter().enumerate() {
            let g = &t.game;
            bridge::write_board(g, &mut b[i * 200..(i + 1) * 200]);
            p[i] = i64::from(bridge::piece_index(bridge::current_piece(g)));
            nx[i] = i64::from(bridge::piece_index(g.next_piece()));
            lv[i] = i32::from(g.level);
            ln[i] = g.lines().min(65535) as i32;
        }
        if let Some(active) = active {
            let mut a = active.readwrite();
            let a = a.as_slice_mut()?;
            if a.len() != n * 4 {
                return Err(value_error("active array of the wrong size"));
            }
            for (i, t) in self.games.iter().enumerate() {
                let g = &t.game;
                a[i * 4..i * 4 + 4].copy_from_slice(&[
                    g.active.x,
                    g.active.y,
                    g.active.id,
                    g.play_state as u8,
                ]);
            }
        }
        if let Some(mask) = mask {
            let mut m = mask.readwrite();
            let m = m.as_slice_mut()?;
            if m.len() != n * ACTIONS {
                return Err(value_error("mask array of the wrong size"));
            }
            m.fill(0);
            for (i, locks) in self.locks.iter().enumerate() {
                for l in locks {
                    m[i * ACTIONS + bridge::action_of(l.x, l.y, l.id)] = 1;
                }
            }
        }
        Ok(())
    }

    /// Game i (a copy).
    fn game(&self, i: usize) -> PyResult<PyGame> {
        self.games
            .get(i)
            .map(|t| PyGame { t: t.clone() })
            .ok_or_else(|| value_error(format!("no game {i}")))
    }

    /// Game i's reachable locks, as `_locks` gives them.
    fn locks<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Vec<LockTuple<'py>>> {
        let locks = self
            .locks
            .get(i)
            .ok_or_else(|| value_error(format!("no game {i}")))?;
        Ok(lock_tuples(py, locks))
    }

    /// Score, lines and level of game i.
    fn stats(&self, i: usize) -> PyResult<(u32, u32, u8)> {
        let t = self
            .games
            .get(i)
            .ok_or_else(|| value_error(format!("no game {i}")))?;
        Ok((t.game.score(), t.game.lines(), t.game.level))
    }
}

/// The action of a lock in the placement environments.
#[pyfunction]
fn placement_action(x: u8, y: i8, orientation: u8) -> usize {
    bridge::action_of(x, y as u8, orientation)
}

#[pymodule]
fn _nestor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyEvents>()?;
    m.add_class::<PyPlanner>()?;
    m.add_class::<Core>()?;
    m.add_function(wrap_pyfunction!(_locks, m)?)?;
    m.add_function(wrap_pyfunction!(_spawn_locks, m)?)?;
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(_test_cartridge, m)?)?;
    m.add_function(wrap_pyfunction!(placement_action, m)?)?;
    m.add("PLACEMENT_ACTIONS", ACTIONS)?;
    m.add("PIECES", bridge::piece_letters())?;
    m.add("STATE_BYTES", bridge::STATE_BYTES)?;
    Ok(())
}
