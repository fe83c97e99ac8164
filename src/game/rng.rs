//! The piece generator: the 16-bit LFSR stepped every NMI and `pickRandomTetrimino`
//! with its one reroll (nes-tetris.md §8).

use super::piece::SPAWN_IDS;

/// The seed written at every reset.
pub const RESET_SEED: u16 = 0x8988;

/// One LFSR step. `v` is ($17 << 8) | $18.
#[inline]
pub const fn step(v: u16) -> u16 {
    let b = ((v >> 9) ^ (v >> 1)) & 1;
    (b << 15) | (v >> 1)
}

/// Picker state kept in RAM: the LFSR, the last spawn id ($19) and the pick counter ($1A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picker {
    /// The LFSR, ($17 << 8) | $18.
    pub rng: u16,
    /// Spawn id of the last pick ($19).
    pub spawn_id: u8,
    /// Picks so far, wrapping ($1A).
    pub spawn_count: u8,
}

impl Picker {
    /// `pickRandomTetrimino`: returns the spawn orientation id of the chosen piece.
    pub fn pick(&mut self) -> u8 {
        self.spawn_count = self.spawn_count.wrapping_add(1);
        let i = ((self.rng >> 8) as u8).wrapping_add(self.spawn_count) & 7;
        let result = if i != 7 && SPAWN_IDS[i as usize] != self.spawn_id {
            SPAWN_IDS[i as usize]
        } else {
            self.rng = step(self.rng);
            let j = (((self.rng >> 8) as u8 & 7) as usize + self.spawn_id as usize) % 7;
            SPAWN_IDS[j]
        };
        self.spawn_id = result;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_from_reset_seed() {
        assert_eq!(step(RESET_SEED), 0x44C4);
    }

    #[test]
    fn lfsr_has_the_full_period_of_32767() {
        let mut v = RESET_SEED;
        let mut n = 0u32;
        loop {
            v = step(v);
            n += 1;
            if v == RESET_SEED {
                break;
            }
            assert!(n < 70_000);
        }
        assert_eq!(n, 32767);
    }

    #[test]
    fn pick_takes_the_index_unless_seven_or_repeat() {
        // $17 = 0x10, count 0→1: i = (0x10 + 1) & 7 = 1 → J ($07).
        let mut p = Picker {
            rng: 0x1000,
            spawn_id: 0,
            spawn_count: 0,
        };
        assert_eq!(p.pick(), 0x07);
        assert_eq!((p.spawn_id, p.spawn_count, p.rng), (0x07, 1, 0x1000));
        // Same $17, count 1→2: i = 2 → Z.
        assert_eq!(p.pick(), 0x08);
        // i = 7 rerolls: $17 = 0x06, count 0→1 → i = 7. Step 0x0600: bit9^bit1 = 1^0 → 0x8300.
        let mut p = Picker {
            rng: 0x0600,
            spawn_id: 0x02,
            spawn_count: 0,
        };
        assert_eq!(p.pick(), SPAWN_IDS[5], "(0x83 & 7) + spawn id 2 = 5");
        assert_eq!(p.rng, 0x8300);
        // Repeat rerolls: $17 = 0x00, count 1→2: i = 2 → Z, but Z was the last pick.
        let mut p = Picker {
            rng: 0x0000,
            spawn_id: 0x08,
            spawn_count: 1,
        };
        assert_eq!(p.pick(), SPAWN_IDS[0x08 % 7], "(0x00 & 7) + spawn id 8");
        assert_eq!(p.spawn_id, 0x07);
    }

    #[test]
    fn repeat_probability_is_about_one_in_32() {
        // Over a whole LFSR period, with the count advancing, repeats are rare but possible.
        let mut p = Picker {
            rng: RESET_SEED,
            spawn_id: 0,
            spawn_count: 0,
        };
        let mut prev = p.pick();
        let (mut repeats, mut n) = (0, 0);
        for _ in 0..32767 {
            p.rng = step(p.rng);
            let next = p.pick();
            repeats += (next == prev) as u32;
            prev = next;
            n += 1;
        }
        let rate = repeats as f64 / n as f64;
        assert!(rate > 0.02 && rate < 0.06, "repeat rate {rate}");
    }
}
