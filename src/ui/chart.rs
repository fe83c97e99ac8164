//! The frame of every PNG plot: a title, a plot area with labelled axes and tick marks, and a
//! colour scale where colour carries a value; drawn with nestor's own NES-style font.

use super::font::{draw_text, text_width, GLYPH_H};
use super::render::{Frame, Rgb, BACKGROUND, BORDER, GRID, TEXT};

/// Font scale of every label.
pub const SCALE: usize = 2;
const LINE: usize = (GLYPH_H + 3) * SCALE;
const LEFT: usize = 80;
const TOP: usize = 3 * LINE + 8;
const BOTTOM: usize = 3 * LINE + 8;
/// Room on the right for a colour scale.
const SCALE_ROOM: usize = 110;

/// A chart being drawn: the picture and the plot area inside it.
pub struct Chart {
    pub frame: Frame,
    /// Plot area: left, top, width, height (pixels).
    pub x0: usize,
    pub y0: usize,
    pub w: usize,
    pub h: usize,
}

impl Chart {
    /// A `width`×`height` picture with `title` on top, `y_label` above the vertical axis and
    /// `x_label` under the horizontal one (labels name the quantity and its unit).
    pub fn new(
        width: usize,
        height: usize,
        title: &str,
        x_label: &str,
        y_label: &str,
        colour_scale: bool,
    ) -> Chart {
        let mut frame = Frame::new(width, height, BACKGROUND);
        let right = if colour_scale { SCALE_ROOM } else { 24 };
        let (x0, y0) = (LEFT, TOP);
        let w = width.saturating_sub(LEFT + right).max(10);
        let h = height.saturating_sub(TOP + BOTTOM).max(10);
        draw_text(&mut frame, 12, 8, title, SCALE, TEXT);
        draw_text(&mut frame, 12, 8 + LINE + 4, y_label, SCALE, TEXT);
        let lx = (x0 + w / 2).saturating_sub(text_width(x_label, SCALE) / 2);
        draw_text(&mut frame, lx, y0 + h + 2 * LINE, x_label, SCALE, TEXT);
        frame.outline_rect(x0 - 1, y0 - 1, w + 2, h + 2, 1, BORDER);
        Chart {
            frame,
            x0,
            y0,
            w,
            h,
        }
    }

    /// Pixel column of a fraction 0..1 along the x axis.
    pub fn x_at(&self, t: f64) -> usize {
        self.x0 + (t.clamp(0.0, 1.0) * (self.w - 1) as f64).round() as usize
    }

    /// Pixel row of a fraction 0..1 up the y axis.
    pub fn y_at(&self, t: f64) -> usize {
        self.y0 + self.h - 1 - (t.clamp(0.0, 1.0) * (self.h - 1) as f64).round() as usize
    }

    /// Tick marks and labels along x at fractions 0..1.
    pub fn x_ticks(&mut self, ticks: &[(f64, String)]) {
        for (t, label) in ticks {
            let x = self.x_at(*t);
            self.frame.fill_rect(x, self.y0 + self.h + 1, 1, 5, BORDER);
            let lx = x.saturating_sub(text_width(label, SCALE) / 2);
            draw_text(
                &mut self.frame,
                lx,
                self.y0 + self.h + 8,
                label,
                SCALE,
                TEXT,
            );
        }
    }

    /// Tick marks, labels and faint grid lines along y at fractions 0..1.
    pub fn y_ticks(&mut self, ticks: &[(f64, String)]) {
        for (t, label) in ticks {
            let y = self.y_at(*t);
            self.frame.fill_rect(self.x0, y, self.w, 1, GRID);
            self.frame.fill_rect(self.x0 - 6, y, 5, 1, BORDER);
            let lx = (self.x0 - 10).saturating_sub(text_width(label, SCALE));
            draw_text(
                &mut self.frame,
                lx,
                y.saturating_sub(GLYPH_H * SCALE / 2),
                label,
                SCALE,
                TEXT,
            );
        }
    }

    /// A vertical colour bar right of the plot: `colour(t)` for t from 0 (bottom) to 1 (top),
    /// labelled `low` and `high`, with `label` (the quantity and unit) above it.
    pub fn colour_scale(
        &mut self,
        colour: impl Fn(f64) -> Rgb,
        low: &str,
        high: &str,
        label: &str,
    ) {
        let x = self.x0 + self.w + 16;
        let (bw, top, bh) = (16, self.y0 + LINE, self.h.saturating_sub(2 * LINE).max(10));
        for i in 0..bh {
            let t = 1.0 - i as f64 / (bh - 1).max(1) as f64;
            self.frame.fill_rect(x, top + i, bw, 1, colour(t));
        }
        self.frame
            .outline_rect(x - 1, top - 1, bw + 2, bh + 2, 1, BORDER);
        draw_text(&mut self.frame, x, self.y0 - 2, label, SCALE, TEXT);
        draw_text(&mut self.frame, x + bw + 4, top, high, SCALE, TEXT);
        draw_text(
            &mut self.frame,
            x + bw + 4,
            top + bh - GLYPH_H * SCALE,
            low,
            SCALE,
            TEXT,
        );
    }

    /// A small legend entry (a colour box and its meaning) at (x, y).
    pub fn legend(&mut self, x: usize, y: usize, colour: Rgb, text: &str) {
        self.frame.fill_rect(x, y, 10, 10, colour);
        draw_text(&mut self.frame, x + 14, y, text, SCALE, TEXT);
    }
}

/// Evenly spaced "nice" tick values from 0 to at least `max` (1, 2 or 5 times a power of ten).
pub fn nice_ticks(max: f64, count: usize) -> Vec<f64> {
    let max = if max > 0.0 { max } else { 1.0 };
    let raw = max / count.max(1) as f64;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// A number for a tick label: 1500 → "1500", 250000 → "250K", 0.5 → "0.5".
pub fn tick_label(v: f64) -> String {
    if v >= 10_000.0 && v % 1000.0 == 0.0 {
        format!("{}K", v / 1000.0)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_range_in_round_steps() {
        assert_eq!(nice_ticks(10.0, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(nice_ticks(1_000_000.0, 4), [0.0, 500_000.0, 1_000_000.0]);
        assert_eq!(nice_ticks(7.0, 4), [0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(tick_label(250_000.0), "250K");
        assert_eq!(tick_label(30.0), "30");
    }

    #[test]
    fn axes_map_fractions_inside_the_plot() {
        let c = Chart::new(400, 300, "T", "X", "Y", true);
        assert_eq!(c.x_at(0.0), c.x0);
        assert_eq!(c.x_at(1.0), c.x0 + c.w - 1);
        assert_eq!(c.y_at(0.0), c.y0 + c.h - 1);
        assert_eq!(c.y_at(1.0), c.y0);
        assert!(c.x0 + c.w + SCALE_ROOM <= 400);
    }
}
