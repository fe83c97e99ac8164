//! The window's explanation panel (key E): the top placements of the current decision with
//! their value and per-feature contributions, in nestor's small font.

use crate::search::explain::Explanation;

use super::font::{draw_text, GLYPH_H};
use super::render::{Frame, Rgb, BACKGROUND, BORDER, PLAN, TEXT};

/// Width of the panel in pixels at font scale 1.
pub const PANEL_WIDTH: usize = 230;

const DIM: Rgb = [150, 150, 170];

/// The text lines of the panel: a header per placement, then its non-zero terms.
pub fn panel_lines(explanations: &[Explanation]) -> Vec<(String, bool)> {
    let mut lines = Vec::new();
    for x in explanations {
        let value = x.value.map_or("REJECTED".into(), |v| format!("{v:.1}"));
        lines.push((
            format!(
                "#{} {} X{} Y{} = {value}",
                x.rank, x.lock.piece, x.lock.x, x.lock.y
            ),
            true,
        ));
        for t in x.terms.iter().filter(|t| t.contribution != 0.0) {
            lines.push((format!(" {:<22}{:>8.1}", t.feature, t.contribution), false));
        }
    }
    lines
}

/// Draws the panel with its top-left corner at (x, y), `height` pixels tall (clipped).
pub fn draw_explain_panel(
    frame: &mut Frame,
    x: usize,
    y: usize,
    height: usize,
    explanations: &[Explanation],
) {
    frame.fill_rect(x, y, PANEL_WIDTH, height, BACKGROUND);
    frame.fill_rect(x, y, 1, height, BORDER);
    let lh = GLYPH_H + 3;
    let mut ty = y + 4;
    draw_text(frame, x + 6, ty, "TOP PLACEMENTS (E)", 1, TEXT);
    ty += lh + 3;
    for (line, header) in panel_lines(explanations) {
        if ty + lh > y + height {
            break;
        }
        draw_text(frame, x + 6, ty, &line, 1, if header { PLAN } else { DIM });
        ty += lh;
    }
}

/// `picture` with the panel beside it, in `out` (resized to `picture.width + PANEL_WIDTH` by
/// `picture.height`, its allocation reused). `top` is `None` while the panel is hidden (key E):
/// the window keeps its size and the panel's place stays blank.
pub fn compose_with_panel(picture: &Frame, top: Option<&[Explanation]>, out: &mut Frame) {
    out.reset(picture.width + PANEL_WIDTH, picture.height, BACKGROUND);
    let (src, dst) = (picture.width * 4, out.width * 4);
    for y in 0..picture.height {
        out.pixels[y * dst..y * dst + src].copy_from_slice(&picture.pixels[y * src..(y + 1) * src]);
    }
    draw_explain_panel(out, picture.width, 0, picture.height, top.unwrap_or(&[]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::explain::{PlacementView, Term};

    fn explanation(rank: usize, terms: usize) -> Explanation {
        Explanation {
            rank,
            lock: PlacementView {
                piece: 'T',
                x: 4,
                y: 18,
                orientation: 2,
            },
            next_lock: None,
            value: Some(-3.5),
            phase: "score".into(),
            terms: (0..terms)
                .map(|i| Term {
                    feature: "column_holes",
                    value: i as f64,
                    weight: 1.5,
                    contribution: 1.5 * i as f64,
                })
                .collect(),
            crash_risk: None,
        }
    }

    #[test]
    fn one_header_per_placement_and_only_nonzero_terms() {
        let lines = panel_lines(&[explanation(1, 3), explanation(2, 2)]);
        let headers: Vec<_> = lines.iter().filter(|(_, h)| *h).collect();
        assert_eq!(headers.len(), 2);
        assert!(headers[0].0.starts_with("#1 T X4 Y18 = -3.5"));
        // Terms 0 contribute nothing and are left out: 2 + 1 term lines.
        assert_eq!(lines.len(), 2 + 2 + 1);
    }

    #[test]
    fn the_panel_draws_headers_in_the_plan_colour_and_clips() {
        let mut f = Frame::new(PANEL_WIDTH + 10, 60, [0, 0, 0]);
        draw_explain_panel(&mut f, 10, 0, 60, &[explanation(1, 40)]);
        let plan = (0..f.height)
            .flat_map(|y| (0..f.width).map(move |x| (x, y)))
            .filter(|&(x, y)| f.rgb(x, y) == Some(PLAN))
            .count();
        assert!(plan > 0);
        assert_eq!(f.height, 60);
    }

    /// Pixels of `colour` in columns `xs` of `f`.
    fn count(f: &Frame, xs: std::ops::Range<usize>, colour: Rgb) -> usize {
        (0..f.height)
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| f.rgb(x, y) == Some(colour))
            .count()
    }

    #[test]
    fn the_picture_is_copied_left_and_the_panel_drawn_right_or_left_blank() {
        let mut picture = Frame::new(30, 200, [1, 2, 3]);
        picture.fill_rect(29, 199, 1, 1, [9, 9, 9]);
        let mut out = Frame::new(0, 0, [0; 3]);
        compose_with_panel(&picture, Some(&[explanation(1, 4)]), &mut out);
        assert_eq!((out.width, out.height), (30 + PANEL_WIDTH, 200));
        assert_eq!(count(&out, 0..30, [1, 2, 3]), 30 * 200 - 1);
        assert_eq!(out.rgb(29, 199), Some([9, 9, 9]));
        let shown = count(&out, 30..out.width, PLAN);
        assert!(shown > 0, "the headers are drawn in the panel");
        // Hidden: same size, the title only, no placement.
        compose_with_panel(&picture, None, &mut out);
        assert_eq!((out.width, out.height), (30 + PANEL_WIDTH, 200));
        assert_eq!(count(&out, 30..out.width, PLAN), 0);
        assert_eq!(count(&out, 0..30, [1, 2, 3]), 30 * 200 - 1);
    }
}
