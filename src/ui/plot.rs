//! PNG plots of batch statistics, drawn with plotters through `ui::chart`: the final-score
//! histogram, the lock heat map, the locks per row and the survival curve.

use plotters::prelude::*;

use super::chart::{
    axes_style, colour, colour_scale, draw_chart, grid_style, heat_colour, tick_label, title,
    titled_chart, ChartError, BAR,
};
use super::render::{Frame, Rgb, FIELD};

/// Width of the heat map's own area; the colour scale is right of it.
pub const MAP_WIDTH: u32 = 330;

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

/// Bar chart of final scores in 20 bins of 50,000 points up to 1,000,000.
pub fn score_histogram(scores: &[u32]) -> Result<Frame, ChartError> {
    let counts = histogram(scores, 20, 1_000_000);
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    draw_chart(800, 450, |root| {
        let mut c = titled_chart(root, format!("Final score, {} games", scores.len()))
            .build_cartesian_2d(0f64..1_000_000f64, 0f64..f64::from(top) * 1.05)?;
        grid_style(&mut c.configure_mesh())
            .disable_x_mesh()
            .x_desc("Final score (points; bins of 50K, the last 950K and above)")
            .y_desc("Games")
            .x_labels(5)
            .y_labels(6)
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .draw()?;
        c.draw_series(
            counts
                .iter()
                .enumerate()
                .filter(|(_, &k)| k > 0)
                .map(|(i, &k)| {
                    let x = i as f64 * 50_000.0;
                    Rectangle::new(
                        [(x + 2_500.0, 0.0), (x + 47_500.0, f64::from(k))],
                        colour(BAR).filled(),
                    )
                }),
        )?;
        Ok(())
    })
}

/// A count's colour on a square-root scale up to `top` (so that the few locks high in the
/// field still show); black for none.
fn heat(n: f64, top: f64) -> Rgb {
    if n <= 0.0 {
        return FIELD;
    }
    heat_colour((n / top.max(1.0)).sqrt())
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

/// Row `r` (0 = top) as a y coordinate: rows count down from 0, so row 0 is drawn on top.
fn row_y(r: usize) -> f64 {
    -(r as f64)
}

/// The y range of the 20 rows, half a row of margin each side.
const ROWS: std::ops::Range<f64> = -19.5..0.5;

fn row_label(y: &f64) -> String {
    format!("{}", -y.round() as i32)
}

/// Heat map of lock positions, `locks` as (row 0..19, column 0..9) pairs, with its colour
/// scale (locks per cell, square-root scale; black: none).
pub fn lock_heat_map(locks: &[(u8, u8)]) -> Result<Frame, ChartError> {
    let counts = count_grid(locks);
    let top = f64::from(counts.iter().flatten().copied().max().unwrap_or(0).max(1));
    draw_chart(MAP_WIDTH + 150, 620, |root| {
        root.titled(
            &format!("Where pieces lock, {} locks", locks.len()),
            title(),
        )?;
        let (map, scale) = root.split_horizontally(MAP_WIDTH);
        let mut c = ChartBuilder::on(&map)
            .margin(10)
            .margin_top(40)
            .x_label_area_size(54)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..9.5, ROWS)?;
        axes_style(&mut c.configure_mesh())
            .disable_mesh()
            .x_desc("Column (0 = left)")
            .y_desc("Row (0 = top)")
            .x_labels(10)
            .y_labels(5)
            .x_label_formatter(&|v| format!("{}", v.round()))
            .y_label_formatter(&row_label)
            .draw()?;
        c.draw_series(counts.iter().enumerate().flat_map(|(r, row)| {
            row.iter().enumerate().map(move |(col, &n)| {
                let (x, y) = (col as f64, row_y(r));
                Rectangle::new(
                    [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                    colour(heat(f64::from(n), top)).filled(),
                )
            })
        }))?;
        colour_scale(&scale, top, "Locks per cell (square-root colour)", |v| {
            heat(v, top)
        })
    })
}

/// Locks per row over all games: one horizontal bar per row, row 0 (the top) at the top.
pub fn row_histogram(locks: &[(u8, u8)]) -> Result<Frame, ChartError> {
    let rows: Vec<u32> = count_grid(locks).iter().map(|r| r.iter().sum()).collect();
    let top = rows.iter().copied().max().unwrap_or(0).max(1);
    draw_chart(800, 560, |root| {
        let mut c = titled_chart(root, format!("Locks per row, {} locks", locks.len()))
            .build_cartesian_2d(0f64..f64::from(top) * 1.05, ROWS)?;
        grid_style(&mut c.configure_mesh())
            .disable_y_mesh()
            .x_desc("Locks (pieces whose pivot locked in the row)")
            .y_desc("Row (0 = top)")
            .x_labels(6)
            .y_labels(5)
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&row_label)
            .draw()?;
        c.draw_series(
            rows.iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(r, &n)| {
                    let y = row_y(r);
                    Rectangle::new(
                        [(0.0, y - 0.35), (f64::from(n), y + 0.35)],
                        colour(BAR).filled(),
                    )
                }),
        )?;
        Ok(())
    })
}

/// Step curve of the share of games still alive (0..1) against lines: `curve` holds
/// (lines, share) points in increasing lines, as `lab::batch::survival` gives them; the title
/// says how many of the `games` a goal or a cap stopped (`stopped`), and what they count as.
pub fn survival_plot(
    curve: &[(u32, f64)],
    games: usize,
    stopped: usize,
) -> Result<Frame, ChartError> {
    let most = f64::from(curve.last().map_or(0, |&(l, _)| l).max(1));
    let mut steps = Vec::with_capacity(2 * curve.len());
    for (i, &(lines, share)) in curve.iter().enumerate() {
        let next = curve
            .get(i + 1)
            .map_or(f64::from(lines), |&(l, _)| f64::from(l));
        steps.push((f64::from(lines), 100.0 * share));
        steps.push((next, 100.0 * share));
    }
    draw_chart(800, 450, |root| {
        let title = match stopped {
            0 => format!("Games alive by lines cleared, {games} games"),
            n => format!(
                "Games alive by lines cleared, {games} games ({n} stopped by a goal or cap: \
                 alive until then)"
            ),
        };
        let mut c = titled_chart(root, title).build_cartesian_2d(0f64..most, 0f64..105f64)?;
        grid_style(&mut c.configure_mesh())
            .x_desc("Lines cleared")
            .y_desc("Games still playing (percent)")
            .x_labels(8)
            .y_labels(6)
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        c.draw_series(AreaSeries::new(
            steps.iter().copied(),
            0.0,
            colour(BAR).filled(),
        ))?;
        Ok(())
    })
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

    /// Pixels of `colour` in each column of `f` (`x` from `xs`).
    fn per_column(f: &Frame, xs: std::ops::Range<usize>, colour: Rgb) -> Vec<usize> {
        xs.map(|x| {
            (0..f.height)
                .filter(|&y| f.rgb(x, y) == Some(colour))
                .count()
        })
        .collect()
    }

    /// Pixels of `colour` in each row of `f`, over columns `xs`.
    fn per_row(f: &Frame, xs: std::ops::Range<usize>, colour: Rgb) -> Vec<usize> {
        (0..f.height)
            .map(|y| xs.clone().filter(|&x| f.rgb(x, y) == Some(colour)).count())
            .collect()
    }

    /// Mean (x, y) of the pixels of `colour` left of `width`.
    fn centre(f: &Frame, width: usize, colour: Rgb) -> (f64, f64) {
        let hits: Vec<(usize, usize)> = (0..f.height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| f.rgb(x, y) == Some(colour))
            .collect();
        assert!(!hits.is_empty(), "no pixel of {colour:?}");
        let n = hits.len() as f64;
        (
            hits.iter().map(|p| p.0 as f64).sum::<f64>() / n,
            hits.iter().map(|p| p.1 as f64).sum::<f64>() / n,
        )
    }

    #[test]
    fn taller_bars_for_more_games_and_none_for_empty_bins() {
        let f = score_histogram(&[10_000, 20_000, 30_000, 990_000]).unwrap();
        assert_eq!((f.width, f.height), (800, 450));
        let w = f.width;
        let left = per_column(&f, 0..w / 3, BAR).into_iter().max().unwrap();
        let right = per_column(&f, 2 * w / 3..w, BAR).into_iter().max().unwrap();
        let middle = per_column(&f, 2 * w / 5..3 * w / 5, BAR)
            .into_iter()
            .max()
            .unwrap();
        // Three games in the first bin, one in the last: bars three times as tall.
        assert!(right > 20, "{right}");
        assert!(
            (left as f64 / right as f64 - 3.0).abs() < 0.1,
            "{left} {right}"
        );
        assert_eq!(middle, 0);
    }

    #[test]
    fn hot_cells_where_more_pieces_lock_and_a_colour_scale() {
        let m = lock_heat_map(&[(19, 0), (19, 0), (5, 9)]).unwrap();
        let map = MAP_WIDTH as usize;
        // The hottest cell is bottom left, the half-as-busy one (square-root colour) top right.
        let hot = centre(&m, map, heat(2.0, 2.0));
        let warm = centre(&m, map, heat(1.0, 2.0));
        assert!(hot.0 < warm.0 && hot.1 > warm.1, "{hot:?} {warm:?}");
        // Cells without a lock are black.
        assert!(per_column(&m, 0..map, FIELD).iter().sum::<usize>() > 17 * 100);
        // The scale right of the map runs through the colours: many distinct ones.
        let mut seen: Vec<Rgb> = (0..m.height)
            .flat_map(|y| (map..m.width).map(move |x| (x, y)))
            .filter_map(|(x, y)| m.rgb(x, y))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert!(seen.len() > 100, "{}", seen.len());
    }

    #[test]
    fn row_bars_grow_with_the_locks_in_the_row_and_row_0_is_on_top() {
        let f = row_histogram(&[(19, 0), (19, 3), (19, 4), (10, 2)]).unwrap();
        let rows = per_row(&f, 0..f.width, BAR);
        let longest = rows.iter().copied().max().unwrap();
        let y_long = rows.iter().position(|&n| n == longest).unwrap();
        let shorter = rows
            .iter()
            .copied()
            .filter(|&n| n > 0 && n < longest)
            .max()
            .unwrap();
        let y_short = rows.iter().position(|&n| n == shorter).unwrap();
        assert!(
            (longest as f64 / shorter as f64 - 3.0).abs() < 0.1,
            "{longest} {shorter}"
        );
        assert!(y_long > y_short, "row 19 is drawn below row 10");
    }

    #[test]
    fn survival_area_falls_with_the_share_alive() {
        let f = survival_plot(&[(0, 1.0), (100, 1.0), (200, 0.5), (300, 0.0)], 2, 0).unwrap();
        let cols = per_column(&f, 0..f.width, BAR);
        let full = cols.iter().copied().max().unwrap();
        let first_full = cols.iter().position(|&n| n == full).unwrap();
        let last_full = cols.iter().rposition(|&n| n == full).unwrap();
        let half: Vec<usize> = (0..cols.len())
            .filter(|&x| cols[x] > 0 && cols[x].abs_diff(full / 2) <= 2)
            .collect();
        assert!(full > 100, "{full}");
        // Full for the first 200 lines, half for the last 100 (two thirds, one third).
        assert!(
            !half.is_empty() && half[0] > last_full,
            "{half:?} {last_full}"
        );
        let ratio = (last_full - first_full) as f64 / half.len() as f64;
        assert!((ratio - 2.0).abs() < 0.1, "{ratio}");
    }
}
