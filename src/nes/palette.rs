//! The NES master palette as RGB: tetanes-core's system palette, so that nestor's own picture
//! and the emulated cartridge's agree on what each palette index looks like.

use tetanes_core::ppu::Ppu;

/// The RGB colour of NES master-palette `index` (its low six bits, as the PPU reads them).
pub fn master_rgb(index: u8) -> [u8; 3] {
    let (r, g, b) = Ppu::SYSTEM_PALETTE[usize::from(index & 0x3F)];
    [r, g, b]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_white_and_a_blue_are_where_the_ntsc_palette_has_them() {
        assert_eq!(master_rgb(0x0F), [0, 0, 0]);
        assert_eq!(master_rgb(0x30), [0xEC, 0xEE, 0xEC]);
        assert_eq!(master_rgb(0x21), [0x4C, 0x9A, 0xEC]);
        assert_eq!(master_rgb(0x40 | 0x21), master_rgb(0x21));
    }
}
