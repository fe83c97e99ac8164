//! The one-frame-at-a-time console interface the bot driver, the recorder and the menus use,
//! whatever runs behind it (the real cartridge in tetanes-core, or the rules model).

use crate::game::PadState;

/// A console that runs one NES frame per call with a given controller state.
pub trait Console {
    /// Runs exactly one frame with `pad` held on controller 1 for the whole frame. The game
    /// reads these buttons in this frame, and its logic for the frame has finished on return.
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError>;

    /// The 2 KiB CPU RAM, $0000-$07FF, as the last frame left it.
    fn ram(&self) -> &[u8];

    /// Frames run since power-on (0 before the first `frame` call).
    fn frame_number(&self) -> u64;

    /// The console's whole state, to play ahead on and come back to with `restore` (the
    /// driver's run-ahead check); `None` for a console that cannot keep one (the default: a
    /// recorder, say, must not play frames nobody asked for).
    fn save(&self) -> Result<Option<Saved>, ConsoleError> {
        Ok(None)
    }

    /// Goes back to a state `save` gave (frame number included).
    fn restore(&mut self, _saved: &Saved) -> Result<(), ConsoleError> {
        Ok(())
    }

    /// Writes one byte of RAM (address mirrored into $0000-$07FF), to start a game from a
    /// chosen level, lines and score; `false` for a console whose RAM cannot be written (the
    /// default: one hosted elsewhere).
    fn poke(&mut self, _address: u16, _value: u8) -> bool {
        false
    }
}

/// Bytes written into RAM after a given frame: a game put at a chosen level (`nestor
/// cartridge --from-level`), which a replay in another emulator writes at the same frame.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Poke {
    /// The frames run from power-on (tetanes-core's count, as a movie's input lines after its
    /// lead) before the bytes are written.
    pub frame: u64,
    /// (address, byte) in the order they are written.
    pub bytes: Vec<(u16, u8)>,
}

impl Poke {
    /// Writes the bytes into `console`'s RAM; `false` when it cannot take a write.
    pub fn apply<C: Console + ?Sized>(&self, console: &mut C) -> bool {
        self.bytes.iter().all(|&(a, v)| console.poke(a, v))
    }
}

/// A state `Console::save` kept, opaque to everyone but the console that made it.
pub struct Saved(pub Box<dyn std::any::Any>);

impl std::fmt::Debug for Saved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Saved(..)")
    }
}

/// Why the console could not run a frame.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConsoleError {
    /// The emulator returned an error while running a frame.
    #[error("the emulator failed at frame {frame}: {source}")]
    Emulator {
        /// Frames run since power-on when it failed.
        frame: u64,
        /// tetanes-core's error.
        #[source]
        source: tetanes_core::control_deck::Error,
    },
    /// The emulator refused the cartridge image.
    #[error("could not load {name} into the emulator: {source}")]
    Load {
        /// The image's name (the ROM's path).
        name: String,
        /// tetanes-core's error.
        #[source]
        source: tetanes_core::control_deck::Error,
    },
    /// One `clock_frame` ran other than one PPU frame.
    #[error("the emulator ran {ran} PPU frames instead of 1 at frame {frame}")]
    FrameSkew {
        /// Frames run since power-on when it happened.
        frame: u64,
        /// PPU frames the call ran.
        ran: i64,
    },
    /// The ROM file was refused.
    #[error(transparent)]
    Rom(#[from] super::rom::Error),
    /// A console hosted elsewhere (an emulator across `nestor serve`'s bridge) failed or
    /// went away; the error is the host's own, for it to downcast.
    #[error(transparent)]
    Host(Box<dyn std::error::Error + Send + Sync>),
}
