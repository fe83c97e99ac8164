//! The figures of a cartridge batch, as `sim` gives them past 155: the shares of games that
//! reached 155, 200, 255 and the rebirth with 95 % intervals, where games stopped, run-ahead.

use std::fmt;

use serde::Serialize;

use super::record::{GameEnd, GameRecord};
use crate::game::CrashKind;
use crate::nes::driver::RunAheadCounts;

/// `count` of `of` games, with its 95 % Wilson score interval (a share of a handful of games
/// is only known to within that).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    /// Games that did it.
    pub count: usize,
    /// Games counted.
    pub of: usize,
    /// `count / of`, 0 to 1 (0 when `of` is 0).
    pub share: f64,
    /// Lower end of the interval, 0 to 1.
    pub low: f64,
    /// Upper end of the interval, 0 to 1.
    pub high: f64,
}

impl Share {
    /// `count` of `of` with its interval.
    pub fn new(count: usize, of: usize) -> Share {
        let (low, high) = crate::lab::stats::wilson_interval(count, of);
        Share {
            count,
            of,
            share: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>3} of {:<3} {:>6.1} %  (95 %: {:.1}-{:.1} %)",
            self.count,
            self.of,
            100.0 * self.share,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// Where one game stopped short of the goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// The game's 1-based index in the batch.
    pub game: u32,
    /// `crash`, `hang`, `demo`, `top-out`, `failed`.
    pub how: String,
    /// Level at the end.
    pub level: u8,
    /// Lines at the end.
    pub lines: u32,
}

/// The batch's figures over its finished games (interrupted ones are left out: a resumed
/// batch plays them again).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CartridgeSummary {
    /// Finished games.
    pub games: usize,
    /// Games that reached level 155 (the crash level).
    pub reached_155: Share,
    /// Games that reached level 200.
    pub reached_200: Share,
    /// Games that reached level 255.
    pub reached_255: Share,
    /// Games that rolled over from level 255 to 0.
    pub rebirth: Share,
    /// Games that reached the batch's goal (`--until`).
    pub reached_goal: Share,
    /// Games the cartridge crashed in.
    pub crashes: usize,
    /// Games the cartridge hung in.
    pub hangs: usize,
    /// Games that fell into the attract demo (a corrupted jump into the legal screen).
    pub demos: usize,
    /// Games that topped out.
    pub top_outs: usize,
    /// Games the driver or the console failed in.
    pub failed: usize,
    /// Games stopped by the frame limit.
    pub stopped: usize,
    /// Every game that stopped short (crash, hang, demo, top-out, failure), by level.
    pub stops: Vec<Stop>,
    /// Frames where the piece left the plan, over all games.
    pub desyncs: u64,
    /// The run-ahead check's counts, over all games.
    pub run_ahead: RunAheadCounts,
    /// Mean lines at the end.
    pub mean_lines: f64,
    /// Console frames run, over all games (menus included).
    pub frames: u64,
    /// Seconds of play summed over the games (a job's time).
    pub game_seconds: f64,
    /// Frames per second of one job.
    pub frames_per_second: f64,
}

impl CartridgeSummary {
    /// The figures of `records`' finished games.
    pub fn of(records: &[GameRecord]) -> CartridgeSummary {
        let done: Vec<&GameRecord> = records.iter().filter(|r| r.is_final()).collect();
        let n = done.len();
        let count = |f: &dyn Fn(&GameRecord) -> bool| done.iter().filter(|r| f(r)).count();
        let kind = |k: CrashKind| count(&|r| r.crash.is_some_and(|c| c.kind == k));
        let mut stops: Vec<Stop> = done.iter().filter_map(|r| stop_of(r)).collect();
        stops.sort_by_key(|s| (s.level, s.lines, s.game));
        let run_ahead: RunAheadCounts = done.iter().map(|r| r.run_ahead).sum();
        let frames: u64 = done.iter().map(|r| r.frames).sum();
        let game_seconds: f64 = done.iter().map(|r| r.seconds).sum();
        CartridgeSummary {
            games: n,
            reached_155: Share::new(count(&|r| r.reached(155)), n),
            reached_200: Share::new(count(&|r| r.reached(200)), n),
            reached_255: Share::new(count(&|r| r.reached(255)), n),
            rebirth: Share::new(count(&|r| r.lines_at_rebirth.is_some()), n),
            reached_goal: Share::new(count(&|r| r.end == GameEnd::Reached), n),
            crashes: kind(CrashKind::Crash),
            hangs: kind(CrashKind::Hang),
            demos: kind(CrashKind::Demo),
            top_outs: count(&|r| r.end == GameEnd::ToppedOut),
            failed: count(&|r| matches!(r.end, GameEnd::Failed(_))),
            stopped: count(&|r| r.end == GameEnd::Stopped),
            stops,
            desyncs: done.iter().map(|r| u64::from(r.desyncs)).sum(),
            run_ahead,
            mean_lines: if n == 0 {
                0.0
            } else {
                done.iter().map(|r| f64::from(r.lines)).sum::<f64>() / n as f64
            },
            frames,
            game_seconds,
            frames_per_second: frames as f64 / game_seconds.max(1e-9),
        }
    }
}

/// Where `r` stopped short of its goal, if it did.
fn stop_of(r: &GameRecord) -> Option<Stop> {
    let how = match (&r.end, r.crash) {
        (GameEnd::Crashed, Some(c)) => c.kind.name().to_string(),
        (GameEnd::Crashed, None) => "crash".into(),
        (GameEnd::ToppedOut, _) => "top-out".into(),
        (GameEnd::Failed(_), _) => "failed".into(),
        _ => return None,
    };
    let (level, lines) = match r.crash {
        Some(c) => (c.level, c.lines),
        None => (r.level, r.lines),
    };
    Some(Stop {
        game: r.game,
        how,
        level,
        lines,
    })
}

impl fmt::Display for CartridgeSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "games         {}", self.games)?;
        writeln!(f, "reached 155   {}", self.reached_155)?;
        writeln!(f, "reached 200   {}", self.reached_200)?;
        writeln!(f, "reached 255   {}", self.reached_255)?;
        writeln!(f, "rebirth       {}", self.rebirth)?;
        writeln!(f, "goal          {}", self.reached_goal)?;
        writeln!(
            f,
            "stopped short crashes {}, hangs {}, demo {}, top-outs {}, failed {}; frame limit {}",
            self.crashes, self.hangs, self.demos, self.top_outs, self.failed, self.stopped
        )?;
        for s in &self.stops {
            writeln!(
                f,
                "  game {:>4}: {} at level {}, {} lines",
                s.game, s.how, s.level, s.lines
            )?;
        }
        let ra = &self.run_ahead;
        writeln!(
            f,
            "run-ahead     {} checks, {} crashes planned around, {} open, {} disagreements",
            ra.checks, ra.crashes, ra.open, ra.disagreements
        )?;
        writeln!(f, "desyncs       {}", self.desyncs)?;
        writeln!(f, "mean lines    {:.1}", self.mean_lines)?;
        write!(
            f,
            "frames        {} in {:.0} s of play ({:.0} frames/s per job)",
            self.frames, self.game_seconds, self.frames_per_second
        )
    }
}
