//! The tiny built-in bitmap font: 3×5 glyphs for digits and the few capital letters the
//! board's labels need, drawn into a `Frame` at any integer scale. No font files.

use super::frame::{Frame, Rgb};

/// Glyph width in font pixels.
pub const GLYPH_W: usize = 3;
/// Glyph height in font pixels.
pub const GLYPH_H: usize = 5;
/// Horizontal advance per character (glyph plus one column of space), in font pixels.
pub const ADVANCE: usize = GLYPH_W + 1;

/// Rows of a glyph, top to bottom; bit 2 is the left column.
type Glyph = [u8; GLYPH_H];

const DIGITS: [Glyph; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111], // 0
    [0b010, 0b110, 0b010, 0b010, 0b111], // 1
    [0b111, 0b001, 0b111, 0b100, 0b111], // 2
    [0b111, 0b001, 0b111, 0b001, 0b111], // 3
    [0b101, 0b101, 0b111, 0b001, 0b001], // 4
    [0b111, 0b100, 0b111, 0b001, 0b111], // 5
    [0b111, 0b100, 0b111, 0b101, 0b111], // 6
    [0b111, 0b001, 0b010, 0b010, 0b010], // 7
    [0b111, 0b101, 0b111, 0b101, 0b111], // 8
    [0b111, 0b101, 0b111, 0b001, 0b111], // 9
];

/// The letters the labels and plots use (NEXT, SCORE, LINES, LEVEL, PCS, GAMES, ROW, …).
const LETTERS: [(char, Glyph); 41] = [
    ('A', [0b010, 0b101, 0b111, 0b101, 0b101]),
    ('C', [0b011, 0b100, 0b100, 0b100, 0b011]),
    ('D', [0b110, 0b101, 0b101, 0b101, 0b110]),
    ('E', [0b111, 0b100, 0b110, 0b100, 0b111]),
    ('F', [0b111, 0b100, 0b110, 0b100, 0b100]),
    ('G', [0b011, 0b100, 0b101, 0b101, 0b011]),
    ('I', [0b111, 0b010, 0b010, 0b010, 0b111]),
    ('L', [0b100, 0b100, 0b100, 0b100, 0b111]),
    ('M', [0b101, 0b111, 0b111, 0b101, 0b101]),
    ('N', [0b110, 0b101, 0b101, 0b101, 0b101]),
    ('O', [0b010, 0b101, 0b101, 0b101, 0b010]),
    ('P', [0b110, 0b101, 0b110, 0b100, 0b100]),
    ('R', [0b110, 0b101, 0b110, 0b101, 0b101]),
    ('S', [0b011, 0b100, 0b010, 0b001, 0b110]),
    ('T', [0b111, 0b010, 0b010, 0b010, 0b010]),
    ('U', [0b101, 0b101, 0b101, 0b101, 0b111]),
    ('V', [0b101, 0b101, 0b101, 0b101, 0b010]),
    ('X', [0b101, 0b101, 0b010, 0b101, 0b101]),
    ('x', [0b000, 0b101, 0b010, 0b101, 0b000]),
    ('.', [0b000, 0b000, 0b000, 0b000, 0b010]),
    ('/', [0b001, 0b001, 0b010, 0b100, 0b100]),
    ('B', [0b110, 0b101, 0b110, 0b101, 0b110]),
    ('H', [0b101, 0b101, 0b111, 0b101, 0b101]),
    ('K', [0b101, 0b101, 0b110, 0b101, 0b101]),
    ('W', [0b101, 0b101, 0b111, 0b111, 0b101]),
    ('Y', [0b101, 0b101, 0b010, 0b010, 0b010]),
    ('-', [0b000, 0b000, 0b111, 0b000, 0b000]),
    (':', [0b000, 0b010, 0b000, 0b010, 0b000]),
    ('J', [0b001, 0b001, 0b001, 0b101, 0b010]),
    ('Q', [0b010, 0b101, 0b101, 0b110, 0b011]),
    ('Z', [0b111, 0b001, 0b010, 0b100, 0b111]),
    ('(', [0b001, 0b010, 0b010, 0b010, 0b001]),
    (')', [0b100, 0b010, 0b010, 0b010, 0b100]),
    ('%', [0b101, 0b001, 0b010, 0b100, 0b101]),
    (',', [0b000, 0b000, 0b000, 0b010, 0b100]),
    ('+', [0b000, 0b010, 0b111, 0b010, 0b000]),
    ('=', [0b000, 0b111, 0b000, 0b111, 0b000]),
    ('>', [0b100, 0b010, 0b001, 0b010, 0b100]),
    ('<', [0b001, 0b010, 0b100, 0b010, 0b001]),
    ('#', [0b101, 0b111, 0b101, 0b111, 0b101]),
    ('_', [0b000, 0b000, 0b000, 0b000, 0b111]),
];

/// The glyph for `c` (lower-case letters fall back to capitals); `None` draws a blank.
fn glyph(c: char) -> Option<Glyph> {
    if let Some(d) = c.to_digit(10) {
        return Some(DIGITS[d as usize]);
    }
    LETTERS
        .iter()
        .find(|(l, _)| *l == c)
        .or_else(|| {
            let upper = c.to_ascii_uppercase();
            LETTERS.iter().find(|(l, _)| *l == upper)
        })
        .map(|(_, g)| *g)
}

/// Width in frame pixels of `text` at `scale` (no trailing space).
pub fn text_width(text: &str, scale: usize) -> usize {
    let n = text.chars().count();
    if n == 0 {
        0
    } else {
        (n * ADVANCE - 1) * scale
    }
}

/// Draws `text` with its top-left corner at (x, y); each font pixel is `scale`×`scale`.
/// Characters without a glyph (and spaces) leave a blank cell; pixels off the frame are clipped.
pub fn draw_text(frame: &mut Frame, x: usize, y: usize, text: &str, scale: usize, colour: Rgb) {
    for (i, c) in text.chars().enumerate() {
        let Some(g) = glyph(c) else { continue };
        let gx = x + i * ADVANCE * scale;
        for (row, bits) in g.iter().enumerate() {
            for col in 0..GLYPH_W {
                if bits & (0b100 >> col) != 0 {
                    frame.fill_rect(gx + col * scale, y + row * scale, scale, scale, colour);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_character_has_a_glyph() {
        for c in "0123456789 NEXT SCORE LINES LEVEL PCS PAUSE FAST GAME OVER X8 X1/8 (%,+=<>#)"
            .chars()
            .chain('A'..='Z')
        {
            assert!(c == ' ' || glyph(c).is_some(), "no glyph for {c:?}");
        }
    }

    #[test]
    fn glyphs_fit_three_columns() {
        for g in DIGITS.iter().chain(LETTERS.iter().map(|(_, g)| g)) {
            assert!(g.iter().all(|row| *row < 8));
        }
    }

    #[test]
    fn text_width_counts_the_gaps() {
        assert_eq!(text_width("", 2), 0);
        assert_eq!(text_width("1", 1), 3);
        assert_eq!(text_width("12", 2), 14);
    }
}
