//! When a profile's taps fall after the reaction: on the spawn's tap table (`continue`) or on
//! the table restarted at the adjustment (`restart`, BetaTetris's rule: benches/README.md).

use std::fmt;

use super::timeline::Timeline;

/// How the re-plan at the reaction times its taps (the optional profile key `adjust`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Adjust {
    /// The spawn's tap table goes on: at 15 Hz, reaction 18, the first tap after it is on 20.
    #[default]
    Continue,
    /// The table restarts at `frame_start = max(reaction, taps[n])`, `n` the taps played
    /// before the reaction on the table's first slots (a path that skipped slots: the slot
    /// after its last tap): taps on `frame_start + taps[0..]` (15 Hz, reaction 18, two taps
    /// before it: 18, 22, ...).
    Restart,
}

impl Adjust {
    /// The key's two values.
    pub const NAMES: [&'static str; 2] = ["continue", "restart"];

    /// `"continue"` or `"restart"` (the error says what is wrong, without saying where).
    pub fn parse(s: &str) -> Result<Adjust, String> {
        match s {
            "continue" => Ok(Adjust::Continue),
            "restart" => Ok(Adjust::Restart),
            _ => Err(format!("{s:?} is not \"continue\" or \"restart\"")),
        }
    }
}

impl fmt::Display for Adjust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Adjust::Continue => "continue",
            Adjust::Restart => "restart",
        })
    }
}

impl Timeline {
    /// The table's first slot after frame `frame` (counted from frame 0).
    pub fn slot_after(&self, frame: u32) -> u32 {
        let period = u32::from(self.period());
        (frame + 1..=frame + period)
            .find(|&f| self.allows(f))
            .unwrap_or(frame + 1)
    }

    /// May a button be newly pressed on frame `frame` when the table restarts at frame
    /// `from` (0: never restarted, [`Timeline::allows`])? Before `from` the spawn's table.
    #[inline(always)]
    pub fn allows_from(&self, frame: u32, from: u32) -> bool {
        if frame >= from {
            self.allows(frame - from)
        } else {
            self.allows(frame)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::profile::limits::Profile;
    use crate::movegen::profile::progress::PieceProgress;

    #[test]
    fn the_key_is_optional_named_in_the_description_and_checked() {
        let base = "timeline = \"X...\"\nshift = \"tap\"\nreaction = 18\nstart_delay = 0\n";
        let p = Profile::from_toml(base, "p.toml", "p").unwrap();
        assert_eq!(p.adjust, Adjust::Continue);
        assert!(!p.describe().contains("adjust"), "{}", p.describe());
        let text = format!("{base}adjust = \"restart\"\n");
        let p = Profile::from_toml(&text, "p.toml", "p").unwrap();
        assert_eq!(p.adjust, Adjust::Restart);
        assert_eq!(
            p.describe(),
            "p (timeline X..., tap, reaction 18, start delay 0, adjust restart)"
        );
        for (bad, problem) in [
            (
                "adjust = \"later\"\n",
                "\"later\" is not \"continue\" or \"restart\"",
            ),
            ("adjust = 1\n", "expected a string, got integer"),
        ] {
            let e = Profile::from_toml(&format!("{base}{bad}"), "p.toml", "p").unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("profile p.toml: `adjust`: {problem}")
            );
        }
    }

    #[test]
    fn the_slot_after_a_frame_is_the_tables_next_x_frame() {
        for (t, want) in [
            ("X...", [4, 4, 4, 4, 8, 8, 8, 8, 12]),
            ("X..X.", [3, 3, 3, 5, 5, 8, 8, 8, 10]),
            ("..X.", [2, 2, 6, 6, 6, 6, 10, 10, 10]),
        ] {
            let t = Timeline::parse(t).unwrap();
            let got: Vec<u32> = (0..9).map(|f| t.slot_after(f)).collect();
            assert_eq!(got, want, "{t}");
        }
    }

    #[test]
    fn restart_is_the_reaction_or_the_spawn_tables_slot_after_the_last_tap() {
        let mut p = Profile::preset("15hz").unwrap();
        p.reaction = 18;
        let at = |last_tap| PieceProgress {
            frames: 18,
            last_tap,
            ..PieceProgress::default()
        };
        // Taps on 0 and 4, as BetaTetris's first two slots: max(18, taps[2] = 8).
        assert_eq!(p.adjust_from(at(Some(4))), 0, "continue: the spawn's table");
        p.adjust = Adjust::Restart;
        assert_eq!(p.adjust_from(at(Some(4))), 18);
        assert_eq!(p.adjust_from(at(None)), 18, "no tap before the reaction");
        // The last tap on 16: five taps (0-16, taps[5] = 20) or two that skipped slots (0
        // and 16, where the count's taps[2] = 8 would allow 18, two frames after the last).
        assert_eq!(p.adjust_from(at(Some(16))), 20);
        let before = PieceProgress {
            frames: 17,
            ..at(Some(4))
        };
        assert_eq!(p.adjust_from(before), 0, "before the reaction");
        let t = p.timeline;
        let taps: Vec<u32> = (18..30).filter(|&f| t.allows_from(f, 18)).collect();
        assert_eq!(taps, [18, 22, 26]);
        // 12 Hz, reaction 21, a last tap on 20 (a lazy path's only tap): the next tap comes
        // a gap later, on 25, not on the reaction frame 21 (a 60 Hz pair of taps).
        p.timeline = Timeline::parse("12hz").unwrap();
        p.reaction = 21;
        let late = PieceProgress {
            frames: 21,
            ..at(Some(20))
        };
        assert_eq!(p.adjust_from(late), 25);
        let early = PieceProgress {
            frames: 21,
            ..at(Some(15))
        };
        assert_eq!(p.adjust_from(early), 21);
    }
}
