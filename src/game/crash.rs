//! How a game ends without a top-out on the real cartridge: the CPU leaves the game (a crash)
//! or the line-clear frame's logic never finishes while the NMI runs on (a hang).

use std::fmt;

/// Which way the cartridge stopped playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrashKind {
    /// The NMI landed where it corrupts the jump address: the CPU runs into zero page and
    /// nothing in RAM changes any more (the frame counter stops).
    Crash,
    /// The logic never finishes its frame: the NMI still runs (frame counter and RNG move),
    /// the play state never changes.
    Hang,
}

impl CrashKind {
    /// The word used in summaries, JSON and CSV.
    pub fn name(self) -> &'static str {
        match self {
            CrashKind::Crash => "crash",
            CrashKind::Hang => "hang",
        }
    }
}

impl fmt::Display for CrashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
