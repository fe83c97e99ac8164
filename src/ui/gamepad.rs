//! A gamepad as a controller for `nestor assist`, through gilrs: button names from the settings
//! turned into gilrs buttons, and the pads' events turned into the NES buttons held.

use gilrs::{Axis, Button, EventType, Gilrs};

use crate::coach::classes::{ButtonNames, Stick};
use crate::game::PadState;

use super::keypad::without_opposites;

/// A button name or stick setting that is not one (the message names the setting).
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum PadError {
    /// A `[pad]` name that is no gamepad button.
    #[error(
        "[pad] `{button}` = \"{name}\" is not a gamepad button name (e.g. DPadLeft, South, \
         East, Start, Select)"
    )]
    Name {
        /// The NES button being bound (`left`, `a`, ...).
        button: &'static str,
        /// The name given for it.
        name: String,
    },
    /// A `[stick] dpad` share outside 0 to below 1 (or not a number).
    #[error("[stick] `dpad` = {0}: a share of the stick's travel from 0 (off) to below 1")]
    Stick(f32),
}

/// Every gilrs button a controller button can be bound to, by its name (gilrs's variant names).
const NAMED: &[(&str, Button)] = &[
    ("South", Button::South),
    ("East", Button::East),
    ("North", Button::North),
    ("West", Button::West),
    ("C", Button::C),
    ("Z", Button::Z),
    ("LeftTrigger", Button::LeftTrigger),
    ("LeftTrigger2", Button::LeftTrigger2),
    ("RightTrigger", Button::RightTrigger),
    ("RightTrigger2", Button::RightTrigger2),
    ("Select", Button::Select),
    ("Start", Button::Start),
    ("Mode", Button::Mode),
    ("LeftThumb", Button::LeftThumb),
    ("RightThumb", Button::RightThumb),
    ("DPadUp", Button::DPadUp),
    ("DPadDown", Button::DPadDown),
    ("DPadLeft", Button::DPadLeft),
    ("DPadRight", Button::DPadRight),
];

fn button_named(button: &'static str, name: &str) -> Result<Button, PadError> {
    NAMED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, b)| *b)
        .ok_or_else(|| PadError::Name {
            button,
            name: name.to_string(),
        })
}

/// The pads' state as NES buttons: which bound buttons are down and where the left stick is.
/// Fed gilrs events; no hardware needed to test it.
#[derive(Clone, Debug, PartialEq)]
pub struct PadMap {
    bindings: [(Button, PadState); 8],
    stick: f32,
    held: PadState,
    /// Left stick (x, y), y up.
    axes: (f32, f32),
}

impl PadMap {
    /// The map with the bindings of `names` and the stick setting `stick`; a bad name or
    /// share is refused.
    pub fn new(names: &ButtonNames, stick: Stick) -> Result<PadMap, PadError> {
        if !(0.0..1.0).contains(&stick.dpad) {
            return Err(PadError::Stick(stick.dpad));
        }
        Ok(PadMap {
            bindings: names.bind(button_named)?,
            stick: stick.dpad,
            held: PadState::NONE,
            axes: (0.0, 0.0),
        })
    }

    /// Applies one gilrs event (of any pad: they all drive the one controller).
    pub fn event(&mut self, event: &EventType) {
        match *event {
            EventType::ButtonPressed(b, _) => self.button(b, true),
            EventType::ButtonReleased(b, _) => self.button(b, false),
            EventType::AxisChanged(a, v, _) => self.axis(a, v),
            // A pad pulled out mid-press must not leave its buttons held.
            EventType::Disconnected => {
                self.held = PadState::NONE;
                self.axes = (0.0, 0.0);
            }
            _ => {}
        }
    }

    /// A button went down or up.
    pub fn button(&mut self, b: Button, down: bool) {
        for (bound, nes) in &self.bindings {
            if *bound == b {
                self.held = if down {
                    self.held.union(*nes)
                } else {
                    self.held.without(*nes)
                };
            }
        }
    }

    /// An axis moved (-1 to 1; the left stick's y is positive up).
    pub fn axis(&mut self, a: Axis, value: f32) {
        match a {
            Axis::LeftStickX => self.axes.0 = value,
            Axis::LeftStickY => self.axes.1 = value,
            _ => {}
        }
    }

    /// The NES buttons held now: the bound buttons and, unless off, the stick's directions.
    pub fn pad(&self) -> PadState {
        let mut pad = self.held;
        if self.stick > 0.0 {
            let (x, y) = self.axes;
            for (on, dir) in [
                (x < -self.stick, PadState::LEFT),
                (x > self.stick, PadState::RIGHT),
                (y > self.stick, PadState::UP),
                (y < -self.stick, PadState::DOWN),
            ] {
                if on {
                    pad = pad.union(dir);
                }
            }
        }
        without_opposites(pad)
    }
}

/// The gamepads through gilrs, feeding one [`PadMap`].
pub struct Gamepads {
    gilrs: Gilrs,
    map: PadMap,
}

impl Gamepads {
    /// Starts gilrs. No pad plugged in is fine (one plugged in later works); an error means
    /// the system offers no gamepad input at all (the caller carries on with the keyboard).
    pub fn open(map: PadMap) -> Result<Gamepads, Box<gilrs::Error>> {
        Ok(Gamepads {
            // Boxed: gilrs's error carries a whole (dummy) `Gilrs` in one variant.
            gilrs: Gilrs::new().map_err(Box::new)?,
            map,
        })
    }

    /// The names of the pads connected now.
    pub fn names(&self) -> Vec<String> {
        self.gilrs
            .gamepads()
            .map(|(_, g)| g.name().to_string())
            .collect()
    }

    /// Drains the pending events and returns the NES buttons held.
    pub fn poll(&mut self) -> PadState {
        while let Some(e) = self.gilrs.next_event() {
            self.map.event(&e.event);
        }
        self.map.pad()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::CoachSettings;

    fn shipped() -> PadMap {
        let s = CoachSettings::default();
        PadMap::new(&s.pad, s.stick).unwrap()
    }

    #[test]
    fn shipped_buttons_press_and_release_the_nes_buttons() {
        let mut m = shipped();
        m.button(Button::DPadLeft, true);
        m.button(Button::East, true);
        assert_eq!(m.pad(), PadState::LEFT.union(PadState::A));
        m.button(Button::East, false);
        m.button(Button::South, true);
        m.button(Button::Start, true);
        assert_eq!(
            m.pad(),
            PadState::LEFT.union(PadState::B).union(PadState::START)
        );
        // Unbound buttons do nothing; opposite directions cancel.
        m.button(Button::North, true);
        m.button(Button::DPadRight, true);
        assert_eq!(m.pad(), PadState::B.union(PadState::START));
        m.event(&EventType::Disconnected);
        assert_eq!(m.pad(), PadState::NONE);
    }

    #[test]
    fn the_stick_presses_directions_past_its_threshold_unless_off() {
        let mut m = shipped();
        m.axis(Axis::LeftStickX, -0.4);
        assert_eq!(m.pad(), PadState::NONE);
        m.axis(Axis::LeftStickX, -0.9);
        m.axis(Axis::LeftStickY, -0.8);
        assert_eq!(m.pad(), PadState::LEFT.union(PadState::DOWN));
        m.axis(Axis::LeftStickY, 0.8);
        assert_eq!(m.pad(), PadState::LEFT.union(PadState::UP));
        m.axis(Axis::RightStickX, 1.0);
        m.axis(Axis::LeftStickX, 0.0);
        assert_eq!(m.pad(), PadState::UP);
        let s = CoachSettings::default();
        let mut off = PadMap::new(&s.pad, Stick { dpad: 0.0 }).unwrap();
        off.axis(Axis::LeftStickX, -1.0);
        assert_eq!(off.pad(), PadState::NONE);
    }

    #[test]
    fn bad_names_and_thresholds_are_named() {
        let s = CoachSettings::default();
        let mut names = s.pad.clone();
        names.start = "Options".into();
        let e = PadMap::new(&names, s.stick).unwrap_err();
        assert!(e.to_string().contains("`start` = \"Options\""), "{e}");
        names.start = "start".into();
        assert!(PadMap::new(&names, s.stick).is_ok(), "names ignore case");
        for bad in [1.0, -0.1, f32::NAN] {
            let e = PadMap::new(&s.pad, Stick { dpad: bad }).unwrap_err();
            assert!(e.to_string().contains("dpad"), "{e}");
        }
    }

    #[test]
    fn remapped_buttons_follow_the_settings() {
        let s = CoachSettings::default();
        let mut names = s.pad.clone();
        names.a = "South".into();
        names.b = "West".into();
        let mut m = PadMap::new(&names, s.stick).unwrap();
        m.button(Button::South, true);
        assert_eq!(m.pad(), PadState::A);
        m.button(Button::West, true);
        m.button(Button::East, true);
        assert_eq!(m.pad(), PadState::A.union(PadState::B));
    }
}
