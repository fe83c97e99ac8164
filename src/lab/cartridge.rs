//! A batch of games on a console (the real cartridge in tetanes-core) in parallel jobs: each
//! game dealt by its own wait on the level menu, its pads kept for a movie, its end recorded.
//!
//! The cartridge has no seed: the RNG steps on every frame, so the frames spent on the level
//! menu before the start press deal the game ([`menu_wait`]). Game `i` of a batch waits
//! `i × WAIT_STEP` frames, so a batch is reproducible game by game and resumable.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crate::game::PadState;
use crate::nes::driver::RunAheadCounts;
use crate::nes::{AddressMap, Console, Driver, DriverConfig, GameCounts, Poke, Step};
use crate::search::eval::Evaluator;
use crate::search::plan::Planner;

mod record;
pub mod start;
mod summary;
pub use record::{menu_wait, BatchSpec, GameEnd, GameRecord, WAIT_STEP};
pub use summary::{CartridgeSummary, Share, Stop};

/// What a job tells the caller while the batch runs.
pub enum BatchEvent {
    /// A game in progress: its index, level and lines, and the job's frames per second.
    Progress {
        /// The game's 1-based index in the batch.
        game: u32,
        /// Level shown.
        level: u8,
        /// Lines shown.
        lines: u32,
        /// Console frames per wall-clock second since the game started.
        fps: f64,
    },
    /// A game ended: its record and every pad pressed from power-on (a movie's input).
    Finished(Box<GameRecord>, Vec<PadState>),
}

/// Progress is reported every this many frames.
const PROGRESS_FRAMES: u64 = 600;

/// Plays one game on `console` from power-on: the menus with game `game`'s wait, then the
/// bot until the spec's goal, a top-out, a crash or hang, the frame limit, or `stop`.
pub fn play_game<C: Console, E: Evaluator>(
    console: C,
    map: &AddressMap,
    planner: Planner<E>,
    spec: &BatchSpec,
    game: u32,
    stop: &AtomicBool,
    mut progress: impl FnMut(&GameCounts, f64),
) -> (GameRecord, Vec<PadState>) {
    let started = Instant::now();
    let mut pads = Vec::new();
    let mut poke = None;
    let record = |end, driver: Option<&Driver<C, E>>, frames, poke| {
        let c = driver.map(|d| *d.game()).unwrap_or_default();
        GameRecord {
            game,
            menu_wait: menu_wait(game),
            end,
            score: c.score,
            lines: c.lines,
            level: c.level,
            pieces: c.pieces,
            desyncs: c.desyncs,
            crash: c.crash,
            peak_level: c.peak_level,
            lines_at_rebirth: c.lines_at_rebirth,
            frames,
            seconds: started.elapsed().as_secs_f64(),
            run_ahead: driver.map(Driver::run_ahead).unwrap_or_default(),
            spec: spec.clone(),
            poke,
        }
    };
    let config = DriverConfig { level: spec.level };
    let mut driver = match Driver::new(console, map.clone(), planner, config) {
        Ok(d) => d,
        Err(e) => return (record(GameEnd::Failed(e.to_string()), None, 0, None), pads),
    };
    driver.set_run_ahead(spec.run_ahead_from);
    driver.set_run_ahead_watch(spec.run_ahead_watch);
    driver.set_menu_wait(menu_wait(game));
    let mut frames = 0u64;
    let end = loop {
        if stop.load(Ordering::Relaxed) {
            break GameEnd::Interrupted;
        }
        if poke.is_none() && driver.is_playing() {
            if let Some(level) = spec.from_level {
                match put_at_level(&mut driver, map, spec.level, level, frames) {
                    Ok(p) => poke = Some(p),
                    Err(e) => break GameEnd::Failed(e),
                }
            }
        }
        let g = driver.game();
        if driver.is_playing()
            && spec
                .until
                .is_reached(|n| g.reached(n), g.lines, g.lines_at_rebirth.is_some())
        {
            break GameEnd::Reached;
        }
        if spec.frame_limit.is_some_and(|f| frames >= f) {
            break GameEnd::Stopped;
        }
        let before = driver.console().frame_number();
        let step = driver.step();
        if driver.console().frame_number() != before {
            frames += 1;
            pads.push(driver.last_pad());
        }
        match step {
            Err(e) => break GameEnd::Failed(e.to_string()),
            Ok(Step::Crashed { .. }) => break GameEnd::Crashed,
            Ok(Step::GameOver { .. }) => break GameEnd::ToppedOut,
            Ok(_) => {}
        }
        if frames.is_multiple_of(PROGRESS_FRAMES) {
            progress(
                driver.game(),
                frames as f64 / started.elapsed().as_secs_f64().max(1e-9),
            );
        }
    };
    (record(end, Some(&driver), frames, poke), pads)
}

/// Puts the game in play at `level` ([`start`]) after `frames` frames, as a new game.
fn put_at_level<C: Console, E: Evaluator>(
    driver: &mut Driver<C, E>,
    map: &AddressMap,
    start: u8,
    level: u8,
    frames: u64,
) -> Result<Poke, String> {
    let bytes = start::bytes_for_level(map, start, level)
        .ok_or_else(|| format!("a game from level {start} never shows level {level}"))?;
    let poke = Poke {
        frame: frames,
        bytes,
    };
    let mut written = true;
    driver
        .new_game(|c| written = poke.apply(c))
        .map_err(|e| format!("the game put at level {level}: {e}"))?;
    if !written {
        return Err("this console's RAM cannot be written (from_level)".into());
    }
    Ok(poke)
}

/// Plays `games` (1-based indices) in `jobs` parallel jobs: `console(game)` makes each game's
/// console (`None` skips the game with the error as its end), `planner()` its planner.
/// `on_event` runs on the calling thread for every progress report and finished game (it
/// writes the files); the batch returns when every game has ended or `stop` is set (the
/// games in progress end `Interrupted`).
pub fn play_batch<C, E, M, P>(
    games: &[u32],
    jobs: usize,
    make: (M, P),
    map: &AddressMap,
    spec: &BatchSpec,
    stop: &AtomicBool,
    mut on_event: impl FnMut(BatchEvent),
) where
    C: Console,
    E: Evaluator,
    M: Fn(u32) -> Result<C, String> + Sync,
    P: Fn() -> Planner<E> + Sync,
{
    let (console, planner) = make;
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, games.len().max(1)) {
            let tx = tx.clone();
            let (next, console, planner) = (&next, &console, &planner);
            s.spawn(move || {
                while let Some(&game) = games.get(next.fetch_add(1, Ordering::SeqCst) as usize) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let event = play_one(game, (console, planner), map, spec, stop, &tx);
                    if tx.send(event).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for event in rx {
            on_event(event);
        }
    });
}

/// Plays game `game` on the console `console` makes for it, progress sent on `tx`.
fn play_one<C, E, M, P>(
    game: u32,
    (console, planner): (&M, &P),
    map: &AddressMap,
    spec: &BatchSpec,
    stop: &AtomicBool,
    tx: &mpsc::Sender<BatchEvent>,
) -> BatchEvent
where
    C: Console,
    E: Evaluator,
    M: Fn(u32) -> Result<C, String>,
    P: Fn() -> Planner<E>,
{
    match console(game) {
        Ok(c) => {
            let report = |g: &GameCounts, fps| {
                let _ = tx.send(BatchEvent::Progress {
                    game,
                    level: g.level,
                    lines: g.lines,
                    fps,
                });
            };
            let (rec, pads) = play_game(c, map, planner(), spec, game, stop, report);
            BatchEvent::Finished(Box::new(rec), pads)
        }
        Err(e) => {
            let mut rec = failed_record(game, spec);
            rec.end = GameEnd::Failed(e);
            BatchEvent::Finished(Box::new(rec), Vec::new())
        }
    }
}

/// The record of a game that never started.
fn failed_record(game: u32, spec: &BatchSpec) -> GameRecord {
    GameRecord {
        game,
        menu_wait: menu_wait(game),
        end: GameEnd::Failed(String::new()),
        score: 0,
        lines: 0,
        level: spec.level,
        pieces: 0,
        desyncs: 0,
        crash: None,
        peak_level: 0,
        lines_at_rebirth: None,
        frames: 0,
        seconds: 0.0,
        run_ahead: RunAheadCounts::default(),
        spec: spec.clone(),
        poke: None,
    }
}

#[cfg(test)]
mod tests;
