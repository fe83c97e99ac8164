//! `nestor tune`'s search: noisy cross-entropy over evaluation weights (sample a Gaussian, keep
//! the elite, refit, add decaying noise), one generation at a time from a resumable state.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::batch::{run_batch_profiled, BatchConfig, GameResult};
use super::objective::Objective;
use super::selfplay::Limits;
use crate::movegen::profile::Profile;
use crate::search::weights::{Phase, Weights};
use crate::search::Standard;

pub mod race;
pub mod scores;
mod state_file;

/// The `format` field of a state file.
const STATE_FORMAT: &str = "nestor-tune-state";

/// How a tuning run is set up; fixed for the whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// What a candidate's games are scored by (higher is better).
    pub objective: Objective,
    /// Start level of every game.
    pub level: u8,
    /// Stop each game after this many pieces.
    pub max_pieces: Option<u32>,
    /// Stop each game after this many lines (the per-game line cap).
    pub max_lines: u32,
    /// Candidates per generation (at least 2).
    pub population: u32,
    /// Best candidates the refit keeps (1..=`population`).
    pub elite: u32,
    /// Generations in the run.
    pub generations: u32,
    /// Games per candidate; every candidate of a generation plays the same seeds.
    pub games: u32,
    /// The run's seed: the games' seeds ([`TuneConfig::game_seed`]) and the candidates' draws.
    pub seed: u64,
    /// Initial standard deviation of every tuned weight.
    pub sigma: f64,
    /// Extra variance added at refit, decaying linearly to 0 over the run (noisy CE).
    pub noise: f64,
    /// Only this phase's weights (`[phase.NAME]` in the weights file).
    pub phase: Option<String>,
    /// The weights tuned, as `PHASE.KEY` (`killscreen.pile_height`).
    pub keys: Vec<String>,
    /// The starting weights: the mean of the first generation and the fixed part of every
    /// candidate (kept as the weights file's text).
    #[serde(with = "state_file::weights_text")]
    pub start: Weights,
    /// The command line that started the run, for the result's header.
    pub command: String,
    /// The player profile the candidates play (kept whole: resuming needs no profile file;
    /// a state file from before profiles plays `unlimited`).
    #[serde(default, with = "state_file::profile_keys")]
    pub profile: Profile,
}

impl TuneConfig {
    /// Seed of game `i` of generation `g`: each generation gets its own block of seeds, so the
    /// sequences are common to a generation's candidates and new every generation.
    pub fn game_seed(&self, generation: u32, i: u32) -> u64 {
        self.seed
            .wrapping_add(u64::from(generation) * u64::from(self.games))
            .wrapping_add(u64::from(i))
    }

    /// First seed after every seed tuning can use: the start of fresh seeds for the final check.
    pub fn fresh_seed(&self) -> u64 {
        self.game_seed(self.generations, 0)
    }

    fn check(&self) -> Result<(), TuneError> {
        let bad = |reason: String| Err(TuneError::Config(reason));
        if self.population < 2 {
            return bad(format!(
                "population must be at least 2, got {}",
                self.population
            ));
        }
        if self.elite == 0 || self.elite > self.population {
            return bad(format!(
                "elite must be between 1 and the population ({}), got {}",
                self.population, self.elite
            ));
        }
        if self.games == 0 || self.generations == 0 {
            return bad("games and generations must be at least 1".into());
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return bad(format!(
                "sigma must be a positive number, got {}",
                self.sigma
            ));
        }
        if !(self.noise.is_finite() && self.noise >= 0.0) {
            return bad(format!("noise must be 0 or more, got {}", self.noise));
        }
        if self.keys.is_empty() {
            return bad("no weights to tune".into());
        }
        Ok(())
    }
}

/// The weights that can be tuned, as `PHASE.KEY`: every floating-point weight of the phases
/// that play some of `levels` (the levels the games pass through: a phase no game reaches
/// would only drift), or of the one phase named, except the Tetris bonuses, which are rules
/// (they must dwarf every feature sum) rather than weights to trade against the others.
pub fn tunable_keys(
    weights: &Weights,
    phase: Option<&str>,
    levels: RangeInclusive<u8>,
) -> Result<Vec<String>, TuneError> {
    let plays = |ph: &Phase| ph.from_level <= *levels.end() && ph.to_level >= *levels.start();
    if let Some(p) = phase {
        let Some(ph) = weights.phases.iter().find(|ph| ph.name == p) else {
            return Err(TuneError::NoPhase(p.to_string()));
        };
        if !plays(ph) {
            return Err(TuneError::Config(format!(
                "phase `{p}` plays levels {}-{}, which these games never reach (levels {}-{})",
                ph.from_level,
                ph.to_level,
                levels.start(),
                levels.end()
            )));
        }
    }
    let keys: Vec<String> = weights
        .phases
        .iter()
        .filter(|ph| plays(ph) && phase.is_none_or(|p| ph.name == p))
        .flat_map(|ph| {
            ph.weights
                .floats()
                .into_iter()
                .filter(|(k, _)| !k.ends_with("_bonus"))
                .map(move |(k, _)| format!("{}.{k}", ph.name))
        })
        .collect();
    if keys.is_empty() {
        return Err(TuneError::Config(format!(
            "no phase plays levels {}-{}",
            levels.start(),
            levels.end()
        )));
    }
    Ok(keys)
}

/// The tuned float `PHASE.KEY` of `weights`.
fn slot<'w>(weights: &'w mut Weights, key: &str) -> Option<&'w mut f64> {
    let (phase, name) = key.split_once('.')?;
    weights
        .phases
        .iter_mut()
        .find(|p| p.name == phase)?
        .weights
        .float_mut(name)
}

/// `base` with the tuned keys set to `params`.
pub fn apply(base: &Weights, keys: &[String], params: &[f64]) -> Result<Weights, TuneError> {
    let mut w = base.clone();
    for (key, &p) in keys.iter().zip(params) {
        *slot(&mut w, key).ok_or_else(|| TuneError::NoKey(key.clone()))? = p;
    }
    Ok(w)
}

/// The tuned keys' values in `weights`.
pub fn read_params(weights: &Weights, keys: &[String]) -> Result<Vec<f64>, TuneError> {
    let mut w = weights.clone();
    keys.iter()
        .map(|k| {
            slot(&mut w, k)
                .map(|v| *v)
                .ok_or_else(|| TuneError::NoKey(k.clone()))
        })
        .collect()
}

/// One finished generation, for the log and the result's header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRecord {
    /// The generation's number, from 0.
    pub generation: u32,
    /// Fitness of the generation's best candidate.
    pub best: f64,
    /// Mean fitness of the elite.
    pub elite_mean: f64,
    /// Mean of the standard deviations after the refit.
    pub sigma: f64,
}

/// The generation being evaluated: its candidates and the scores known so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The generation's number, from 0.
    pub generation: u32,
    /// Each candidate's values of the tuned keys, in `TuneConfig::keys` order.
    pub candidates: Vec<Vec<f64>>,
    /// Each candidate's fitness, once its games are played.
    pub scores: Vec<Option<f64>>,
    /// Candidates the race stopped early (`tune::race`): their score is a partial mean and
    /// they rank after every finished one. Empty in state files from before the race.
    #[serde(default)]
    pub stopped: Vec<bool>,
}

impl Pending {
    fn stopped(&self, i: usize) -> bool {
        self.stopped.get(i).copied().unwrap_or(false)
    }
}

/// Everything a run needs to continue exactly: written after every step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// `nestor-tune-state`: what the file is.
    pub format: String,
    /// nestor's version: another build may play other games, so it may not continue a run.
    pub version: String,
    /// The run's settings.
    pub config: TuneConfig,
    /// Generations finished.
    pub generation: u32,
    /// The search distribution's mean per tuned key.
    pub mean: Vec<f64>,
    /// The search distribution's standard deviation per tuned key.
    pub sigma: Vec<f64>,
    /// The best candidate seen (its fitness is on its generation's seeds only).
    pub best: Option<(Vec<f64>, f64)>,
    /// Every finished generation, in order.
    pub history: Vec<GenerationRecord>,
    /// The generation being scored, once sampled.
    pub pending: Option<Pending>,
}

/// Why tuning cannot go on; every file error names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TuneError {
    /// A setting out of range, a phase no game reaches, or a step the run's state does not
    /// allow (the message says which).
    #[error("bad tuning settings: {0}")]
    Config(String),
    /// The named phase is not in the weights.
    #[error("the weights have no phase `{0}`")]
    NoPhase(String),
    /// The `PHASE.KEY` is not a float of the weights.
    #[error("the weights have no key `{0}`")]
    NoKey(String),
    /// A state or scores file could not be read, parsed or written.
    #[error(transparent)]
    File(#[from] crate::io::json::DataError),
    /// The state file is of another nestor version.
    #[error("{path} was written by nestor {found}; this is nestor {expected}, which may play other games: start a new run")]
    Version {
        /// The state file.
        path: PathBuf,
        /// The version it was written by.
        found: String,
        /// This build's version.
        expected: String,
    },
    /// The state file is not a state, or its parts do not fit together.
    #[error("{path} is inconsistent: {reason}")]
    Inconsistent {
        /// The state file.
        path: PathBuf,
        /// What does not fit.
        reason: String,
    },
    /// A scores file is not one, or not of this generation of this run.
    #[error("{path}: {reason}")]
    Scores {
        /// The scores file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The scores gathered leave some candidates without one.
    #[error("no score for candidates {missing:?} of generation {generation}: a shard's scores file is missing")]
    Incomplete {
        /// The generation being scored.
        generation: u32,
        /// The 0-based indices of the candidates without a score.
        missing: Vec<usize>,
    },
}

impl crate::io::FileError for TuneError {
    const KIND: &'static str = "tune";
}

impl TuneState {
    /// A new run at generation 0, centred on the starting weights.
    pub fn new(config: TuneConfig) -> Result<TuneState, TuneError> {
        config.check()?;
        let mean = read_params(&config.start, &config.keys)?;
        let sigma = vec![config.sigma; mean.len()];
        Ok(TuneState {
            format: STATE_FORMAT.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            config,
            generation: 0,
            mean,
            sigma,
            best: None,
            history: Vec::new(),
            pending: None,
        })
    }

    /// Every generation of the run is finished.
    pub fn finished(&self) -> bool {
        self.generation >= self.config.generations
    }

    /// The current generation's candidates, drawn once from a generator seeded by the run's
    /// seed and the generation number (so a resumed run draws the same ones).
    pub fn sample(&mut self) -> &mut Pending {
        let g = self.generation;
        if self.pending.as_ref().is_none_or(|p| p.generation != g) {
            let mut rng = ChaCha8Rng::seed_from_u64(
                self.config.seed ^ (u64::from(g) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            let candidates: Vec<Vec<f64>> = (0..self.config.population)
                .map(|_| {
                    self.mean
                        .iter()
                        .zip(&self.sigma)
                        .map(|(m, s)| {
                            let z: f64 = StandardNormal.sample(&mut rng);
                            m + s * z
                        })
                        .collect()
                })
                .collect();
            self.pending = Some(Pending {
                generation: g,
                scores: vec![None; candidates.len()],
                stopped: vec![false; candidates.len()],
                candidates,
            });
        }
        self.pending.as_mut().expect("just set")
    }

    /// The weights of a parameter vector.
    pub fn weights(&self, params: &[f64]) -> Result<Weights, TuneError> {
        apply(&self.config.start, &self.config.keys, params)
    }

    /// The run's answer: the mean of the final distribution (less noisy than any one
    /// candidate's score).
    pub fn result(&self) -> Result<Weights, TuneError> {
        self.weights(&self.mean)
    }

    /// Ends the generation once every candidate has a score: the elite (best scores, ties to
    /// the lower index) gives the new mean and spread, plus the decaying extra variance.
    pub fn finish_generation(&mut self) -> Option<GenerationRecord> {
        let pending = self.pending.as_ref()?;
        let scores: Vec<f64> = pending.scores.iter().copied().collect::<Option<_>>()?;
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| {
            (pending.stopped(a).cmp(&pending.stopped(b)))
                .then(scores[b].total_cmp(&scores[a]))
                .then(a.cmp(&b))
        });
        let elite = &order[..self.config.elite as usize];
        let e = elite.len() as f64;
        let t = f64::from(self.generation) / f64::from(self.config.generations);
        let extra = self.config.noise * (1.0 - t).max(0.0);
        for k in 0..self.mean.len() {
            let m = elite.iter().map(|&i| pending.candidates[i][k]).sum::<f64>() / e;
            let var = elite
                .iter()
                .map(|&i| (pending.candidates[i][k] - m).powi(2))
                .sum::<f64>()
                / e;
            self.mean[k] = m;
            self.sigma[k] = (var + extra).sqrt();
        }
        let top = order[0];
        if self.best.as_ref().is_none_or(|(_, b)| scores[top] > *b) {
            self.best = Some((pending.candidates[top].clone(), scores[top]));
        }
        let record = GenerationRecord {
            generation: self.generation,
            best: scores[top],
            elite_mean: elite.iter().map(|&i| scores[i]).sum::<f64>() / e,
            sigma: self.sigma.iter().sum::<f64>() / self.sigma.len() as f64,
        };
        self.history.push(record.clone());
        self.generation += 1;
        self.pending = None;
        Some(record)
    }

    /// Writes the state through a temporary file and a rename: the old state stays whole
    /// until the new one is complete.
    pub fn save(&self, path: &Path) -> Result<(), TuneError> {
        crate::io::write_json(path, self, true)
    }

    /// Reads a state file and checks it is whole, of this version, and consistent.
    pub fn load(path: &Path) -> Result<TuneState, TuneError> {
        // The version first, so a file of another version says so even if its shape changed.
        let raw: Value = crate::io::read_json::<_, TuneError>(path)?;
        let inconsistent = |reason: String| TuneError::Inconsistent {
            path: path.to_path_buf(),
            reason,
        };
        if raw.get("format").and_then(Value::as_str) != Some(STATE_FORMAT) {
            return Err(inconsistent("not a nestor tune state file".into()));
        }
        let found = raw.get("version").and_then(Value::as_str).unwrap_or("?");
        if found != env!("CARGO_PKG_VERSION") {
            return Err(TuneError::Version {
                path: path.to_path_buf(),
                found: found.to_string(),
                expected: env!("CARGO_PKG_VERSION").to_string(),
            });
        }
        let mut state: TuneState = serde_json::from_value(raw)
            .map_err(|e| crate::io::json::parse_error::<TuneError>(path, e))?;
        state
            .config
            .check()
            .map_err(|e| inconsistent(e.to_string()))?;
        let dims = state.config.keys.len();
        if state.mean.len() != dims || state.sigma.len() != dims {
            return Err(inconsistent(format!(
                "{dims} keys but {} means",
                state.mean.len()
            )));
        }
        if let Some(p) = &state.pending {
            let n = state.config.population as usize;
            if p.generation != state.generation
                || p.candidates.len() != n
                || p.scores.len() != n
                || !(p.stopped.is_empty() || p.stopped.len() == n)
                || p.candidates.iter().any(|c| c.len() != dims)
            {
                return Err(inconsistent(
                    "the pending generation does not fit the run".into(),
                ));
            }
        }
        if let Some(p) = state.pending.as_mut() {
            p.stopped.resize(p.scores.len(), false);
        }
        Ok(state)
    }
}

/// Plays `config.games` games of generation `generation` with `weights` on `threads` threads
/// and returns the per-game results, or `None` when `stop` was set first (a candidate's
/// score needs all its games); `on_game` is called after each game.
pub fn play_generation(
    config: &TuneConfig,
    standard: &Standard,
    generation: u32,
    threads: usize,
    stop: &AtomicBool,
    on_game: impl Fn(&GameResult) + Sync,
) -> Option<Vec<GameResult>> {
    let results = play_seeds(
        config,
        standard,
        config.game_seed(generation, 0),
        config.games,
        threads,
        stop,
        on_game,
    );
    (results.len() == config.games as usize).then_some(results)
}

/// The batch tuning plays: its level, limits, and the objective's stopping point.
pub fn batch_config(config: &TuneConfig, seed: u64, games: u32, threads: usize) -> BatchConfig {
    BatchConfig {
        games,
        level: config.level,
        seed,
        threads: threads.clamp(1, games.max(1) as usize),
        limits: Limits {
            max_pieces: config.max_pieces,
            max_frames: None,
        },
        until: config.objective.until(),
        max_lines: Some(config.max_lines),
    }
}

/// Plays `games` games from seed `seed` on, as tuning plays them, each thread with a copy of
/// `standard` (built with [`Standard::with_tables`]: no reach table derived per thread).
pub fn play_seeds(
    config: &TuneConfig,
    standard: &Standard,
    seed: u64,
    games: u32,
    threads: usize,
    stop: &AtomicBool,
    on_game: impl Fn(&GameResult) + Sync,
) -> Vec<GameResult> {
    let batch = batch_config(config, seed, games, threads);
    run_batch_profiled(
        &batch,
        &config.profile,
        || standard.clone(),
        stop,
        |_, r| on_game(r),
    )
}

/// The fitness of a candidate: the mean objective over its games.
pub fn fitness(objective: Objective, results: &[GameResult]) -> f64 {
    let values: Vec<f64> = results.iter().map(|r| objective.value(r)).collect();
    super::stats::mean(&values)
}

#[cfg(test)]
mod tests;
