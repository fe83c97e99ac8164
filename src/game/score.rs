//! Lines, levels, gravity and points in the cartridge's own arithmetic: BCD counters fixed up
//! nibble by nibble, the packed-BCD level-up compare, the soft-drop BCD bug and the cap (§5.3, §9).

use super::timing;

/// Frames per row for levels 0-28 (`framesPerDropTable`); 29 and up use 1.
const FRAMES_PER_DROP: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Gravity: frames per row at `level` (the cartridge's unsigned `cpx #29`).
#[inline]
pub const fn drop_speed(level: u8) -> u8 {
    if level >= 29 {
        1
    } else {
        FRAMES_PER_DROP[level as usize]
    }
}

/// Line-clear points as BCD (low byte, high byte) for 0-4 lines: 0, 40, 100, 300, 1200.
const POINTS: [(u8, u8); 5] = [
    (0x00, 0x00),
    (0x40, 0x00),
    (0x00, 0x01),
    (0x00, 0x03),
    (0x00, 0x12),
];

/// Decodes a little-endian run of BCD bytes (nibbles above 9 count as their value).
pub fn bcd_value(bytes: &[u8]) -> u32 {
    bytes.iter().rev().fold(0u32, |acc, &b| {
        acc * 100 + (b >> 4) as u32 * 10 + (b & 0x0F) as u32
    })
}

/// Encodes `value` as `N` little-endian BCD bytes (digits beyond `2N` are dropped).
pub fn bcd_bytes<const N: usize>(mut value: u32) -> [u8; N] {
    let mut out = [0u8; N];
    for b in out.iter_mut() {
        let two = value % 100;
        *b = (((two / 10) << 4) | (two % 10)) as u8;
        value /= 100;
    }
    out
}

/// `true` when `a - b`, as the 6502's `cmp` sees it, has bit 7 set (the `bmi` branch).
#[inline]
pub const fn minus(a: u8, b: u8) -> bool {
    a.wrapping_sub(b) & 0x80 != 0
}

/// Adds one line to the BCD count (`lines` = [$70, $71]) and applies the level-up check;
/// returns true on a level-up.
pub fn add_line(lines: &mut [u8; 2], level: &mut u8) -> bool {
    add_line_timed(lines, level).0
}

/// [`add_line`] and the CPU cycles `incrementLines` took for it (loop control excluded).
pub fn add_line_timed(lines: &mut [u8; 2], level: &mut u8) -> (bool, u32) {
    let mut lo = lines[0].wrapping_add(1);
    let mut cycles = timing::LINE_INC;
    if lo & 0x0F >= 0x0A {
        lo = lo.wrapping_add(6);
        cycles = timing::LINE_INC_TENS;
        if lo & 0xF0 >= 0xA0 {
            lo &= 0x0F;
            lines[1] = lines[1].wrapping_add(1);
            cycles = timing::LINE_INC_HUNDREDS;
        }
    }
    lines[0] = lo;
    if lo & 0x0F != 0 {
        return (false, cycles + timing::LINE_NO_CHECK);
    }
    // Hundreds and tens digits, packed, read as a binary number (140 lines → $14 = 20; past
    // 99 lines/10 the hundreds byte lands in the high nibble: 1380 → $38 = 56 < 137).
    let g = ((((lines[1] as u16) << 8) | lo as u16) >> 4) as u8;
    if minus(*level, g) {
        *level = level.wrapping_add(1);
        (true, cycles + timing::LINE_LEVEL_UP)
    } else {
        (false, cycles + timing::LINE_CHECK)
    }
}

/// Soft-drop points with the cartridge's bug: a binary add of `hold_down_points − 1` into the
/// BCD low byte, a half-done fix-up, and a binary carry into byte 1 (fixed by [`add_clear_points`]).
/// Returns the CPU cycles `addHoldDownPoints` took.
pub fn add_soft_drop_points(score: &mut [u8; 3], hold_down_points: u8) -> u32 {
    if minus(hold_down_points, 2) {
        return timing::HOLD_NONE;
    }
    let mut b = score[0].wrapping_add(hold_down_points).wrapping_sub(1);
    let nibble = b & 0x0F >= 0x0A;
    if nibble {
        b = b.wrapping_add(6);
    }
    let carry = b & 0xF0 >= 0xA0;
    if carry {
        b = (b & 0xF0).wrapping_add(0x60);
        score[1] = score[1].wrapping_add(1);
    }
    score[0] = b;
    timing::HOLD_BASE
        + timing::pick(timing::HOLD_NIBBLE, nibble)
        + timing::pick(timing::HOLD_CARRY, carry)
}

/// Line-clear points, added `level + 1` times (level after this clear's level-up), with the
/// 999,999 cap. Runs even for 0 lines, where it only fixes up the bytes. Returns the CPU
/// cycles `addLineClearPoints` took (each test's path costs differently: [`timing`]).
pub fn add_clear_points(score: &mut [u8; 3], lines: u8, level: u8) -> u32 {
    use timing::pick;
    let (lo, hi) = POINTS[lines.min(4) as usize];
    let mut count = level.wrapping_add(1);
    let mut cycles = timing::POINTS_SETUP + timing::POINTS_END - 1;
    loop {
        let mut s0 = score[0].wrapping_add(lo);
        let carry0 = s0 >= 0xA0;
        if carry0 {
            s0 = s0.wrapping_add(0x60);
            score[1] = score[1].wrapping_add(1);
        }
        score[0] = s0;
        let mut s1 = score[1].wrapping_add(hi);
        let low1 = s1 & 0x0F >= 0x0A;
        if low1 {
            s1 = s1.wrapping_add(6);
        }
        let high1 = s1 & 0xF0 >= 0xA0;
        if high1 {
            s1 = s1.wrapping_add(0x60);
            score[2] = score[2].wrapping_add(1);
        }
        score[1] = s1;
        let mut s2 = score[2];
        let low2 = s2 & 0x0F >= 0x0A;
        if low2 {
            s2 = s2.wrapping_add(6);
        }
        score[2] = s2;
        let cap = s2 & 0xF0 >= 0xA0;
        if cap {
            *score = [0x99; 3];
        }
        cycles += pick(timing::POINTS_BYTE0, carry0)
            + pick(timing::POINTS_BYTE1_LOW, low1)
            + pick(timing::POINTS_BYTE1_HIGH, high1)
            + pick(timing::POINTS_BYTE2, low2)
            + pick(timing::POINTS_CAP, cap)
            + timing::POINTS_LOOP;
        count = count.wrapping_sub(1);
        if count == 0 {
            break;
        }
    }
    cycles
}

/// Lines cleared, from the cartridge's two bytes: the tens and ones in BCD, the hundreds in
/// binary (`add_line_timed` increments the high byte as a number), so the count goes on past
/// 1,599 where reading both bytes as BCD would fall back to 1,000.
pub fn line_count(lines: [u8; 2]) -> u32 {
    bcd_value(&lines[..1]) + 100 * u32::from(lines[1])
}

/// The cartridge's two line-counter bytes for `lines` (the inverse of [`line_count`]); the
/// hundreds byte stops at 255.
pub fn line_bytes(lines: u32) -> [u8; 2] {
    let ones = (lines % 100) as u8;
    [
        ((ones / 10) << 4) | (ones % 10),
        (lines / 100).min(255) as u8,
    ]
}

/// The level whose transition the cartridge may not survive: from 154 to 155 the work after a
/// line clear runs long enough for the NMI to corrupt the game's jump vector (the traces'
/// README: the earliest known crash). Batch play stops a game there and counts it as reaching it.
pub const CRASH_LEVEL: u8 = 155;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_bytes_are_the_line_count_s_bytes() {
        for lines in [0, 9, 10, 99, 100, 495, 1599, 1600, 3300, 25_599] {
            assert_eq!(line_count(line_bytes(lines)), lines, "{lines}");
        }
        assert_eq!(line_bytes(495), [0x95, 4]);
        assert_eq!(line_bytes(1600), [0x00, 16]);
        assert_eq!(
            line_bytes(30_000),
            [0x00, 255],
            "the hundreds byte stops at 255"
        );
    }

    fn score_after_soft_drop(before: u32, rows: u8) -> u32 {
        let mut s = bcd_bytes::<3>(before);
        // holdDownPoints counts the final blocked step too: rows + 1.
        add_soft_drop_points(&mut s, rows + 1);
        add_clear_points(&mut s, 0, 19);
        bcd_value(&s)
    }

    #[test]
    fn soft_drop_bug_examples_from_the_spec() {
        assert_eq!(score_after_soft_drop(0, 18), 12);
        assert_eq!(score_after_soft_drop(5, 18), 17);
        assert_eq!(score_after_soft_drop(90, 18), 100);
        assert_eq!(score_after_soft_drop(98, 18), 110);
        assert_eq!(score_after_soft_drop(95, 9), 100);
        assert_eq!(
            score_after_soft_drop(95, 13),
            100,
            "95 + 14 hold-down points"
        );
        assert_eq!(
            score_after_soft_drop(10, 5),
            15,
            "correct when small and no carry"
        );
        // A single soft step (holdDownPoints 1) gives nothing.
        let mut s = bcd_bytes::<3>(7);
        add_soft_drop_points(&mut s, 1);
        assert_eq!(bcd_value(&s), 7);
    }

    #[test]
    fn clear_points_use_level_plus_one_and_cap() {
        for (lines, base) in [(0u8, 0u32), (1, 40), (2, 100), (3, 300), (4, 1200)] {
            for level in [0u8, 9, 18, 19, 29] {
                let mut s = [0u8; 3];
                add_clear_points(&mut s, lines, level);
                assert_eq!(bcd_value(&s), base * (level as u32 + 1));
            }
        }
        let mut s = bcd_bytes::<3>(994_321);
        add_clear_points(&mut s, 4, 29);
        assert_eq!(bcd_value(&s), 999_999);
        add_clear_points(&mut s, 1, 29);
        assert_eq!(bcd_value(&s), 999_999, "the cap holds");
    }

    #[test]
    fn bcd_round_trip() {
        for v in [0u32, 7, 95, 100, 137, 9999, 123_456, 999_999] {
            assert_eq!(bcd_value(&bcd_bytes::<3>(v)), v);
        }
        assert_eq!(bcd_bytes::<2>(137), [0x37, 0x01]);
    }

    fn first_level_up(start: u8) -> u32 {
        let mut lines = [0u8; 2];
        let mut level = start;
        for n in 1..=400u32 {
            if add_line(&mut lines, &mut level) {
                return n;
            }
        }
        unreachable!()
    }

    #[test]
    fn level_up_thresholds_for_every_start_level() {
        for s in 0..=19u8 {
            let s32 = s as u32;
            let expected = (10 * (s32 + 1)).min(100.max((10 * s32).saturating_sub(50)));
            assert_eq!(first_level_up(s), expected, "start level {s}");
        }
        assert_eq!(first_level_up(19), 140);
        assert_eq!(first_level_up(18), 130);
        assert_eq!(first_level_up(10), 100);
    }

    #[test]
    fn level_rises_every_ten_lines_after_the_first_and_29_at_230() {
        let mut lines = [0u8; 2];
        let mut level = 19u8;
        for n in 1..=230u32 {
            add_line(&mut lines, &mut level);
            if n == 139 {
                assert_eq!(level, 19);
            }
            if n == 140 {
                assert_eq!(level, 20);
            }
        }
        assert_eq!(level, 29);
        assert_eq!(bcd_value(&lines), 230);
    }

    #[test]
    fn hundreds_byte_counts_in_binary_and_levels_rise_past_99() {
        // 999 → 1000: the ones/tens byte wraps and `inc lines+1` makes the hundreds byte $0A
        // (l99-levelup-100: lines_bcd "0A00"); packed, $0A0 / 16 = 160 > 99: level 100.
        let mut lines = [0x99, 0x09];
        let mut level = 99u8;
        assert!(add_line(&mut lines, &mut level));
        assert_eq!((lines, level), ([0x00, 0x0A], 100));
        assert_eq!(bcd_value(&lines), 1000);
        // Level 30 → 31 at 310 and 60 → 61 at 610, as in the traces.
        let (mut l30, mut v30) = ([0x09, 0x03], 30u8);
        assert!(add_line(&mut l30, &mut v30));
        assert_eq!(v30, 31);
        let (mut l60, mut v60) = ([0x09, 0x06], 60u8);
        assert!(add_line(&mut l60, &mut v60));
        assert_eq!(v60, 61);
    }

    #[test]
    fn no_level_up_at_1380_from_level_137() {
        // $1380 packed is $138: the compare reads its low byte, $38 = 56 < 137.
        let mut lines = [0x79, 0x13];
        let mut level = 137u8;
        let (up, cycles) = add_line_timed(&mut lines, &mut level);
        assert!(!up);
        assert_eq!((lines, level), ([0x80, 0x13], 137));
        // Tens fix-up (31) plus the level check without a level-up (71).
        assert_eq!(cycles, 31 + 71);
    }

    #[test]
    fn soft_drop_points_do_not_depend_on_the_level() {
        // At 29+ the same binary add: 95 + 14 hold-down points → 108 → fixed up to 100.
        let mut s = bcd_bytes::<3>(95);
        add_soft_drop_points(&mut s, 14);
        add_clear_points(&mut s, 0, 29);
        assert_eq!(bcd_value(&s), 100);
        let mut capped = [0x99; 3];
        add_soft_drop_points(&mut capped, 14);
        add_clear_points(&mut capped, 0, 154);
        assert_eq!(capped, [0x99; 3], "the cap holds after soft-drop points");
    }

    #[test]
    fn clear_points_cycles_follow_the_path_taken() {
        // At the cap a single takes every fix-up: 136 cycles per pass; a double skips the
        // byte-0 carry (125); no line skips all of them (83). Set-up and end: 16 + 24 − 1.
        for (lines, per) in [(1u8, 136u32), (2, 125), (0, 83)] {
            let mut s = [0x99; 3];
            assert_eq!(add_clear_points(&mut s, lines, 154), 39 + 155 * per);
        }
    }

    #[test]
    fn gravity_table() {
        assert_eq!(drop_speed(0), 48);
        assert_eq!(drop_speed(9), 6);
        assert_eq!(drop_speed(12), 5);
        assert_eq!(drop_speed(15), 4);
        assert_eq!(drop_speed(18), 3);
        assert_eq!(drop_speed(19), 2);
        assert_eq!(drop_speed(28), 2);
        assert_eq!(drop_speed(29), 1);
        assert_eq!(drop_speed(255), 1);
    }
}
