//! PNG plots of batch statistics drawn with nestor's own renderer: a histogram of final
//! scores, a heat map of where pieces locked (row × column) and the survival curve.

use super::font::{draw_text, text_width};
use super::render::{Frame, Rgb, BACKGROUND, BORDER, TEXT};

const BAR: Rgb = [80, 160, 255];
const MARGIN: usize = 40;

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

/// Bar chart of final scores in 20 bins of 50,000 up to 1,000,000.
pub fn score_histogram(scores: &[u32]) -> Frame {
    let counts = histogram(scores, 20, 1_000_000);
    let (w, h) = (560, 320);
    let mut f = Frame::new(w, h, BACKGROUND);
    let (x0, y0, pw, ph) = (MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN - 10);
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let bw = pw / counts.len();
    for (i, &c) in counts.iter().enumerate() {
        let bh = (c as usize * ph) / top as usize;
        f.fill_rect(x0 + i * bw + 1, y0 + ph - bh, bw - 2, bh, BAR);
    }
    f.outline_rect(x0 - 2, y0 - 2, pw + 4, ph + 4, 1, BORDER);
    draw_text(
        &mut f,
        x0,
        12,
        &format!("SCORE - {} GAMES", scores.len()),
        2,
        TEXT,
    );
    draw_text(&mut f, x0 - 30, y0, &top.to_string(), 2, TEXT);
    draw_text(&mut f, x0 - 30, y0 + ph - 10, "0", 2, TEXT);
    for (label, at) in [("0", 0usize), ("500K", pw / 2), ("1000K", pw)] {
        let lx = (x0 + at).saturating_sub(text_width(label, 2) / 2);
        draw_text(&mut f, lx, y0 + ph + 8, label, 2, TEXT);
    }
    f
}

/// Heat map of lock positions: `locks` are (row 0..19, column 0..9) pairs.
pub fn lock_heat_map(locks: &[(u8, u8)]) -> Frame {
    let mut grid = [[0u32; 10]; 20];
    for &(r, c) in locks {
        if (r as usize) < 20 && (c as usize) < 10 {
            grid[r as usize][c as usize] += 1;
        }
    }
    let top = grid.iter().flatten().copied().max().unwrap_or(0).max(1);
    let cell = 16;
    let (w, h) = (10 * cell + 2 * MARGIN + 40, 20 * cell + 2 * MARGIN);
    let mut f = Frame::new(w, h, BACKGROUND);
    let (x0, y0) = (MARGIN, MARGIN);
    for (r, row) in grid.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            f.fill_rect(
                x0 + c * cell,
                y0 + r * cell,
                cell - 1,
                cell - 1,
                heat(n, top),
            );
        }
    }
    f.outline_rect(x0 - 2, y0 - 2, 10 * cell + 3, 20 * cell + 3, 1, BORDER);
    draw_text(&mut f, x0, 12, "LOCKS BY ROW", 2, TEXT);
    for r in [0usize, 10, 19] {
        draw_text(
            &mut f,
            x0 + 10 * cell + 8,
            y0 + r * cell + 3,
            &r.to_string(),
            2,
            TEXT,
        );
    }
    f
}

/// Step curve of the share of games still alive (0..1) against lines: `curve` holds
/// (lines, share) points in increasing lines, as `search::batch::survival` gives them.
pub fn survival_plot(curve: &[(u32, f64)], games: usize) -> Frame {
    let (w, h) = (560, 320);
    let mut f = Frame::new(w, h, BACKGROUND);
    let (x0, y0, pw, ph) = (
        MARGIN + 10,
        MARGIN,
        w - 2 * MARGIN - 10,
        h - 2 * MARGIN - 10,
    );
    let most = curve.last().map_or(0, |&(l, _)| l).max(1);
    for &(lines, share) in curve {
        let x = x0 + (lines as u64 * (pw as u64 - 1) / most as u64) as usize;
        let bh = (share.clamp(0.0, 1.0) * ph as f64).round() as usize;
        f.fill_rect(x, y0 + ph - bh, 2, bh.max(1), BAR);
    }
    f.outline_rect(x0 - 2, y0 - 2, pw + 4, ph + 4, 1, BORDER);
    draw_text(
        &mut f,
        x0,
        12,
        &format!("ALIVE BY LINES - {games} GAMES"),
        2,
        TEXT,
    );
    draw_text(&mut f, x0 - 40, y0, "100%", 2, TEXT);
    draw_text(&mut f, x0 - 20, y0 + ph - 10, "0", 2, TEXT);
    let last = most.to_string();
    for (label, at) in [("0", 0usize), (last.as_str(), pw)] {
        let lx = (x0 + at).saturating_sub(text_width(label, 2) / 2);
        draw_text(&mut f, lx, y0 + ph + 8, label, 2, TEXT);
    }
    f
}

/// Black → blue → yellow as `n` goes from 0 to `top`.
fn heat(n: u32, top: u32) -> Rgb {
    if n == 0 {
        return [0, 0, 0];
    }
    let t = (n as f64 / top as f64).sqrt();
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

    #[test]
    fn taller_bars_for_more_games_and_hot_cells_for_more_locks() {
        let f = score_histogram(&[10_000, 20_000, 30_000, 990_000]);
        let filled = |x: usize| (0..f.height).filter(|&y| f.rgb(x, y) == Some(BAR)).count();
        let bw = (f.width - 2 * MARGIN) / 20;
        assert!(filled(MARGIN + bw / 2) > filled(MARGIN + 19 * bw + bw / 2));
        assert!(filled(MARGIN + 19 * bw + bw / 2) > 0);
        let m = lock_heat_map(&[(19, 0), (19, 0), (5, 9)]);
        let at = |r: usize, c: usize| m.rgb(MARGIN + c * 16 + 4, MARGIN + r * 16 + 4).unwrap();
        assert_eq!(at(0, 0), [0, 0, 0]);
        assert_ne!(at(19, 0), at(5, 9));
        assert_eq!(at(19, 0), heat(2, 2));
    }

    #[test]
    fn survival_bars_fall_with_the_share_alive() {
        let f = survival_plot(&[(0, 1.0), (100, 1.0), (200, 0.5), (300, 0.0)], 2);
        let x0 = MARGIN + 10;
        let pw = f.width - 2 * MARGIN - 10;
        let filled = |lines: usize| {
            let x = x0 + lines * (pw - 1) / 300;
            (0..f.height).filter(|&y| f.rgb(x, y) == Some(BAR)).count()
        };
        assert!(filled(0) > filled(200) && filled(200) > filled(300));
        assert_eq!(filled(0), filled(100));
    }
}
