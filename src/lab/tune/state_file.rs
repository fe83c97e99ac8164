//! How a tuning state file writes its profile and start weights: the same keys and text as a
//! profile file and a weights file, so a state never holds a second format.

/// A profile in a state file: its name and its keys, as a profile file writes them.
pub(super) mod profile_keys {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::movegen::profile::{Profile, ProfileKeys};

    pub fn serialize<S: Serializer>(p: &Profile, s: S) -> Result<S::Ok, S::Error> {
        ProfileKeys::from(p).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Profile, D::Error> {
        ProfileKeys::deserialize(d)?
            .to_profile("the state file's profile")
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
