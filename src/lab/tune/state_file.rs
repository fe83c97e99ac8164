//! How a tuning state file writes its profile and start weights: the same keys and text as a
//! profile file and a weights file, so a state never holds a second format.

/// A profile in a state file: its name and its keys, as a profile file writes them.
pub(super) mod profile_keys {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::movegen::profile::Profile;
    use crate::movegen::profile::{Adjust, Shift};

    #[derive(Serialize, Deserialize)]
    struct Keys {
        name: String,
        timeline: String,
        shift: Shift,
        reaction: u16,
        start_delay: u16,
        /// Absent under the default `continue` (and in state files from before the key).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        adjust: Option<String>,
    }

    pub fn serialize<S: Serializer>(p: &Profile, s: S) -> Result<S::Ok, S::Error> {
        Keys {
            name: p.name.clone(),
            timeline: p.timeline.to_string(),
            shift: p.shift,
            reaction: p.reaction,
            start_delay: p.start_delay,
            adjust: (p.adjust != Adjust::Continue).then(|| p.adjust.to_string()),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Profile, D::Error> {
        let k = Keys::deserialize(d)?;
        let shift = toml::Value::try_from(k.shift).map_err(serde::de::Error::custom)?;
        let mut text = format!(
            "timeline = {:?}\nshift = {shift}\nreaction = {}\nstart_delay = {}\n",
            k.timeline, k.reaction, k.start_delay
        );
        if let Some(a) = k.adjust {
            text.push_str(&format!("adjust = {a:?}\n"));
        }
        Profile::from_toml(&text, "the state file's profile", &k.name)
            .map_err(serde::de::Error::custom)
    }
}

/// The weights file's text in a state file: one format for weights everywhere.
pub(super) mod weights_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::search::weights::Weights;

    pub fn serialize<S: Serializer>(w: &Weights, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&w.to_toml())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Weights, D::Error> {
        let text = String::deserialize(d)?;
        Weights::from_toml(
            &text,
            std::path::Path::new("the state file's start weights"),
        )
        .map_err(serde::de::Error::custom)
    }
}
