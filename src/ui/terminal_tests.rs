//! Tests of the terminal view: the text picture in plain and colour modes, and the escape
//! sequences the in-place runner writes and restores.

use super::*;

fn plain() -> TermOptions {
    TermOptions::default()
}

/// The 20 board rows' cell text (between the two `|`), plain mode.
fn board_rows(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .take(20)
        .map(|l| l[1..21].to_string())
        .collect()
}

#[test]
fn plain_board_has_twenty_rows_of_ten_double_cells() {
    let g = Game::seeded(19, 7);
    let text = render_terminal(&g, &plain());
    assert_eq!(text.lines().count(), 22);
    assert!(text.starts_with("+--------------------+  NEXT"));
    for (i, line) in text.lines().enumerate().skip(1).take(20) {
        assert_eq!(&line[..1], "|", "line {i}");
        assert_eq!(&line[21..22], "|", "line {i}");
    }
}

#[test]
fn blocks_active_piece_and_plan_are_marked() {
    let mut g = Game::seeded(19, 7);
    for c in 0..9 {
        g.field.set(19, c, 0x7B);
    }
    g.field.set(18, 0, super::CURTAIN);
    let plan = crate::search::fixtures::o_at(4, 17);
    let opts = TermOptions {
        plan: Some(plan),
        ..plain()
    };
    let rows = board_rows(&render_terminal(&g, &opts));
    assert_eq!(rows[19], "################## .");
    assert!(rows[18].starts_with("::"));
    let count = |s: &str| rows.iter().map(|r| r.matches(s).count()).sum::<usize>();
    assert_eq!(count("<>"), 4, "plan cells on empty squares");
    let active = g
        .orientation()
        .map(|o| visible_cells(g.active.x, g.active.y, o).count());
    assert_eq!(count("##"), 9 + active.unwrap_or(0));
}

#[test]
fn numbers_and_next_piece_are_beside_the_board() {
    let mut g = Game::seeded(19, 7);
    g.score = [0x56, 0x34, 0x12]; // 123,456
    g.lines = [0x42, 0x01]; // 142
    let opts = TermOptions {
        pieces: Some(77),
        status: "PAUSED".into(),
        ..plain()
    };
    let text = render_terminal(&g, &opts);
    assert!(text.contains("SCORE   123456"), "{text}");
    assert!(text.contains("LINES      142"));
    assert!(text.contains("LEVEL       19"));
    assert!(text.contains("PIECES      77"));
    assert!(text.contains("PAUSED"));
    let next_cells: usize = text
        .lines()
        .skip(1)
        .take(2)
        .map(|l| l[22..].matches("##").count())
        .sum();
    assert_eq!(next_cells, 4, "the next piece's four cells");
}

#[test]
fn colour_mode_uses_tile_colours_and_clears_each_line() {
    let mut g = Game::seeded(19, 7);
    g.field.set(19, 0, 0x7C);
    let opts = TermOptions {
        colour: true,
        ..plain()
    };
    let text = render_terminal(&g, &opts);
    assert!(text.contains("\x1b[38;5;16;48;5;202m  "));
    assert!(text.lines().all(|l| l.ends_with("\x1b[0m\x1b[K")));
    assert_eq!(text.lines().count(), 22);
}

#[test]
fn the_view_hides_redraws_only_changed_lines_and_restores() {
    let mut out = Vec::new();
    {
        let mut view = TerminalView::start(&mut out).expect("write to a Vec");
        view.draw("line one\nline two\nline three\n")
            .expect("write");
        view.draw("line one\nline 2\nline three\n").expect("write");
        view.draw("line one\nline 2\nline three\n").expect("write");
        view.draw("line one\n").expect("write");
    }
    let s = String::from_utf8(out).expect("utf-8");
    assert!(s.starts_with(HIDE_CURSOR));
    assert_eq!(s.matches("line one").count(), 1, "{s:?}");
    assert_eq!(s.matches("line three").count(), 1, "{s:?}");
    assert!(s.contains("\x1b[2;1Hline 2\x1b[K"), "{s:?}");
    // Fewer lines: the rest of the screen is cleared.
    assert!(s.contains("\x1b[2;1H\x1b[J"), "{s:?}");
    assert!(s.ends_with(&format!("{RESET}{SHOW_CURSOR}")));
}

#[test]
fn a_whole_game_writes_a_small_part_of_full_redraws() {
    let mut game = Game::seeded(19, 5);
    let mut out = Vec::new();
    let mut full = 0usize;
    {
        let mut view = TerminalView::start(&mut out).expect("write");
        for i in 0..3000u32 {
            game.step(if i % 7 == 0 {
                crate::game::PadState::LEFT
            } else {
                crate::game::PadState::NONE
            });
            let text = render_terminal(
                &game,
                &TermOptions {
                    colour: true,
                    ..plain()
                },
            );
            full += text.len();
            view.draw(&text).expect("write");
        }
    }
    eprintln!(
        "{} bytes written for {full} bytes of full redraws",
        out.len()
    );
    assert!(out.len() * 20 < full, "{} of {full} bytes", out.len());
}

#[test]
fn a_small_terminal_is_told_and_the_picture_comes_back() {
    assert!(too_small(MIN_SIZE).is_none());
    let msg = too_small((30, 40)).expect("too narrow");
    assert!(msg.contains("30x40") && msg.contains("46x23"), "{msg}");
    assert!(too_small((80, 20)).is_some());
    let mut out = Vec::new();
    {
        let mut view = TerminalView::start(&mut out).expect("write");
        view.draw("board\n").expect("write");
        view.message(&msg).expect("write");
        view.message(&msg).expect("write");
        view.draw("board\n").expect("write");
    }
    let s = String::from_utf8(out).expect("utf-8");
    assert_eq!(s.matches("Enlarge").count(), 1, "shown once while it lasts");
    assert_eq!(s.matches("board").count(), 2, "redrawn after the message");
}

#[test]
fn the_legend_says_what_the_outline_and_the_plan_line_mean_at_the_foot() {
    let g = Game::seeded(19, 7);
    let opts = TermOptions {
        plan: Some(crate::search::fixtures::o_at(4, 17)),
        pieces: Some(3),
        legend: Legend::Plan,
        ..plain()
    };
    let text = render_terminal(&g, &opts);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    assert!(lines[19].ends_with("<> the planned lock"), "{text}");
    assert!(lines[20].ends_with("PLAN piece xCOL yROW"), "{text}");
    assert!(lines[21].ends_with("q quits"), "{text}");
    assert!(text.contains("PLAN   O x4 y17"), "{text}");
    let quit = render_terminal(
        &g,
        &TermOptions {
            legend: Legend::Quit,
            ..plain()
        },
    );
    assert!(quit.contains("q quits") && !quit.contains("PLAN"), "{quit}");
    for line in text.lines() {
        assert!(line.chars().count() <= usize::from(MIN_SIZE.0), "{line}");
    }
}
