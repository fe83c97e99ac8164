//! The real console: a tetanes-core `ControlDeck` set up to be deterministic (zeroed RAM, NTSC,
//! no battery files), driven one frame per call with the game's controller byte.

use tetanes_core::control_deck::{Config, ControlDeck, HeadlessMode};
use tetanes_core::input::{JoypadBtnState, Player};
use tetanes_core::memory::RamState;
use tetanes_core::prelude::NesRegion;
use tetanes_core::video::VideoFilter;

use super::console::{Console, ConsoleError, Saved};
use super::rom::Rom;
use crate::game::PadState;

/// Frame buffer width in pixels (RGBA8, row-major).
pub const WIDTH: usize = 256;
/// Frame buffer height in pixels.
pub const HEIGHT: usize = 240;

/// tetanes' default output rate for [`NesDeck::audio_samples`], in Hz (left unchanged here).
pub const SAMPLE_RATE: u32 = 48_000;

/// Whether the PPU draws pixels. Emulation (and so RAM) is identical either way. Audio mixing
/// is off in both modes until [`NesDeck::set_audio`] turns it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Video {
    /// Render every frame (for a window or screenshots), crisp `Pixellate` filter.
    On,
    /// Skip pixel rendering.
    Headless,
}

/// The game's bit (bit 7 A … bit 0 Right) → tetanes' bit (A 0x01 … Right 0x80), one by one.
const BUTTONS: [(PadState, JoypadBtnState); 8] = [
    (PadState::A, JoypadBtnState::A),
    (PadState::B, JoypadBtnState::B),
    (PadState::SELECT, JoypadBtnState::SELECT),
    (PadState::START, JoypadBtnState::START),
    (PadState::UP, JoypadBtnState::UP),
    (PadState::DOWN, JoypadBtnState::DOWN),
    (PadState::LEFT, JoypadBtnState::LEFT),
    (PadState::RIGHT, JoypadBtnState::RIGHT),
];

/// tetanes' button set for a game controller byte. Opposite directions are kept as given.
pub fn joypad_buttons(pad: PadState) -> JoypadBtnState {
    BUTTONS
        .iter()
        .filter(|(p, _)| pad.contains(*p))
        .fold(JoypadBtnState::empty(), |acc, (_, j)| acc | *j)
}

/// The NES running a cartridge in tetanes-core.
pub struct NesDeck {
    deck: ControlDeck,
    frames: u64,
    pad: PadState,
    /// Kept here because tetanes only has a setter; `set_audio` flips one flag of it.
    headless: HeadlessMode,
}

impl std::fmt::Debug for NesDeck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NesDeck")
            .field("frames", &self.frames)
            .field("pad", &self.pad)
            .finish_non_exhaustive()
    }
}

impl NesDeck {
    /// Powers on with an identified (or explicitly allowed) cartridge.
    pub fn new(rom: &Rom, video: Video) -> Result<NesDeck, ConsoleError> {
        NesDeck::from_image(&rom.name(), &rom.playable_image(), video)
    }

    /// Powers on with any image tetanes can run, without identifying it (the synthetic test
    /// cartridge, `--allow-unknown-rom`).
    pub fn from_image(name: &str, bytes: &[u8], video: Video) -> Result<NesDeck, ConsoleError> {
        // Mixing costs time on every frame and only a sound device wants it: off until asked.
        let headless = match video {
            Video::On => HeadlessMode::NO_AUDIO,
            Video::Headless => HeadlessMode::NO_AUDIO | HeadlessMode::NO_VIDEO,
        };
        let cfg = Config::default()
            .with_ram_state(RamState::AllZeros)
            .with_region(NesRegion::Ntsc)
            .with_sram_dir(None)
            .with_concurrent_dpad(true)
            .with_filter(VideoFilter::Pixellate)
            .with_headless_mode(headless);
        let mut deck = ControlDeck::with_config(cfg);
        deck.load_rom(name, &mut &bytes[..])
            .map_err(|source| ConsoleError::Load {
                name: name.into(),
                source,
            })?;
        Ok(NesDeck {
            deck,
            frames: 0,
            pad: PadState::NONE,
            headless,
        })
    }

    /// Turns audio mixing on or off (off after power-on). The APU runs either way, so RAM and
    /// timing do not change; only [`NesDeck::audio_samples`] fills or stays empty.
    pub fn set_audio(&mut self, on: bool) {
        self.headless.set(HeadlessMode::NO_AUDIO, !on);
        self.deck.set_headless_mode(self.headless);
    }

    /// Whether audio mixing is on.
    pub fn audio(&self) -> bool {
        !self.headless.contains(HeadlessMode::NO_AUDIO)
    }

    /// The last frame's sound: mono f32 at [`SAMPLE_RATE`] Hz, about 800 samples (empty while
    /// audio is off). tetanes clears it at each frame, so push it out before the next one.
    pub fn audio_samples(&self) -> &[f32] {
        self.deck.audio_samples()
    }

    /// The last frame's picture, 256×240 RGBA8 (blank in `Video::Headless`).
    pub fn frame_buffer(&mut self) -> &[u8] {
        &self.deck.frame_buffer()[..]
    }

    /// The buttons held during the last frame.
    pub fn pad(&self) -> PadState {
        self.pad
    }

    /// A raw save state (tens of KB; not stable across tetanes releases: never a fixture).
    pub fn save_state(&self) -> Result<Vec<u8>, ConsoleError> {
        let err = |source| ConsoleError::Emulator {
            frame: self.frames,
            source,
        };
        let mut buf = vec![0; self.deck.serialized_state_len().map_err(err)?];
        let n = self.deck.serialize_state_into(&mut buf).map_err(err)?;
        buf.truncate(n);
        Ok(buf)
    }

    /// Restores a state from `save_state`, with the frame count it was taken at.
    pub fn load_state(&mut self, state: &[u8], frames: u64) -> Result<(), ConsoleError> {
        self.deck
            .deserialize_state(state)
            .map_err(|source| ConsoleError::Emulator {
                frame: frames,
                source,
            })?;
        self.frames = frames;
        Ok(())
    }
}

impl Console for NesDeck {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        // Written directly (not `set_button`), so no direction releases its opposite; loading a
        // state clears the buttons, which this re-applies every frame anyway.
        self.deck.joypad_mut(Player::One).buttons = joypad_buttons(pad);
        self.pad = pad;
        let before = self.deck.frame_number();
        let clocked = self
            .deck
            .clock_frame()
            .map_err(|source| ConsoleError::Emulator {
                frame: self.frames,
                source,
            })?;
        let ran = i64::from(self.deck.frame_number()) - i64::from(before);
        if ran != 1 {
            log::warn!("clock_frame returned {clocked:?} after {ran} frames");
            return Err(ConsoleError::FrameSkew {
                frame: self.frames,
                ran,
            });
        }
        self.frames += 1;
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        &self.deck.wram()[..]
    }

    fn poke(&mut self, address: u16, value: u8) -> bool {
        let ram = self.deck.wram_mut();
        let len = ram.len();
        ram[address as usize % len] = value;
        true
    }

    fn frame_number(&self) -> u64 {
        self.frames
    }

    fn save(&self) -> Result<Option<Saved>, ConsoleError> {
        Ok(Some(Saved(Box::new((
            self.save_state()?,
            self.frames,
            self.pad,
        )))))
    }

    fn restore(&mut self, saved: &Saved) -> Result<(), ConsoleError> {
        if let Some((state, frames, pad)) = saved.0.downcast_ref::<(Vec<u8>, u64, PadState)>() {
            self.load_state(state, *frames)?;
            self.pad = *pad;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::testcart::{self, COUNTER, HELD};

    fn cart() -> NesDeck {
        NesDeck::from_image("testcart", &testcart::nrom_image(), Video::Headless).unwrap()
    }

    #[test]
    fn a_saved_state_plays_ahead_and_comes_back() {
        let mut deck = cart();
        for _ in 0..5 {
            deck.frame(PadState::A).unwrap();
        }
        let saved = deck.save().unwrap().expect("the deck keeps states");
        let (ram, frame) = (deck.ram().to_vec(), deck.frame_number());
        for _ in 0..20 {
            deck.frame(PadState::LEFT).unwrap();
        }
        assert_ne!(deck.ram(), &ram[..], "the frames changed RAM");
        deck.restore(&saved).unwrap();
        assert_eq!((deck.ram(), deck.frame_number()), (&ram[..], frame));
        deck.frame(PadState::B).unwrap();
        assert_eq!(deck.frame_number(), frame + 1);
    }

    fn counter(ram: &[u8]) -> u16 {
        u16::from_le_bytes([ram[usize::from(COUNTER)], ram[usize::from(COUNTER) + 1]])
    }

    /// Runs the cart past its two-vblank start-up, until the NMI counts frames.
    fn booted() -> NesDeck {
        let mut d = cart();
        for _ in 0..10 {
            d.frame(PadState::NONE).unwrap();
        }
        assert!(counter(d.ram()) > 0, "the test cart's NMI never ran");
        d
    }

    #[test]
    fn mapping_is_explicit_and_complete() {
        assert_eq!(joypad_buttons(PadState::A).bits(), 0x01);
        assert_eq!(joypad_buttons(PadState::RIGHT).bits(), 0x80);
        assert_eq!(joypad_buttons(PadState(0xFF)).bits(), 0xFF);
        for bit in 0..8 {
            // The orders are mirror images.
            assert_eq!(joypad_buttons(PadState(1 << bit)).bits(), 1 << (7 - bit));
        }
    }

    #[test]
    fn buttons_set_before_a_frame_are_read_in_that_frame() {
        let mut d = booted();
        // Every byte, including opposite directions held together.
        for b in (0..=255u8).chain([0x03, 0x0C, 0x0F, 0x00]) {
            d.frame(PadState(b)).unwrap();
            assert_eq!(d.ram()[usize::from(HELD)], b, "pad {b:#04x}");
            assert_eq!(d.pad(), PadState(b));
        }
    }

    #[test]
    fn counter_advances_one_per_frame() {
        let mut d = booted();
        let mut last = counter(d.ram());
        let start = d.frame_number();
        for i in 1..=300u64 {
            d.frame(PadState((i % 7) as u8)).unwrap();
            let now = counter(d.ram());
            assert_eq!(now, last.wrapping_add(1), "frame {}", d.frame_number());
            assert_eq!(d.frame_number(), start + i);
            last = now;
        }
        assert_eq!(d.ram().len(), 0x800);
    }

    #[test]
    fn same_inputs_same_ram_every_frame() {
        let (mut a, mut b) = (cart(), cart());
        let mut x = 0x1234_5678u32;
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let pad = PadState(x as u8);
            a.frame(pad).unwrap();
            b.frame(pad).unwrap();
            assert_eq!(a.ram(), b.ram(), "frame {}", a.frame_number());
        }
    }

    #[test]
    fn video_mode_does_not_change_ram_and_draws_a_frame() {
        let mut a = cart();
        let mut b = NesDeck::from_image("t", &testcart::nrom_image(), Video::On).unwrap();
        for i in 0..30u8 {
            a.frame(PadState(i)).unwrap();
            b.frame(PadState(i)).unwrap();
            assert_eq!(a.ram(), b.ram());
        }
        assert_eq!(b.frame_buffer().len(), WIDTH * HEIGHT * 4);
    }

    #[test]
    fn audio_on_or_off_gives_the_same_ram_and_only_on_makes_samples() {
        let (mut off, mut on) = (cart(), cart());
        on.set_audio(true);
        assert!(on.audio() && !off.audio());
        let mut x = 0x9E37_79B9u32;
        let mut samples = 0usize;
        for i in 0..400u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let pad = PadState(x as u8);
            // Toggling mid-run must not disturb emulation either.
            if i == 300 {
                off.set_audio(true);
            }
            off.frame(pad).unwrap();
            on.frame(pad).unwrap();
            assert_eq!(off.ram(), on.ram(), "frame {}", on.frame_number());
            if i < 300 {
                assert!(off.audio_samples().is_empty(), "frame {i}");
            }
            samples += on.audio_samples().len();
        }
        // 48 kHz over 60.0988 frames per second: ~798.7 samples each frame.
        let per_frame = samples as f64 / 400.0;
        assert!(
            (790.0..810.0).contains(&per_frame),
            "{per_frame} samples per frame"
        );
        assert!(!off.audio_samples().is_empty());
    }

    #[test]
    fn save_state_round_trip_gives_the_same_ram() {
        let mut d = booted();
        let state = d.save_state().unwrap();
        let at = d.frame_number();
        let mut first = Vec::new();
        for i in 0..20u8 {
            d.frame(PadState(i.wrapping_mul(37))).unwrap();
            first.push(d.ram().to_vec());
        }
        d.load_state(&state, at).unwrap();
        for (i, want) in first.iter().enumerate() {
            d.frame(PadState((i as u8).wrapping_mul(37))).unwrap();
            assert_eq!(&d.ram().to_vec(), want, "frame {i} after restore");
        }
    }

    #[test]
    fn identified_mmc1_cart_loads_through_rom() {
        let rom = Rom::from_bytes("u.nes", testcart::mmc1_image(), true).unwrap();
        let mut d = NesDeck::new(&rom, Video::Headless).unwrap();
        for _ in 0..10 {
            d.frame(PadState::A).unwrap();
        }
        assert_eq!(d.ram()[usize::from(HELD)], 0x80);
    }

    #[test]
    fn garbage_image_is_a_load_error_not_a_panic() {
        let e = NesDeck::from_image("junk", b"NES\x1A\0\0", Video::Headless).unwrap_err();
        assert!(matches!(e, ConsoleError::Load { .. }), "{e}");
    }
}
