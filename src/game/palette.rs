//! The playfield's colours by level: the cartridge's `colorTable` (ten two-colour background
//! palettes, chosen by level mod 10) as NES master-palette indices.

/// Master-palette index of the backdrop (black) in every level's block palette.
pub const BACKDROP: u8 = 0x0F;
/// Master-palette index of the white shared by every level's block palette.
pub const WHITE: u8 = 0x30;

/// The two level colours of `colorTable` (its bytes 2 and 3; bytes 0 and 1 are always
/// [`BACKDROP`] and [`WHITE`]), indexed by level mod 10. Tile $7B is white inside the first,
/// $7C is the second, $7D is the first.
pub const LEVEL_COLOURS: [[u8; 2]; 10] = [
    [0x21, 0x12],
    [0x29, 0x1A],
    [0x24, 0x14],
    [0x2A, 0x12],
    [0x2B, 0x15],
    [0x22, 0x2B],
    [0x00, 0x16],
    [0x05, 0x13],
    [0x16, 0x12],
    [0x27, 0x16],
];

/// The two master-palette indices the blocks take at `level` (`updatePaletteForLevel`).
pub fn level_colours(level: u8) -> [u8; 2] {
    LEVEL_COLOURS[usize::from(level % 10)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_take_the_cartridge_colour_table_mod_10() {
        assert_eq!(level_colours(0), [0x21, 0x12]);
        assert_eq!(level_colours(1), [0x29, 0x1A]);
        assert_eq!(level_colours(9), [0x27, 0x16]);
        assert_eq!(level_colours(18), [0x16, 0x12]);
        assert_eq!(level_colours(19), level_colours(9));
        assert_eq!(level_colours(29), level_colours(9));
        assert_eq!(level_colours(255), level_colours(5));
    }
}
