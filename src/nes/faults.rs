//! Faults on the way to the controller, for testing the driver's recovery: a `Console` wrapper
//! that sometimes drops a press, delays one by a frame, or adds a button (seeded, repeatable).

use super::console::{Console, ConsoleError, Saved};
use crate::game::PadState;

/// What a fault did to one frame's pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Nothing pressed instead of the intended pad.
    Drop,
    /// The previous frame's buttons held one more frame; the intended ones come a frame late.
    Delay,
    /// A button added to the intended pad.
    Extra,
}

/// Buttons an `Extra` fault adds.
const EXTRA: [PadState; 5] = [
    PadState::LEFT,
    PadState::RIGHT,
    PadState::A,
    PadState::B,
    PadState::DOWN,
];

/// A console whose controller sometimes gets something other than what it was told. With a
/// rate of 0 it is the console itself, pad for pad.
#[derive(Clone, Debug)]
pub struct FaultyPad<C> {
    inner: C,
    /// Chance per frame of a fault, 0 to 1.
    rate: f64,
    rng: u64,
    /// A press held back by a delay fault, pressed in the next frame instead of its pad.
    delayed: Option<PadState>,
    applied: PadState,
    last_fault: Option<Fault>,
    faults: u64,
}

impl<C: Console> FaultyPad<C> {
    /// `rate` is clamped to 0-1; `seed` makes the faults repeatable.
    pub fn new(inner: C, rate: f64, seed: u64) -> FaultyPad<C> {
        FaultyPad {
            inner,
            rate: if rate.is_nan() {
                0.0
            } else {
                rate.clamp(0.0, 1.0)
            },
            // xorshift needs a non-zero state; mix the seed so seeds 0, 1, 2 differ widely.
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            delayed: None,
            applied: PadState::NONE,
            last_fault: None,
            faults: 0,
        }
    }

    /// The console the faults are put in front of.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The console the faults are put in front of, to change it.
    pub fn inner_mut(&mut self) -> &mut C {
        &mut self.inner
    }

    /// The pad the console really got in the last frame (what a movie must record).
    pub fn applied(&self) -> PadState {
        self.applied
    }

    /// The fault of the last frame, if any.
    pub fn last_fault(&self) -> Option<Fault> {
        self.last_fault
    }

    /// Frames whose pad was corrupted so far.
    pub fn faults(&self) -> u64 {
        self.faults
    }

    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn corrupt(&mut self, intended: PadState) -> (PadState, Option<Fault>) {
        if let Some(p) = self.delayed.take() {
            return (p, Some(Fault::Delay));
        }
        if self.rate == 0.0 {
            return (intended, None);
        }
        let r = self.next();
        // The top 53 bits as a uniform number in [0, 1).
        if ((r >> 11) as f64) / ((1u64 << 53) as f64) >= self.rate {
            return (intended, None);
        }
        match r % 3 {
            0 => (PadState::NONE, Some(Fault::Drop)),
            1 => {
                self.delayed = Some(intended);
                (self.applied, Some(Fault::Delay))
            }
            _ => (
                intended.union(EXTRA[(r >> 2) as usize % EXTRA.len()]),
                Some(Fault::Extra),
            ),
        }
    }
}

impl<C: Console> Console for FaultyPad<C> {
    fn frame(&mut self, intended: PadState) -> Result<(), ConsoleError> {
        let (applied, fault) = self.corrupt(intended);
        self.inner.frame(applied)?;
        // A fault that happens to press what was intended changed nothing: not counted.
        self.last_fault = fault.filter(|_| applied != intended);
        self.faults += u64::from(self.last_fault.is_some());
        self.applied = applied;
        Ok(())
    }

    fn ram(&self) -> &[u8] {
        self.inner.ram()
    }

    fn frame_number(&self) -> u64 {
        self.inner.frame_number()
    }

    fn save(&self) -> Result<Option<Saved>, ConsoleError> {
        let Some(inner) = self.inner.save()? else {
            return Ok(None);
        };
        let own = (
            self.rng,
            self.delayed,
            self.applied,
            self.last_fault,
            self.faults,
        );
        Ok(Some(Saved(Box::new((inner, own)))))
    }

    fn restore(&mut self, saved: &Saved) -> Result<(), ConsoleError> {
        type Own = (u64, Option<PadState>, PadState, Option<Fault>, u64);
        if let Some((inner, own)) = saved.0.downcast_ref::<(Saved, Own)>() {
            self.inner.restore(inner)?;
            (
                self.rng,
                self.delayed,
                self.applied,
                self.last_fault,
                self.faults,
            ) = *own;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::nes::{AddressMap, ModelConsole};

    fn console(rate: f64, seed: u64) -> FaultyPad<ModelConsole> {
        FaultyPad::new(
            ModelConsole::new(Game::seeded(19, 7), AddressMap::default()),
            rate,
            seed,
        )
    }

    #[test]
    fn the_rate_is_met_and_zero_changes_nothing() {
        let pads = [PadState::LEFT, PadState::NONE, PadState::A, PadState::RIGHT];
        let mut clean = console(0.0, 1);
        for i in 0..10_000 {
            clean.frame(pads[i % 4]).unwrap();
            assert_eq!(clean.applied(), pads[i % 4]);
        }
        assert_eq!(clean.faults(), 0);
        let mut faulty = console(0.05, 1);
        let mut kinds = [0u32; 3];
        for i in 0..20_000 {
            faulty.frame(pads[i % 4]).unwrap();
            if let Some(f) = faulty.last_fault() {
                kinds[f as usize] += 1;
                assert_ne!(faulty.applied(), pads[i % 4]);
            }
        }
        // About 5 % of frames draw a fault (a delay spends two frames, some change nothing).
        let n = faulty.faults();
        assert!((700..=1_600).contains(&n), "{n} faults in 20,000 frames");
        assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
        // Seeded: the same seed gives the same faults.
        let mut again = console(0.05, 1);
        for i in 0..20_000 {
            again.frame(pads[i % 4]).unwrap();
        }
        assert_eq!(again.faults(), n);
    }
}
