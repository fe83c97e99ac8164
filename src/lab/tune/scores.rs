//! A generation scored by shard jobs: each scores its share of the candidates into a scores
//! file stamped with the generation's identity; gathering them fills the state's scores.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use super::{fitness, play_generation, TuneError, TuneState};
use crate::lab::batch::GameResult;
use crate::lab::shard::ShardSpec;
use crate::search::{ReachTables, Standard};

/// The `format` field of a scores file.
const SCORES_FORMAT: &str = "nestor-tune-scores";

/// One shard's scores of the pending generation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScoresFile {
    /// `nestor-tune-scores`: what the file is.
    pub format: String,
    /// [`generation_id`] of the generation scored.
    pub generation_id: String,
    /// The generation's number, from 0.
    pub generation: u32,
    /// Which share of the candidates it scored.
    pub shard: ShardSpec,
    /// (candidate index, fitness).
    pub scores: Vec<(u32, f64)>,
}

/// A hash of the run's settings, the generation and its candidates: scores computed for
/// anything else cannot be gathered into this state.
pub fn generation_id(state: &TuneState) -> String {
    let mut h = Sha1::new();
    h.update(env!("CARGO_PKG_VERSION"));
    h.update(serde_json::to_vec(&state.config).expect("config serializes"));
    if let Some(p) = &state.pending {
        h.update(p.generation.to_le_bytes());
        h.update(serde_json::to_vec(&p.candidates).expect("candidates serialize"));
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Scores the shard's candidates of the pending generation (sampling it if needed, which
/// does not change the state file: every shard draws the same candidates). `None` when
/// `stop` was set before every candidate was scored.
pub fn score_shard(
    state: &mut TuneState,
    shard: ShardSpec,
    threads: usize,
    stop: &AtomicBool,
    on_game: impl Fn(&GameResult) + Sync,
) -> Result<Option<ScoresFile>, TuneError> {
    if state.finished() {
        return Err(TuneError::Config(format!(
            "the run has finished its {} generations",
            state.config.generations
        )));
    }
    let candidates = state.sample().candidates.clone();
    let generation = state.generation;
    let mut scores = Vec::new();
    let tables = ReachTables::for_weights(&state.config.start);
    for j in shard.range(state.config.population) {
        let standard = Standard::with_tables(state.weights(&candidates[j as usize])?, &tables);
        let Some(results) = play_generation(
            &state.config,
            &standard,
            generation,
            threads,
            stop,
            &on_game,
        ) else {
            return Ok(None);
        };
        scores.push((j, fitness(state.config.objective, &results)));
    }
    Ok(Some(ScoresFile {
        format: SCORES_FORMAT.to_string(),
        generation_id: generation_id(state),
        generation,
        shard,
        scores,
    }))
}

/// Writes a scores file; an existing file is never overwritten.
pub fn write(path: &Path, file: &ScoresFile) -> Result<(), TuneError> {
    crate::io::write_json(path, file, false)
}

fn read(path: &Path) -> Result<ScoresFile, TuneError> {
    let file: ScoresFile = crate::io::read_json::<_, TuneError>(path)?;
    if file.format != SCORES_FORMAT {
        return Err(TuneError::Scores {
            path: path.to_path_buf(),
            reason: format!("a {:?} file, not tune scores", file.format),
        });
    }
    Ok(file)
}

/// Fills the pending generation's scores from shard files. Every candidate must get a score,
/// each file must belong to this generation of this run, and nothing is changed on error.
pub fn gather(state: &mut TuneState, paths: &[PathBuf]) -> Result<(), TuneError> {
    let id = generation_id(state);
    let Some(pending) = &state.pending else {
        return Err(TuneError::Config(format!(
            "generation {} has no candidates yet: run `nestor tune sample` first",
            state.generation
        )));
    };
    let mut scores = pending.scores.clone();
    for path in paths {
        let file = read(path)?;
        let bad = |reason: String| TuneError::Scores {
            path: path.clone(),
            reason,
        };
        if file.generation_id != id {
            return Err(bad(format!(
                "scores of generation {} of another run or sample, not of generation {} of this state",
                file.generation, pending.generation
            )));
        }
        for (j, s) in file.scores {
            let slot = scores
                .get_mut(j as usize)
                .ok_or_else(|| bad(format!("no candidate {j}")))?;
            if !s.is_finite() {
                return Err(bad(format!("candidate {j} has score {s}")));
            }
            *slot = Some(s);
        }
    }
    let missing: Vec<usize> = (0..scores.len()).filter(|&j| scores[j].is_none()).collect();
    if !missing.is_empty() {
        return Err(TuneError::Incomplete {
            generation: pending.generation,
            missing,
        });
    }
    if let Some(p) = state.pending.as_mut() {
        p.scores = scores;
    }
    Ok(())
}
