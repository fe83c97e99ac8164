//! Test fixtures shared by the driver's and the lab's tests (no ROM): the driver on a console
//! with the default map and weights, seeded model consoles, and a console that stops.

use crate::game::{CrashKind, Game, PadState};
use crate::search::eval::Standard;
use crate::search::Planner;

use super::{AddressMap, Console, ConsoleError, Driver, DriverConfig, DriverError, ModelConsole};

/// The driver on `console` with the default map and weights, its games from `level`.
pub fn driver_at<C: Console>(console: C, level: u8) -> Result<Driver<C, Standard>, DriverError> {
    Driver::new(
        console,
        AddressMap::default(),
        Planner::new(Standard::default()),
        DriverConfig { level },
    )
}

/// The driver on a model console already in play at level 19 (no menus to go through).
pub fn driver<C: Console>(console: C) -> Driver<C, Standard> {
    driver_at(console, 19).expect("a model console in play needs no menus")
}

/// A model console at level 19, seeded.
pub fn model(seed: u64) -> ModelConsole {
    ModelConsole::new(Game::seeded(19, seed), AddressMap::default())
}

/// How [`Stopping`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// RAM frozen altogether (the cartridge's crash).
    Frozen,
    /// Only the low byte of the frame counter goes on.
    Counter,
    /// Only the NMI's work goes on: the 16-bit frame counter and the RNG (the cartridge's hang).
    Hang,
}

impl From<CrashKind> for Stop {
    fn from(kind: CrashKind) -> Stop {
        match kind {
            CrashKind::Crash => Stop::Frozen,
            // The legal screen's waits: only the NMI's work goes on, as in a hang.
            CrashKind::Hang | CrashKind::Demo => Stop::Hang,
        }
    }
}

/// A model console that plays its first `at` frames and then stops as `how` says, as the
/// traces past 155 show a crash and a hang.
pub struct Stopping {
    pub inner: ModelConsole,
    pub at: u64,
    pub how: Stop,
    pub frames: u64,
    ram: Vec<u8>,
}

impl Stopping {
    pub fn new(inner: ModelConsole, at: u64, how: Stop) -> Stopping {
        Stopping {
            ram: inner.ram().to_vec(),
            inner,
            at,
            how,
            frames: 0,
        }
    }
}

impl Console for Stopping {
    fn frame(&mut self, pad: PadState) -> Result<(), ConsoleError> {
        let map = AddressMap::default();
        let counter = usize::from(map.frame_counter);
        if self.frames < self.at {
            self.inner.frame(pad)?;
            self.ram = self.inner.ram().to_vec();
        } else if self.how == Stop::Counter {
            self.ram[counter] = self.ram[counter].wrapping_add(1);
        } else if self.how == Stop::Hang {
            let n = u16::from_le_bytes([self.ram[counter], self.ram[counter + 1]]).wrapping_add(1);
            self.ram[counter..counter + 2].copy_from_slice(&n.to_le_bytes());
            self.ram[map.rng as usize] ^= 0x5A;
        }
        self.frames += 1;
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        &self.ram
    }

    fn frame_number(&self) -> u64 {
        self.frames
    }
}
