//! `nestor sim --shard K/N` (play a share of a batch into a part file) and `nestor sim merge`
//! (join the parts into the summary a single run gives): batch statistics on a cluster.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use nestor::search::batch::{run_batch, BatchConfig};
use nestor::search::shard::{self, PartFile, RunIdentity, ShardSpec};
use nestor::search::Standard;

use super::sim::{batch_config, load_weights, report, Output};
use crate::{MergeArgs, SimArgs};

/// What makes the run's games what they are, apart from which share a shard plays. The batch
/// settings are taken whole (their debug form), so an option added to them later is part of
/// the identity without anyone remembering to add it here.
fn identity(config: &BatchConfig, weights_id: String) -> RunIdentity {
    let neutral = BatchConfig {
        games: 0,
        seed: 0,
        threads: 0,
        ..*config
    };
    RunIdentity {
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: config.seed,
        games: config.games,
        weights: weights_id,
        options: BTreeMap::from([("batch".to_string(), format!("{neutral:?}"))]),
    }
}

fn default_part(shard: ShardSpec) -> PathBuf {
    PathBuf::from(format!("sim-part-{}-of-{}.json", shard.index, shard.count))
}

pub fn run_part(args: &SimArgs) -> Result<ExitCode> {
    let shard = args.shard.context("--shard is needed")?;
    let path = args.part.clone().unwrap_or_else(|| default_part(shard));
    if path.exists() {
        anyhow::bail!(
            "{} exists; a shard never overwrites a file (remove it or choose --part)",
            path.display()
        );
    }
    let weights = load_weights(args.bot.weights.as_deref())?;
    let whole = batch_config(args, 1);
    let share = shard.range(args.games);
    let threads = super::sim::threads(args.threads, share.len().max(1) as u32);
    let config = BatchConfig {
        games: share.len() as u32,
        seed: args.seed.wrapping_add(u64::from(share.start)),
        threads,
        ..whole
    };
    let bar = super::progress::bar(u64::from(config.games), "games");
    let mut results = run_batch(
        &config,
        || Standard::new(weights.clone()),
        |_, _| bar.inc(1),
    );
    bar.finish_and_clear();
    for r in &mut results {
        r.index += share.start;
    }
    let desyncs: u64 = results.iter().map(|r| u64::from(r.stats.desyncs)).sum();
    let part = PartFile::new(
        identity(&whole, shard::weights_id(&weights)),
        shard,
        results,
    );
    shard::write_part(&path, &part)?;
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
    if let Some(dir) = &args.plots {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let (identity, results) = shard::merge(&args.parts)?;
    report(
        &results,
        identity.seed,
        Output {
            json: args.json,
            csv: args.out.as_deref(),
            plots: args.plots.as_deref(),
        },
        None,
    )
}
