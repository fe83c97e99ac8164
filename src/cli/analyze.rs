//! `nestor analyze ROM MOVIE.fm2`: replays a movie, ranks every placement of every piece and
//! rates the player's; prints a summary (or JSON), writes a CSV and a folder of PNG pictures.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::json;

use nestor::coach::summary::{Row, CSV_HEADER};
use nestor::coach::{AnalysisError, Analyzer, CoachSettings, Rating, Summary};
use nestor::game::Game;
use nestor::movie::Replay;
use nestor::nes::{AddressMap, Console, ModelConsole, NesDeck, Video};
use nestor::search::explain::{Explainer, Explanation};
use nestor::search::rank::{Ranked, Ranker};
use nestor::search::{Standard, Weights};
use nestor::ui::coach_plots::{accuracy_by_level, loss_per_piece, placement_picture};
use nestor::ui::{save_png, Frame};

use super::interrupt::Interrupt;
use crate::AnalyzeArgs;

/// The PNG files `--report` writes besides the placement pictures.
const LOSS_PNG: &str = "loss.png";
const LEVELS_PNG: &str = "accuracy-by-level.png";

fn worst_png(i: usize) -> String {
    format!("worst-{}.png", i + 1)
}

pub fn run(args: &AnalyzeArgs) -> Result<ExitCode> {
    let (rom, movie) = match (args.model_console, args.files.as_slice()) {
        (Some(_), [movie]) => (None, movie),
        (Some(_), _) => bail!("with --model-console give only the movie"),
        (None, [rom, movie]) => (Some(rom), movie),
        (None, _) => {
            bail!("`nestor analyze` needs the ROM and the movie: nestor analyze ROM MOVIE.fm2")
        }
    };
    let settings = match &args.settings {
        Some(p) => CoachSettings::load(p)?,
        None => CoachSettings::default(),
    };
    let weights = match &args.bot.weights {
        Some(p) => Weights::load(p).map_err(|e| anyhow!("--weights: {e}"))?,
        None => Weights::default_set(),
    };
    let profile = super::profile::resolve(&args.bot.profile)?;
    let worst = settings.report.worst;
    check_outputs(args, worst)?;
    let map = match &args.addresses {
        Some(p) => AddressMap::load(p)?,
        None => AddressMap::default(),
    };
    let standard = Standard::new(weights);
    let mut analyzer = Analyzer::new(standard.clone(), map.clone(), settings.classes);
    analyzer.set_profile(profile.clone());
    let stop = Interrupt::install();
    let outcome = match (rom, args.model_console) {
        (Some(rom), _) => {
            let loaded = super::replay::load(
                rom,
                movie,
                args.allow_unknown_rom,
                args.addresses.as_deref(),
                args.force,
            )?;
            let mut deck = NesDeck::new(&loaded.rom, Video::Headless)?;
            analyse(&mut analyzer, &mut deck, &loaded.replay, &stop)
        }
        (None, Some(seed)) => {
            let replay = Replay::load(movie)?;
            let mut console = ModelConsole::new(Game::seeded(args.model_level, seed), map);
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
        Some(n) => explain_worst(&standard, &ratings, &summary, n),
        None => Vec::new(),
    };
    if let Some(path) = &args.csv {
        write_csv(path, &ratings)?;
    }
    if let Some(dir) = &args.report {
        write_report(dir, &ratings, &summary)?;
    }
    if args.json {
        let worst_rows: Vec<Row> = summary
            .worst
            .iter()
            .map(|&i| Row::of(&ratings[i]))
            .collect();
        let out = json!({
            "movie": movie.display().to_string(),
            "weights": args.bot.weights.as_ref().map_or("built-in".into(), |p| p.display().to_string()),
            "profile": super::profile::ProfileJson::from(&profile),
            "thresholds": settings.classes,
            "interrupted": interrupted,
            "summary": summary,
            "worst": worst_rows,
            "explain": explained.iter().map(|(r, top, played)| json!({
                "frame": r.frame,
                "top": top,
                "played": played,
            })).collect::<Vec<_>>(),
            "pieces": ratings.iter().map(Row::of).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{}: profile {}", movie.display(), profile.describe());
        print!("{}", summary.text(&ratings));
        for (r, top, played) in &explained {
            println!(
                "\nframe {}: the top {} placements and the one played",
                r.frame,
                top.len()
            );
            for x in top {
                print!("{}", x.table());
            }
            print!("played: {}", played.table());
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

/// For each worst placement: the top `n` placements of its decision and the played one.
fn explain_worst<'a>(
    standard: &Standard,
    ratings: &'a [Rating],
    summary: &Summary,
    n: usize,
) -> Vec<(&'a Rating, Vec<Explanation>, Explanation)> {
    let mut ranker = Ranker::new(standard.clone());
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
                    rank: r.rank,
                    frames: 0,
                }
            }
        };
        out.push((r, top, explainer.explain(&r.situation, &played)));
    }
    out
}

/// Refuses outputs that exist already: nothing the user has is ever overwritten.
fn check_outputs(args: &AnalyzeArgs, worst: usize) -> Result<()> {
    if let Some(p) = &args.csv {
        if p.exists() {
            bail!(
                "--csv {}: the file exists; choose another name",
                p.display()
            );
        }
    }
    if let Some(dir) = &args.report {
        let names = [LOSS_PNG.to_string(), LEVELS_PNG.to_string()]
            .into_iter()
            .chain((0..worst).map(worst_png));
        for name in names {
            let p = dir.join(name);
            if p.exists() {
                bail!(
                    "--report {}: {} exists; choose another folder",
                    dir.display(),
                    p.display()
                );
            }
        }
    }
    Ok(())
}

fn write_csv(path: &Path, ratings: &[Rating]) -> Result<()> {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for r in ratings {
        text.push_str(&Row::of(r).csv());
        text.push('\n');
    }
    let mut f = std::fs::File::create_new(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("csv: {}", path.display());
    Ok(())
}

fn write_report(dir: &Path, ratings: &[Rating], summary: &Summary) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut pictures: Vec<(PathBuf, Frame)> = vec![
        (dir.join(LOSS_PNG), loss_per_piece(ratings)?),
        (dir.join(LEVELS_PNG), accuracy_by_level(&summary.per_level)?),
    ];
    for (k, &i) in summary.worst.iter().enumerate() {
        pictures.push((dir.join(worst_png(k)), placement_picture(&ratings[i])));
    }
    for (path, frame) in pictures {
        save_png(&frame, &path)?;
        eprintln!("plot: {}", path.display());
    }
    Ok(())
}
