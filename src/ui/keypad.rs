//! The keyboard as a controller for `nestor assist`: key names from the settings turned into
//! window keys, and the keys held each frame turned into the buttons the console gets.

use minifb::Key;

use crate::coach::classes::ButtonNames;
use crate::game::PadState;

/// A key name that is not a key (the message names it and the button).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("`{button}` = \"{name}\" is not a key name (e.g. Left, X, Enter, RightShift)")]
pub struct KeyNameError {
    pub button: &'static str,
    pub name: String,
}

/// Every key a button can be bound to, by its name (minifb's `Key` variant names).
const NAMED: &[(&str, Key)] = &[
    ("Left", Key::Left),
    ("Right", Key::Right),
    ("Up", Key::Up),
    ("Down", Key::Down),
    ("Enter", Key::Enter),
    ("Space", Key::Space),
    ("Tab", Key::Tab),
    ("Backspace", Key::Backspace),
    ("LeftShift", Key::LeftShift),
    ("RightShift", Key::RightShift),
    ("LeftCtrl", Key::LeftCtrl),
    ("RightCtrl", Key::RightCtrl),
    ("LeftAlt", Key::LeftAlt),
    ("RightAlt", Key::RightAlt),
    ("A", Key::A),
    ("B", Key::B),
    ("C", Key::C),
    ("D", Key::D),
    ("E", Key::E),
    ("F", Key::F),
    ("G", Key::G),
    ("H", Key::H),
    ("I", Key::I),
    ("J", Key::J),
    ("K", Key::K),
    ("L", Key::L),
    ("M", Key::M),
    ("N", Key::N),
    ("O", Key::O),
    ("P", Key::P),
    ("Q", Key::Q),
    ("R", Key::R),
    ("S", Key::S),
    ("T", Key::T),
    ("U", Key::U),
    ("V", Key::V),
    ("W", Key::W),
    ("X", Key::X),
    ("Y", Key::Y),
    ("Z", Key::Z),
    ("0", Key::Key0),
    ("1", Key::Key1),
    ("2", Key::Key2),
    ("3", Key::Key3),
    ("4", Key::Key4),
    ("5", Key::Key5),
    ("6", Key::Key6),
    ("7", Key::Key7),
    ("8", Key::Key8),
    ("9", Key::Key9),
];

/// `pad` less any pair of opposite directions held together (a D-pad cannot press both; the
/// keyboard, a stick and a pad merged can).
pub fn without_opposites(mut pad: PadState) -> PadState {
    for pair in [PadState::LEFT_RIGHT, PadState::UP.union(PadState::DOWN)] {
        if pad.contains(pair) {
            pad = pad.without(pair);
        }
    }
    pad
}

/// The key for each controller button.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keypad {
    bindings: [(Key, PadState); 8],
}

fn key_named(button: &'static str, name: &str) -> Result<Key, KeyNameError> {
    NAMED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, k)| *k)
        .ok_or_else(|| KeyNameError {
            button,
            name: name.to_string(),
        })
}

impl Keypad {
    pub fn new(names: &ButtonNames) -> Result<Keypad, KeyNameError> {
        Ok(Keypad {
            bindings: names.bind(key_named)?,
        })
    }

    /// The buttons for the keys held. Opposite directions cancel, as a D-pad cannot press both.
    pub fn pad(&self, held: &[Key]) -> PadState {
        let mut pad = PadState::NONE;
        for (key, button) in &self.bindings {
            if held.contains(key) {
                pad = pad.union(*button);
            }
        }
        without_opposites(pad)
    }

    /// The bindings in words, e.g. "Left: Left, ..., A: X, B: Z, Start: Enter".
    pub fn describe(&self) -> String {
        const BUTTONS: [&str; 8] = ["Left", "Right", "Up", "Down", "A", "B", "Start", "Select"];
        let name = |k: Key| {
            NAMED
                .iter()
                .find(|(_, key)| *key == k)
                .map_or("?", |(n, _)| *n)
        };
        BUTTONS
            .iter()
            .zip(&self.bindings)
            .map(|(b, (k, _))| format!("{b}: {}", name(*k)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether `key` is bound to a button (the window's own keys yield to game keys).
    pub fn binds(&self, key: Key) -> bool {
        self.bindings.iter().any(|(k, _)| *k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::CoachSettings;

    #[test]
    fn default_keys_give_the_buttons() {
        let k = Keypad::new(&CoachSettings::default().keys).unwrap();
        assert_eq!(
            k.pad(&[Key::Left, Key::X]),
            PadState::LEFT.union(PadState::A)
        );
        assert_eq!(
            k.pad(&[Key::Z, Key::Enter]),
            PadState::B.union(PadState::START)
        );
        assert_eq!(k.pad(&[Key::Left, Key::Right]), PadState::NONE);
        assert_eq!(k.pad(&[Key::Q]), PadState::NONE);
        assert!(k.binds(Key::Down) && !k.binds(Key::Escape));
        assert!(
            k.describe().contains("A: X, B: Z, Start: Enter"),
            "{}",
            k.describe()
        );
    }

    #[test]
    fn an_unknown_key_name_is_named() {
        let mut names = CoachSettings::default().keys;
        names.a = "Hyper".into();
        let e = Keypad::new(&names).unwrap_err();
        assert_eq!(e.button, "a");
        assert!(e.to_string().contains("Hyper"));
        names.a = "x".into();
        assert!(Keypad::new(&names).is_ok());
    }
}
