//! PNG plots of batch statistics drawn with nestor's own renderer and `ui::chart` axes: the
//! final-score histogram, the lock heat map, the locks per row and the survival curve.

use super::chart::{nice_ticks, tick_label, Chart};
use super::render::{Frame, Rgb};

const BAR: Rgb = [80, 160, 255];
/// Heat-map cell size in pixels.
const CELL: usize = 16;

/// Counts `values` into `bins` equal bins over `0..max` (the last bin takes `max` and above).
pub fn histogram(values: &[u32], bins: usize, max: u32) -> Vec<u32> {
    let mut counts = vec![0u32; bins.max(1)];
    let n = counts.len();
    for &v in values {
        let i = (v as u64 * n as u64 / max.max(1) as u64) as usize;
        counts[i.min(n - 1)] += 1;
    }
    counts
}

fn y_count_ticks(c: &mut Chart, top: u32) -> f64 {
    let ticks = nice_ticks(f64::from(top.max(1)), 4);
    let scale = *ticks.last().unwrap_or(&1.0);
    let labelled: Vec<(f64, String)> = ticks.iter().map(|&v| (v / scale, tick_label(v))).collect();
    c.y_ticks(&labelled);
    scale
}

/// Bar chart of final scores in 20 bins of 50,000 points up to 1,000,000.
pub fn score_histogram(scores: &[u32]) -> Frame {
    let counts = histogram(scores, 20, 1_000_000);
    let mut c = Chart::new(
        640,
        360,
        &format!("FINAL SCORE - {} GAMES", scores.len()),
        "FINAL SCORE (POINTS, BINS OF 50K)",
        "GAMES",
        false,
    );
    let scale = y_count_ticks(&mut c, counts.iter().copied().max().unwrap_or(0));
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (f64::from(i) / 4.0, tick_label(f64::from(i) * 250_000.0)))
        .collect();
    c.x_ticks(&ticks);
    let n = counts.len();
    for (i, &k) in counts.iter().enumerate() {
        let (x, x1) = (
            c.x_at(i as f64 / n as f64),
            c.x_at((i + 1) as f64 / n as f64),
        );
        let y = c.y_at(f64::from(k) / scale);
        let base = c.y_at(0.0);
        if k > 0 {
            c.frame.fill_rect(
                x + 1,
                y,
                (x1 - x).saturating_sub(2).max(1),
                base + 1 - y,
                BAR,
            );
        }
    }
    c.frame
}

/// Black → blue → yellow as `t` goes from 0 to 1.
pub fn heat_colour(t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    let lerp =
        |a: u8, b: u8, t: f64| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    if t < 0.5 {
        let u = t * 2.0;
        [lerp(20, 60, u), lerp(20, 110, u), lerp(60, 255, u)]
    } else {
        let u = (t - 0.5) * 2.0;
        [lerp(60, 255, u), lerp(110, 230, u), lerp(255, 40, u)]
    }
}

/// A count's colour on a square-root scale up to `top`; black for none.
fn heat(n: u32, top: u32) -> Rgb {
    if n == 0 {
        return [0, 0, 0];
    }
    heat_colour((f64::from(n) / f64::from(top.max(1))).sqrt())
}

fn count_grid(locks: &[(u8, u8)]) -> [[u32; 10]; 20] {
    let mut grid = [[0u32; 10]; 20];
    for &(r, c) in locks {
        if (r as usize) < 20 && (c as usize) < 10 {
            grid[r as usize][c as usize] += 1;
        }
    }
    grid
}

/// Heat map of lock positions, `locks` as (row 0..19, column 0..9) pairs, with its colour
/// scale (locks per cell, square-root scale).
pub fn lock_heat_map(locks: &[(u8, u8)]) -> Frame {
    let grid = count_grid(locks);
    let top = grid.iter().flatten().copied().max().unwrap_or(0).max(1);
    let mut c = Chart::new(
        80 + 10 * CELL + 110,
        56 + 20 * CELL + 56,
        "WHERE PIECES LOCK",
        "COLUMN",
        "ROW (0 = TOP)",
        true,
    );
    // Ticks first: their grid lines must not cross the cells.
    let yt: Vec<(f64, String)> = [0usize, 5, 10, 15, 19]
        .iter()
        .map(|&r| (1.0 - (r as f64 + 0.5) / 20.0, r.to_string()))
        .collect();
    c.y_ticks(&yt);
    for (r, row) in grid.iter().enumerate() {
        for (col, &n) in row.iter().enumerate() {
            c.frame.fill_rect(
                c.x0 + col * CELL,
                c.y0 + r * CELL,
                CELL - 1,
                CELL - 1,
                heat(n, top),
            );
        }
    }
    let xt: Vec<(f64, String)> = [0usize, 5, 9]
        .iter()
        .map(|&col| ((col as f64 + 0.5) / 10.0, col.to_string()))
        .collect();
    c.x_ticks(&xt);
    c.colour_scale(heat_colour, "0", &top.to_string(), "LOCKS");
    c.frame
}

/// Locks per row over all games: one horizontal bar per row, row 0 (the top) first.
pub fn row_histogram(locks: &[(u8, u8)]) -> Frame {
    let grid = count_grid(locks);
    let rows: Vec<u32> = grid.iter().map(|r| r.iter().sum()).collect();
    let top = rows.iter().copied().max().unwrap_or(0).max(1);
    let mut c = Chart::new(
        560,
        56 + 20 * CELL + 56,
        &format!("LOCKS PER ROW - {} LOCKS", locks.len()),
        "LOCKS (PIECES WHOSE PIVOT LOCKED IN THE ROW)",
        "ROW (0 = TOP)",
        false,
    );
    let ticks = nice_ticks(f64::from(top), 4);
    let scale = *ticks.last().unwrap_or(&1.0);
    let xt: Vec<(f64, String)> = ticks.iter().map(|&v| (v / scale, tick_label(v))).collect();
    c.x_ticks(&xt);
    let yt: Vec<(f64, String)> = [0usize, 5, 10, 15, 19]
        .iter()
        .map(|&r| (1.0 - (r as f64 + 0.5) / 20.0, r.to_string()))
        .collect();
    c.y_ticks(&yt);
    for (r, &n) in rows.iter().enumerate() {
        let len = c.x_at(f64::from(n) / scale) - c.x0;
        if n > 0 {
            c.frame
                .fill_rect(c.x0, c.y0 + r * CELL + 2, len.max(1), CELL - 4, BAR);
        }
    }
    c.frame
}

/// Step curve of the share of games still alive (0..1) against lines: `curve` holds
/// (lines, share) points in increasing lines, as `search::batch::survival` gives them.
pub fn survival_plot(curve: &[(u32, f64)], games: usize) -> Frame {
    let mut c = Chart::new(
        640,
        360,
        &format!("GAMES ALIVE BY LINES - {games} GAMES"),
        "LINES CLEARED",
        "GAMES STILL PLAYING (PERCENT)",
        false,
    );
    let yt: Vec<(f64, String)> = (0..=4)
        .map(|i| (f64::from(i) / 4.0, (i * 25).to_string()))
        .collect();
    c.y_ticks(&yt);
    let most = curve.last().map_or(0, |&(l, _)| l).max(1);
    let ticks = nice_ticks(f64::from(most), 5);
    let scale = *ticks.last().unwrap_or(&1.0);
    let xt: Vec<(f64, String)> = ticks.iter().map(|&v| (v / scale, tick_label(v))).collect();
    c.x_ticks(&xt);
    let base = c.y_at(0.0);
    for (i, &(lines, share)) in curve.iter().enumerate() {
        let x = c.x_at(f64::from(lines) / scale);
        let next = curve
            .get(i + 1)
            .map_or(x + 1, |&(l, _)| c.x_at(f64::from(l) / scale));
        let y = c.y_at(share);
        c.frame
            .fill_rect(x, y, next.saturating_sub(x).max(1), base + 1 - y, BAR);
    }
    c.frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bins_and_clamps() {
        assert_eq!(
            histogram(&[0, 49_999, 50_000, 999_999, 2_000_000], 20, 1_000_000)[..2],
            [2, 1]
        );
        assert_eq!(histogram(&[999_999, 1_000_000], 20, 1_000_000)[19], 2);
    }

    /// Pixels of `colour` in column `x`.
    fn column(f: &Frame, x: usize, colour: Rgb) -> usize {
        (0..f.height)
            .filter(|&y| f.rgb(x, y) == Some(colour))
            .count()
    }

    #[test]
    fn taller_bars_for_more_games() {
        let f = score_histogram(&[10_000, 20_000, 30_000, 990_000]);
        let c = Chart::new(640, 360, "", "", "", false);
        let bin = |i: usize| (c.x_at(i as f64 / 20.0) + c.x_at((i + 1) as f64 / 20.0)) / 2;
        assert!(column(&f, bin(0), BAR) > column(&f, bin(19), BAR));
        assert!(column(&f, bin(19), BAR) > 0);
        assert_eq!(column(&f, bin(10), BAR), 0);
    }

    #[test]
    fn hot_cells_for_more_locks_and_a_colour_scale() {
        let m = lock_heat_map(&[(19, 0), (19, 0), (5, 9)]);
        let c = Chart::new(80 + 10 * CELL + 110, 56 + 20 * CELL + 56, "", "", "", true);
        let at = |r: usize, col: usize| m.rgb(c.x0 + col * CELL + 4, c.y0 + r * CELL + 4).unwrap();
        assert_eq!(at(0, 0), [0, 0, 0]);
        assert_ne!(at(19, 0), at(5, 9));
        assert_eq!(at(19, 0), heat(2, 2));
        // The scale beside the map shows the hottest colour.
        let hottest = heat_colour(1.0);
        let scale_x = c.x0 + c.w + 20;
        assert!(column(&m, scale_x, hottest) > 0);
    }

    #[test]
    fn row_bars_grow_with_the_locks_in_the_row() {
        let f = row_histogram(&[(19, 0), (19, 3), (19, 4), (10, 2)]);
        let c = Chart::new(560, 56 + 20 * CELL + 56, "", "", "", false);
        let row = |r: usize| {
            let y = c.y0 + r * CELL + CELL / 2;
            (0..f.width).filter(|&x| f.rgb(x, y) == Some(BAR)).count()
        };
        assert!(row(19) > row(10) && row(10) > 0);
        assert_eq!(row(0), 0);
    }

    #[test]
    fn survival_bars_fall_with_the_share_alive() {
        let f = survival_plot(&[(0, 1.0), (100, 1.0), (200, 0.5), (300, 0.0)], 2);
        let c = Chart::new(640, 360, "", "", "", false);
        let filled = |lines: f64| column(&f, c.x_at(lines / 300.0) + 1, BAR);
        assert!(filled(0.0) > filled(200.0) && filled(200.0) > 0);
        assert_eq!(filled(0.0), filled(100.0));
    }
}
