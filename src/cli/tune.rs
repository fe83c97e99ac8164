//! `nestor tune`: the whole run on this machine (resumable, Ctrl-C safe), or one step of a
//! run driven by a batch system (init, score a shard, gather, finish), over one state file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use clap::{Args, Subcommand};
use nestor::io::{Output, OutputError, OutputSet};
use nestor::lab::shard::ShardSpec;
use nestor::lab::tune::race::{play_race, RaceRule};
use nestor::lab::tune::{
    batch_config, scores, tunable_keys, GenerationRecord, TuneConfig, TuneState,
};
use nestor::search::{ReachTables, Standard};

use super::args::{BotArgs, OverwriteArg};
use super::compare::{describe, play_and_compare_profiled, GamesJudged};
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};
use super::sim::threads;

/// `tune`'s default line cap: past level 29 from a level-19 start (230 lines), so every phase
/// is played, yet short enough that a candidate costs seconds.
const TUNE_MAX_LINES: u32 = 300;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub command: Option<TuneCommand>,
    /// Continue the run saved in this state file (its settings are used; others are ignored).
    #[arg(long, value_name = "STATE")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub setup: TuneSetup,
    /// The tuned weights (TOML), checked before the run.
    #[arg(long, default_value = "tuned.toml", value_name = "FILE.toml")]
    pub out: PathBuf,
    /// Games of the final comparison against the starting weights, on seeds tuning never saw.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    pub compare_games: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Play every game of every candidate: no early stop of the candidates that cannot reach
    /// the elite (the race's paired 3-sigma rule, checked every 10 games; see lab::tune::race).
    #[arg(long)]
    pub no_early_stop: bool,
}

/// The settings of a new tuning run.
#[derive(Args, Debug)]
pub struct TuneSetup {
    /// The state file, written after every candidate and generation.
    #[arg(long, default_value = "tune-state.json", value_name = "FILE")]
    pub state: PathBuf,
    #[command(flatten)]
    pub judged: GamesJudged,
    /// Stop each game after this many pieces (at least 1) [default: no limit].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub pieces: Option<u32>,
    /// Stop each game after this many lines (the per-game line cap). Lower than `sim`'s: the
    /// killscreen brain plays most games to the crash level (1,000+ lines), which would make
    /// every candidate cost minutes; raise it to tune the killscreen phase.
    #[arg(long, default_value_t = TUNE_MAX_LINES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_lines: u32,
    /// Candidates per generation.
    #[arg(long, default_value_t = 24)]
    pub population: u32,
    /// Best candidates kept to refit the distribution [default: a quarter of the population].
    #[arg(long)]
    pub elite: Option<u32>,
    /// Generations.
    #[arg(long, default_value_t = 20)]
    pub generations: u32,
    /// Games per candidate (the same seeds for a generation's candidates, new each generation).
    #[arg(long, default_value_t = 30)]
    pub games: u32,
    /// First seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Initial standard deviation of each tuned weight.
    #[arg(long, default_value_t = 0.5)]
    pub sigma: f64,
    /// Extra variance added at each refit, decaying to 0 by the last generation.
    #[arg(long, default_value_t = 0.05)]
    pub noise: f64,
    /// Tune only this phase's weights (`[phase.NAME]` in the weights file).
    #[arg(long, value_name = "NAME")]
    pub phase: Option<String>,
    /// The starting weights and the profile the candidates play (kept in the state file).
    #[command(flatten)]
    pub bot: BotArgs,
    #[command(flatten)]
    pub output: OverwriteArg,
}

/// One step of a run driven by a batch system; each reads and advances the state file.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Writes a new state file with generation 0's candidates.
    Init(TuneSetup),
    /// Scores shard K of N of the current generation's candidates into a scores file.
    Score {
        /// The run's state file (read, not changed).
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        /// Which share of the generation's candidates to score: K of N (1 ≤ K ≤ N).
        #[arg(long, value_name = "K/N")]
        shard: ShardSpec,
        /// The scores file (JSON).
        #[arg(long, value_name = "FILE.json")]
        out: PathBuf,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        threads: Option<u64>,
        #[command(flatten)]
        output: OverwriteArg,
    },
    /// Reads every shard's scores, ends the generation and draws the next one's candidates.
    Gather {
        /// The run's state file, advanced to the next generation in place.
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        /// The scores files of every shard of the generation (from `tune score`).
        #[arg(required = true, value_name = "SCORES.json")]
        scores: Vec<PathBuf>,
    },
    /// Writes the tuned weights and compares them with the starting ones on fresh seeds.
    Finish {
        /// The run's state file (all generations done).
        #[arg(long, value_name = "STATE")]
        state: PathBuf,
        /// The tuned weights (TOML).
        #[arg(long, default_value = "tuned.toml", value_name = "FILE.toml")]
        out: PathBuf,
        /// Games of the final comparison.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
        compare_games: u32,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        threads: Option<u64>,
        #[command(flatten)]
        output: OverwriteArg,
    },
}

pub fn run(args: &TuneArgs) -> Result<ExitCode> {
    match &args.command {
        None => run_here(args),
        Some(TuneCommand::Init(setup)) => {
            let mut outputs = OutputSet::new(setup.bot.inputs(), setup.output.overwrite);
            let (mut state, _out) = new_state(setup, &mut outputs)?;
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
            output,
        }) => {
            let out_file =
                OutputSet::new(vec![("state file", state)], output.overwrite).file("--out", out)?;
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
            out_file
                .write(&serde_json::to_vec_pretty(&file)?)
                .with_context(|| format!("cannot write {}", out.display()))?;
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
            output,
        }) => {
            let st = TuneState::load(state)?;
            let out =
                OutputSet::new(vec![("state file", state)], output.overwrite).file("--out", out)?;
            finish(&st, state, &out, *compare_games, *t)
        }
    }
}

/// A run set up from the command line, with generation 0 not yet drawn.
/// The state and its checked output, kept by the caller while it saves (a FIFO's reader).
/// `--state` is checked in `outputs`, the set of the run's outputs.
fn new_state(setup: &TuneSetup, outputs: &mut OutputSet<'_>) -> Result<(TuneState, Output)> {
    let out = match outputs.file("--state", &setup.state) {
        Err(OutputError::Exists { .. }) => bail!(
            "--state {} exists; continue that run with --resume {0}, choose another --state, \
             or add --overwrite to start over",
            setup.state.display()
        ),
        other => other?,
    };
    // `--weights`, else the profile's set: a profile's tune starts from what it plays.
    let bot = setup.bot.resolve()?;
    let start = bot.weights;
    let levels = setup.judged.objective.levels(setup.judged.level);
    let keys = tunable_keys(&start, setup.phase.as_deref(), levels)?;
    let config = TuneConfig {
        objective: setup.judged.objective,
        level: setup.judged.level,
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
        profile: bot.profile,
    };
    Ok((TuneState::new(config)?, out))
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
    let mut inputs = args.setup.bot.inputs();
    if let Some(p) = &args.resume {
        inputs.push(("state file", p.as_path()));
    }
    // The state and the tuned weights are checked together: one file cannot be both.
    let mut outputs = OutputSet::new(inputs, args.setup.output.overwrite);
    let (mut state, path, _state_out) = match &args.resume {
        Some(p) => (TuneState::load(p)?, p.clone(), None),
        None => {
            let (state, out) = new_state(&args.setup, &mut outputs)?;
            (state, args.setup.state.clone(), Some(out))
        }
    };
    let out = outputs.file("--out", &args.out)?;
    state.save(&path)?;
    let interrupt = Interrupt::install();
    let n = threads(args.threads, state.config.games);
    // Derived once for the run: every candidate's evaluator borrows them.
    let tables = ReachTables::for_weights(&state.config.start);
    while !state.finished() {
        let g = state.generation;
        let config = state.config.clone();
        let pending = state.sample().clone();
        let todo: Vec<usize> = (0..pending.candidates.len())
            .filter(|&j| pending.scores[j].is_none())
            .collect();
        let bar = super::progress::bar(u64::from(config.games) * todo.len() as u64, "games");
        bar.set_message(format!("generation {}/{}", g + 1, config.generations));
        let standards = todo
            .iter()
            .map(|&j| {
                let w = state.weights(&pending.candidates[j])?;
                Ok(Standard::with_tables(w, &tables))
            })
            .collect::<Result<Vec<_>, nestor::lab::tune::TuneError>>()?;
        let rule = if args.no_early_stop {
            RaceRule::FULL
        } else {
            RaceRule::default()
        };
        // Candidates that finish or stop are saved at once: a resumed run races the others.
        let mut save_error = None;
        let raced = play_race(
            &config,
            &standards,
            g,
            n,
            &rule,
            interrupt.flag(),
            |_| bar.inc(1),
            |k, o| {
                if let Some(p) = state.pending.as_mut() {
                    p.scores[todo[k]] = Some(o.score);
                    p.stopped[todo[k]] = o.stopped;
                }
                if o.stopped {
                    bar.inc(u64::from(config.games - o.games));
                }
                if let Err(e) = state.save(&path) {
                    save_error.get_or_insert(e);
                }
            },
        );
        if let Some(e) = save_error {
            return Err(e.into());
        }
        if raced.is_none() {
            // The games in play are dropped; unresolved candidates replay on resume.
            bar.finish_and_clear();
            state.save(&path)?;
            eprintln!(
                "stopped in generation {}; continue with: nestor tune --resume {}",
                g + 1,
                path.display()
            );
            return Ok(ExitCode::from(EXIT_INTERRUPTED));
        }
        bar.finish_and_clear();
        if let Some(record) = state.finish_generation() {
            log_generation(&config, &record);
        }
        state.save(&path)?;
    }
    finish(&state, &path, &out, args.compare_games, args.threads)
}

/// Writes the tuned weights with a header saying how they were made, after checking them
/// against the starting weights on seeds no generation played.
fn finish(
    state: &TuneState,
    state_path: &Path,
    out: &Output,
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
    let c = &state.config;
    let tuned = state.result()?;
    // Seeds after the last generation's: no candidate ever played them.
    let check_batch = batch_config(
        c,
        c.fresh_seed(),
        compare_games,
        super::sim::threads(threads, compare_games),
    );
    let interrupt = Interrupt::install();
    // Ctrl-C during the check keeps the tuned weights: only the check is missing.
    let verdict =
        match play_and_compare_profiled(&check_batch, &c.profile, c.objective, &tuned, &c.start) {
            Ok(check) => describe(
                &check_batch,
                c.objective,
                &out.path().display().to_string(),
                "the starting weights",
                &check,
            ),
            Err(_) if interrupt.requested() => format!(
                "interrupted: not checked against the starting weights (`nestor tune finish \
                 --state {}` checks them)",
                state_path.display()
            ),
            Err(e) => {
                return Err(e.context(format!(
                    "the tuning is done; `nestor tune finish --state {}` writes the result",
                    state_path.display()
                )))
            }
        };
    let last = state.history.last();
    let mut text = format!(
        "# Evaluation weights tuned by nestor {version} (noisy cross-entropy), {date}.\n\
         # command: {command}\n\
         # objective {objective}, start level {level}, piece cap {pieces}, line cap {lines}, \
         phase {phase}\n\
         # {gens} generations x {pop} candidates (elite {elite}), {games} games each, \
         {seeds}\n\
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
        seeds = super::sim::seeds(
            c.game_seed(0, 0),
            u64::from(c.generations) * u64::from(c.games)
        ),
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
    out.write(text.as_bytes())
        .with_context(|| format!("cannot write {}", out.path().display()))?;
    println!("{verdict}");
    println!("tuned weights written to {}", out.path().display());
    Ok(if interrupt.requested() {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}
