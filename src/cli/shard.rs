//! `nestor sim --shard K/N` (play a share of a batch into a part file) and `nestor sim merge`
//! (join the parts into the summary a single run gives): batch statistics on a cluster.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use nestor::io::{Input, OutputSet};

use nestor::lab::batch::{run_batch_profiled, BatchConfig};
use nestor::lab::shard::{self, PartFile, RunIdentity};
use nestor::movegen::profile::Profile;
use nestor::search::Standard;

use super::args::{OverwriteArg, ReportArgs};
use super::interrupt::Interrupt;
use super::sim::{batch_config, report, threads, Outputs, ProfileLabel, SimArgs};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts written by `nestor sim --shard K/N`, all N of them.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub output: OverwriteArg,
}

/// The options a merged summary prints, by name in [`RunIdentity::options`].
const LEVEL: &str = "level";
const UNTIL: &str = "until";
const MAX_LINES: &str = "max_lines";
const PIECES: &str = "pieces";
const PROFILE_NAME: &str = "profile_name";
const WEIGHTS_SET: &str = "weights_set";

/// What makes the run's games what they are, apart from which share a shard plays. The batch
/// settings are also taken whole (their debug form), so an option added to them later is part
/// of the identity without anyone remembering to add it here.
fn identity(
    args: &SimArgs,
    config: &BatchConfig,
    profile: &Profile,
    weights: (String, &str),
) -> RunIdentity {
    let (weights_id, weights_set) = weights;
    let neutral = BatchConfig {
        games: 0,
        seed: 0,
        threads: 0,
        ..*config
    };
    let pieces = args.pieces.map_or(String::new(), |p| p.to_string());
    RunIdentity {
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: config.seed,
        games: config.games,
        weights: weights_id,
        options: BTreeMap::from([
            ("batch".to_string(), format!("{neutral:?}")),
            (LEVEL.to_string(), args.level.to_string()),
            (UNTIL.to_string(), args.until.to_string()),
            (MAX_LINES.to_string(), args.max_lines.to_string()),
            (PIECES.to_string(), pieces),
            (shard::PROFILE_OPTION.to_string(), profile.describe()),
            (PROFILE_NAME.to_string(), profile.name.clone()),
            (WEIGHTS_SET.to_string(), weights_set.to_string()),
        ]),
    }
}

pub fn run_part(args: &SimArgs) -> Result<ExitCode> {
    let shard = args.shard.context("--shard is needed")?;
    let path = args.part.clone().unwrap_or_else(|| {
        PathBuf::from(format!("sim-part-{}-of-{}.json", shard.index, shard.count))
    });
    let mut inputs = Vec::new();
    if let Some(w) = &args.bot.weights {
        inputs.push(("weights file", w.as_path()));
    }
    let part = OutputSet::new(inputs, args.output.overwrite).file("--part", &path)?;
    let bot = args.bot.resolve()?;
    let (weights, profile) = (&bot.weights, &bot.profile);
    let whole = batch_config(args, 1);
    let share = shard.range(args.games);
    let config = BatchConfig {
        games: share.len() as u32,
        seed: args.seed.wrapping_add(u64::from(share.start)),
        threads: threads(args.threads, share.len() as u32),
        ..whole
    };
    let interrupt = Interrupt::install();
    let bar = super::progress::bar(u64::from(config.games), "games");
    let make = || Standard::new(weights.clone());
    let mut results =
        run_batch_profiled(&config, profile, make, interrupt.flag(), |_, _| bar.inc(1));
    bar.finish_and_clear();
    if interrupt.requested() {
        eprintln!("interrupted: shard {shard} is incomplete, nothing written");
        return Ok(ExitCode::from(super::interrupt::EXIT_INTERRUPTED));
    }
    for r in &mut results {
        r.index += share.start;
    }
    let desyncs: u64 = results.iter().map(|r| u64::from(r.stats.desyncs)).sum();
    let id = identity(
        args,
        &whole,
        profile,
        (shard::weights_id(weights), &bot.weights_source),
    );
    let text = serde_json::to_vec_pretty(&PartFile::new(id, shard, results))?;
    part.write(&text)
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "shard {shard}: games {}..{} of {} written to {}",
        share.start,
        share.end,
        args.games,
        path.display()
    );
    Ok(if desyncs == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub fn merge(args: &MergeArgs) -> Result<ExitCode> {
    let inputs: Vec<Input<'_>> = args.parts.iter().map(|p| ("part", p.as_path())).collect();
    let outputs = Outputs::check(&args.report, &inputs, args.output.overwrite)?;
    let (identity, results) = shard::merge(&args.parts)?;
    let option = |key: &str| -> Result<&str> {
        identity
            .options
            .get(key)
            .map(String::as_str)
            .with_context(|| format!("{}: no `{key}` in the shard files", args.parts[0].display()))
    };
    let bad = |key: &str| {
        format!(
            "{}: bad `{key}` in the shard files",
            args.parts[0].display()
        )
    };
    let pieces = option(PIECES)?;
    let sim = SimArgs {
        games: identity.games,
        level: option(LEVEL)?.parse().with_context(|| bad(LEVEL))?,
        seed: identity.seed,
        until: option(UNTIL)?.parse().with_context(|| bad(UNTIL))?,
        max_lines: option(MAX_LINES)?.parse().with_context(|| bad(MAX_LINES))?,
        pieces: match pieces {
            "" => None,
            p => Some(p.parse().with_context(|| bad(PIECES))?),
        },
        report: args.report.clone(),
        ..SimArgs::default()
    };
    // Shards from before profiles record none: they played `unlimited`.
    let unlimited = Profile::default();
    let profile = ProfileLabel {
        name: identity
            .options
            .get(PROFILE_NAME)
            .cloned()
            .unwrap_or(unlimited.name.clone()),
        describe: identity
            .options
            .get(shard::PROFILE_OPTION)
            .cloned()
            .unwrap_or(unlimited.describe()),
        weights: identity
            .options
            .get(WEIGHTS_SET)
            .cloned()
            .unwrap_or_default(),
    };
    report(&sim, &outputs, &profile, &results, None, false)
}
