//! A game started at a chosen level: the RAM a game from the start level holds when it gets
//! there (level, lines, the score at its cap), written at the first frame of play.
//!
//! It saves the early levels of a batch that measures the crash levels: a game from 19 spends
//! half its frames before level 155. The board is the fresh game's (empty), not a stack.

use crate::game::score::add_line;
use crate::nes::AddressMap;

/// The BCD line count a game from `start` holds at its first line of `level` (the count at
/// the start when `level` is `start`); `None` for a level such a game never shows.
pub fn lines_at_level(start: u8, level: u8) -> Option<[u8; 2]> {
    let (mut shown, mut lines) = (start, [0u8; 2]);
    if level == start {
        return Some(lines);
    }
    // The rebirth comes at 3,300 lines from 19; more lines than a game ever plays to 255.
    for _ in 0..10_000 {
        add_line(&mut lines, &mut shown);
        if shown == level {
            return Some(lines);
        }
        if shown < start {
            return None;
        }
    }
    None
}

/// The bytes that put a game from `start` at `level`: level, lines, and the score at
/// 999,999 (every game from 19 holds it long before 100); `None` as [`lines_at_level`].
pub fn bytes_for_level(map: &AddressMap, start: u8, level: u8) -> Option<Vec<(u16, u8)>> {
    let lines = lines_at_level(start, level)?;
    let mut bytes = vec![
        (map.level, level),
        (map.lines, lines[0]),
        (map.lines + 1, lines[1]),
    ];
    bytes.extend((0..3).map(|i| (map.score + i, 0x99)));
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_are_those_of_the_first_line_of_each_level() {
        assert_eq!(lines_at_level(19, 19), Some([0, 0]));
        // From 19 the first level-up comes at 140 lines, then every 10 until the BCD quirk.
        assert_eq!(lines_at_level(19, 20), Some([0x40, 0x01]));
        assert_eq!(lines_at_level(19, 21), Some([0x50, 0x01]));
        // 3,260 lines: the count the wall tests have always poked for 252 (the hundreds byte
        // counts in binary past 9).
        assert_eq!(lines_at_level(19, 252), Some([0x60, 32]));
        assert_eq!(lines_at_level(19, 18), None);
        assert_eq!(lines_at_level(0, 1), Some([0x10, 0x00]));
    }

    #[test]
    fn the_bytes_hold_level_lines_and_the_capped_score() {
        let map = AddressMap::default();
        let b = bytes_for_level(&map, 19, 155).expect("155 is shown");
        assert_eq!(b[0], (map.level, 155));
        let lines = lines_at_level(19, 155).expect("155");
        assert_eq!(
            &b[1..3],
            &[(map.lines, lines[0]), (map.lines + 1, lines[1])]
        );
        assert!(b[3..]
            .iter()
            .all(|&(a, v)| v == 0x99 && (map.score..map.score + 3).contains(&a)));
    }
}
