//! Analyse mode: a position (board, piece, next, level, lines, profile) and the planner's
//! answer: its chosen lock and inputs, the top placements by value with each feature's part.

use nestor::game::board::Board;
use nestor::game::pad::PadState;
use nestor::game::piece::Piece;
use nestor::game::score::line_bytes;
use nestor::search::explain::{Explainer, Explanation};
use nestor::search::profile::preset_names;
use nestor::search::rank::Ranker;
use nestor::search::{Planner, Profile, Situation, Standard};
use serde::Serialize;

use crate::view::cells_of;

/// The preset profile `name`, or an error naming the presets.
pub fn profile_named(name: &str) -> Result<Profile, String> {
    Profile::preset(name).ok_or_else(|| {
        format!(
            "unknown profile {name:?}: one of {}",
            preset_names().join(", ")
        )
    })
}

/// The planner and ranker under `profile` with the profile's own weight set (as `nestor
/// sim --profile` builds them).
pub fn planner_for(profile: Profile) -> Result<(Planner<Standard>, Ranker<Standard>), String> {
    let weights = profile.weights.load().map_err(|e| e.to_string())?;
    let mut planner = Planner::new(Standard::new(weights.clone()));
    planner.profile = profile.clone();
    let mut ranker = Ranker::new(Standard::new(weights));
    ranker.set_profile(profile);
    Ok((planner, ranker))
}

/// The piece of letter `s` (any case), `None` for an empty string.
fn piece_of(s: &str, what: &str) -> Result<Option<Piece>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    Piece::ALL
        .iter()
        .copied()
        .find(|p| s.len() == 1 && p.letter().to_string().eq_ignore_ascii_case(s))
        .map(Some)
        .ok_or_else(|| format!("{what}: {s:?} is not one of T J Z O S L I"))
}

/// A board string: 20 rows of 10 cells (`.` empty, anything else filled), one per line, or
/// the 200 cells in one run (spaces ignored).
pub fn board_of(text: &str) -> Result<Board, String> {
    let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 200 {
        return Err(format!(
            "a board is 20 rows of 10 cells (200 in all), this one has {}",
            cells.len()
        ));
    }
    let rows: Vec<String> = cells.chunks(10).map(|r| r.iter().collect()).collect();
    Board::from_text(&rows.join("\n")).ok_or_else(|| "the board does not parse".to_string())
}

/// One placement with its visible cells and its inputs (letters per frame, `.` for none).
#[derive(Serialize)]
pub struct Candidate {
    #[serde(flatten)]
    pub explanation: Explanation,
    pub cells: Vec<(u8, u8)>,
    pub inputs: Vec<String>,
}

/// The answer for one position.
#[derive(Serialize)]
pub struct Analysis {
    /// The planner's decision (`nestor`'s: its third-piece look-ahead included).
    pub plan: Option<PlanView>,
    /// Reachable locks of the piece under the profile.
    pub reachable: usize,
    /// The planner's own choice is first though its two-piece value is not the best.
    pub pick_first: bool,
    pub top: Vec<Candidate>,
}

#[derive(Serialize)]
pub struct PlanView {
    pub x: u8,
    pub y: i8,
    pub orientation: u8,
    pub value: Option<f64>,
    pub cells: Vec<(u8, u8)>,
    pub inputs: Vec<String>,
}

fn letters(inputs: &[PadState]) -> Vec<String> {
    inputs.iter().map(|p| p.to_letters()).collect()
}

/// The planner's answer and the top `n` placements for a position.
pub fn analyse(s: &Situation, profile: Profile, n: usize) -> Result<Analysis, String> {
    let (mut planner, mut ranker) = planner_for(profile)?;
    let plan = planner.plan(s).map(|p| PlanView {
        x: p.lock.x,
        y: p.lock.y as i8,
        orientation: p.lock.orientation.id(),
        value: p.value,
        cells: cells_of(p.lock.x, p.lock.y, p.lock.orientation),
        inputs: letters(&p.inputs),
    });
    let Some(ranking) = ranker.rank(s) else {
        return Ok(Analysis {
            plan,
            reachable: 0,
            pick_first: false,
            top: Vec::new(),
        });
    };
    let mut explainer = Explainer::new(&ranker.evaluator);
    let top = ranking
        .entries
        .iter()
        .take(n)
        .map(|e| Candidate {
            explanation: explainer.explain(s, e),
            cells: cells_of(e.lock.x, e.lock.y, e.lock.orientation),
            inputs: ranker
                .inputs_to(&e.lock)
                .map_or_else(Vec::new, |i| letters(&i)),
        })
        .collect();
    Ok(Analysis {
        plan,
        reachable: ranking.entries.len(),
        pick_first: ranking.pick_first,
        top,
    })
}

/// Parses a position and analyses it.
pub fn analyse_text(
    board: &str,
    (piece, next): (&str, &str),
    (level, lines): (u8, u32),
    profile: &str,
    n: usize,
) -> Result<Analysis, String> {
    let board = board_of(board)?;
    let piece = piece_of(piece, "piece")?.ok_or("piece: none given")?;
    let next = piece_of(next, "next piece")?;
    let profile = profile_named(profile)?;
    let situation = Situation::at_spawn(board, piece, level, line_bytes(lines), next);
    analyse(&situation, profile, n)
}
