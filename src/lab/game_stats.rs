//! A self-played game's statistics: the follower's [`Tally`] of it with what only self-play
//! counts (frames, locks, risky frames, decision times), and its layout in a part file.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::decision_time::DecisionTimes;
use super::until::End;
use crate::search::follow::{Crash, Tally};

/// Statistics of one game: its [`Tally`] (read through `Deref`) and self-play's own counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameStats {
    /// The follower's counts: score, lines, levels, pieces, tetrises, desyncs, the marks at
    /// level 29, 155 and the rebirth, and how the cartridge stopped (a crash or a hang).
    pub counts: Tally,
    /// The level chosen on the menu ($67).
    pub start_level: u8,
    /// Lines cleared by tetrises / all lines.
    pub tetris_rate: f64,
    /// Frames played.
    pub frames: u64,
    /// Lock (row, column) of every piece, in order.
    pub locks: Vec<(u8, u8)>,
    /// A lock test failed: the curtain started.
    pub topped_out: bool,
    /// Why the game ended.
    pub end: End,
    /// Play-state-5 frames the model flagged "may crash" (`Events::may_crash`: the NMI can
    /// land in the danger band, the model plays on): the risk the guard had to take.
    pub may_crash_frames: u32,
    /// Play-state-5 frames that were safe but landed closer than the guard's preferred
    /// margin to a danger window (`search::crash_guard::PREFERRED_MARGIN`).
    pub thin_margin_frames: u32,
    /// The planning thread's CPU time per decision (not saved with the game: `sim merge`
    /// parts carry none).
    pub decisions: DecisionTimes,
}

impl Deref for GameStats {
    type Target = Tally;

    fn deref(&self) -> &Tally {
        &self.counts
    }
}

impl DerefMut for GameStats {
    fn deref_mut(&mut self) -> &mut Tally {
        &mut self.counts
    }
}

impl GameStats {
    /// Lines cleared from the level-29 transition on (None if the game never reached 29).
    pub fn lines_after_29(&self) -> Option<u32> {
        self.lines_at_29.map(|at| self.lines - at)
    }

    /// The game reached `level`, before or after a roll-over (a game stopped by `--until
    /// level:N` counts as reaching N).
    pub fn reached(&self, level: u8) -> bool {
        self.lines_at_rebirth.is_some() || self.peak_level.max(self.level) >= level
    }

    /// The level rolled over from 255 to 0.
    pub fn reborn(&self) -> bool {
        self.lines_at_rebirth.is_some()
    }
}

/// A game as a part file and `sim`'s JSON hold it: its fields in this order, under these
/// names (the locks and decision times stay out; the later fields may be missing).
#[derive(Serialize, Deserialize)]
struct Saved {
    score: u32,
    lines: u32,
    level: u8,
    start_level: u8,
    /// Score when level 29 was first reached (None if never).
    score_at_29: Option<u32>,
    /// Lines when level 29 was first reached (None if never; 0 for a game started there).
    lines_at_29: Option<u32>,
    maxed_before_29: bool,
    pieces: u32,
    tetrises: u32,
    tetris_rate: f64,
    frames: u64,
    desyncs: u32,
    topped_out: bool,
    end: End,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    crash: Option<Crash>,
    #[serde(default)]
    peak_level: u8,
    #[serde(default)]
    clears_past_155: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lines_at_rebirth: Option<u32>,
    #[serde(default)]
    may_crash_frames: u32,
    #[serde(default)]
    thin_margin_frames: u32,
}

impl From<&GameStats> for Saved {
    fn from(g: &GameStats) -> Saved {
        let t = &g.counts;
        Saved {
            score: t.score,
            lines: t.lines,
            level: t.level,
            start_level: g.start_level,
            score_at_29: t.score_at_29,
            lines_at_29: t.lines_at_29,
            maxed_before_29: t.maxed_before_29,
            pieces: t.pieces,
            tetrises: t.tetrises,
            tetris_rate: g.tetris_rate,
            frames: g.frames,
            desyncs: t.desyncs,
            topped_out: g.topped_out,
            end: g.end,
            crash: t.crash,
            peak_level: t.peak_level,
            clears_past_155: t.clears_past_155,
            lines_at_rebirth: t.lines_at_rebirth,
            may_crash_frames: g.may_crash_frames,
            thin_margin_frames: g.thin_margin_frames,
        }
    }
}

impl From<Saved> for GameStats {
    fn from(s: Saved) -> GameStats {
        GameStats {
            counts: Tally {
                score: s.score,
                lines: s.lines,
                level: s.level,
                pieces: s.pieces,
                tetrises: s.tetrises,
                desyncs: s.desyncs,
                lines_at_29: s.lines_at_29,
                score_at_29: s.score_at_29,
                maxed_before_29: s.maxed_before_29,
                peak_level: s.peak_level,
                lines_at_rebirth: s.lines_at_rebirth,
                clears_past_155: s.clears_past_155,
                crash: s.crash,
            },
            start_level: s.start_level,
            tetris_rate: s.tetris_rate,
            frames: s.frames,
            locks: Vec::new(),
            topped_out: s.topped_out,
            end: s.end,
            may_crash_frames: s.may_crash_frames,
            thin_margin_frames: s.thin_margin_frames,
            decisions: DecisionTimes::default(),
        }
    }
}

impl Serialize for GameStats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Saved::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameStats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameStats, D::Error> {
        Saved::deserialize(d).map(GameStats::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::CrashKind;

    /// A game with every saved field set, its marks past level 29 included.
    fn full() -> GameStats {
        GameStats {
            counts: Tally {
                score: 1_234_567,
                lines: 1610,
                level: 160,
                pieces: 4100,
                tetrises: 300,
                desyncs: 0,
                lines_at_29: Some(230),
                score_at_29: Some(950_000),
                maxed_before_29: true,
                peak_level: 160,
                lines_at_rebirth: Some(3300),
                clears_past_155: 7,
                crash: Some(Crash {
                    kind: CrashKind::Hang,
                    frame: 90_000,
                    level: 160,
                    lines: 1610,
                }),
            },
            start_level: 19,
            tetris_rate: 0.75,
            frames: 99_000,
            locks: vec![(18, 4)],
            topped_out: false,
            end: End::Crashed,
            may_crash_frames: 3,
            thin_margin_frames: 2,
            decisions: DecisionTimes::default(),
        }
    }

    #[test]
    fn a_game_is_saved_with_its_fields_in_the_part_file_order() {
        let text = serde_json::to_string(&full()).expect("serialize");
        assert_eq!(
            text,
            "{\"score\":1234567,\"lines\":1610,\"level\":160,\"start_level\":19,\
             \"score_at_29\":950000,\"lines_at_29\":230,\"maxed_before_29\":true,\
             \"pieces\":4100,\"tetrises\":300,\"tetris_rate\":0.75,\"frames\":99000,\
             \"desyncs\":0,\"topped_out\":false,\"end\":\"crashed\",\
             \"crash\":{\"kind\":\"hang\",\"frame\":90000,\"level\":160,\"lines\":1610},\
             \"peak_level\":160,\"clears_past_155\":7,\"lines_at_rebirth\":3300,\
             \"may_crash_frames\":3,\"thin_margin_frames\":2}"
        );
        let back: GameStats = serde_json::from_str(&text).expect("deserialize");
        assert_eq!(
            back,
            GameStats {
                locks: Vec::new(),
                ..full()
            },
            "all but the locks and decision times come back"
        );
    }

    #[test]
    fn a_game_without_its_later_fields_reads_with_their_defaults() {
        let text = "{\"score\":5,\"lines\":1,\"level\":18,\"start_level\":18,\
                    \"score_at_29\":null,\"lines_at_29\":null,\"maxed_before_29\":false,\
                    \"pieces\":3,\"tetrises\":0,\"tetris_rate\":0.0,\"frames\":200,\
                    \"desyncs\":0,\"topped_out\":true,\"end\":\"top_out\"}";
        let g: GameStats = serde_json::from_str(text).expect("deserialize");
        assert_eq!((g.score, g.pieces, g.frames), (5, 3, 200));
        assert_eq!((g.crash, g.peak_level, g.lines_at_rebirth), (None, 0, None));
        let again = serde_json::to_string(&g).expect("serialize");
        assert!(again.ends_with("\"peak_level\":0,\"clears_past_155\":0,\"may_crash_frames\":0,\"thin_margin_frames\":0}"), "{again}");
    }
}
