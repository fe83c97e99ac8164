//! PNG plots for `nestor sim --plots DIR`: the score histogram, the lock heat map, the
//! survival curve and the locks per row, drawn by `ui::plot` (plotters) and written as `scores.png`,
//! `locks.png`, `survival.png` and `rows.png`.

use anyhow::Result;

use nestor::io::Output;

use nestor::lab::batch::{survival, GameResult};
use nestor::ui::plot::{lock_heat_map, row_histogram, score_histogram, survival_plot};
use nestor::ui::save_png;

/// The files `--plots DIR` writes, in the order [`write`] takes their checked outputs.
pub const NAMES: [&str; 4] = ["scores.png", "locks.png", "rows.png", "survival.png"];

/// Draws the plots into `outputs` (checked by `io::OutputSet::folder` for [`NAMES`]).
pub fn write(outputs: &[Output], results: &[GameResult]) -> Result<()> {
    let scores: Vec<u32> = results.iter().map(|r| r.stats.score).collect();
    let locks: Vec<(u8, u8)> = results
        .iter()
        .flat_map(|r| r.stats.locks.iter().copied())
        .collect();
    let frames = [
        score_histogram(&scores)?,
        lock_heat_map(&locks)?,
        row_histogram(&locks)?,
        survival_plot(
            &survival(results, 200),
            results.len(),
            results.iter().filter(|r| !r.stats.end.is_death()).count(),
        )?,
    ];
    for (out, frame) in outputs.iter().zip(frames) {
        save_png(&frame, out.path())?;
        eprintln!("plot: {}", out.path().display());
    }
    Ok(())
}
