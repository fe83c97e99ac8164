//! The page's one JS-facing module: nestor's core (rules model, planner, profiles,
//! explanations) behind a few typed wasm-bindgen calls that answer in JSON.

pub mod analyse;
pub mod play;
pub mod view;
pub mod watch;

use serde::Serialize;
use serde_json::json;
use wasm_bindgen::prelude::*;

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| json!({ "error": e.to_string() }).to_string())
}

/// The preset profile names, as a JSON array.
#[wasm_bindgen]
pub fn profiles() -> String {
    to_json(&nestor::search::profile::preset_names())
}

/// The CSS colours (backdrop, white, first, second) of `level`'s blocks, as a JSON array.
#[wasm_bindgen]
pub fn level_colours(level: u8) -> String {
    to_json(&view::colours(level))
}

/// The planner's answer for a position: `board` is 200 cells (`.` empty), `next` may be
/// empty; JSON with the plan, the reachable count and the top `n` placements.
#[wasm_bindgen]
pub fn analyse(
    board: &str,
    piece: &str,
    next: &str,
    level: u8,
    lines: u32,
    profile: &str,
    n: usize,
) -> Result<String, JsError> {
    analyse::analyse_text(board, (piece, next), (level, lines), profile, n)
        .map(|a| to_json(&a))
        .map_err(|e| JsError::new(&e))
}

/// Watch mode: the bot's own game.
#[wasm_bindgen]
pub struct Watch(watch::Bot);

#[wasm_bindgen]
impl Watch {
    /// A game from `level`, its pieces from `seed`, the bot under the preset `profile`,
    /// explaining each decision's top `explain` placements (0: none).
    #[wasm_bindgen(constructor)]
    pub fn new(level: u8, seed: u32, profile: &str, explain: usize) -> Result<Watch, JsError> {
        watch::Bot::new(level, u64::from(seed), profile, explain)
            .map(Watch)
            .map_err(|e| JsError::new(&e))
    }

    /// Runs `frames` frames (fewer if the game ends); returns how many ran.
    pub fn frames(&mut self, frames: u32) -> u32 {
        let mut n = 0;
        while n < frames && !self.0.over() {
            self.0.step();
            n += 1;
        }
        n
    }

    /// Runs until `pieces` more pieces lock (or the game ends, or `max_frames` pass);
    /// returns the frames run.
    pub fn pieces(&mut self, pieces: u32, max_frames: u32) -> u32 {
        self.0.run_pieces(pieces, max_frames)
    }

    pub fn set_explain(&mut self, n: usize) {
        self.0.explain = n;
    }

    /// The game as drawn plus the bot's counters, as JSON.
    pub fn state(&self) -> String {
        let b = &self.0;
        to_json(&json!({
            "view": b.view(),
            "pieces": b.pieces,
            "decisions": b.decisions,
            "may_crash_frames": b.may_crash_frames,
            "guard": b.guard,
        }))
    }

    /// The last decision's top placements with their terms, as JSON.
    pub fn explanation(&self) -> String {
        to_json(&self.0.explanation)
    }

    /// The 200 visible cells as `#`/`.` (row 0 first), the board `analyse` takes.
    pub fn board(&self) -> String {
        board_text(&self.0.game)
    }
}

fn board_text(game: &nestor::game::state::Game) -> String {
    game.field.page[..200]
        .iter()
        .map(|&t| if t < 0xEF { '#' } else { '.' })
        .collect()
}

/// Play mode: a person's game, one frame per call.
#[wasm_bindgen]
pub struct Play(play::Person);

#[wasm_bindgen]
impl Play {
    #[wasm_bindgen(constructor)]
    pub fn new(level: u8, seed: u32, profile: &str) -> Result<Play, JsError> {
        play::Person::new(level, u64::from(seed), profile)
            .map(Play)
            .map_err(|e| JsError::new(&e))
    }

    /// One frame with the pad byte `buttons` held; `assist` outlines and rates each piece.
    pub fn step(&mut self, buttons: u8, assist: bool) {
        self.0.step(buttons, assist);
    }

    /// The game as drawn (assist's lock outlined when `assist`) and the ratings, as JSON.
    pub fn state(&self, assist: bool) -> String {
        let p = &self.0;
        to_json(&json!({
            "view": p.view(assist),
            "pieces": p.pieces,
            "ratings": p.ratings,
            "active": {
                "x": p.game.active.x, "y": p.game.active.y, "id": p.game.active.id,
            },
        }))
    }

    pub fn board(&self) -> String {
        board_text(&self.0.game)
    }
}
