//! Fixtures shared by the unit tests of the lock searches and the planner (compiled for tests
//! only): the test stacks, the benches' mid-game board and random stacks from a fixed seed.

pub mod boards;

use crate::game::Board;

/// The benches' mid-game board: a ragged stack with a well in the right column.
pub const MID: &str = "..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n.#........\n##..#.....\n###.##.##.\n\
     #########.\n####.####.\n#########.\n#########.\n#########.";

/// Each of `texts` as a board, then the empty board.
pub fn with_empty(texts: &[&str]) -> Vec<Board> {
    let mut boards: Vec<Board> = texts
        .iter()
        .map(|t| Board::from_text(t).expect("a test stack parses"))
        .collect();
    boards.push(Board::EMPTY);
    boards
}

/// The named test stacks, the empty board and [`MID`]: the planner tests' fixed boards (each
/// adds random ones of its own).
pub fn planner_boards() -> Vec<Board> {
    let mut all = with_empty(&[
        boards::ROOF,
        boards::T_SLOT,
        boards::TWO_CAVES,
        boards::TALL,
    ]);
    all.push(mid_board());
    all
}

/// [`MID`] as a board.
pub fn mid_board() -> Board {
    Board::from_text(MID).expect("the mid-game board parses")
}

/// Ragged random stacks (no full row, the spawn rows empty), from a fixed seed.
pub fn random_boards(n: usize, x: u64) -> Vec<Board> {
    random_stacks(n, x, 12)
}

/// Ragged random stacks of columns up to `tallest` - 1 high (at most 18: the spawn rows stay
/// empty), no full row, from a fixed seed.
pub fn random_stacks(n: usize, mut x: u64, tallest: u64) -> Vec<Board> {
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let well = (next() % 10) as usize;
            let mut text = String::new();
            let heights: Vec<u64> = (0..10).map(|_| next() % tallest.min(19)).collect();
            for r in 0..20u64 {
                let mut row: Vec<char> = (0..10)
                    .map(|c| {
                        let filled = 20 - r <= heights[c] && next() % 8 != 0;
                        if filled && c != well {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect();
                if row.iter().all(|&c| c == '#') {
                    row[(next() % 10) as usize] = '.';
                }
                text.extend(row);
                text.push('\n');
            }
            Board::from_text(text.trim_end()).expect("a random stack parses")
        })
        .collect()
}
