//! A synthetic test cartridge assembled here (no real ROM may enter the repository): an NROM
//! image whose NMI polls controller 1 into $F7 in the game's bit order and counts frames at $B1.

use super::rom::{CHR_BANK, HEADER_LEN, PRG_BANK};

/// Where the program's bytes go: reset at $8000, NMI at $8040 (16 KiB NROM, mirrored at $C000).
const RESET: u16 = 0x8000;
const NMI: u16 = 0x8040;

/// Reset: `sei; cld; ldx #$FF; txs`, wait two vblanks (`bit $2002; bpl`), enable NMI
/// (`lda #$80; sta $2000`), then `jmp` to itself forever.
const RESET_CODE: &[u8] = &[
    0x78, // $8000 sei
    0xD8, // $8001 cld
    0xA2, 0xFF, // $8002 ldx #$FF
    0x9A, // $8004 txs
    0x2C, 0x02, 0x20, // $8005 bit $2002
    0x10, 0xFB, // $8008 bpl $8005
    0x2C, 0x02, 0x20, // $800A bit $2002
    0x10, 0xFB, // $800D bpl $800A
    // A light-blue backdrop and background rendering on, so a window shows a picture.
    0xA9, 0x3F, // $800F lda #$3F
    0x8D, 0x06, 0x20, // $8011 sta $2006
    0xA9, 0x00, // $8014 lda #$00
    0x8D, 0x06, 0x20, // $8016 sta $2006
    0xA9, 0x21, // $8019 lda #$21
    0x8D, 0x07, 0x20, // $801B sta $2007
    0xA9, 0x0A, // $801E lda #$0A
    0x8D, 0x01, 0x20, // $8020 sta $2001
    0xA9, 0x80, // $8023 lda #$80
    0x8D, 0x00, 0x20, // $8025 sta $2000
    0x4C, 0x28, 0x80, // $8028 jmp $8028
];

const NMI_CODE: &[u8] = &[
    0x48, // $8040 pha
    0x8A, // $8041 txa
    0x48, // $8042 pha
    0xA9, 0x01, // $8043 lda #1
    0x8D, 0x16, 0x40, // $8045 sta $4016
    0xA9, 0x00, // $8048 lda #0
    0x8D, 0x16, 0x40, // $804A sta $4016
    0xA2, 0x08, // $804D ldx #8
    0xAD, 0x16, 0x40, // $804F lda $4016
    0x4A, // $8052 lsr a      (button bit → carry)
    0x26, 0xF7, // $8053 rol $F7   (carry → bit 0, earlier buttons move up)
    0xCA, // $8055 dex
    0xD0, 0xF7, // $8056 bne $804F
    0xE6, 0xB1, // $8058 inc $B1
    0xD0, 0x02, // $805A bne $805E
    0xE6, 0xB2, // $805C inc $B2
    0x68, // $805E pla
    0xAA, // $805F tax
    0x68, // $8060 pla
    0x40, // $8061 rti
];

/// Address of the `rti` used as the IRQ vector.
const RTI: u16 = 0x8061;

/// Address of the polled buttons (the game's bit order).
pub const HELD: u16 = 0xF7;
/// Address of the frame counter, little-endian ($B1-$B2).
pub const COUNTER: u16 = 0xB1;

fn image(flags6: u8) -> Vec<u8> {
    let mut prg = vec![0xEAu8; PRG_BANK]; // nop
    let at = |addr: u16| usize::from(addr - RESET);
    prg[at(RESET)..at(RESET) + RESET_CODE.len()].copy_from_slice(RESET_CODE);
    prg[at(NMI)..at(NMI) + NMI_CODE.len()].copy_from_slice(NMI_CODE);
    // Vectors at $FFFA (NMI), $FFFC (reset), $FFFE (IRQ), i.e. the end of the mirrored bank.
    for (i, v) in [NMI, RESET, RTI].into_iter().enumerate() {
        prg[PRG_BANK - 6 + 2 * i..PRG_BANK - 4 + 2 * i].copy_from_slice(&v.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_LEN + PRG_BANK + CHR_BANK);
    out.extend_from_slice(b"NES\x1A");
    out.extend_from_slice(&[1, 1, flags6, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&prg);
    out.extend(std::iter::repeat_n(0u8, CHR_BANK));
    out
}

/// The NROM (mapper 0) image: 16 KiB PRG, 8 KiB CHR, vertical mirroring.
pub fn nrom_image() -> Vec<u8> {
    image(0x01)
}

/// The same program under an MMC1 (mapper 1) header: a well-formed image of the right mapper
/// whose hash no known dump has.
pub fn mmc1_image() -> Vec<u8> {
    image(0x11)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_targets_are_right() {
        // bne/bpl offsets are relative to the next instruction.
        let target = |code: &[u8], base: u16, at: u16| -> u16 {
            let off = code[usize::from(at - base) + 1] as i8;
            (at + 2).wrapping_add_signed(off.into())
        };
        assert_eq!(target(RESET_CODE, RESET, 0x8008), 0x8005);
        assert_eq!(target(RESET_CODE, RESET, 0x800D), 0x800A);
        assert_eq!(target(NMI_CODE, NMI, 0x8056), 0x804F);
        assert_eq!(target(NMI_CODE, NMI, 0x805A), 0x805E);
        assert_eq!(NMI_CODE[usize::from(RTI - NMI)], 0x40);
        assert_eq!(RESET_CODE[0x28..], [0x4C, 0x28, 0x80]);
        assert!(RESET_CODE.len() <= usize::from(NMI - RESET));
    }

    #[test]
    fn images_differ_only_in_the_mapper_nibble() {
        let (a, b) = (nrom_image(), mmc1_image());
        assert_eq!(a.len(), HEADER_LEN + PRG_BANK + CHR_BANK);
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        assert_eq!(diff, vec![6]);
    }
}
