//! `nestor analyze ROM MOVIE.fm2`: replays a movie, ranks every placement of every piece and
//! rates the player's; prints a summary (or JSON), writes a CSV and a folder of PNG pictures.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::json;

use nestor::coach::summary::{Row, CSV_HEADER};
use nestor::coach::{AnalysisError, Analyzer, Rating, Summary};
use nestor::game::Game;
use nestor::movie::Replay;
use nestor::nes::{AddressMap, Console, ModelConsole, NesDeck, Video};
use nestor::search::adjust::Adjustments;
use nestor::search::explain::{Explainer, Explanation, PlacementView};
use nestor::search::profile::Profile;
use nestor::search::rank::{Ranked, Ranker};
use nestor::search::{Planner, Standard};
use nestor::ui::coach_plots::{accuracy_by_level, loss_per_piece, placement_picture};
use nestor::ui::{save_png, Frame};

use clap::Args;
use nestor::io::{Input, Output, OutputSet};

use super::args::{BotArgs, CoachSettingsArg, ModelConsoleArgs, OverwriteArg, ReplayRomOptions};
use super::interrupt::Interrupt;

#[derive(Args, Debug)]
#[command(override_usage = "nestor analyze [OPTIONS] <ROM> <MOVIE.fm2>")]
pub struct AnalyzeArgs {
    /// The cartridge, then the FM2 movie (a person's game from FCEUX, or one nestor recorded).
    #[arg(value_name = "ROM MOVIE.fm2", num_args = 1..=2, required = true)]
    pub files: Vec<PathBuf>,
    /// Print the summary, the worst placements and one row per piece as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per piece.
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
    /// Write PNG pictures into this folder: value loss per piece, accuracy per level, and each
    /// of the worst placements on its board with the best one outlined.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// For each of the worst placements, the top N placements and the played one with their
    /// values split by feature [default N: 3].
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3", value_parser = super::explain::parse_count)]
    pub explain: Option<usize>,
    #[command(flatten)]
    pub settings: CoachSettingsArg,
    #[command(flatten)]
    pub bot: BotArgs,
    #[command(flatten)]
    pub rom_options: ReplayRomOptions,
    #[command(flatten)]
    pub output: OverwriteArg,
    /// Testing: replay the movie on the model console instead of a cartridge (give only the
    /// movie).
    #[command(flatten)]
    pub model: ModelConsoleArgs,
}

/// The PNG files `--report` writes besides the placement pictures.
const LOSS_PNG: &str = "loss.png";
const LEVELS_PNG: &str = "accuracy-by-level.png";

fn worst_png(i: usize) -> String {
    format!("worst-{}.png", i + 1)
}

pub fn run(args: &AnalyzeArgs) -> Result<ExitCode> {
    let (rom, movie) = match (args.model.model_console, args.files.as_slice()) {
        (Some(_), [movie]) => (None, movie),
        (Some(_), _) => {
            return Err(super::args::bad_argument(
                "with --model-console give only the movie",
            ))
        }
        (None, [rom, movie]) => (Some(rom), movie),
        (None, _) => {
            return Err(super::args::bad_argument(
                "`nestor analyze` needs the ROM and the movie: nestor analyze ROM MOVIE.fm2",
            ))
        }
    };
    let settings = args.settings.load()?;
    // The person's profile ranks with its own weight set unless --weights replaces it.
    let bot = args.bot.resolve()?;
    let (weights, profile) = (bot.weights, bot.profile);
    let worst = settings.report.worst;
    let outputs = check_outputs(args, worst)?;
    let map = AddressMap::load_or_default(args.rom_options.rom.addresses.as_deref())?;
    let standard = Standard::new(weights);
    let mut analyzer = Analyzer::new(standard.clone(), map.clone(), settings.classes);
    analyzer.set_profile(profile.clone());
    let stop = Interrupt::install();
    let outcome = match (rom, args.model.model_console) {
        (Some(rom), _) => {
            let loaded = super::replay::load(rom, movie, &args.rom_options)?;
            let mut deck = NesDeck::new(&loaded.rom, Video::Headless)?;
            analyse(&mut analyzer, &mut deck, &loaded.replay, &stop)
        }
        (None, Some(seed)) => {
            let replay = Replay::load(movie)?;
            let mut console = ModelConsole::new(Game::seeded(args.model.model_level, seed), map);
            analyse(&mut analyzer, &mut console, &replay, &stop)
        }
        (None, None) => unreachable!("checked above"),
    };
    match outcome {
        Ok(()) => {}
        Err(AnalysisError::NoGame { frames }) => bail!(
            "{}: no game in it: {frames} frames replayed and no piece was placed in an A-type game",
            movie.display()
        ),
        Err(e) => return Err(anyhow!(e).context(movie.display().to_string())),
    }
    let interrupted = stop.requested();
    let ratings = analyzer.into_ratings();
    let summary = Summary::new(&ratings, worst);
    let explained = match args.explain {
        Some(n) => explain_worst((&standard, &profile), &ratings, &summary, n),
        None => Vec::new(),
    };
    let adjusted = adjust_worst((&standard, &profile), &ratings, &summary);
    if let Some(out) = &outputs.csv {
        write_csv(out, &ratings)?;
    }
    if let Some(report) = &outputs.report {
        write_report(report, &ratings, &summary)?;
    }
    if args.json {
        let worst_rows: Vec<Row> = summary
            .worst
            .iter()
            .map(|&i| Row::of(&ratings[i]))
            .collect();
        let out = json!({
            "movie": movie.display().to_string(),
            "weights": bot.weights_source,
            "profile": nestor::movegen::profile::ProfileKeys::from(&profile),
            "thresholds": settings.classes,
            "interrupted": interrupted,
            "summary": summary,
            "worst": worst_rows,
            "explain": explained.iter().map(|(r, top, played)| json!({
                "frame": r.at.frame,
                "top": top,
                "played": played,
            })).collect::<Vec<_>>(),
            "adjust": adjusted.iter().map(|(r, a)| adjust_json(r, a)).collect::<Vec<_>>(),
            "pieces": ratings.iter().map(Row::of).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{}: profile {}", movie.display(), profile.describe());
        println!("weights: {}", bot.weights_source);
        print!("{}", summary.text(&ratings));
        if summary.worst.is_empty() && outputs.report.is_none() {
            // Nothing to list: the charts are what is left to see.
            println!("(--report DIR draws the game's charts: loss per piece, accuracy by level)");
        }
        for (r, top, played) in &explained {
            println!(
                "\nframe {}: the top {} placements and the one played",
                r.at.frame,
                top.len()
            );
            for x in top {
                print!("{}", x.table());
            }
            print!("played: {}", played.table());
        }
        if !adjusted.is_empty() {
            println!(
                "\nthe worst pieces as the bot plays them with a reaction of {} frames: where it \
                 hovers when the next piece is seen, then its taps for each next piece",
                profile.reaction
            );
            for (r, a) in &adjusted {
                println!(
                    "  frame {} ({}): {}",
                    r.at.frame,
                    r.piece.letter(),
                    a.text()
                );
            }
        }
    }
    if interrupted {
        eprintln!("interrupted: the summary covers the placements rated so far");
        // 128 + SIGINT, as shells report an interrupted command.
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Replays every frame of `replay` on `console` through the analyser, with a progress bar;
/// Ctrl-C stops it (what was rated so far is kept).
fn analyse<C: Console, E: nestor::search::eval::Evaluator + Clone>(
    analyzer: &mut Analyzer<E>,
    console: &mut C,
    replay: &Replay,
    stop: &Interrupt,
) -> Result<(), AnalysisError> {
    let pads = replay.pads();
    let bar = super::progress::bar(pads.len() as u64, "frames");
    let mut n = 0u64;
    let r = analyzer.run(console, pads, |a, _| {
        n += 1;
        if n.is_multiple_of(64) {
            bar.set_position(n);
            bar.set_message(format!("{} placements rated", a.ratings().len()));
        }
        !stop.requested()
    });
    bar.finish_and_clear();
    r
}

/// For each worst placement under a profile with a reaction delay: where the bot hovers and
/// its taps for each next piece (`search::adjust`); nothing without a delay.
fn adjust_worst<'a>(
    (standard, profile): (&Standard, &Profile),
    ratings: &'a [Rating],
    summary: &Summary,
) -> Vec<(&'a Rating, Adjustments)> {
    let mut planner = Planner::new(standard.clone());
    planner.profile = profile.clone();
    summary
        .worst
        .iter()
        .filter_map(|&i| Some((&ratings[i], planner.adjustments(&ratings[i].situation)?)))
        .collect()
}

/// One worst piece's adjustments as JSON: the hover and, per next piece, its taps and lock.
fn adjust_json(r: &Rating, a: &Adjustments) -> serde_json::Value {
    json!({
        "frame": r.at.frame,
        "hover": PlacementView::from(&a.hover),
        "hover_frames": a.hover_inputs.len(),
        "by_next": a.by_next.iter().map(|n| json!({
            "next": n.next.letter(),
            "taps": nestor::search::adjust::taps_in_words(&n.inputs, a.held),
            "lock": PlacementView::from(&n.lock),
        })).collect::<Vec<_>>(),
    })
}

/// For each worst placement: the top `n` placements of its decision and the played one,
/// ranked under the profile the analysis used.
fn explain_worst<'a>(
    (standard, profile): (&Standard, &Profile),
    ratings: &'a [Rating],
    summary: &Summary,
    n: usize,
) -> Vec<(&'a Rating, Vec<Explanation>, Explanation)> {
    let mut ranker = Ranker::new(standard.clone());
    ranker.set_profile(profile.clone());
    let mut explainer = Explainer::new(standard);
    let mut out = Vec::new();
    for &i in &summary.worst {
        let r = &ratings[i];
        let Some(ranking) = ranker.rank(&r.situation) else {
            continue;
        };
        let top = ranking
            .entries
            .iter()
            .take(n)
            .map(|e| explainer.explain(&r.situation, e))
            .collect();
        let played = match ranking.find(&r.player) {
            Some(e) => *e,
            None => {
                let (value, next_lock) = ranker.value_of(&r.situation, &r.player);
                Ranked {
                    lock: r.player,
                    value,
                    next_lock,
                    rank: r.verdict.rank,
                    frames: 0,
                }
            }
        };
        out.push((r, top, explainer.explain(&r.situation, &played)));
    }
    out
}

/// `--csv` and the `--report` folder's pictures, checked before the replay under the
/// overwrite rule.
struct Outputs {
    csv: Option<Output>,
    /// loss.png, accuracy-by-level.png, then worst-1.png … in order.
    report: Option<Vec<Output>>,
}

fn check_outputs(args: &AnalyzeArgs, worst: usize) -> Result<Outputs> {
    let mut inputs: Vec<Input<'_>> = args.files.iter().map(|p| ("input", p.as_path())).collect();
    for (role, p) in [
        ("settings file", args.settings.settings.as_ref()),
        ("weights file", args.bot.weights.as_ref()),
        ("addresses file", args.rom_options.rom.addresses.as_ref()),
    ] {
        if let Some(p) = p {
            inputs.push((role, p.as_path()));
        }
    }
    let overwrite = args.output.overwrite;
    let mut set = OutputSet::new(inputs, overwrite);
    // The folder first: a CSV inside it is then refused for the picture it would be.
    let report = match &args.report {
        None => None,
        Some(dir) => {
            let names: Vec<String> = [LOSS_PNG.to_string(), LEVELS_PNG.to_string()]
                .into_iter()
                .chain((0..worst).map(worst_png))
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            Some(set.folder("--report", dir, &names)?)
        }
    };
    let csv = set.maybe("--csv", args.csv.as_deref())?;
    Ok(Outputs { csv, report })
}

fn write_csv(out: &Output, ratings: &[Rating]) -> Result<()> {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for r in ratings {
        text.push_str(&Row::of(r).csv());
        text.push('\n');
    }
    out.write(text.as_bytes())
        .with_context(|| format!("cannot write {}", out.path().display()))?;
    eprintln!("csv: {}", out.path().display());
    Ok(())
}

fn write_report(outputs: &[Output], ratings: &[Rating], summary: &Summary) -> Result<()> {
    let mut pictures: Vec<Frame> = vec![
        loss_per_piece(ratings)?,
        accuracy_by_level(&summary.per_level)?,
    ];
    for &i in &summary.worst {
        pictures.push(placement_picture(&ratings[i]));
    }
    for (out, frame) in outputs.iter().zip(pictures) {
        save_png(&frame, out.path())?;
        eprintln!("plot: {}", out.path().display());
    }
    Ok(())
}
