//! The controller byte as the game stores it (`held` $F7, `newly` $F5).
//! Bit 7 A … bit 0 Right; helpers to build, test and print it in the trace's letter form.

use std::fmt;

/// Buttons held in one frame, in the game's own bit order (bit 7 A … bit 0 Right).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct PadState(pub u8);

impl PadState {
    /// No button.
    pub const NONE: PadState = PadState(0);
    /// A (bit 7).
    pub const A: PadState = PadState(0x80);
    /// B (bit 6).
    pub const B: PadState = PadState(0x40);
    /// Select (bit 5).
    pub const SELECT: PadState = PadState(0x20);
    /// Start (bit 4).
    pub const START: PadState = PadState(0x10);
    /// Up (bit 3).
    pub const UP: PadState = PadState(0x08);
    /// Down (bit 2).
    pub const DOWN: PadState = PadState(0x04);
    /// Left (bit 1).
    pub const LEFT: PadState = PadState(0x02);
    /// Right (bit 0).
    pub const RIGHT: PadState = PadState(0x01);
    /// Left and Right: what `shift_tetrimino` and `drop_tetrimino` test as one.
    pub const LEFT_RIGHT: PadState = PadState(0x03);
    /// Up, Down, Left and Right.
    pub const DPAD: PadState = PadState(0x0F);

    /// Trace letters, most significant bit first (`A B s S U D L R`).
    const LETTERS: [u8; 8] = *b"ABsSUDLR";

    /// The byte as the game stores it.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when every button of `other` is held.
    #[inline]
    pub const fn contains(self, other: PadState) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when any button of `other` is held.
    #[inline]
    pub const fn intersects(self, other: PadState) -> bool {
        self.0 & other.0 != 0
    }

    /// The buttons of both.
    #[inline]
    pub const fn union(self, other: PadState) -> PadState {
        PadState(self.0 | other.0)
    }

    /// These buttons less those of `other`.
    #[inline]
    pub const fn without(self, other: PadState) -> PadState {
        PadState(self.0 & !other.0)
    }

    /// Buttons down now that were up in `previous` (the game's `newly`).
    #[inline]
    pub const fn newly_from(self, previous: PadState) -> PadState {
        PadState(self.0 & !previous.0)
    }

    /// Parses the trace form, e.g. `A.....L.`: 8 characters, a letter or `.` each.
    pub fn from_letters(s: &str) -> Option<PadState> {
        let bytes = s.as_bytes();
        if bytes.len() != 8 {
            return None;
        }
        let mut bits = 0u8;
        for (i, &c) in bytes.iter().enumerate() {
            match c {
                b'.' => {}
                c if c == Self::LETTERS[i] => bits |= 0x80 >> i,
                _ => return None,
            }
        }
        Some(PadState(bits))
    }

    /// The trace form, e.g. `A.....L.`.
    pub fn to_letters(self) -> String {
        (0..8)
            .map(|i| {
                if self.0 & (0x80 >> i) != 0 {
                    Self::LETTERS[i] as char
                } else {
                    '.'
                }
            })
            .collect()
    }
}

impl std::ops::BitOr for PadState {
    type Output = PadState;
    fn bitor(self, rhs: PadState) -> PadState {
        self.union(rhs)
    }
}

impl fmt::Debug for PadState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PadState({})", self.to_letters())
    }
}

impl fmt::Display for PadState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_letters())
    }
}

/// The controller as one frame's logic reads it: the buttons held ($F7) and those newly
/// pressed ($F5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buttons {
    /// Buttons held this frame ($F7).
    pub held: PadState,
    /// Buttons down this frame that were up the frame before ($F5).
    pub newly: PadState,
}

impl Buttons {
    /// Nothing held, nothing pressed.
    pub const NONE: Buttons = Buttons::after(PadState::NONE, PadState::NONE);

    /// `held` in a frame after `prev` was held in the one before.
    #[inline]
    pub const fn after(held: PadState, prev: PadState) -> Buttons {
        Buttons {
            held,
            newly: held.newly_from(prev),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_every_byte() {
        for b in 0..=255u8 {
            let p = PadState(b);
            assert_eq!(PadState::from_letters(&p.to_letters()), Some(p));
        }
        assert_eq!(PadState::from_letters("A.....L."), Some(PadState(0x82)));
        assert_eq!(PadState::from_letters("A.....L"), None);
        assert_eq!(PadState::from_letters("B......."), None);
    }

    #[test]
    fn newly_is_held_minus_previous() {
        let prev = PadState::LEFT | PadState::A;
        let now = PadState::LEFT | PadState::B;
        assert_eq!(now.newly_from(prev), PadState::B);
    }
}
