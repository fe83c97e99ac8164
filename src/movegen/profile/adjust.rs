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
    /// before the reaction: taps on `frame_start + taps[0..]` (15 Hz, reaction 18, two taps
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
    /// The frame of tap `n` (from 0) of the table counted from frame 0: the pattern's
    /// `n`-th X frame (`n` itself when unlimited).
    pub fn slot(&self, n: u16) -> u32 {
        match *self {
            Timeline::Unlimited => u32::from(n),
            Timeline::Pattern { bits, len } => {
                let per = bits.count_ones();
                let (periods, mut left) = (u32::from(n) / per, u32::from(n) % per);
                let mut i = 0;
                while left > 0 || bits >> i & 1 == 0 {
                    if bits >> i & 1 != 0 {
                        left -= 1;
                    }
                    i += 1;
                }
                periods * u32::from(len) + i
            }
        }
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
    fn slots_are_the_tables_x_frames() {
        for (t, want) in [
            ("X...", vec![0, 4, 8, 12, 16, 20]),
            ("X..X.", vec![0, 3, 5, 8, 10, 13]),
            ("..X.", vec![2, 6, 10, 14, 18, 22]),
        ] {
            let t = Timeline::parse(t).unwrap();
            let got: Vec<u32> = (0..6).map(|n| t.slot(n)).collect();
            assert_eq!(got, want, "{t}");
        }
    }

    #[test]
    fn restart_is_the_reaction_or_the_next_slot_of_the_spawn_table() {
        let mut p = Profile::preset("15hz").unwrap();
        p.reaction = 18;
        let at = |taps| PieceProgress {
            frames: 18,
            taps,
            ..PieceProgress::default()
        };
        assert_eq!(p.adjust_from(at(2)), 0, "continue: the spawn's table");
        p.adjust = Adjust::Restart;
        assert_eq!(p.adjust_from(at(2)), 18);
        assert_eq!(p.adjust_from(at(5)), 20);
        let before = PieceProgress {
            frames: 17,
            ..at(2)
        };
        assert_eq!(p.adjust_from(before), 0, "before the reaction");
        let t = p.timeline;
        let taps: Vec<u32> = (18..30).filter(|&f| t.allows_from(f, 18)).collect();
        assert_eq!(taps, [18, 22, 26]);
        // 10 Hz: three taps before the reaction (0, 6, 12), taps[3] = 18.
        p.timeline = Timeline::parse("10hz").unwrap();
        assert_eq!(p.adjust_from(at(3)), 18);
        assert_eq!(p.adjust_from(at(4)), 24);
    }
}
