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
    rules: Rules,
    games: Vec<Tracked>,
    locks: Vec<Vec<LockPath>>,
    /// One per thread.
    searchers: Vec<Searcher>,
    level: u8,
    next_seed: u64,
}

/// What every game of a core plays by.
struct Rules {
    mode: Mode,
    profile: bridge::Profile,
    soft_drop: bool,
    reward_score: bool,
}

impl Rules {
    /// At a placement decision: the reachable locks (nothing in frame mode).
    fn prepare(&self, t: &mut Tracked, locks: &mut Vec<LockPath>, searcher: &mut Searcher) {
        if self.mode == Mode::Placement {
            bridge::to_first_decision(t);
            searcher.locks(t, &self.profile, self.soft_drop, locks);
        }
    }

    /// One step of one game with an action already checked to be in range: (reward, ended,
    /// whether the placement was unreachable).
    fn step(
        &self,
        t: &mut Tracked,
        locks: &mut Vec<LockPath>,
        searcher: &mut Searcher,
        a: i64,
    ) -> (f64, bool, bool) {
        if t.finished() {
            return (0.0, true, false);
        }
        let (score0, lines0) = (t.game.score(), t.game.lines());
        let mut invalid = false;
        match self.mode {
            Mode::Frame => {
                t.step(a as u8);
            }
            Mode::Placement => {
                // Not a reachable lock: nothing is pressed, the piece falls and locks where
                // gravity takes it.
                let lock = locks
                    .iter()
                    .find(|l| bridge::action_of(l.x, l.y, l.id) == a as usize)
                    .cloned()
                    .unwrap_or_else(|| {
                        invalid = true;
                        LockPath::default()
                    });
                bridge::play_placement(t, &lock, 100_000);
            }
        }
        let reward = if self.reward_score {
            f64::from(t.game.score().saturating_sub(score0))
        } else {
            f64::from(t.game.lines().saturating_sub(lines0))
        };
        let mut ended = t.finished();
        if !ended && self.mode == Mode::Placement {
            self.prepare(t, locks, searcher);
            ended = t.finished() || locks.is_empty();
        }
        (reward, ended, invalid)
    }
}

impl Core {
    fn reset_one(&mut self, i: usize, seed: u64) {
        self.games[i] = Tracked::seeded(self.level, seed);
        self.rules.prepare(
            &mut self.games[i],
            &mut self.locks[i],
            &mut self.searchers[0],
        );
    }
}

#[pymethods]
impl Core {
    #[new]
    #[pyo3(signature = (n, mode, level, seed, profile = "30hz", soft_drop = false, reward = "lines", threads = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: usize,
        mode: &str,
        level: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        profile: &str,
        soft_drop: bool,
        reward: &str,
        threads: usize,
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
        if threads == 0 {
            return Err(value_error("threads must be at least 1"));
        }
        let mut core = Core {
            rules: Rules {
                mode,
                profile: bridge::profile(profile).map_err(value_error)?,
                soft_drop,
                reward_score,
            },
            games: vec![Tracked::seeded(level, 0); n],
            locks: vec![Vec::new(); n],
            searchers: (0..threads.min(n)).map(|_| Searcher::default()).collect(),
            level,
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
    /// (placement mode), on the core's threads with the GIL released. Writes rewards and
    /// terminations (a game that ended stays ended until `reset_games`). Returns the games
    /// whose placement was not reachable (their piece was dropped with nothing pressed).
    fn step(
        &mut self,
        py: Python<'_>,
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
        if rw.len() != n || tw.len() != n {
            return Err(value_error(
                "reward and terminated arrays of the wrong size",
            ));
        }
        let limit = match self.rules.mode {
            Mode::Frame => 256,
            Mode::Placement => ACTIONS as i64,
        };
        if let Some((i, a)) = actions
            .iter()
            .enumerate()
            .find(|(_, a)| !(0..limit).contains(*a))
        {
            return Err(value_error(format!(
                "action {a} of game {i} is out of range: actions must be in 0..={}",
                limit - 1
            )));
        }
        let mut invalid = vec![false; n];
        let Core {
            rules,
            games,
            locks,
            searchers,
            ..
        } = self;
        let rules = &*rules;
        py.detach(|| {
            let chunk = n.div_ceil(searchers.len());
            let parts = games
                .chunks_mut(chunk)
                .zip(locks.chunks_mut(chunk))
                .zip(actions.chunks(chunk))
                .zip(rw.chunks_mut(chunk))
                .zip(tw.chunks_mut(chunk))
                .zip(invalid.chunks_mut(chunk))
                .zip(searchers.iter_mut());
            let run = |((((((g, l), a), r), t), inv), s): Part<'_>| {
                for i in 0..g.len() {
                    (r[i], t[i], inv[i]) = rules.step(&mut g[i], &mut l[i], s, a[i]);
                }
            };
            if searchers_len(n, chunk) == 1 {
                parts.for_each(run);
            } else {
                std::thread::scope(|scope| {
                    for p in parts {
                        scope.spawn(move || run(p));
                    }
                });
            }
        });
        Ok(invalid
            .iter()
            .enumerate()
            .filter_map(|(i, &b)| b.then_some(i))
            .collect())
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

    /// Writes the observation of every game: board (n, 20, 10) 0/1 (0/1/2 with the falling
    /// piece when `with_piece`), piece and next (n,) 0-7 (7 none), level and lines (n, 1),
    /// active (n, 4) [x, y, orientation, play state], the placement mask (n, 880) and stats
    /// (n, 3) [score, lines, level] when given.
    #[pyo3(signature = (board, piece, next, level, lines, active = None, mask = None, with_piece = false, stats = None))]
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
        with_piece: bool,
        stats: Option<&Bound<'_, PyArray2<i64>>>,
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
            let cells = &mut b[i * 200..(i + 1) * 200];
            if with_piece {
                bridge::write_board_with_piece(g, cells);
            } else {
                bridge::write_board(g, cells);
            }
            p[i] = i64::from(bridge::piece_index(bridge::current_piece(g)));
            nx[i] = i64::from(bridge::piece_index(g.next_piece()));
            lv[i] = i32::from(g.level);
            ln[i] = g.lines().min(65535) as i32;
        }
        if let Some(active) = active {
            self.write_active(active.readwrite().as_slice_mut()?)?;
        }
        if let Some(mask) = mask {
            self.write_mask(mask.readwrite().as_slice_mut()?)?;
        }
        if let Some(stats) = stats {
            self.write_stats(stats.readwrite().as_slice_mut()?)?;
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

    /// Game i drawn by nestor (board, falling piece, next piece, numbers) as an RGB array
    /// (height, width, 3) at `cell` pixels per cell.
    fn render<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        cell: usize,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let t = self
            .games
            .get(i)
            .ok_or_else(|| value_error(format!("no game {i}")))?;
        let (h, w, rgb) = bridge::render_rgb(t, cell);
        PyArray1::from_vec(py, rgb).reshape([h, w, 3])
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

/// The optional parts of `observe`, each into its flat array.
impl Core {
    /// [x, y, orientation, play state] of every game.
    fn write_active(&self, a: &mut [u8]) -> PyResult<()> {
        if a.len() != self.games.len() * 4 {
            return Err(value_error("active array of the wrong size"));
        }
        for (out, t) in a.chunks_exact_mut(4).zip(&self.games) {
            let g = &t.game;
            out.copy_from_slice(&[g.active.x, g.active.y, g.active.id, g.play_state as u8]);
        }
        Ok(())
    }

    /// 1 at the placement action of every reachable lock.
    fn write_mask(&self, m: &mut [i8]) -> PyResult<()> {
        if m.len() != self.games.len() * ACTIONS {
            return Err(value_error("mask array of the wrong size"));
        }
        m.fill(0);
        for (out, locks) in m.chunks_exact_mut(ACTIONS).zip(&self.locks) {
            for l in locks {
                out[bridge::action_of(l.x, l.y, l.id)] = 1;
            }
        }
        Ok(())
    }

    /// [score, lines, level] of every game.
    fn write_stats(&self, s: &mut [i64]) -> PyResult<()> {
        if s.len() != self.games.len() * 3 {
            return Err(value_error("stats array of the wrong size"));
        }
        for (out, t) in s.chunks_exact_mut(3).zip(&self.games) {
            let g = &t.game;
            out.copy_from_slice(&[
                i64::from(g.score()),
                i64::from(g.lines()),
                i64::from(g.level),
            ]);
        }
        Ok(())
    }
}

/// One thread's share of a step: games, their locks, actions, rewards, terminations,
/// unreachable flags, and the thread's searcher.
type Part<'a> = (
    (
        (
            (
                ((&'a mut [Tracked], &'a mut [Vec<LockPath>]), &'a [i64]),
                &'a mut [f64],
            ),
            &'a mut [bool],
        ),
        &'a mut [bool],
    ),
    &'a mut Searcher,
);

/// How many chunks of `chunk` games make `n`.
fn searchers_len(n: usize, chunk: usize) -> usize {
    n.div_ceil(chunk.max(1))
}
