//! `nestor tune`: the whole run on this machine (resumable, Ctrl-C safe), or one step of a
//! run driven by a batch system (init, score a shard, gather, finish), over one state file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use nestor::lab::shard::write_atomically;
use nestor::lab::tune::{
    batch_config, fitness, play_generation, scores, tunable_keys, GenerationRecord, TuneConfig,
    TuneState,
};

use super::compare::{describe, play_and_compare_profiled};
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};
use super::sim::{load_weights, threads};
use crate::{TuneArgs, TuneCommand, TuneSetup};

pub fn run(args: &TuneArgs) -> Result<ExitCode> {
    match &args.command {
        None => run_here(args),
        Some(TuneCommand::Init(setup)) => {
            let mut state = new_state(setup)?;
            state.sample();
            state.save(&setup.state)?;
            println!(
                "{}: generation 0 of {}, {} candidates to score",
                setup.state.display(),
                state.config.generations,
                state.config.population
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(TuneCommand::Score {
            state,
            shard,
            out,
            threads: t,
        }) => {
            refuse_existing(out)?;
            let mut st = TuneState::load(state)?;
            let n = threads(*t, st.config.games);
            let share = shard.range(st.config.population);
            let bar =
                super::progress::bar(u64::from(st.config.games) * share.len() as u64, "games");
            let interrupt = Interrupt::install();
            let file = scores::score_shard(&mut st, *shard, n, interrupt.flag(), |_| bar.inc(1))?;
            bar.finish_and_clear();
            let Some(file) = file else {
                eprintln!("interrupted: no scores written");
                return Ok(ExitCode::from(EXIT_INTERRUPTED));
            };
            scores::write(out, &file)?;
            println!(
                "generation {}: candidates {}..{} scored into {}",
                file.generation,
                share.start,
                share.end,
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(TuneCommand::Gather {
            state,
            scores: files,
        }) => {
            let mut st = TuneState::load(state)?;
            scores::gather(&mut st, files)?;
            if let Some(record) = st.finish_generation() {
                log_generation(&st.config, &record);
            }
            if !st.finished() {
                st.sample();
            }
            st.save(state)?;
            println!(
                "{}: {} of {} generations done",
                state.display(),
                st.generation,
                st.config.generations
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(TuneCommand::Finish {
            state,
            out,
            compare_games,
            threads: t,
        }) => {
            let st = TuneState::load(state)?;
            finish(&st, state, out, *compare_games, *t)
        }
    }
}

fn refuse_existing(path: &Path) -> Result<()> {
    if path.exists() {
        bail!(
            "{} exists; nestor never overwrites it (remove it or choose another name)",
            path.display()
        );
    }
    Ok(())
}

/// A run set up from the command line, with generation 0 not yet drawn.
fn new_state(setup: &TuneSetup) -> Result<TuneState> {
    if setup.state.exists() {
        bail!(
            "{} exists; continue it with --resume {0} or choose another --state",
            setup.state.display()
        );
    }
    let start = load_weights(setup.weights.as_deref())?;
    let levels = setup.objective.levels(setup.level);
    let keys = tunable_keys(&start, setup.phase.as_deref(), levels)?;
    let config = TuneConfig {
        objective: setup.objective,
        level: setup.level,
        max_pieces: setup.pieces,
        max_lines: setup.max_lines,
        population: setup.population,
        elite: setup.elite.unwrap_or((setup.population / 4).max(1)),
        generations: setup.generations,
        games: setup.games,
        seed: setup.seed,
        sigma: setup.sigma,
        noise: setup.noise,
        phase: setup.phase.clone(),
        keys,
        start,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        profile: super::profile::resolve(&setup.profile)?,
    };
    Ok(TuneState::new(config)?)
}

fn log_generation(config: &TuneConfig, r: &GenerationRecord) {
    log::info!(
        "generation {}/{}: best {:.3}, elite mean {:.3}, sigma {:.4} ({})",
        r.generation + 1,
        config.generations,
        r.best,
        r.elite_mean,
        r.sigma,
        config.objective
    );
}

/// The whole run here: every candidate on all cores, the state saved after each one, then the
/// result and the check on fresh seeds. Ctrl-C drops the candidate in play (its games are
/// replayed on resume, with the same seeds) and leaves the state as of the last one scored.
fn run_here(args: &TuneArgs) -> Result<ExitCode> {
    let (mut state, path): (TuneState, PathBuf) = match &args.resume {
        Some(p) => (TuneState::load(p)?, p.clone()),
        None => {
            let state = new_state(&args.setup)?;
            (state, args.setup.state.clone())
        }
    };
    refuse_existing(&args.out)?;
    state.save(&path)?;
    let interrupt = Interrupt::install();
    let n = threads(args.threads, state.config.games);
    while !state.finished() {
        let g = state.generation;
        let config = state.config.clone();
        let pending = state.sample().clone();
        let todo: Vec<usize> = (0..pending.candidates.len())
            .filter(|&j| pending.scores[j].is_none())
            .collect();
        let bar = super::progress::bar(u64::from(config.games) * todo.len() as u64, "games");
        bar.set_message(format!("generation {}/{}", g + 1, config.generations));
        for j in todo {
            let weights = state.weights(&pending.candidates[j])?;
            let results =
                play_generation(&config, &weights, g, n, interrupt.flag(), |_| bar.inc(1));
            let Some(results) = results else {
                // The candidate's games in play are dropped; its score is not in the state.
                bar.finish_and_clear();
                state.save(&path)?;
                eprintln!(
                    "stopped in generation {}; continue with: nestor tune --resume {}",
                    g + 1,
                    path.display()
                );
                return Ok(ExitCode::from(EXIT_INTERRUPTED));
            };
            if let Some(p) = state.pending.as_mut() {
                p.scores[j] = Some(fitness(config.objective, &results));
            }
            state.save(&path)?;
        }
        bar.finish_and_clear();
        if let Some(record) = state.finish_generation() {
            log_generation(&config, &record);
        }
        state.save(&path)?;
    }
    finish(&state, &path, &args.out, args.compare_games, args.threads)
}

/// Writes the tuned weights with a header saying how they were made, after checking them
/// against the starting weights on seeds no generation played.
fn finish(
    state: &TuneState,
    state_path: &Path,
    out: &Path,
    compare_games: u32,
    threads: Option<u64>,
) -> Result<ExitCode> {
    if !state.finished() {
        bail!(
            "{}: only {} of {} generations are done",
            state_path.display(),
            state.generation,
            state.config.generations
        );
    }
    refuse_existing(out)?;
    let c = &state.config;
    let tuned = state.result()?;
    // Seeds after the last generation's: no candidate ever played them.
    let check_batch = batch_config(
        c,
        c.fresh_seed(),
        compare_games,
        super::sim::threads(threads, compare_games),
    );
    let check = play_and_compare_profiled(&check_batch, &c.profile, c.objective, &tuned, &c.start)
        .with_context(|| {
            format!(
                "the tuning is done; `nestor tune finish --state {}` writes the result",
                state_path.display()
            )
        })?;
    let verdict = describe(
        &check_batch,
        c.objective,
        &out.display().to_string(),
        "the starting weights",
        &check,
    );
    let last = state.history.last();
    let mut text = format!(
        "# Evaluation weights tuned by nestor {version} (noisy cross-entropy), {date}.\n\
         # command: {command}\n\
         # objective {objective}, start level {level}, piece cap {pieces}, line cap {lines}, \
         phase {phase}\n\
         # {gens} generations x {pop} candidates (elite {elite}), {games} games each, \
         seeds {s0}..{s1}\n\
         # last generation: best {best:.3}, elite mean {elite_mean:.3} (mean {objective} per game)\n\
         # tuned: {keys}\n\
         # check against the starting weights on fresh seeds:\n",
        version = env!("CARGO_PKG_VERSION"),
        date = jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC"),
        command = c.command,
        objective = c.objective,
        level = c.level,
        pieces = c.max_pieces.map_or("none".into(), |p| p.to_string()),
        lines = c.max_lines,
        phase = c.phase.as_deref().unwrap_or("all"),
        gens = c.generations,
        pop = c.population,
        elite = c.elite,
        games = c.games,
        s0 = c.game_seed(0, 0),
        s1 = c.fresh_seed() - 1,
        best = last.map_or(f64::NAN, |r| r.best),
        elite_mean = last.map_or(f64::NAN, |r| r.elite_mean),
        keys = c.keys.join(", "),
    );
    for line in verdict.lines() {
        text.push_str("#   ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    text.push_str(&tuned.to_toml());
    write_atomically(out, text.as_bytes(), false)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    println!("{verdict}");
    println!("tuned weights written to {}", out.display());
    Ok(ExitCode::SUCCESS)
}
