//! A profile as its keys: the one serde form that profile files, JSON summaries and tuning
//! state files share, and the way back through the profile file's reader.

use serde::{Deserialize, Serialize};

use super::adjust::Adjust;
use super::limits::{Profile, Shift};
use super::read::ProfileError;

/// A profile's name and keys as a profile file spells them (its evaluation weights and
/// `blind_placements` are not among them: a tuning state keeps its weights on their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileKeys {
    /// The preset or file name.
    pub name: String,
    /// `unlimited` or the X/. pattern.
    pub timeline: String,
    /// How directions are pressed.
    pub shift: Shift,
    /// Frames after a spawn before the plan may use the new next piece.
    pub reaction: u16,
    /// Frames after a spawn before the first input.
    pub start_delay: u16,
    /// `restart` when the profile's `adjust` is; absent under the default `continue` (and in
    /// files written before the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjust: Option<String>,
}

impl From<&Profile> for ProfileKeys {
    fn from(p: &Profile) -> ProfileKeys {
        ProfileKeys {
            name: p.name.clone(),
            timeline: p.timeline.to_string(),
            shift: p.shift,
            reaction: p.reaction,
            start_delay: p.start_delay,
            adjust: (p.adjust != Adjust::Continue).then(|| p.adjust.to_string()),
        }
    }
}

impl ProfileKeys {
    /// The profile these keys describe, checked as a profile file is (`origin` names where
    /// they were read, for the error).
    pub fn to_profile(&self, origin: &str) -> Result<Profile, ProfileError> {
        let shift = toml::Value::try_from(self.shift).map_err(|e| ProfileError::Key {
            path: origin.into(),
            key: "shift".into(),
            problem: e.to_string(),
        })?;
        let mut text = format!(
            "timeline = {:?}\nshift = {shift}\nreaction = {}\nstart_delay = {}\n",
            self.timeline, self.reaction, self.start_delay
        );
        if let Some(a) = &self.adjust {
            text.push_str(&format!("adjust = {a:?}\n"));
        }
        Profile::from_toml(&text, origin, &self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_goes_to_its_keys_and_back() {
        for name in super::super::read::preset_names() {
            let p = Profile::preset(name).unwrap();
            let keys = ProfileKeys::from(&p);
            let back = keys.to_profile("test").unwrap();
            assert_eq!(ProfileKeys::from(&back), keys, "{name}");
            assert_eq!(
                (back.timeline, back.shift, back.reaction, back.adjust),
                (p.timeline, p.shift, p.reaction, p.adjust),
                "{name}"
            );
        }
    }

    #[test]
    fn a_bad_key_is_named_with_where_it_came_from() {
        let mut keys = ProfileKeys::from(&Profile::preset("human").unwrap());
        keys.timeline = "X..Z".into();
        let err = keys
            .to_profile("the state file's profile")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the state file's profile") && err.contains("timeline"),
            "{err}"
        );
    }
}
