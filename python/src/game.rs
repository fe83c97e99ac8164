//! `nestor.Game` and `nestor.Events`: the rules model, one frame per `step`, with its state
//! as numpy arrays, bytes and trace lines.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::{buttons_of, int_in, seed_of, value_error};
use crate::bridge::{self, FrameEvents, Tracked};

/// What happened in one frame.
#[pyclass(frozen, name = "Events", module = "nestor")]
#[derive(Clone)]
pub struct PyEvents {
    /// A new piece appeared this frame.
    #[pyo3(get)]
    spawned: bool,
    /// The piece locked this frame at (x, y, orientation id); None otherwise.
    #[pyo3(get)]
    locked: Option<(u8, i8, u8)>,
    /// Lines cleared this frame (0-4).
    #[pyo3(get)]
    cleared: u8,
    /// The level went up this frame.
    #[pyo3(get)]
    level_up: bool,
    /// The lock test failed: the curtain starts (game over).
    #[pyo3(get)]
    topped_out: bool,
    /// "crash", "hang" or "demo" when the cartridge stopped on this frame.
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
///
/// level: the start level, 0..=255 (19 when None).
/// seed: picks the game's pieces, an integer in 0..=2**64-1 (0 when None); the same seed gives
/// the same pieces.
#[pyclass(name = "Game", module = "nestor")]
#[derive(Clone)]
pub struct PyGame {
    pub t: Tracked,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (level = None, seed = None), text_signature = "(level=19, seed=0)")]
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

    /// Runs one frame per byte of `inputs` (controller bytes); returns the lines cleared in them.
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

    /// The 20 visible rows as a (20, 10) uint8 array with the falling piece: 0 empty, 1 a
    /// locked block, 2 a cell of the piece under control.
    #[getter]
    fn board_with_piece<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let mut cells = vec![0u8; 200];
        bridge::write_board_with_piece(&self.t.game, &mut cells);
        PyArray1::from_vec(py, cells).reshape([20, 10])
    }

    /// The falling piece's cells (x, y) (y < 0: the hidden rows); empty when none is shown.
    #[getter]
    fn cells(&self) -> Vec<(i16, i16)> {
        let a = &self.t.game.active;
        bridge::cells_of(a.x, a.y as i8, a.id).map_or_else(Vec::new, |c| c.to_vec())
    }

    /// nestor's picture of the game (the board, the falling piece, the next piece and the
    /// numbers; no cartridge graphics) as an RGB uint8 array (height, width, 3), `cell`
    /// (4..=64) pixels per cell.
    #[pyo3(signature = (cell = None), text_signature = "(self, cell=8)")]
    fn render<'py>(
        &self,
        py: Python<'py>,
        cell: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let cell = match cell {
            Some(c) => int_in(c, "cell", 4, 64)? as usize,
            None => 8,
        };
        let (h, w, rgb) = bridge::render_rgb(&self.t, cell);
        PyArray1::from_vec(py, rgb).reshape([h, w, 3])
    }

    /// The cartridge's playfield bytes of rows 0..19 as a (20, 10) uint8 array that shares the
    /// game's memory (no copy): read-only, and it follows the game as it steps.
    #[getter]
    fn tiles<'py>(this: Bound<'py, Self>) -> Bound<'py, PyArray2<u8>> {
        // 200 bytes: rows 0..19 of the page.
        let ptr = bridge::visible_tiles(&this.borrow().t).as_ptr();
        // SAFETY: the bytes live inside this Game object, which is never moved or reallocated
        // while it is alive, and the array keeps it alive as its base object.
        let array = unsafe {
            let view = numpy::ndarray::ArrayView2::from_shape_ptr((20, 10), ptr);
            PyArray2::borrow_from_array(&view, this.into_any())
        };
        array.readwrite().make_nonwriteable();
        array
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

    /// The next piece's letter (T J Z O S L I), None when none is known.
    #[getter]
    fn next_piece(&self) -> Option<char> {
        bridge::piece_letter(self.t.game.next_piece())
    }

    /// Orientation id $00-$12 of the falling piece ($13 = none shown).
    #[getter]
    fn orientation(&self) -> u8 {
        self.t.game.active.id
    }

    /// The falling piece's pivot column (0..=9 while it is shown).
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

    /// The score, as the cartridge counts it (BCD, up to 999,999 unless it rolls over).
    #[getter]
    fn score(&self) -> u32 {
        self.t.game.score()
    }

    /// Lines cleared in this game.
    #[getter]
    fn lines(&self) -> u32 {
        self.t.game.lines()
    }

    /// The current level (0..=255).
    #[getter]
    fn level(&self) -> u8 {
        self.t.game.level
    }

    /// The level the game started at.
    #[getter]
    fn start_level(&self) -> u8 {
        self.t.game.start_level
    }

    /// `playState` ($68): 1 control, 2 lock, 3 row check, 4 line clear, ... 8 spawn, 10 curtain.
    #[getter]
    fn play_state(&self) -> u8 {
        self.t.game.play_state as u8
    }

    /// The cartridge's frame counter ($B1), wrapping at 65536.
    #[getter]
    fn frame_counter(&self) -> u16 {
        self.t.game.frame_counter
    }

    /// Frames the current piece has been under control.
    #[getter]
    fn piece_frames(&self) -> u16 {
        self.t.piece_frames
    }

    /// "crash", "hang" or "demo" once the cartridge has stopped.
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

    /// An independent copy (`copy.copy`).
    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    /// An independent copy (`copy.deepcopy`).
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

    /// The game `to_bytes` gave (`STATE_BYTES` bytes); a ValueError for anything else.
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
