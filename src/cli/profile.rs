//! `--profile NAME|FILE`: a preset by name, else a TOML file read with the TOML bound; the one
//! place that turns the option into a `Profile` for every command that plans.

use std::path::Path;

use anyhow::anyhow;
use nestor::io::read_toml_text;
use nestor::movegen::profile::{Profile, ProfileError, ProfileKeys};
use serde::Serialize;

/// For `#[serde(serialize_with)]` on a `Profile` field.
pub fn serialize<S: serde::Serializer>(p: &Profile, s: S) -> Result<S::Ok, S::Error> {
    ProfileKeys::from(p).serialize(s)
}

/// The profile an option names: a preset wins over a file of the same name in the current
/// folder (the presets are short words; a file path is spelt with `.toml` or a `/`).
pub fn resolve(arg: &str) -> anyhow::Result<Profile> {
    if let Some(p) = Profile::preset(arg) {
        return Ok(p);
    }
    let path = Path::new(arg);
    // Spelt as a path: say the file is missing rather than that no preset has that name.
    let file_like = arg.contains('/') || arg.ends_with(".toml");
    if !path.exists() && !file_like {
        return Err(anyhow!(
            "--profile: {}",
            ProfileError::Unknown { name: arg.into() }
        ));
    }
    let text = read_toml_text(path).map_err(|source| {
        anyhow!(
            "--profile: {}",
            ProfileError::Io {
                path: path.display().to_string(),
                source
            }
        )
    })?;
    Profile::from_file_text(&text, path).map_err(|e| anyhow!("--profile: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_files_and_unknown_names() {
        assert_eq!(resolve("human").unwrap().reaction, 18);
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("slow.toml");
        std::fs::write(
            &f,
            "timeline = \"X.......\"\nshift = \"tap\"\nreaction = 0\nstart_delay = 0\n",
        )
        .unwrap();
        let p = resolve(f.to_str().unwrap()).unwrap();
        assert_eq!((p.name.as_str(), p.timeline.period()), ("slow", 8));
        let e = resolve("9hz").unwrap_err().to_string();
        assert!(
            e.contains("unknown profile \"9hz\"") && e.contains("13.5hz"),
            "{e}"
        );
        let e = resolve(dir.path().to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--profile: profile "),
            "a folder is named: {e}"
        );
    }
}
