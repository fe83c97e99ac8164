//! Learning a board value from self-play in the exact model: games record the board at every
//! spawn and the discounted lines that followed it; `fit` turns those into a phase's value.

// One round of policy iteration: the games are played by the current weights, each position's
// target is what that play then earned (minus the lines cleared from it on, each later piece's
// lines discounted by `gamma`, 0 after the top-out), or its λ-return under a fit
// (`learn/returns.rs`), and the fit predicts it from the board.
// The weights of the next round value a pair as the lines it clears plus the learned value of
// the board it leaves. Games run on many threads but are gathered in seed order, so the data
// and the fit are the same for any thread count.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::state::{Game, PlayState};
use crate::movegen::profile::Profile;
use crate::search::eval::visible_rows;
use crate::search::plan::Planner;
use crate::search::weights::{LearnedValue, PhaseWeights, Weights};
use crate::search::Standard;

use super::batch::in_parallel;
use super::selfplay::SelfPlay;

mod fit;
mod returns;
pub use fit::{fit, FitError, Normal};
pub use returns::{relabel, targets, Returns};

/// One position: the visible rows at a spawn and the value the fit should predict there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The board when the piece spawned (row 0 at the top).
    pub rows: [u16; 20],
    /// Minus the discounted lines cleared from this spawn on (lower is better).
    pub target: f64,
    /// The lines this spawn's piece cleared (to the next spawn, or to the game's end).
    pub lines: u32,
}

/// One self-play game's positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSamples {
    /// Its seed.
    pub seed: u64,
    /// Lines it cleared.
    pub lines: u32,
    /// Pieces that spawned.
    pub pieces: u32,
    /// It ended at its top-out (not at the piece cap).
    pub topped_out: bool,
    /// The board at the spawn the piece cap stopped, when it is at a recorded level (what a
    /// bootstrapped target values the rest of the game by).
    pub end: Option<[u16; 20]>,
    /// The position of every spawn at a recorded level, in order.
    pub samples: Vec<Sample>,
}

/// What a round plays.
#[derive(Clone, Copy, Debug)]
pub struct RoundConfig {
    /// Games a round.
    pub games: u32,
    /// Start level of every game.
    pub level: u8,
    /// Game i is seeded with `seed + i`.
    pub seed: u64,
    /// Worker threads (0 runs one).
    pub threads: usize,
    /// A game stops when this many pieces have spawned.
    pub max_pieces: u32,
    /// Each later piece's lines count this much less than the one before (0 < gamma ≤ 1).
    pub gamma: f64,
    /// Positions are recorded only at these levels (the learned phase's), inclusive; their
    /// targets count the lines of the whole rest of the game all the same.
    pub levels: (u8, u8),
}

/// Plays one game from `level` with `seed`, recording each spawn; `None` if `stop` was set.
fn play_game(
    planner: &mut Planner<Standard>,
    config: &RoundConfig,
    seed: u64,
    stop: &AtomicBool,
) -> Option<GameSamples> {
    let mut game = Game::seeded(config.level, seed);
    let mut play = SelfPlay::new(planner, &game);
    let (mut rows, mut lines_at) = (Vec::new(), Vec::new());
    let (mut was_control, mut spawns) = (false, 0u32);
    let (from, to) = config.levels;
    let mut end = None;
    let topped_out = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let control = game.play_state == PlayState::Control;
        if control && !was_control {
            if spawns >= config.max_pieces {
                end = (from..=to)
                    .contains(&game.level)
                    .then(|| visible_rows(&game.board()));
                break false;
            }
            spawns += 1;
            if (from..=to).contains(&game.level) {
                rows.push(visible_rows(&game.board()));
                lines_at.push(game.line_count());
            }
        }
        was_control = control;
        if play.stats.topped_out || game.is_over() || game.play_state == PlayState::Curtain {
            break true;
        }
        play.step(&mut game);
    };
    let lines = game.line_count();
    let targets = targets(&lines_at, lines, config.gamma);
    let cleared = lines_at.iter().skip(1).chain([&lines]).zip(&lines_at);
    let samples = rows
        .into_iter()
        .zip(targets)
        .zip(cleared)
        .map(|((rows, target), (next, at))| Sample {
            rows,
            target,
            lines: next - at,
        })
        .collect::<Vec<_>>();
    Some(GameSamples {
        seed,
        lines,
        pieces: spawns,
        topped_out,
        end,
        samples,
    })
}

/// Plays a round's games under `profile` with `weights`, in parallel; `progress` is called
/// after each game with the count finished. The games are returned in seed order, the
/// unfinished ones left out when `stop` is set.
pub fn play_round(
    config: &RoundConfig,
    profile: &Profile,
    weights: &Weights,
    stop: &AtomicBool,
    progress: impl Fn(usize, &GameSamples) + Sync,
) -> Vec<GameSamples> {
    let make_planner = || {
        let mut planner = Planner::new(Standard::new(weights.clone()));
        planner.profile = profile.clone();
        planner
    };
    let play = |planner: &mut Planner<Standard>, i: u32| {
        play_game(
            planner,
            config,
            config.seed.wrapping_add(u64::from(i)),
            stop,
        )
    };
    in_parallel(config.games, config.threads, make_planner, play, progress)
}

/// The weights of a learned phase: a pair is worth the lines it clears (`lines_cleared` −1)
/// plus `value` of the board it leaves; `base`'s rule switches are kept, its weights are not.
pub fn learned_phase(base: &PhaseWeights, value: LearnedValue) -> PhaseWeights {
    let mut w = base.clone();
    for (key, _) in base.floats() {
        if let Some(f) = w.float_mut(key) {
            *f = 0.0;
        }
    }
    w.lines_cleared = -1.0;
    w.tetris_rules = false;
    w.learned = Some(value);
    w
}

/// `weights` with the phase that plays `level` made [`learned_phase`] of `value`.
pub fn with_learned(weights: &Weights, level: u8, value: LearnedValue) -> Weights {
    let mut out = weights.clone();
    let name = weights.phase(level).name.clone();
    if let Some(p) = out.phases.iter_mut().find(|p| p.name == name) {
        p.weights = learned_phase(&p.weights, value);
    }
    out
}

#[cfg(test)]
#[path = "learn_tests.rs"]
mod tests;
