//! Batches split over machines: which games shard K of N plays, the partial-result file it
//! writes (stamped with the run's identity), and the merge that rebuilds the whole run.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use super::batch::GameResult;
use crate::search::weights::Weights;

/// The `format` field of a shard file.
const PART_FORMAT: &str = "nestor-sim-shard";

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Which shard, 1..=`count`.
    pub index: u32,
    /// Shards the run is split in.
    pub count: u32,
}

impl ShardSpec {
    /// Its share of `total` items: contiguous, sizes differing by at most one, every item in
    /// exactly one shard.
    pub fn range(self, total: u32) -> Range<u32> {
        let at = |k: u32| (u64::from(total) * u64::from(k) / u64::from(self.count)) as u32;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<ShardSpec, ShardError> {
        let bad = |reason: &'static str| ShardError::Spec {
            text: s.to_string(),
            reason,
        };
        let (k, n) = s.split_once('/').ok_or(bad("expected K/N, e.g. 1/4"))?;
        let index: u32 = k.trim().parse().map_err(|_| bad("K is not a number"))?;
        let count: u32 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("K must be between 1 and N"));
        }
        Ok(ShardSpec { index, count })
    }
}

/// What makes two shards parts of the same run: equal identities, or they are not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// nestor's version: another build may play other games from the same seeds.
    pub version: String,
    /// The run's seed: game i is seeded with `seed + i`.
    pub seed: u64,
    /// Games in the whole run, over all shards.
    pub games: u32,
    /// [`weights_id`] of the weights played.
    pub weights: String,
    /// Every other option that changes the games (level, limits...), by name.
    pub options: BTreeMap<String, String>,
}

impl RunIdentity {
    /// The first field in which `other` differs, by name, with both values.
    fn difference(&self, other: &RunIdentity) -> Option<String> {
        let pair = |name: &str, a: &dyn fmt::Debug, b: &dyn fmt::Debug| {
            Some(format!("{name}: {a:?} here, {b:?} in the first file"))
        };
        if self.version != other.version {
            return pair("version", &self.version, &other.version);
        }
        if self.seed != other.seed {
            return pair("seed", &self.seed, &other.seed);
        }
        if self.games != other.games {
            return pair("games", &self.games, &other.games);
        }
        if self.weights != other.weights {
            return pair("weights", &self.weights, &other.weights);
        }
        let profile = |id: &RunIdentity| id.options.get(PROFILE_OPTION).cloned();
        if profile(self) != profile(other) {
            return Some(format!(
                "player profile {} here, {} in the first file",
                profile(self).unwrap_or_else(|| "unlimited (not recorded)".into()),
                profile(other).unwrap_or_else(|| "unlimited (not recorded)".into()),
            ));
        }
        // The first option that differs, by name (the whole-settings `batch` entry last: the
        // named options say it in words), not the maps' debug form.
        let mut keys: Vec<&String> = self.options.keys().chain(other.options.keys()).collect();
        keys.sort_by_key(|k| (k.as_str() == "batch", k.as_str()));
        keys.dedup();
        for key in keys {
            let (a, b) = (self.options.get(key), other.options.get(key));
            if a != b {
                let show = |v: Option<&String>| match v {
                    Some(v) if v.is_empty() => "none".to_string(),
                    Some(v) => v.clone(),
                    None => "not recorded".to_string(),
                };
                return Some(format!(
                    "{key}: {} here, {} in the first file",
                    show(a),
                    show(b)
                ));
            }
        }
        None
    }
}

/// The key of [`RunIdentity::options`] naming the player profile (its `describe()` line).
/// Shards written before profiles existed have none: they played `unlimited`.
pub const PROFILE_OPTION: &str = "profile";

/// A hash of the weights as they are used (of their canonical text, not of the file's, so
/// comments and key order do not matter).
pub fn weights_id(weights: &Weights) -> String {
    let text = weights.to_toml();
    let digest = Sha1::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// One shard's results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartFile {
    /// `nestor-sim-shard`: what the file is.
    pub format: String,
    /// The run it is part of.
    pub identity: RunIdentity,
    /// Which share of the run's games it holds.
    pub shard: ShardSpec,
    /// Its games' results, in game order.
    pub results: Vec<GameResult>,
    /// Each game's locks (row, column), which `GameResult` leaves out of its JSON: the merged
    /// CSV's `lock_rows` and the plots need them. Absent from parts written before.
    #[serde(default)]
    pub locks: Vec<Vec<(u8, u8)>>,
}

impl PartFile {
    /// Shard `shard` of the run `identity`, with its games' results and their locks.
    pub fn new(identity: RunIdentity, shard: ShardSpec, results: Vec<GameResult>) -> PartFile {
        PartFile {
            format: PART_FORMAT.to_string(),
            identity,
            shard,
            locks: results.iter().map(|r| r.stats.locks.clone()).collect(),
            results,
        }
    }
}

/// Why shards could not be written, read or merged; each variant names the file or shard
/// spec at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// A `K/N` shard spec that does not parse or is out of range.
    #[error("bad shard `{text}`: {reason}")]
    Spec {
        /// The spec as given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The file could not be read, parsed or written.
    #[error(transparent)]
    File(#[from] crate::io::json::DataError),
    /// The file's `format` is not a shard's.
    #[error("{path} is a {format:?} file, not a nestor sim shard")]
    Format {
        /// The file.
        path: PathBuf,
        /// The `format` it holds.
        format: String,
    },
    /// The file's run identity differs from the first file's.
    #[error("{path} is a shard of another run ({difference})")]
    OtherRun {
        /// The file.
        path: PathBuf,
        /// The first field that differs, with both values.
        difference: String,
    },
    /// The file splits the run in another number of shards than the first file.
    #[error("{path} is shard {shard}, but the first file splits the run in {count}")]
    Count {
        /// The file.
        path: PathBuf,
        /// The file's shard.
        shard: ShardSpec,
        /// The first file's shard count.
        count: u32,
    },
    /// Two files hold the same shard.
    #[error("shard {index} appears twice: {first} and {second}")]
    Duplicate {
        /// The shard, 1-based.
        index: u32,
        /// The file read first.
        first: PathBuf,
        /// The file read second.
        second: PathBuf,
    },
    /// Some shards of the run are not among the files.
    #[error("shards missing: {missing:?} of {count}")]
    Missing {
        /// The missing shards' 1-based indices.
        missing: Vec<u32>,
        /// Shards in the run.
        count: u32,
    },
    /// The file's results are not the games its shard plays (index or seed wrong, or some
    /// missing).
    #[error("{path} does not hold the games of shard {shard}")]
    Games {
        /// The file.
        path: PathBuf,
        /// The shard it claims to be.
        shard: ShardSpec,
    },
    /// No file was given.
    #[error("no shard files to merge")]
    Empty,
}

impl crate::io::FileError for ShardError {
    const KIND: &'static str = "shard";
}

/// Writes a shard file; an existing file is never overwritten.
pub fn write_part(path: &Path, part: &PartFile) -> Result<(), ShardError> {
    crate::io::write_json(path, part, false)
}

/// Reads and checks one shard file.
pub fn read_part(path: &Path) -> Result<PartFile, ShardError> {
    let mut part: PartFile = crate::io::read_json::<_, ShardError>(path)?;
    if part.format != PART_FORMAT {
        return Err(ShardError::Format {
            path: path.to_path_buf(),
            format: part.format,
        });
    }
    let expected = part.shard.range(part.identity.games);
    let games_ok =
        part.shard.index >= 1
            && part.shard.index <= part.shard.count
            && part.results.len() == expected.len()
            && part.results.iter().zip(expected).all(|(r, i)| {
                r.index == i && r.seed == part.identity.seed.wrapping_add(u64::from(i))
            });
    if !games_ok {
        return Err(ShardError::Games {
            path: path.to_path_buf(),
            shard: part.shard,
        });
    }
    if part.locks.len() == part.results.len() {
        for (r, locks) in part.results.iter_mut().zip(std::mem::take(&mut part.locks)) {
            r.stats.locks = locks;
        }
    }
    Ok(part)
}

/// Reads the shard files and puts their games back in one run, in game order. Every shard of
/// the run must be there exactly once, all of the same run.
pub fn merge(paths: &[PathBuf]) -> Result<(RunIdentity, Vec<GameResult>), ShardError> {
    let (first_path, rest) = paths.split_first().ok_or(ShardError::Empty)?;
    let first = read_part(first_path)?;
    let count = first.shard.count;
    let mut seen: Vec<Option<PathBuf>> = vec![None; count as usize];
    let mut results = Vec::with_capacity(first.identity.games as usize);
    let identity = first.identity.clone();
    for item in std::iter::once(Ok((first_path, first)))
        .chain(rest.iter().map(|p| read_part(p).map(|part| (p, part))))
    {
        let (path, part) = item?;
        if let Some(difference) = part.identity.difference(&identity) {
            return Err(ShardError::OtherRun {
                path: path.clone(),
                difference,
            });
        }
        if part.shard.count != count {
            return Err(ShardError::Count {
                path: path.clone(),
                shard: part.shard,
                count,
            });
        }
        let slot = &mut seen[part.shard.index as usize - 1];
        if let Some(first) = slot {
            return Err(ShardError::Duplicate {
                index: part.shard.index,
                first: first.clone(),
                second: path.clone(),
            });
        }
        *slot = Some(path.clone());
        results.extend(part.results);
    }
    let missing: Vec<u32> = (1..=count)
        .filter(|k| seen[*k as usize - 1].is_none())
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::Missing { missing, count });
    }
    results.sort_by_key(|r| r.index);
    Ok((identity, results))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::selfplay::GameStats;
    use crate::search::follow::Tally;

    #[test]
    fn shard_specs_parse_and_bad_ones_say_why() {
        assert_eq!(
            "2/4".parse::<ShardSpec>().expect("valid"),
            ShardSpec { index: 2, count: 4 }
        );
        for (text, why) in [
            ("3/2", "between 1 and N"),
            ("0/2", "between 1 and N"),
            ("1/0", "at least 1"),
            ("1", "K/N"),
            ("a/2", "K is not"),
            ("1/b", "N is not"),
        ] {
            let err = text.parse::<ShardSpec>().expect_err(text).to_string();
            assert!(err.contains(text) && err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn shards_cover_every_game_once() {
        for total in [0, 1, 5, 7, 100] {
            for count in 1..=9 {
                let mut all = Vec::new();
                for index in 1..=count {
                    let r = ShardSpec { index, count }.range(total);
                    assert!(r.len() as u32 <= total.div_ceil(count));
                    all.extend(r);
                }
                assert_eq!(all, (0..total).collect::<Vec<_>>(), "{total} in {count}");
            }
        }
    }

    fn identity() -> RunIdentity {
        RunIdentity {
            version: "1".into(),
            seed: 10,
            games: 5,
            weights: weights_id(&Weights::default()),
            options: BTreeMap::from([("level".to_string(), "19".to_string())]),
        }
    }

    fn part(identity: &RunIdentity, index: u32, count: u32) -> PartFile {
        let shard = ShardSpec { index, count };
        let results = shard
            .range(identity.games)
            .map(|i| GameResult {
                index: i,
                seed: identity.seed + u64::from(i),
                stats: GameStats {
                    counts: Tally {
                        score: 1000 * i,
                        lines: i,
                        ..Tally::default()
                    },
                    ..GameStats::default()
                },
            })
            .collect();
        PartFile::new(identity.clone(), shard, results)
    }

    fn write_parts(dir: &Path, parts: &[PartFile]) -> Vec<PathBuf> {
        parts
            .iter()
            .map(|p| {
                let path = dir.join(format!("part-{}-{}.json", p.shard.index, p.identity.seed));
                write_part(&path, p).expect("written");
                path
            })
            .collect()
    }

    #[test]
    fn merge_restores_the_run_in_order_whatever_the_file_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let id = identity();
        let mut paths = write_parts(
            dir.path(),
            &[part(&id, 2, 3), part(&id, 3, 3), part(&id, 1, 3)],
        );
        paths.reverse();
        let (got, results) = merge(&paths).expect("merges");
        assert_eq!(got, id);
        assert_eq!(
            results.iter().map(|r| r.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(results[4].stats.score, 4000);
    }

    #[test]
    fn merge_refuses_other_runs_duplicates_gaps_and_truncation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let id = identity();
        let other = RunIdentity {
            seed: 11,
            ..identity()
        };
        let paths = write_parts(dir.path(), &[part(&id, 1, 2), part(&other, 2, 2)]);
        let err = merge(&paths).expect_err("other run").to_string();
        assert!(err.contains("another run") && err.contains("seed"), "{err}");
        assert!(err.contains(&paths[1].display().to_string()), "{err}");

        let paths = write_parts(dir.path(), &[part(&id, 2, 2)]);
        let err = merge(&paths).expect_err("gap").to_string();
        assert!(err.contains("missing: [1]"), "{err}");

        let one = dir.path().join("part-1-10.json");
        let err = merge(&[one.clone(), one.clone()])
            .expect_err("twice")
            .to_string();
        assert!(err.contains("shard 1 appears twice"), "{err}");

        let cut = dir.path().join("cut.json");
        let text = std::fs::read(&one).expect("read");
        std::fs::write(&cut, &text[..text.len() / 2]).expect("write");
        let err = merge(std::slice::from_ref(&cut))
            .expect_err("truncated")
            .to_string();
        assert!(
            err.contains("cut.json") && err.contains("truncated"),
            "{err}"
        );
    }

    #[test]
    fn a_shard_of_another_profile_is_named_as_such() {
        let dir = tempfile::tempdir().expect("temp dir");
        let with = |p: &str| {
            let mut id = identity();
            id.options.insert(PROFILE_OPTION.into(), p.into());
            id
        };
        let (human, fast) = (
            with("human (timeline X., …)"),
            with("15hz (timeline X..., …)"),
        );
        let paths = write_parts(dir.path(), &[part(&human, 1, 2), part(&fast, 2, 2)]);
        let err = merge(&paths).expect_err("other profile").to_string();
        assert!(
            err.contains("player profile 15hz (timeline X..., …) here, human"),
            "{err}"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let paths = write_parts(dir.path(), &[part(&human, 1, 2), part(&identity(), 2, 2)]);
        let err = merge(&paths).expect_err("unrecorded profile").to_string();
        assert!(err.contains("unlimited (not recorded) here"), "{err}");
    }

    #[test]
    fn shard_files_are_never_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("p.json");
        std::fs::write(&path, "keep").expect("write");
        let err = write_part(&path, &part(&identity(), 1, 1)).expect_err("exists");
        assert!(err.to_string().contains("p.json"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "keep");
    }
}
