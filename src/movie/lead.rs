//! The one-frame lead an FCEUX movie carries before nestor's first emulated frame: the header,
//! the movie, the replayer and the FCEUX scripts all count frames from it.

/// Blank input lines an FCEUX movie carries before nestor's first emulated frame.
///
/// FCEUX 2.6.5 runs one more dead frame after power-on than tetanes-core (its first NMI
/// comes a frame later; measured on two full games of the cartridge), so a movie replays
/// frame-exactly there only if line 1 of the input log is a blank frame and line 2 holds the
/// pads of tetanes' first `clock_frame`. Writers add this lead; replayers skip it.
pub const FCEUX_LEAD_FRAMES: usize = 1;
