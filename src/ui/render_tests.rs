//! Tests of the board picture: pixel checks of cells, pieces, plan outline and digits, the
//! NES overlay, and a PNG round trip through the `png` decoder.

use super::*;
use crate::game::palette::{level_colours, master_rgb, WHITE};
use crate::ui::font::draw_text;

fn game() -> Game {
    Game::seeded(19, 7)
}

fn layout() -> Layout {
    Layout::new(DrawOptions::default().cell)
}

#[test]
fn frame_size_follows_the_layout() {
    let f = draw_game(&game(), &DrawOptions::default());
    let l = layout();
    assert_eq!((f.width, f.height), (l.width, l.height));
    assert_eq!(f.pixels.len(), l.width * l.height * 4);
}

#[test]
fn an_empty_cell_is_field_background() {
    let f = draw_game(&game(), &DrawOptions::default());
    let (x, y) = layout().cell_centre(19, 0);
    assert_eq!(f.rgb(x, y), Some(FIELD));
    let (x, y) = layout().cell_origin(19, 1);
    assert_eq!(f.rgb(x, y), Some(GRID), "grid line on the cell's left edge");
}

#[test]
fn filled_cells_take_their_tile_colour() {
    let mut g = game();
    let [first, second] = level_colours(g.level).map(master_rgb);
    let tiles = [
        (0x7B, master_rgb(WHITE)),
        (0x7C, second),
        (0x7D, first),
        (CURTAIN, CURTAIN_GREY),
    ];
    for (col, (tile, _)) in tiles.iter().enumerate() {
        g.field.set(19, col as i16, *tile);
    }
    let f = draw_game(&g, &DrawOptions::default());
    for (col, (_, colour)) in tiles.iter().enumerate() {
        let (x, y) = layout().cell_centre(19, col);
        assert_eq!(f.rgb(x, y), Some(*colour), "column {col}");
    }
    let distinct: std::collections::HashSet<Rgb> = tiles.iter().map(|t| t.1).collect();
    assert_eq!(distinct.len(), 4);
    let (x, y) = layout().cell_origin(19, 0);
    assert_eq!(f.rgb(x + 1, y + 1), Some(first), "$7B's border");
}

#[test]
fn blocks_take_the_levels_colours_from_the_cartridge_table() {
    // Level 0: $21 (light blue) and $12 (blue); level 1: $29 (green) and $1A (dark green).
    let expected = [
        (0, [[0x4C, 0x9A, 0xEC], [0x30, 0x32, 0xEC]]),
        (1, [[0x74, 0xC4, 0x00], [0x08, 0x7C, 0x00]]),
        (10, [[0x4C, 0x9A, 0xEC], [0x30, 0x32, 0xEC]]),
    ];
    for (level, [first, second]) in expected {
        let mut g = Game::seeded(level, 7);
        g.field.set(19, 0, 0x7D);
        g.field.set(19, 1, 0x7C);
        let f = draw_game(&g, &DrawOptions::default());
        let (x, y) = layout().cell_centre(19, 0);
        assert_eq!(f.rgb(x, y), Some(first), "level {level}, $7D");
        let (x, y) = layout().cell_centre(19, 1);
        assert_eq!(f.rgb(x, y), Some(second), "level {level}, $7C");
    }
}

#[test]
fn the_active_piece_is_drawn_in_its_tile_colour() {
    let g = game();
    let o = g.orientation().expect("a piece at spawn");
    let colour = tile_colour(o.tile(), g.level);
    let f = draw_game(&g, &DrawOptions::default());
    let cells: Vec<_> = visible_cells(g.active.x, g.active.y, o).collect();
    assert!(!cells.is_empty());
    for (row, col) in cells {
        let (x, y) = layout().cell_centre(row, col);
        assert_eq!(f.rgb(x, y), colour, "cell ({row}, {col})");
    }
}

#[test]
fn the_next_piece_is_drawn_in_the_panel() {
    let g = game();
    let next = g.next_piece().expect("next piece");
    let colour = tile_colour(next.spawn().tile(), g.level).expect("block colour");
    let f = draw_game(&g, &DrawOptions::default());
    let l = layout();
    let found = (l.panel_x..l.width)
        .flat_map(|x| (0..l.height).map(move |y| (x, y)))
        .filter(|&(x, y)| f.rgb(x, y) == Some(colour))
        .count();
    // Four blocks of (cell-1)² pixels minus their shine.
    assert!(
        found >= 4 * 9 * 9,
        "only {found} pixels of the next piece's colour"
    );
}

#[test]
fn the_plan_outline_is_drawn_where_expected() {
    let g = game();
    let plan = crate::search::fixtures::o_at(4, 18);
    let opts = DrawOptions {
        plan: Some(plan),
        ..DrawOptions::default()
    };
    let f = draw_game(&g, &opts);
    let l = layout();
    let cells: Vec<_> = visible_cells(plan.x, plan.y, plan.orientation).collect();
    assert_eq!(cells.len(), 4);
    for &(row, col) in &cells {
        let (x, y) = l.cell_origin(row, col);
        assert_eq!(
            f.rgb(x + l.cell / 2, y),
            Some(PLAN),
            "top edge of ({row}, {col})"
        );
        assert_eq!(
            f.rgb(x, y + l.cell / 2),
            Some(PLAN),
            "left edge of ({row}, {col})"
        );
        let (cx, cy) = l.cell_centre(row, col);
        assert_eq!(
            f.rgb(cx, cy),
            Some(FIELD),
            "outline only, inside stays empty"
        );
    }
    let plain = draw_game(&g, &DrawOptions::default());
    let (x, y) = l.cell_origin(cells[0].0, cells[0].1);
    assert_eq!(
        plain.rgb(x + l.cell / 2, y),
        Some(GRID),
        "no outline without a plan"
    );
    let plan_pixels = f.pixels.chunks_exact(4).filter(|p| p[..3] == PLAN).count();
    let elsewhere = plain
        .pixels
        .chunks_exact(4)
        .filter(|p| p[..3] == PLAN)
        .count();
    assert!(plan_pixels > elsewhere);
}

#[test]
fn hidden_rows_are_not_drawn() {
    // A vertical I with its pivot at y = 0 reaches rows -2..1: only rows 0 and 1 show.
    let o = Orientation::new(0x11).expect("vertical I");
    let cells: Vec<_> = visible_cells(3, 0, o).collect();
    assert_eq!(cells, vec![(0, 3), (1, 3)]);
    // y wraps below zero as the cartridge's byte does.
    assert_eq!(visible_cells(3, 0xFF, o).count(), 1);
}

#[test]
fn digits_render_distinct_glyphs() {
    let pictures: Vec<Vec<u8>> = (0..10)
        .map(|d| {
            let mut f = Frame::new(8, 12, FIELD);
            draw_text(&mut f, 1, 1, &d.to_string(), 2, TEXT);
            f.pixels
        })
        .collect();
    for (i, a) in pictures.iter().enumerate() {
        assert!(
            a.chunks_exact(4).any(|p| p[..3] == TEXT),
            "digit {i} is blank"
        );
        for (j, b) in pictures.iter().enumerate().skip(i + 1) {
            assert_ne!(a, b, "digits {i} and {j} look the same");
        }
    }
}

#[test]
fn the_score_is_written_in_the_panel() {
    let mut g = game();
    let empty = draw_game(&g, &DrawOptions::default());
    g.score = [0x00, 0x12, 0x00]; // 1,200 in BCD
    let scored = draw_game(&g, &DrawOptions::default());
    assert_ne!(empty, scored);
    let l = layout();
    let field_end = l.field.0 + 10 * l.cell + 1;
    // Only panel pixels change.
    for y in 0..l.height {
        for x in 0..field_end {
            assert_eq!(empty.pixel(x, y), scored.pixel(x, y));
        }
    }
}

#[test]
fn overlay_outlines_nes_cells() {
    let mut rgba = vec![0u8; NES_WIDTH * NES_HEIGHT * 4];
    let plan = crate::search::fixtures::o_at(4, 18);
    overlay_plan_on_nes(&mut rgba, &plan).expect("right size");
    let frame = Frame::from_rgba(NES_WIDTH, NES_HEIGHT, rgba).expect("right size");
    for (row, col) in visible_cells(plan.x, plan.y, plan.orientation) {
        let x = NES_FIELD_ORIGIN.0 + col * NES_CELL;
        let y = NES_FIELD_ORIGIN.1 + row * NES_CELL;
        assert_eq!(frame.rgb(x, y), Some(PLAN));
        assert_eq!(frame.rgb(x + NES_CELL - 1, y + NES_CELL - 1), Some(PLAN));
        assert_eq!(frame.rgb(x + 3, y + 3), Some([0, 0, 0]), "inside untouched");
    }
    assert_eq!(frame.rgb(0, 0), Some([0, 0, 0]));
    let mut short = vec![0u8; 100];
    assert!(matches!(
        overlay_plan_on_nes(&mut short, &plan),
        Err(RenderError::WrongSize { got: 100, .. })
    ));
}

#[test]
fn png_round_trip() {
    let f = draw_game(&game(), &DrawOptions::default());
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("board.png");
    save_png(&f, &path).expect("write png");
    let file = std::fs::File::open(&path).expect("open png");
    let mut reader = png::Decoder::new(file).read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png data");
    assert_eq!(
        (info.width as usize, info.height as usize),
        (f.width, f.height)
    );
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(&buf[..info.buffer_size()], &f.pixels[..]);
}

#[test]
fn save_png_reports_the_path_on_failure() {
    let f = Frame::new(2, 2, FIELD);
    let path = Path::new("/nonexistent-dir-for-nestor/x.png");
    let err = save_png(&f, path).expect_err("no such folder");
    assert!(err
        .to_string()
        .contains("/nonexistent-dir-for-nestor/x.png"));
}
