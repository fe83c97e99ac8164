//! The keyboard as a controller for `nestor assist`: key names from the settings turned into
//! window keys, and the keys held each frame turned into the buttons the console gets.

use std::fmt;

use crate::coach::classes::ButtonNames;
use crate::game::PadState;

/// A key name that is not a key (the message names it and the button).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("`{button}` = \"{name}\" is not a key name (e.g. Left, X, Enter, RightShift)")]
pub struct KeyNameError {
    /// The button being bound (`left`, `a`, ...).
    pub button: &'static str,
    /// The name given for it.
    pub name: String,
}

/// The keys a button can be bound to, each with its name in the settings (one list: the
/// enum, the names and, with the `window` feature, the window's key for each).
macro_rules! keys {
    ($($key:ident = $name:literal),* $(,)?) => {
        /// A key a button can be bound to. Plain data: the settings are checked without the
        /// window; the window (feature `window`) maps each to its own key.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum KeyName {
            $(#[doc = concat!("The key named `", $name, "` in the settings.")] $key),*
        }

        impl KeyName {
            /// Every key with its name in the settings (minifb's `Key` variant names, the
            /// digits without the `Key` prefix).
            pub const ALL: &'static [(&'static str, KeyName)] = &[$(($name, KeyName::$key)),*];
        }

        #[cfg(feature = "window")]
        impl From<KeyName> for minifb::Key {
            fn from(key: KeyName) -> minifb::Key {
                match key {
                    $(KeyName::$key => minifb::Key::$key),*
                }
            }
        }
    };
}

keys! {
    Left = "Left", Right = "Right", Up = "Up", Down = "Down", Enter = "Enter", Space = "Space",
    Tab = "Tab", Backspace = "Backspace", LeftShift = "LeftShift", RightShift = "RightShift",
    LeftCtrl = "LeftCtrl", RightCtrl = "RightCtrl", LeftAlt = "LeftAlt", RightAlt = "RightAlt",
    A = "A", B = "B", C = "C", D = "D", E = "E", F = "F", G = "G", H = "H", I = "I", J = "J",
    K = "K", L = "L", M = "M", N = "N", O = "O", P = "P", Q = "Q", R = "R", S = "S", T = "T",
    U = "U", V = "V", W = "W", X = "X", Y = "Y", Z = "Z",
    Key0 = "0", Key1 = "1", Key2 = "2", Key3 = "3", Key4 = "4", Key5 = "5", Key6 = "6",
    Key7 = "7", Key8 = "8", Key9 = "9",
}

impl KeyName {
    /// The key called `name` in the settings (case does not matter).
    pub fn parse(name: &str) -> Option<KeyName> {
        KeyName::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, k)| *k)
    }

    /// Its name in the settings.
    pub fn name(self) -> &'static str {
        KeyName::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| *n)
    }
}

impl fmt::Display for KeyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
    bindings: [(KeyName, PadState); 8],
}

fn key_named(button: &'static str, name: &str) -> Result<KeyName, KeyNameError> {
    KeyName::parse(name).ok_or_else(|| KeyNameError {
        button,
        name: name.to_string(),
    })
}

impl Keypad {
    /// The keypad with the keys `names` gives each button; a name that is no key is refused.
    pub fn new(names: &ButtonNames) -> Result<Keypad, KeyNameError> {
        Ok(Keypad {
            bindings: names.bind(key_named)?,
        })
    }

    /// The buttons for the keys held. Opposite directions cancel, as a D-pad cannot press both.
    pub fn pad(&self, held: &[KeyName]) -> PadState {
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
        BUTTONS
            .iter()
            .zip(&self.bindings)
            .map(|(b, (k, _))| format!("{b}: {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether `key` is bound to a button (the window's own keys yield to game keys).
    pub fn binds(&self, key: KeyName) -> bool {
        self.bindings.iter().any(|(k, _)| *k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::CoachSettings;
    use KeyName as Key;

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
        assert!(k.binds(Key::Down) && !k.binds(Key::Q));
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

    #[test]
    fn every_key_has_one_name_and_reads_back_from_it() {
        for (name, key) in KeyName::ALL {
            assert_eq!(KeyName::parse(name), Some(*key), "{name}");
            assert_eq!(KeyName::parse(&name.to_lowercase()), Some(*key), "{name}");
            assert_eq!(key.name(), *name);
        }
        assert_eq!(
            KeyName::parse("Key0"),
            None,
            "digits are named by the digit"
        );
    }
}
