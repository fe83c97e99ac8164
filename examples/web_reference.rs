//! The native answers the page's browser test compares against (web/test/browser_test.py):
//! the planner's lock for each position of a table, and the bot's game over N pieces.
//!
//! `web_reference positions FILE` prints one JSON line per position of FILE (lines of
//! `PIECE NEXT LEVEL LINES PROFILE BOARD`: NEXT `-` for none, BOARD the 200 cells, `.` empty);
//! `web_reference game LEVEL SEED PROFILE PIECES` prints the game's lines, board and speed;
//! `web_reference colours` the CSS colours (backdrop, white, first, second) of levels 0-9.

use std::time::Instant;

use nestor::game::score::line_bytes;
use nestor::game::state::Game;
use nestor::game::{Board, Piece};
use nestor::lab::selfplay::SelfPlay;
use nestor::search::profile::Profile;
use nestor::search::{Planner, Situation, Standard};
use serde_json::json;

/// The planner `nestor sim --profile NAME` plays with: the preset and its own weight set.
fn planner(name: &str) -> Planner<Standard> {
    let profile = Profile::preset(name).unwrap_or_else(|| panic!("no preset {name}"));
    let weights = profile.weights.load().expect("a built-in weight set");
    let mut p = Planner::new(Standard::new(weights));
    p.profile = profile;
    p
}

fn piece(s: &str) -> Option<Piece> {
    Piece::ALL
        .iter()
        .copied()
        .find(|p| p.letter().to_string() == s)
}

fn positions(path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let rows: Vec<String> = f[5]
            .as_bytes()
            .chunks(10)
            .map(|r| String::from_utf8_lossy(r).into())
            .collect();
        let board = Board::from_text(&rows.join("\n")).expect("a 200-cell board");
        let current = piece(f[0]).expect("a piece letter");
        let s = Situation::at_spawn(
            board,
            current,
            f[2].parse().expect("a level"),
            line_bytes(f[3].parse().expect("a line count")),
            piece(f[1]),
        );
        let plan = planner(f[4]).plan(&s);
        let lock = plan.map(|p| json!([p.lock.x, p.lock.y as i8, p.lock.orientation.id()]));
        println!("{}", json!({ "lock": lock }));
    }
}

fn game(level: u8, seed: u64, profile: &str, pieces: u32) {
    let mut planner = planner(profile);
    let mut game = Game::seeded(level, seed);
    let mut play = SelfPlay::new(&mut planner, &game);
    let started = Instant::now();
    let mut decisions = 0u32;
    while play.stats.pieces < pieces && !game.is_over() && game.crashed.is_none() {
        let had_plan = play.plan().is_some();
        play.step(&mut game);
        decisions += u32::from(!had_plan && play.plan().is_some());
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let board: String = game.field.page[..200]
        .iter()
        .map(|&t| if t < 0xEF { '#' } else { '.' })
        .collect();
    let out = json!({ "pieces": play.stats.pieces, "lines": game.line_count(), "board": board,
        "decisions": decisions, "ms": ms });
    println!("{out}");
}

/// The blocks' colours as the native picture takes them: the level's colour pair through
/// the master palette (`game::palette`'s, held to tetanes-core's by `nes::palette`'s test).
fn colours() {
    use nestor::game::palette::{level_colours, master_rgb, BACKDROP, WHITE};
    let css = |i: u8| {
        let [r, g, b] = master_rgb(i);
        format!("#{r:02x}{g:02x}{b:02x}")
    };
    for level in 0..10 {
        let [first, second] = level_colours(level);
        println!(
            "{}",
            json!([css(BACKDROP), css(WHITE), css(first), css(second)])
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a.get(1).map(String::as_str) {
        Some("positions") if a.len() == 3 => positions(&a[2]),
        Some("colours") if a.len() == 2 => colours(),
        Some("game") if a.len() == 6 => game(
            a[2].parse().expect("a level"),
            a[3].parse().expect("a seed"),
            &a[4],
            a[5].parse().expect("a piece count"),
        ),
        _ => {
            eprintln!(
                "usage: web_reference positions FILE | game LEVEL SEED PROFILE PIECES | colours"
            );
            std::process::exit(2);
        }
    }
}
