//! The pictures of `nestor analyze --report`: value loss per piece and accuracy per level
//! (plotters charts), and a placement drawn on its board with the best one outlined over it.

use plotters::prelude::*;

use crate::coach::summary::LevelAccuracy;
use crate::coach::{Class, Rating};
use crate::game::board::HIDDEN_ROWS;

use super::chart::{
    colour, draw_chart, grid_style, tick_label, ticks, title, titled_chart, Area, ChartError,
    DrawError, BAR,
};
use super::font::{draw_text, GLYPH_H};
use super::render::{visible_cells, Frame, Rgb, BACKGROUND, BORDER, FIELD, GRID, PLAN, TEXT};

/// The colour of each class, best (green) to blunder (red).
pub fn class_colour(c: Class) -> Rgb {
    match c {
        Class::Best => [60, 200, 90],
        Class::Good => [150, 220, 90],
        Class::Inaccuracy => [240, 210, 60],
        Class::Mistake => [250, 140, 40],
        Class::Blunder => [235, 50, 50],
    }
}

/// The colour of the player's lock in the board pictures.
pub const PLAYED: Rgb = [235, 50, 50];

/// A loss on the chart's log axis: log10(1 + loss), so that 0 sits on the axis.
fn log_loss(l: f64) -> f64 {
    (1.0 + l.max(0.0)).log10()
}

/// Value loss of every placement in order, on a log scale (a placement after which the rules
/// reject every pair reaches the top); each bar has its class's colour, named in the legend.
pub fn loss_per_piece(ratings: &[Rating]) -> Result<Frame, ChartError> {
    let n = ratings.len().max(1) as f64;
    let top = ratings
        .iter()
        .filter_map(|r| r.verdict.loss)
        .map(log_loss)
        .fold(1.0f64, f64::max)
        .ceil();
    draw_chart(900, 440, |root| {
        // The title on the left, the legend on the right of the same line. A flawless game's
        // bars are all at 0: the title says so, so that the chart is not taken for empty.
        let flawless = ratings.iter().all(|r| r.verdict.loss == Some(0.0));
        let caption = if flawless && !ratings.is_empty() {
            format!("Value loss per piece: all {} the best", ratings.len())
        } else {
            "Value loss per piece".to_string()
        };
        root.draw(&Text::new(caption.as_str(), (14, 10), title()))?;
        let mut c = ChartBuilder::on(root)
            .margin(14)
            .margin_top(48)
            .x_label_area_size(54)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..n, 0f64..top * 1.02)?;
        grid_style(&mut c.configure_mesh())
            .disable_x_mesh()
            .x_desc("Piece (in playing order)")
            .y_desc("Loss (evaluation units, log scale)")
            .x_labels(8)
            .y_labels(top as usize + 1)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| {
                // Ticks fall on whole powers of ten: label them as losses.
                if v.fract().abs() > 1e-9 {
                    String::new()
                } else if *v < 0.5 {
                    "0".into()
                } else {
                    tick_label(10f64.powi(v.round() as i32))
                }
            })
            .draw()?;
        for class in Class::ALL {
            let fill = colour(class_colour(class));
            c.draw_series(
                ratings
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.verdict.class == class)
                    .map(|(i, r)| {
                        let h = r.verdict.loss.map_or(top, log_loss).max(top / 200.0);
                        let x = i as f64;
                        Rectangle::new([(x + 0.1, 0.0), (x + 0.9, h)], fill.filled())
                    }),
            )?;
        }
        class_legend(root)
    })
}

/// The class colours named, right-aligned on the title's line (above the bars, which can
/// reach the top).
fn class_legend(root: &Area) -> Result<(), DrawError> {
    let (width, _) = root.dim_in_pixel();
    let style = ticks();
    let mut x = width as i32 - 14;
    for class in Class::ALL.iter().rev() {
        let (w, _) = root.estimate_text_size(class.name(), &style)?;
        x -= w as i32;
        root.draw(&Text::new(class.name(), (x, 12), style.clone()))?;
        x -= 18;
        let swatch = colour(class_colour(*class)).filled();
        root.draw(&Rectangle::new([(x, 12), (x + 12, 24)], swatch))?;
        x -= 16;
    }
    Ok(())
}

/// Share of placements rated best or good at each level played.
pub fn accuracy_by_level(levels: &[LevelAccuracy]) -> Result<Frame, ChartError> {
    let n = levels.len().max(1);
    draw_chart(640, 400, |root| {
        let mut c = titled_chart(root, "Accuracy by level")
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..105f64)?;
        grid_style(&mut c.configure_mesh())
            .disable_x_mesh()
            .x_desc("Level")
            .y_desc("Placements best or good (percent)")
            .x_labels(n.min(20))
            .y_labels(6)
            .x_label_formatter(&|v| {
                let i = v.round();
                match levels.get(i as usize) {
                    Some(l) if (v - i).abs() < 1e-9 && i >= 0.0 => l.level.to_string(),
                    _ => String::new(),
                }
            })
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        c.draw_series(levels.iter().enumerate().map(|(i, l)| {
            let x = i as f64;
            Rectangle::new(
                [(x - 0.33, 0.0), (x + 0.33, 100.0 * l.accuracy)],
                colour(BAR).filled(),
            )
        }))?;
        Ok(())
    })
}

const CELL: usize = 16;

/// The board of a decision with the player's lock filled in red and the best lock outlined in
/// yellow, and the facts beside it.
pub fn placement_picture(r: &Rating) -> Frame {
    let (fx, fy) = (CELL, 3 * CELL);
    let panel = fx + 10 * CELL + 2 * CELL;
    let mut f = Frame::new(panel + 300, fy + 20 * CELL + 2 * CELL, BACKGROUND);
    let title = format!(
        "FRAME {} - GAME {} PIECE {}",
        r.at.frame, r.at.game, r.at.piece_number
    );
    draw_text(&mut f, fx, 10, &title, 2, TEXT);
    f.fill_rect(fx, fy, 10 * CELL + 1, 20 * CELL + 1, FIELD);
    for k in 1..10 {
        f.fill_rect(fx + k * CELL, fy, 1, 20 * CELL + 1, GRID);
    }
    for k in 1..20 {
        f.fill_rect(fx, fy + k * CELL, 10 * CELL + 1, 1, GRID);
    }
    f.outline_rect(fx, fy, 10 * CELL + 1, 20 * CELL + 1, 1, BORDER);
    let board = &r.situation.board;
    for row in 0..20 {
        for col in 0..10 {
            if board.rows[HIDDEN_ROWS + row] & (1 << col) != 0 {
                f.fill_rect(
                    fx + col * CELL + 1,
                    fy + row * CELL + 1,
                    CELL - 1,
                    CELL - 1,
                    [130, 130, 150],
                );
            }
        }
    }
    for (row, col) in visible_cells(r.player.x, r.player.y, r.player.orientation) {
        f.fill_rect(
            fx + col * CELL + 2,
            fy + row * CELL + 2,
            CELL - 3,
            CELL - 3,
            PLAYED,
        );
    }
    for (row, col) in visible_cells(r.best.x, r.best.y, r.best.orientation) {
        f.outline_rect(
            fx + col * CELL,
            fy + row * CELL,
            CELL + 1,
            CELL + 1,
            3,
            PLAN,
        );
    }
    let loss = r
        .verdict
        .loss
        .map_or("NO PLAYABLE PAIR".to_string(), |l| format!("LOSS {l:.1}"));
    let lines = [
        format!("LEVEL {}", r.at.level),
        format!("LINES {}", r.at.lines),
        format!("PIECE {}", r.piece.letter()),
        format!("NEXT {}", r.next.map_or('-', |n| n.letter())),
        format!("RANK {} OF {}", r.verdict.rank, r.verdict.placements),
        loss,
        r.verdict.class.name().to_uppercase(),
    ];
    let lh = (GLYPH_H + 4) * 2;
    let mut y = fy;
    for l in &lines {
        draw_text(&mut f, panel, y, l, 2, TEXT);
        y += lh;
    }
    y += lh;
    f.fill_rect(panel, y, 12, 12, PLAYED);
    draw_text(&mut f, panel + 18, y + 1, "PLAYED", 2, TEXT);
    y += lh;
    f.outline_rect(panel, y, 13, 13, 3, PLAN);
    draw_text(&mut f, panel + 18, y + 1, "BEST", 2, TEXT);
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::{Moment, Verdict};
    use crate::game::piece::{Orientation, Piece};
    use crate::game::{Game, Pos};
    use crate::search::Situation;

    fn rating(piece_number: u32, loss: Option<f64>, class: Class) -> Rating {
        let at = Pos {
            x: 5,
            y: 18,
            orientation: Orientation::new(0).unwrap(),
        };
        Rating {
            at: Moment {
                game: 1,
                piece_number,
                frame: 0,
                lock_frame: 0,
                level: 19,
                lines: 0,
                score: 0,
            },
            piece: Piece::T,
            next: None,
            player: at,
            best: at,
            verdict: Verdict {
                rank: 1,
                placements: 30,
                value: Some(0.0),
                best_value: Some(0.0),
                loss,
                class,
                reachable: true,
            },
            situation: Situation::of(&Game::seeded(19, 1)),
        }
    }

    /// The tallest run of `colour` in any column.
    fn tallest(f: &Frame, colour: Rgb) -> usize {
        (0..f.width)
            .map(|x| {
                (0..f.height)
                    .filter(|&y| f.rgb(x, y) == Some(colour))
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn loss_bars_grow_with_the_loss_on_a_log_scale_in_their_class_colour() {
        let ratings = [
            rating(1, Some(0.0), Class::Best),
            rating(2, Some(9.0), Class::Mistake),
            rating(3, Some(99.0), Class::Blunder),
            rating(4, None, Class::Blunder),
        ];
        let f = loss_per_piece(&ratings).unwrap();
        let mistake = tallest(&f, class_colour(Class::Mistake));
        let blunder = tallest(&f, class_colour(Class::Blunder));
        // log10(1 + 9) = 1 and log10(1 + 99) = 2 on an axis to 2: the rejected one is full height.
        assert!(mistake > 50, "{mistake}");
        assert!(
            (blunder as f64 / mistake as f64 - 2.0).abs() < 0.1,
            "{blunder} {mistake}"
        );
        // A best placement is a sliver on the axis (the legend swatch is 12 high).
        assert!(tallest(&f, class_colour(Class::Best)) <= 12);
        // A class that no placement has is only in the legend.
        assert!(tallest(&f, class_colour(Class::Good)) <= 12);
    }

    #[test]
    fn accuracy_bars_are_as_tall_as_the_share() {
        let levels = [
            LevelAccuracy {
                level: 19,
                pieces: 10,
                accuracy: 1.0,
            },
            LevelAccuracy {
                level: 20,
                pieces: 10,
                accuracy: 0.5,
            },
        ];
        let f = accuracy_by_level(&levels).unwrap();
        let cols: Vec<usize> = (0..f.width)
            .map(|x| (0..f.height).filter(|&y| f.rgb(x, y) == Some(BAR)).count())
            .collect();
        let full = cols.iter().copied().max().unwrap();
        let last = cols.iter().rposition(|&n| n > 0).unwrap();
        assert!(full > 100);
        assert!(cols[last].abs_diff(full / 2) <= 2, "{} {full}", cols[last]);
    }
}
