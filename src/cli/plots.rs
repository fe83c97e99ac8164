//! PNG plots for `nestor sim --plots DIR`: the score histogram, the lock heat map, the
//! survival curve and the locks per row, drawn by `ui::plot` (plotters) and written as `scores.png`,
//! `locks.png`, `survival.png` and `rows.png`.

use std::path::Path;

use anyhow::{Context, Result};

use nestor::lab::batch::{survival, GameResult};
use nestor::ui::plot::{lock_heat_map, row_histogram, score_histogram, survival_plot};
use nestor::ui::save_png;

pub fn write(dir: &Path, results: &[GameResult]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let scores: Vec<u32> = results.iter().map(|r| r.stats.score).collect();
    let locks: Vec<(u8, u8)> = results
        .iter()
        .flat_map(|r| r.stats.locks.iter().copied())
        .collect();
    for (name, frame) in [
        ("scores.png", score_histogram(&scores)?),
        ("locks.png", lock_heat_map(&locks)?),
        ("rows.png", row_histogram(&locks)?),
        (
            "survival.png",
            survival_plot(&survival(results, 200), results.len())?,
        ),
    ] {
        let path = dir.join(name);
        save_png(&frame, &path)?;
        eprintln!("plot: {}", path.display());
    }
    Ok(())
}
