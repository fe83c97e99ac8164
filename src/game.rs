//! The pure rules model of NES Tetris (NTSC "Tetris (U) [!]"), frame for frame: pieces,
//! playfield, piece control, RNG, scoring and the play-state machine. No I/O.

pub mod active;
pub mod board;
pub mod crash;
pub mod pad;
pub mod palette;
pub mod piece;
pub mod playfield;
pub mod pos;
pub mod rng;
pub mod score;
pub mod state;
pub mod timing;

pub use active::{Active, Control};
pub use board::{Board, Collide};
pub use crash::CrashKind;
pub use pad::{Buttons, PadState};
pub use piece::{Orientation, Piece};
pub use playfield::Playfield;
pub use pos::Pos;
pub use state::{Events, Game, PlayState};
