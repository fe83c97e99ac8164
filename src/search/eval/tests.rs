//! Tests of the evaluation: every feature on hand-drawn boards (counts worked out in comments)
//! and each of the four rules.

use super::*;
use crate::game::board::FULL_ROW;
use crate::game::Orientation;
use crate::game::{Collide, Piece};
use crate::search::weights::PhaseWeights;

/// The bottom rows of a board drawn as text (`#` filled); the rows above are empty.
fn bottom(text: &str) -> Board {
    let drawn: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut lines = vec![".........."; 20 - drawn.len()];
    lines.extend(drawn);
    Board::from_text(&lines.join("\n")).expect("a valid test board")
}

fn at(x: u8, y: u8, id: u8) -> Pos {
    let orientation = Orientation::new(id).expect("a valid orientation id");
    Pos { x, y, orientation }
}

/// A pair whose pieces both locked on the floor (lock height 0: horizontal I on row 19).
fn pair(board: &Board, lines_first: u32, lines_second: u32) -> PairOutcome<'_> {
    PairOutcome {
        first: at(5, 19, 0x12),
        second: at(5, 19, 0x12),
        lines_first,
        lines_second,
        board,
        level: 19,
    }
}

#[test]
fn empty_board_has_no_features_but_the_no_hole_minimum() {
    let f = features(&Board::EMPTY);
    assert_eq!(
        f,
        Features {
            min_column_hole_depth: 20,
            ..Features::default()
        }
    );
}

/// Rows 15..19. Column tops (row): c0 19, c1 15, c2 –, c3 –, c4 19, c5 18, c6 19, c7 –, c8 16,
/// c9 17; heights 1 5 0 0 1 2 1 0 4 3.
const MIXED: &str = "
    .#........
    .#......#.
    .........#
    .....#..##
    ##..#.#..#";

#[test]
fn every_feature_on_a_mixed_board() {
    let f = features(&bottom(MIXED));
    // Holes (empty, filled directly above): (r17,c1) depth 17−15 = 2, (r19,c5) depth 1,
    // (r17,c8) depth 1, (r19,c8) depth 19−16 = 3; (r18,c1) has an empty cell above: no hole.
    assert_eq!(f.column_holes, 4);
    // Row numbers from the top starting at 1: 18 + 20 + 18 + 20.
    assert_eq!(f.weighted_column_holes, 76);
    assert_eq!(f.column_hole_depths, 2 + 1 + 1 + 3);
    assert_eq!((f.min_column_hole_depth, f.max_column_hole_depth), (1, 3));
    // Wells: c0 rows 15, 16 (wall on the left, c1 on the right) and c9 row 16 (c8, wall).
    assert_eq!((f.well_cells, f.deep_wells), (3, 0));
    // Down each column from its top cell: c1 F F E E F → 2, c5 F E → 1, c8 F E F E → 3.
    assert_eq!(f.column_transitions, 6);
    // Rows 15..19 with walls filled: 4 + 6 + 2 + 4 + 6.
    assert_eq!(f.row_transitions, 22);
    let heights = (f.column_heights, f.pile_height, f.column_height_spread);
    assert_eq!(heights, (17, 5, 5));
    // Cells per row 1, 2, 1, 3, 5; weighted by height 5·1 + 4·2 + 3·1 + 2·3 + 1·5.
    assert_eq!((f.solid_cells, f.weighted_solid_cells), (12, 27));
    // |5−1| + |0−5| + 0 + |1−0| + |2−1| + |1−2| + |0−1| + |4−0| + |3−4|.
    assert_eq!(f.column_height_variance, 18);
    assert_eq!(
        (f.lines_cleared, f.lock_height),
        (0, 0),
        "placement features"
    );
}

#[test]
fn wells_count_per_column_and_three_make_a_deep_well() {
    // c1: rows 16, 17, 18 between c0 and c2 → 3 cells, a deep well.
    // c9: rows 17, 18 between c8 and the wall → 2 cells.
    // c3 and c7 have only one filled neighbour: no wells.
    let f = features(&bottom(
        "
        #.#.......
        #.#.....#.
        #.#.....#.
        ###.....##",
    ));
    assert_eq!(f.well_cells, 5);
    assert_eq!(f.deep_wells, 1);
}

#[test]
fn a_well_against_the_left_wall() {
    // c0: rows 16..19 with the wall on the left and c1 on the right → 4 cells, deep.
    let f = features(&bottom(
        "
        .#........
        .#........
        .#........
        .#........",
    ));
    assert_eq!((f.well_cells, f.deep_wells), (4, 1));
    // Heights 0 4 0…: spread 4, bumpiness 4 + 4.
    let heights = (f.column_height_spread, f.column_height_variance);
    assert_eq!(heights, (4, 8));
}

#[test]
fn a_deep_covered_gap_is_one_hole_at_its_top() {
    // c0: filled at r15, empty r16..r18, filled r19 → one hole at r16: depth 1, row number 17.
    // Column transitions in c0: F→E under r15 and E→F above r19 → 2.
    let f = features(&bottom(
        "
        #.........
        ..........
        ..........
        ..........
        #.........",
    ));
    let holes = (
        f.column_holes,
        f.weighted_column_holes,
        f.column_hole_depths,
    );
    assert_eq!(holes, (1, 17, 1));
    assert_eq!((f.min_column_hole_depth, f.max_column_hole_depth), (1, 1));
    assert_eq!(f.column_transitions, 2);
    // r15 and r19 {c0}: c0→c1 and c9→wall → 2 each; the empty rows r16..r18 → 2 each.
    assert_eq!(f.row_transitions, 10);
    // c1 sees c0 filled on its left but nothing on its right: no wells anywhere.
    assert_eq!(f.well_cells, 0);
}

#[test]
fn an_empty_row_inside_the_pile_counts_two_row_transitions() {
    // Row 18 is empty under c0's overhang: wall→c0 and c9→wall → 2; row 17 {c0}: 2; row 19
    // {c1..c9}: wall→c0 is F→E, c0→c1 E→F → 2.
    let f = features(&bottom(
        "
        #.........
        ..........
        .#########",
    ));
    assert_eq!(f.row_transitions, 6);
    // c0: filled r17, empty r18 (hole, depth 1), empty r19 → one column transition.
    assert_eq!((f.column_holes, f.column_transitions), (1, 1));
}

#[test]
fn lock_height_is_rows_between_the_lowest_cell_and_the_floor() {
    assert_eq!(lock_height(&at(5, 19, 0x12)), 0, "flat I on the floor");
    assert_eq!(lock_height(&at(5, 18, 0x11)), 0, "vertical I: dy −2..1");
    assert_eq!(lock_height(&at(5, 10, 0x12)), 9);
    assert_eq!(lock_height(&at(5, 10, 0x11)), 8);
    assert_eq!(
        lock_height(&at(5, 0, 0x02)),
        18,
        "T down spans rows 0 and 1"
    );
    assert_eq!(lock_height(&at(5, 255, 0x02)), 19, "pivot in hidden row −1");
    // The table behind it is every orientation's lowest cell, at every pivot row.
    for o in Orientation::all() {
        for y in 0..=255u8 {
            let (_, _, _, max_dy) = o.extent();
            let bottom = i32::from(y as i8) + i32::from(max_dy);
            let want = (19 - bottom).max(0) as u32;
            assert_eq!(lock_height(&at(5, y, o.id())), want, "{o:?} at row {y}");
        }
    }
}

#[test]
fn pair_features_add_both_placements() {
    let board = bottom(MIXED);
    let outcome = PairOutcome {
        first: at(5, 10, 0x12),
        second: at(1, 17, 0x11),
        lines_first: 1,
        lines_second: 2,
        board: &board,
        level: 19,
    };
    let f = pair_features(&outcome);
    assert_eq!(f.lines_cleared, 3);
    assert_eq!(f.lock_height, 9 + 1);
    assert_eq!(f.column_holes, 4, "board features carried over");
}

#[test]
fn score_without_rules_is_the_weighted_sum() {
    let board = bottom(MIXED);
    let outcome = pair(&board, 1, 0);
    let w = PhaseWeights::meatfighter();
    let standard = Standard::new(Weights::single(w.clone()));
    let expected: f64 = w
        .floats()
        .iter()
        .zip(pair_features(&outcome).terms())
        .map(|(&(wk, wv), (fk, fv))| {
            assert_eq!(wk, fk, "weights and features in the same order");
            wv * f64::from(fv)
        })
        .sum();
    let got = standard.evaluate(&outcome).expect("a playable board");
    assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
}

#[test]
fn a_tetris_pair_beats_any_other_and_the_current_pieces_tetris_ranks_first() {
    let clean = Board::EMPTY;
    let messy = bottom(
        "
        #.#.#.#.#.
        .#.#.#.#.#
        #.#.#.#.#.
        .#.#.#.#.#",
    );
    let standard = Standard::default();
    let score = |o: PairOutcome| standard.evaluate(&o).expect("playable");
    let none = score(pair(&clean, 1, 2));
    let next = score(pair(&messy, 0, 4));
    let now = score(pair(&messy, 4, 0));
    let both = score(pair(&messy, 4, 4));
    assert!(
        next < none,
        "a Tetris on a messy board beats a clean board without one"
    );
    assert!(
        now < next,
        "the current piece's Tetris ranks above the next piece's"
    );
    assert!(both < now);
}

#[test]
fn a_blocked_spawn_is_rejected() {
    // A single cell at row 1, column 6 blocks J (its hook) and Z but not T, O, S, L, I.
    let mut board = Board::EMPTY;
    board.set(1, 6);
    assert!(!board.fits(5, 0, Piece::J.spawn().id()));
    assert!(board.fits(5, 0, Piece::T.spawn().id()));
    assert_eq!(Standard::default().evaluate(&pair(&board, 0, 0)), None);
}

#[test]
fn spawn_masks_agree_with_the_collision_test() {
    // Every single-cell board in the two spawn rows, piece by piece.
    for row in 0..2i8 {
        for col in 0..10u8 {
            let mut board = Board::EMPTY;
            board.set(row, col);
            let rows = visible_rows(&board);
            let all_fit = Piece::ALL.iter().all(|p| board.fits(5, 0, p.spawn().id()));
            assert_eq!(spawn_room(&rows), all_fit, "cell at row {row} column {col}");
        }
    }
}

/// A stack that walls the spawn area in: the empty cells reachable from (row 0, column 5) are
/// row 0 columns 3..6 and row 1 columns 4..6, and (row 0, column 0) is empty but cut off, so
/// neither row 0 nor row 1 can ever be completed.
const SEALED: &str = "
    .##....###
    ...#...#..
    ....###...
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........";

#[test]
fn a_sealed_ceiling_is_rejected() {
    let board = Board::from_text(SEALED).expect("20 rows");
    assert!(
        spawn_room(&visible_rows(&board)),
        "every piece still spawns"
    );
    assert!(!spawn_region_spans_a_row(&visible_rows(&board)));
    assert_eq!(Standard::default().evaluate(&pair(&board, 0, 0)), None);
}

#[test]
fn an_open_ceiling_is_accepted() {
    // One gap in the floor of the pocket (row 2, column 5) opens the whole field below.
    let holed = SEALED.replacen("....###...", "....#.#...", 1);
    // Filling (row 0, column 0) instead: row 0's only empty cells are the reachable ones, so
    // an I piece there still clears it.
    let completable = SEALED.replacen(".##....###", "###....###", 1);
    for text in [holed, completable] {
        let board = Board::from_text(&text).expect("20 rows");
        assert!(spawn_region_spans_a_row(&visible_rows(&board)), "{board:?}");
        assert!(Standard::default().evaluate(&pair(&board, 0, 0)).is_some());
    }
}

#[test]
fn a_pocket_under_an_empty_top_row_is_open() {
    // The same pocket one row lower (rows 1..3): row 0 is empty and reached whole, so the
    // board passes whatever `ceiling_rows` says; and a full column to the ceiling is open.
    let lowered = format!(
        "..........\n{}",
        &SEALED.trim()[..SEALED.trim().rfind('\n').unwrap_or(0)]
    );
    let board = Board::from_text(&lowered).expect("20 rows");
    assert!(spawn_region_spans_a_row(&visible_rows(&board)));
    let tower = bottom(&"#.........\n".repeat(20));
    assert!(Standard::default().playable(&tower, 19));
}

/// Cell-by-cell reference for `spawn_region_spans_a_row`: a plain depth-first search.
fn spans_a_row_slow(rows: &[u16; 20]) -> bool {
    let empty = |r: usize, c: usize| rows[r] & (1 << c) == 0;
    let mut seen = [[false; 10]; 20];
    let mut stack = vec![(0usize, 5usize)];
    while let Some((r, c)) = stack.pop() {
        if !empty(r, c) || seen[r][c] {
            continue;
        }
        seen[r][c] = true;
        stack.extend(
            [(r + 1, c), (r, c + 1)]
                .into_iter()
                .filter(|&(r, c)| r < 20 && c < 10),
        );
        stack.extend(r.checked_sub(1).map(|r| (r, c)));
        stack.extend(c.checked_sub(1).map(|c| (r, c)));
    }
    (0..20).any(|r| {
        let reached = (0..10).filter(|&c| seen[r][c]).count();
        reached > 0 && (0..10).all(|c| seen[r][c] || !empty(r, c))
    })
}

#[test]
fn the_flood_fill_matches_a_cell_by_cell_search() {
    // Random boards (xorshift, fixed seed) dense enough that about half are sealed off.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut open, mut sealed) = (0, 0);
    for _ in 0..5000 {
        let mut rows = [0u16; 20];
        for row in rows.iter_mut() {
            // About 34% filled, then one random cell cleared so no row is full.
            let bits = (next() & next()) | (next() & next() & next());
            *row = bits as u16 & FULL_ROW & !(1 << (next() % 10));
        }
        let fast = spawn_region_spans_a_row(&rows);
        assert_eq!(fast, spans_a_row_slow(&rows), "rows {rows:03x?}");
        if fast {
            open += 1;
        } else {
            sealed += 1;
        }
    }
    assert!(
        open > 500 && sealed > 500,
        "both outcomes exercised: {open} / {sealed}"
    );
}

#[test]
fn the_ceiling_penalty_grows_toward_the_top() {
    let load = |row: i8| {
        let mut board = Board::EMPTY;
        board.set(row, 0);
        ceiling_load(&visible_rows(&board), 7)
    };
    // 7 − row for rows 0..6, nothing from row 7 down.
    let loads: Vec<u32> = (0..9).map(load).collect();
    assert_eq!(loads, [7, 6, 5, 4, 3, 2, 1, 0, 0]);

    // In the evaluator it adds `top_rows_penalty` per unit: a column up to row 4 has cells
    // in rows 4, 5, 6 of the zone, so 3 + 2 + 1 on top of the features.
    let board = bottom("#.........\n".repeat(16).as_str());
    let with =
        Standard::new(Weights::single(PhaseWeights::meatfighter())).evaluate(&pair(&board, 0, 0));
    let without = Standard::new(Weights::single(PhaseWeights {
        top_rows_penalty: 0.0,
        ..PhaseWeights::meatfighter()
    }))
    .evaluate(&pair(&board, 0, 0));
    let diff = with.zip(without).map(|(a, b)| a - b);
    assert_eq!(diff, Some(6.0));
}

#[test]
#[ignore = "timing, run with --ignored --nocapture in release"]
fn evaluate_speed() {
    // MIXED is a typical low stack; the tall one reaches row 0 and runs the flood fill.
    let tall = bottom(&format!(
        "{}{}",
        "##......##\n".repeat(8),
        ".####.####\n##.######.\n".repeat(6)
    ));
    for (name, board) in [("low", bottom(MIXED)), ("tall", tall)] {
        let standard = Standard::default();
        let n = 1_000_000;
        let start = std::time::Instant::now();
        let mut acc = 0.0;
        for i in 0..n {
            let o = pair(&board, i % 3, 0);
            acc += standard.evaluate(std::hint::black_box(&o)).unwrap_or(0.0);
        }
        let per = start.elapsed().as_nanos() as f64 / f64::from(n);
        println!("evaluate on the {name} board: {per:.0} ns per call ({acc})");
    }
}

#[test]
fn the_phase_of_the_final_level_decides_the_rules() {
    // A Tetris by the current piece: worth the bonus at level 28, nothing at 29.
    let board = Board::EMPTY;
    let standard = Standard::default();
    let at = |level| {
        standard
            .evaluate(&PairOutcome {
                level,
                ..pair(&board, 4, 0)
            })
            .expect("playable")
    };
    assert!(at(28) < -1.0e9, "{}", at(28));
    assert!(at(29) > -1.0e3, "{}", at(29));
}

#[test]
fn out_of_reach_columns_cost_at_one_row_per_frame_only_where_weighted() {
    // Column 8 filled up to row 3: at level 29 the far right is out of reach.
    let mut board = Board::EMPTY;
    for r in 3..20 {
        board.rows[r + crate::game::board::HIDDEN_ROWS] |= 1 << 8;
    }
    let plain = Standard::new(Weights::single(PhaseWeights::killscreen_without_reach()));
    let reach = Standard::default();
    let o = PairOutcome {
        level: 29,
        ..pair(&board, 0, 0)
    };
    let extra = reach.evaluate(&o).unwrap() - plain.evaluate(&o).unwrap();
    let table = crate::movegen::ReachTable::derive(1);
    let blocked = table.unreachable(&board);
    assert!(blocked > 0);
    assert_eq!(
        extra,
        PhaseWeights::killscreen().unreachable_columns * f64::from(blocked)
    );
}

#[test]
fn the_reach_table_of_a_level_is_the_one_of_its_gravity() {
    let e = Standard::default();
    assert!(
        !e.reach.is_empty(),
        "the default weighs unreachable columns"
    );
    for level in 0..=255u8 {
        let want = e
            .reach
            .iter()
            .find(|(s, _)| *s == drop_speed(level))
            .map(|(_, t)| t as *const ReachTable);
        let got = e.reach_at(level).map(|t| t as *const ReachTable);
        assert_eq!(got, want, "level {level}");
    }
}
