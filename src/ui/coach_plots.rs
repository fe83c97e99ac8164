//! The pictures of `nestor analyze --report`: value loss per piece, accuracy per level, and a
//! placement drawn on its board with the best one outlined over it.

use crate::coach::summary::LevelAccuracy;
use crate::coach::{Class, Rating};
use crate::game::board::HIDDEN_ROWS;

use super::chart::{nice_ticks, tick_label, Chart};
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

/// The class colours, right-aligned on the title line.
fn class_legend(c: &mut Chart) {
    let width: usize = Class::ALL.iter().map(|k| 30 + 8 * k.name().len()).sum();
    let mut x = (c.x0 + c.w).saturating_sub(width);
    let y = 8;
    for class in Class::ALL {
        c.legend(x, y, class_colour(class), &class.name().to_uppercase());
        x += 30 + 8 * class.name().len();
    }
}

/// Value loss of every placement in order, on a log scale (a rejected placement reaches the
/// top); each bar has its class's colour.
pub fn loss_per_piece(ratings: &[Rating]) -> Frame {
    let n = ratings.len().max(1);
    let log = |l: f64| (1.0 + l.max(0.0)).log10();
    let top = ratings
        .iter()
        .filter_map(|r| r.loss)
        .map(log)
        .fold(1.0f64, f64::max)
        .ceil();
    let mut c = Chart::new(
        760,
        380,
        "VALUE LOSS PER PIECE",
        "PIECE (IN PLAYING ORDER)",
        "LOSS (EVALUATION UNITS, LOG SCALE)",
        false,
    );
    let ticks: Vec<(f64, String)> = (0..=top as i32)
        .map(|p| {
            let v = if p == 0 { 0.0 } else { 10f64.powi(p) };
            (log(v) / top, tick_label(v))
        })
        .collect();
    c.y_ticks(&ticks);
    let xt: Vec<(f64, String)> = nice_ticks(n as f64, 6)
        .into_iter()
        .filter(|&v| v <= n as f64)
        .map(|v| ((v / n as f64), tick_label(v)))
        .collect();
    c.x_ticks(&xt);
    let bw = (c.w / n).max(1);
    for (i, r) in ratings.iter().enumerate() {
        let t = r.loss.map_or(1.0, |l| log(l) / top);
        let x = c.x_at(i as f64 / n as f64);
        let y = c.y_at(t);
        let base = c.y_at(0.0);
        let h = (base - y).max(1);
        c.frame
            .fill_rect(x, base + 1 - h, bw.max(1), h, class_colour(r.class));
    }
    class_legend(&mut c);
    c.frame
}

/// Share of placements rated best or good at each level played.
pub fn accuracy_by_level(levels: &[LevelAccuracy]) -> Frame {
    let mut c = Chart::new(
        560,
        340,
        "ACCURACY BY LEVEL",
        "LEVEL",
        "PLACEMENTS BEST OR GOOD (PERCENT)",
        false,
    );
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (f64::from(i) / 4.0, format!("{}", i * 25)))
        .collect();
    c.y_ticks(&ticks);
    let n = levels.len().max(1);
    let slot = c.w / n;
    let mut xt = Vec::new();
    for (i, l) in levels.iter().enumerate() {
        let x = c.x0 + i * slot + slot / 6;
        let y = c.y_at(l.accuracy);
        let base = c.y_at(0.0);
        c.frame
            .fill_rect(x, y, (slot * 2 / 3).max(1), base + 1 - y, [80, 160, 255]);
        xt.push(((i as f64 + 0.5) / n as f64, l.level.to_string()));
    }
    c.x_ticks(&xt);
    c.frame
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
        r.frame, r.game, r.piece_number
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
        .loss
        .map_or("NO PLAYABLE PAIR".to_string(), |l| format!("LOSS {l:.1}"));
    let lines = [
        format!("LEVEL {}", r.level),
        format!("LINES {}", r.lines),
        format!("PIECE {}", r.piece.letter()),
        format!("NEXT {}", r.next.map_or('-', |n| n.letter())),
        format!("RANK {} OF {}", r.rank, r.placements),
        loss,
        r.class.name().to_uppercase(),
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
