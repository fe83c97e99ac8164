//! The end of a `nestor play` run: the movie kept with a comment saying how the run ended,
//! the summary of the games so far, and the exit code (desyncs fail a run, as in `sim`).

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::{Context, Result};

use nestor::io::Output;
use nestor::movie::Movie;
use nestor::nes::driver::RunAheadCounts;

use super::interrupt::EXIT_INTERRUPTED;
use super::play_settings::Settings;
use super::play_summary::{GameSummary, Summary, Totals};

/// How the run ended.
pub(super) enum End {
    /// Every game asked for was played.
    Done,
    /// A limit, or the view's quit key (Esc in the window, q or Esc in the terminal).
    Stopped,
    /// The game reached `--until`.
    Reached,
    Interrupted,
    Failed(anyhow::Error),
}

/// What the loop leaves: the games, the frames run, why it ended, and the driver's own
/// counts (pad faults injected; run-ahead checks and disagreements).
pub(super) struct Run {
    pub(super) games: Vec<GameSummary>,
    pub(super) frames: u64,
    pub(super) seconds: f64,
    pub(super) end: End,
    pub(super) faults: u64,
    pub(super) run_ahead: RunAheadCounts,
}

/// Saves the movie, prints the summary (also after a failure or an interruption: everything
/// up to there) and turns the end into the exit code or the error.
pub(super) fn finish(
    run: Run,
    settings: &Settings,
    (movie, record): (Option<Movie>, Option<Output>),
    rom: String,
) -> Result<ExitCode> {
    let (faults, run_ahead) = (run.faults, run.run_ahead);
    let pieces: u32 = run.games.iter().map(|g| g.pieces).sum();
    let ended = match &run.end {
        End::Done => format!("ended: all {} game(s) played", settings.games),
        End::Stopped if settings.pieces.is_some_and(|p| pieces >= p) => {
            format!("ended: stopped at the piece limit, after {pieces} pieces")
        }
        End::Stopped if settings.frames.is_some_and(|f| run.frames >= f) => {
            format!(
                "ended: stopped at the frame limit, after {} frames",
                run.frames
            )
        }
        // The window and the terminal picture both quit on Esc (the terminal on q as well).
        End::Stopped => format!("ended: stopped with the quit key, after {pieces} pieces"),
        End::Reached => format!(
            "ended: reached --until {}, after {pieces} pieces",
            settings.until
        ),
        End::Interrupted => format!(
            "ended: interrupted (Ctrl-C or SIGTERM) after {pieces} pieces, {} frames",
            run.frames
        ),
        // Not the error's text: it names the user's folders, which a shared movie must not.
        End::Failed(_) => {
            format!("ended: failed after {pieces} pieces (the error is in nestor's output)")
        }
    };
    let in_menus = run.games.is_empty() && !matches!(run.end, End::Done);
    if let (Some(mut m), Some(out)) = (movie, &record) {
        m.header.comments.push(ended.clone());
        let mut file = out
            .create()
            .with_context(|| format!("cannot write {}", out.path().display()))?;
        file.write_all(m.to_fm2_string().as_bytes())
            .and_then(|()| file.commit())
            .with_context(|| format!("cannot write {}", out.path().display()))?;
        if !matches!(run.end, End::Done | End::Stopped | End::Reached) {
            let when = if in_menus {
                " (still in the menus, no game started)"
            } else {
                ""
            };
            eprintln!(
                "kept the {} frames recorded so far{when} in {}",
                m.gameplay_frames().len(),
                out.path().display()
            );
        }
    } else if matches!(run.end, End::Interrupted) {
        let when = if in_menus {
            "in the menus, before any game, nothing played"
        } else {
            "the summary below holds the games so far"
        };
        eprintln!("interrupted: {when}; nothing recorded (no --record)");
    }
    let total_lines: u32 = run.games.iter().map(|g| g.lines).sum();
    let tetrises: u32 = run.games.iter().map(|g| g.tetrises).sum();
    let last = run.games.last();
    let summary = Summary {
        rom,
        profile: settings.profile.describe(),
        score: last.map_or(0, |g| g.score),
        lines: last.map_or(0, |g| g.lines),
        level: last.map_or(settings.level, |g| g.level),
        frames: run.frames,
        totals: Totals {
            games: run.games.len(),
            pieces: run.games.iter().map(|g| g.pieces).sum(),
            lines: total_lines,
            tetrises,
            tetris_rate: if total_lines == 0 {
                0.0
            } else {
                f64::from(tetrises * 4) / f64::from(total_lines)
            },
            desyncs: run.games.iter().map(|g| g.desyncs).sum(),
            faults_injected: faults,
            run_ahead_checks: run_ahead.checks,
            run_ahead_crashes: run_ahead.crashes,
            run_ahead_open: run_ahead.open,
            run_ahead_disagreements: run_ahead.disagreements,
            frames: run.frames,
            seconds: run.seconds,
            frames_per_second: run.frames as f64 / run.seconds.max(1e-9),
        },
        games: run.games,
        record: settings.record.clone(),
        settings,
    };
    summary.print(settings.json)?;
    let desyncs = summary.totals.desyncs;
    match run.end {
        // A desync is the model disagreeing with the console: a failed result, as in `sim`
        // (unless the faults were injected on purpose, when desyncs are the point).
        End::Done | End::Stopped | End::Reached if failed_by_desyncs(desyncs, faults) => {
            eprintln!("error: {desyncs} desync(s): the model and the console disagreed");
            Ok(ExitCode::FAILURE)
        }
        End::Done | End::Stopped | End::Reached => Ok(ExitCode::SUCCESS),
        End::Interrupted => Ok(ExitCode::from(EXIT_INTERRUPTED)),
        End::Failed(e) => Err(e),
    }
}

/// A desync is the model disagreeing with the console: a failed result (exit 1), as in
/// `sim`, unless faults were injected on purpose, when desyncs are the point of the run.
fn failed_by_desyncs(desyncs: u32, faults_injected: u64) -> bool {
    desyncs > 0 && faults_injected == 0
}

#[cfg(test)]
mod tests {
    use super::failed_by_desyncs;

    #[test]
    fn desyncs_fail_the_run_unless_injected() {
        assert!(!failed_by_desyncs(0, 0));
        assert!(failed_by_desyncs(1, 0));
        assert!(!failed_by_desyncs(3, 12));
    }
}
