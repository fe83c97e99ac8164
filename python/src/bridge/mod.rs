//! Every use of the main crate's API by the Python module, in one place (this folder): the
//! tracked game, boards, profiles and weights by name; state bytes and traces; the searches.

// Kept thin on purpose: the other files of the extension only see the types defined here,
// so a change to the main crate's API is fixed in this folder alone.

use std::path::Path;

use nestor::game::crash::CrashKind;
use nestor::game::pad::PadState;
use nestor::game::piece::Orientation;
pub use nestor::game::piece::Piece;
use nestor::game::playfield::EMPTY;
use nestor::game::state::{Events, Game, PlayState};
use nestor::movegen::profile::TIMED;
use nestor::search::plan::Situation;
use nestor::search::profile::{preset_names, PieceProgress};

/// A player profile (what the searches may press, frame by frame).
pub use nestor::search::profile::Profile;
use nestor::search::weights::Weights;

mod search;
mod state;
mod view;

pub use search::*;
pub use state::*;
pub use view::*;

/// Rotation slots × pivot rows (−2..19) × columns: the placement action space.
pub const ACTIONS: usize = 4 * 22 * 10;

/// A game and what its current piece has done so far (what a plan made in flight counts from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracked {
    pub game: Game,
    /// Frames the current piece has been under control, and the directions newly pressed in them.
    pub piece_frames: u16,
    pub piece_pressed: u8,
    /// The last frame of the current piece that newly pressed Left, Right, A or B (what an
    /// `adjust = "restart"` profile times its adjustment after).
    pub piece_last_tap: Option<u16>,
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
    /// "crash", "hang" or "demo".
    pub crashed: Option<&'static str>,
}

impl From<Events> for FrameEvents {
    fn from(e: Events) -> FrameEvents {
        FrameEvents {
            spawned: e.spawned,
            locked: e.locked.map(|p| (p.x, p.y, p.id())),
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
            piece_last_tap: None,
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
            if newly.bits() & TIMED.0 != 0 {
                self.piece_last_tap = Some(self.piece_frames);
            }
            self.piece_frames = self.piece_frames.saturating_add(1);
            self.piece_pressed |= newly.bits() & 0x03;
        }
        if ev.locked.is_some() {
            self.piece_frames = 0;
            self.piece_pressed = 0;
            self.piece_last_tap = None;
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
            last_tap: self.piece_last_tap,
        }
    }

    fn situation(&self) -> Situation {
        Situation {
            progress: self.progress(),
            ..Situation::of(&self.game)
        }
    }
}

/// Buttons in the trace form, e.g. `A.....L.`.
pub fn buttons_from_letters(s: &str) -> Option<u8> {
    PadState::from_letters(s).map(PadState::bits)
}

// ---- boards ----

/// The page's bytes of visible rows 0..19 (the first 200 bytes of $0400), row-major.
pub fn visible_tiles(t: &Tracked) -> &[u8] {
    &t.game.field.page[..200]
}

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

/// Piece `i` (0..=6) in `Piece::ALL` order.
pub fn piece_at(i: usize) -> Piece {
    Piece::ALL[i.min(6)]
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

pub fn weights(path: Option<&Path>) -> Result<Weights, String> {
    match path {
        None => Ok(Weights::default_set()),
        Some(p) => Weights::load(p).map_err(|e| e.to_string()),
    }
}
