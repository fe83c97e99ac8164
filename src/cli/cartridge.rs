//! `nestor cartridge ROM --out DIR`: many games on the real cartridge in parallel jobs, each
//! kept as a movie and a record in DIR (resumable), summed up as `sim` sums its games past 155.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use nestor::io::{Output, OutputSet};
use nestor::lab::cartridge::{
    menu_wait, play_batch, BatchEvent, BatchSpec, CartridgeSummary, GameEnd, GameRecord,
};
use nestor::lab::Until;
use nestor::movie::Movie;
use nestor::nes::{AddressMap, NesDeck, Video};
use nestor::search::{Planner, Standard};

use super::args::CartridgePlayArgs;
use super::interrupt::{Interrupt, EXIT_INTERRUPTED};

#[derive(Args, Debug)]
pub struct CartridgeArgs {
    /// The cartridge: your own "Tetris (U) [!].nes".
    #[arg(value_name = "ROM")]
    pub rom: PathBuf,
    /// Folder for the games: `game-NNNN.fm2` (the movie, from power-on, for FCEUX) and
    /// `game-NNNN.json` (how it ended) for each game; created if missing.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// The first game's number: game N waits (N-1)×61 frames on the level menu before its
    /// start press, which deals it (the RNG steps every frame).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub first_game: u32,
    /// Parallel jobs [default: all cores].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Start level (0-19).
    #[arg(long, default_value_t = 19)]
    pub level: u8,
    /// Put each game at this level (20-255) at its first frame of play, with the lines a game
    /// from --level has there and the score at its cap: the early levels are skipped (the board
    /// is the fresh game's, empty). The movie and record keep the bytes written, and
    /// `fceux-replay` writes them too [default: off, the game from --level].
    #[arg(long, value_name = "LEVEL")]
    pub from_level: Option<u8>,
    /// Play each game to `top-out`, `level:N`, `lines:N` or `rebirth` (every game also stops
    /// at its top-out, crash or hang).
    #[arg(long, default_value = "rebirth")]
    pub until: String,
    /// Check each plan ahead on a copy of the console from this level (0-255) [default: off,
    /// as on a console or in FCEUX].
    #[arg(long, value_name = "LEVEL")]
    pub run_ahead_from: Option<u8>,
    /// With --run-ahead-from: the copy only counts (crashes, open frames, disagreements with
    /// the model) and never makes the bot plan again, so each game is the one a console plays
    /// with no run-ahead.
    #[arg(long, requires = "run_ahead_from")]
    pub run_ahead_watch: bool,
    /// Stop a game after this many frames [default: no limit].
    #[arg(long)]
    pub frames: Option<u64>,
    /// Keep the finished games already in --out (same settings) and play only the others
    /// (also the ones an interruption cut short).
    #[arg(long)]
    pub resume: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub player: CartridgePlayArgs,
}

/// The two files of game `game` in `dir`.
pub fn game_files(dir: &Path, game: u32) -> (PathBuf, PathBuf) {
    let stem = format!("game-{game:04}");
    (
        dir.join(format!("{stem}.fm2")),
        dir.join(format!("{stem}.json")),
    )
}

pub fn run(args: &CartridgeArgs) -> Result<ExitCode> {
    let stop = Interrupt::install();
    let until: Until = args
        .until
        .parse()
        .map_err(|e| super::args::bad_argument(format!("--until: {e}")))?;
    if args.level > 19 {
        return Err(super::args::bad_argument(format!(
            "--level {}: {}",
            args.level,
            nestor::nes::settings::LEVELS
        )));
    }
    if let Some(l) = args.from_level {
        if l <= args.level {
            return Err(super::args::bad_argument(format!(
                "--from-level {l}: must be above the start level ({})",
                args.level
            )));
        }
    }
    if args.games == 0 {
        return Err(super::args::bad_argument("--games must be at least 1"));
    }
    let bot = args.player.bot.resolve()?;
    let rom = super::load_rom(&args.rom, args.player.rom_options.unknown.allow_unknown_rom)
        .map_err(|e| anyhow!("{e}"))?;
    let map = AddressMap::load_or_default(args.player.rom_options.addresses.as_deref())?;
    let spec = BatchSpec {
        level: args.level,
        until,
        run_ahead_from: args.run_ahead_from,
        run_ahead_watch: args.run_ahead_watch,
        frame_limit: args.frames,
        profile: bot.profile.name.clone(),
        from_level: args.from_level,
    };
    let last = args
        .first_game
        .checked_add(args.games - 1)
        .ok_or_else(|| super::args::bad_argument("--first-game + --games is too large"))?;
    let mut kept = Vec::new();
    let mut to_play = Vec::new();
    let mut outputs = Vec::new();
    let mut set = OutputSet::new(
        vec![("ROM", args.rom.as_path())],
        args.player.output.overwrite,
    );
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("--out {}: cannot create the folder", args.out.display()))?;
    for game in args.first_game..=last {
        let (movie, record) = game_files(&args.out, game);
        match previous(&record, &spec, args.resume)? {
            Some(r) => kept.push(r),
            None => {
                // A resumed batch replaces what an interrupted game left; otherwise the rule
                // of every output holds.
                let mut one = OutputSet::new(set.inputs().to_vec(), true);
                let (m, r) = if args.resume && record.exists() {
                    (one.file("--out", &movie)?, one.file("--out", &record)?)
                } else {
                    let earlier = [&movie, &record].into_iter().find(|p| p.exists());
                    if let (Some(p), false) = (earlier, args.player.output.overwrite) {
                        bail!(
                            "--out {}: {} exists (an earlier batch's game {game}): add --resume \
                             to keep its finished games and play the rest, --overwrite to play \
                             them all again, or choose another folder",
                            args.out.display(),
                            p.display()
                        );
                    }
                    (set.file("--out", &movie)?, set.file("--out", &record)?)
                };
                outputs.push((game, m, r));
                to_play.push(game);
            }
        }
    }
    if !kept.is_empty() {
        eprintln!(
            "resuming: {} finished game(s) kept from {}, {} to play",
            kept.len(),
            args.out.display(),
            to_play.len()
        );
    }
    let jobs = super::sim::threads(args.jobs.map(|j| j as u64), to_play.len().max(1) as u32);
    let image = rom.playable_image();
    let name = rom.name();
    let md5 = rom.prg_chr_md5;
    let weights = bot.weights.clone();
    let profile = bot.profile.clone();
    let console = |game: u32| {
        NesDeck::from_image(&name, &image, Video::Headless)
            .map_err(|e| format!("cannot start the emulator for game {game}: {e}"))
    };
    let planner = || {
        let mut p = Planner::new(Standard::new(weights.clone()));
        p.profile = profile.clone();
        p
    };
    let progress = super::progress::bar(to_play.len() as u64, "games");
    let mut records = kept;
    let mut write_error = None;
    play_batch(
        &to_play,
        jobs,
        (console, planner),
        &map,
        &spec,
        stop.flag(),
        |event| match event {
            BatchEvent::Progress {
                game,
                level,
                lines,
                fps,
            } => progress.set_message(format!(
                "game {game}: level {level}, {lines} lines, {fps:.0} frames/s"
            )),
            BatchEvent::Finished(record, pads) => {
                progress.inc(1);
                let files = outputs.iter().find(|(g, _, _)| *g == record.game);
                if let Some((_, m, r)) = files {
                    let movie = movie_of(&name, md5, &record, &pads);
                    if let Err(e) = save(m, r, &movie, &record) {
                        write_error.get_or_insert(e);
                    }
                }
                if record.is_final() {
                    super::progress::println(&progress, line_of(&record));
                }
                records.push(*record);
            }
        },
    );
    progress.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    records.sort_by_key(|r| r.game);
    let summary = CartridgeSummary::of(&records);
    print_summary(&summary, &records, args.json)?;
    let interrupted = records.iter().any(|r| !r.is_final()) || stop.requested();
    if interrupted {
        eprintln!(
            "interrupted: the finished games are kept in {}; `--resume` plays the rest",
            args.out.display()
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(if summary.desyncs > 0 || summary.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The finished record of a game in `--out` to keep: only with `--resume`, and only when it
/// was played with the same settings (refused otherwise: mixing settings mixes figures).
fn previous(record: &Path, spec: &BatchSpec, resume: bool) -> Result<Option<GameRecord>> {
    if !resume || !record.exists() {
        return Ok(None);
    }
    let text = nestor::io::read_toml_text(record)
        .with_context(|| format!("--resume: cannot read {}", record.display()))?;
    let r: GameRecord = serde_json::from_str(&text).with_context(|| {
        format!(
            "--resume: {} is not a game record of `nestor cartridge`",
            record.display()
        )
    })?;
    if r.spec != *spec {
        bail!(
            "--resume: {} was played with other settings ({}), not these ({}): use another --out",
            record.display(),
            r.spec,
            spec
        );
    }
    Ok(r.is_final().then_some(r))
}

/// The movie of a finished game: every pad from power-on, with comments saying what it is.
fn movie_of(name: &str, md5: [u8; 16], r: &GameRecord, pads: &[nestor::game::PadState]) -> Movie {
    let mut comments = vec![format!(
        "nestor cartridge batch: game {}, {} frames on the level menu before the start \
         press, start level {}",
        r.game, r.menu_wait, r.spec.level
    )];
    comments.extend(r.poke.as_ref().map(nestor::movie::Header::poke_comment));
    comments.push(format!("ended: {}", end_text(r)));
    let mut movie = Movie::new_recording(name, md5, comments);
    for &pad in pads {
        movie.push(pad);
    }
    movie
}

fn save(movie_out: &Output, record_out: &Output, movie: &Movie, r: &GameRecord) -> Result<()> {
    movie_out
        .write(movie.to_fm2_string().as_bytes())
        .with_context(|| format!("cannot write {}", movie_out.path().display()))?;
    let json = serde_json::to_string_pretty(r)? + "\n";
    record_out
        .write(json.as_bytes())
        .with_context(|| format!("cannot write {}", record_out.path().display()))
}

fn end_text(r: &GameRecord) -> String {
    match (&r.end, r.crash) {
        (GameEnd::Reached, _) => format!("reached --until {}", r.spec.until),
        (GameEnd::ToppedOut, _) => "topped out".into(),
        (GameEnd::Crashed, Some(c)) => format!(
            "the cartridge {} at frame {} (level {}, {} lines)",
            c.kind.past(),
            c.frame,
            c.level,
            c.lines
        ),
        (GameEnd::Crashed, None) => "the cartridge stopped".into(),
        (GameEnd::Stopped, _) => "stopped at the frame limit".into(),
        (GameEnd::Interrupted, _) => "interrupted (Ctrl-C or SIGTERM)".into(),
        (GameEnd::Failed(e), _) => format!("failed: {e}"),
    }
}

fn line_of(r: &GameRecord) -> String {
    format!(
        "game {:>4} (menu wait {:>5}): {}; level {}, {} lines, {} pieces, {} desyncs, {:.0} s",
        r.game,
        menu_wait(r.game),
        end_text(r),
        r.level,
        r.lines,
        r.pieces,
        r.desyncs,
        r.seconds
    )
}

fn print_summary(s: &CartridgeSummary, records: &[GameRecord], json: bool) -> Result<()> {
    if json {
        let value = serde_json::json!({ "summary": s, "games": records });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!("{s}");
    }
    Ok(())
}
