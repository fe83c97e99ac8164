//! The batched core of the Gymnasium environments: N games stepped in Rust per call, their
//! observations written straight into the caller's numpy arrays.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::args::{int_in, seed_of, value_error};
use crate::bridge::{self, LockPath, Searcher, Tracked, ACTIONS};
use crate::game::PyGame;
use crate::search::{lock_tuples, LockTuple};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Frame,
    Placement,
}

/// N games stepped together in Rust: the core of the Gymnasium environments (one game for
/// the single environments, N for the vector ones). Observations are written straight into
/// the caller's numpy arrays.
#[pyclass(name = "_Core", module = "nestor")]
pub struct Core {
    mode: Mode,
    games: Vec<Tracked>,
    locks: Vec<Vec<LockPath>>,
    searcher: Searcher,
    profile: bridge::Profile,
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
    /// (placement mode). Writes rewards and terminations (a game that ended stays ended until
    /// `reset_games`). Returns the games whose placement was not reachable (their piece was
    /// dropped with nothing pressed).
    fn step(
        &mut self,
        actions: PyReadonlyArray1<'_, i64>,
        reward: &Bound<'_, PyArray1<f64>>,
        terminated: &Bound<'_, PyArray1<bool>>,
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
        }
        Ok(invalid)
    }

    /// Starts games `indices` again, with the next seeds in turn.
    fn reset_games(&mut self, indices: Vec<usize>) -> PyResult<()> {
        if let Some(&i) = indices.iter().find(|&&i| i >= self.games.len()) {
            return Err(value_error(format!("no game {i}")));
        }
        for i in indices {
            let seed = self.next_seed;
            self.next_seed = self.next_seed.wrapping_add(1);
            self.reset_one(i, seed);
        }
        Ok(())
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
pub fn placement_action(x: u8, y: i8, orientation: u8) -> usize {
    bridge::action_of(x, y as u8, orientation)
}
