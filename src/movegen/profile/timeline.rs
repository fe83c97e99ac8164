//! A profile's timeline: on which frames of a piece a button may be newly pressed, as a Hz
//! preset or an X/. pattern.

use std::fmt;

/// Longest explicit pattern: a period longer than a second says nothing a Hz figure cannot.
pub const MAX_PATTERN: usize = 60;

/// The Hz names a `timeline` may give, with their patterns: BetaTetris's tap tables for 30, 24,
/// 20, 15, 12 and 10 Hz (btpg `wasm/binding/state.h`, `kTapTables`: taps on frames 0, 2, 4…;
/// 0, 3, 5, 8, 10…; 0, 3, 6…; 0, 4, 8…; 0, 5, 10…; 0, 6, 12…), StackRabbit's for 13.5 Hz.
const HZ: [(&str, &str); 7] = [
    ("30hz", "X."),
    ("24hz", "X..X."),
    ("20hz", "X.."),
    ("15hz", "X..."),
    ("13.5hz", "X....X...X..."),
    ("12hz", "X...."),
    ("10hz", "X....."),
];

/// When a button may be newly pressed, counted in frames from the piece's spawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeline {
    /// Each button on its own every other frame (pressed, released, pressed again).
    Unlimited,
    /// New presses only on the pattern's X frames; bit i is frame i of the period.
    Pattern {
        /// The X frames: bit i set when frame i of the period allows a new press.
        bits: u64,
        /// Frames in one period (1..=`MAX_PATTERN`).
        len: u8,
    },
}

impl Timeline {
    /// Parses a Hz name or an X/. pattern (the error says what is wrong, without the file).
    pub fn parse(s: &str) -> Result<Timeline, String> {
        if s == "unlimited" {
            return Ok(Timeline::Unlimited);
        }
        let pattern = HZ.iter().find(|(n, _)| *n == s).map_or(s, |(_, p)| *p);
        if pattern.is_empty() || pattern.chars().any(|c| c != 'X' && c != '.') {
            let names: Vec<&str> = HZ.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "{s:?} is neither \"unlimited\", a Hz preset ({}) nor a pattern of X and .",
                names.join(", ")
            ));
        }
        if pattern.len() > MAX_PATTERN {
            return Err(format!(
                "the pattern is {} frames long; at most {MAX_PATTERN}",
                pattern.len()
            ));
        }
        let bits = pattern
            .bytes()
            .enumerate()
            .filter(|&(_, c)| c == b'X')
            .fold(0u64, |b, (i, _)| b | 1 << i);
        let len = pattern.len() as u8;
        if bits == 0 {
            return Err(format!("{s:?} has no X: no button could ever be pressed"));
        }
        // A press is released before the next (the cartridge sees only new presses), so two X
        // frames running, the pattern's wrap included, would press a button on two frames.
        let rotated = (bits >> 1) | ((bits & 1) << (len - 1));
        if bits & rotated != 0 || len == 1 {
            return Err(format!(
                "{s:?} has two X frames running (the pattern repeats): a button cannot be \
                 pressed on two frames in a row"
            ));
        }
        Ok(Timeline::Pattern { bits, len })
    }

    /// May a button be newly pressed on frame `frame` of a piece (0 = its first frame)?
    /// Under `Unlimited` the per-button alternation is the caller's rule.
    #[inline]
    pub fn allows(&self, frame: u32) -> bool {
        match *self {
            Timeline::Unlimited => true,
            Timeline::Pattern { bits, len } => bits >> (frame % len as u32) & 1 != 0,
        }
    }

    /// Frames in one period (1 when unlimited).
    pub fn period(&self) -> u8 {
        match *self {
            Timeline::Unlimited => 1,
            Timeline::Pattern { len, .. } => len,
        }
    }
}

impl fmt::Display for Timeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Timeline::Unlimited => f.write_str("unlimited"),
            Timeline::Pattern { bits, len } => {
                (0..len).try_for_each(|i| f.write_str(if bits >> i & 1 != 0 { "X" } else { "." }))
            }
        }
    }
}
