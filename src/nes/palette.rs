//! The core's NES master palette (`game::palette::SYSTEM_PALETTE`, which the page uses too)
//! checked against tetanes-core's, which colours the emulated cartridge.

#[cfg(test)]
mod tests {
    use crate::game::palette::SYSTEM_PALETTE;
    use tetanes_core::ppu::Ppu;

    #[test]
    fn the_core_s_master_palette_is_tetanes_core_s_entry_for_entry() {
        let theirs = Ppu::SYSTEM_PALETTE.map(|(r, g, b)| [r, g, b]);
        assert_eq!(SYSTEM_PALETTE, theirs);
    }
}
