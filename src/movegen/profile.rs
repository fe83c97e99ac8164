//! Player profiles: when a button may be newly pressed (the input timeline), whether directions
//! are tapped or held (DAS), the reaction time to the next piece; the presets and their TOML.

mod adjust;
mod choice;
mod keys;
mod limits;
mod press_rules;
mod progress;
mod read;
mod timeline;

pub use adjust::Adjust;
pub use choice::{built_in_names, WeightsChoice, BUILT_IN};
pub use keys::ProfileKeys;
pub use limits::{Profile, Shift};
pub(crate) use press_rules::Rules;
pub use progress::{PieceProgress, TIMED};
pub use read::{blind_placements, delay_frames, preset_names, ProfileError, MAX_DELAY, PRESETS};
pub use timeline::{Timeline, MAX_PATTERN};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pad::PadState;

    #[test]
    fn every_preset_parses_and_is_named_after_its_file() {
        for (name, _) in PRESETS {
            let p = Profile::preset(name).unwrap_or_else(|| panic!("preset {name}"));
            assert_eq!(p.name, name);
        }
        assert!(Profile::default().is_unlimited());
        let human = Profile::preset("human").unwrap();
        assert_eq!(
            (human.reaction, human.timeline.to_string()),
            (18, "X.".into())
        );
        assert_eq!(Profile::preset("das").unwrap().shift, Shift::Hold);
        assert_eq!(
            Profile::preset("13.5hz").unwrap().timeline.to_string(),
            "X....X...X..."
        );
    }

    #[test]
    fn hz_presets_press_at_their_rate() {
        for (hz, frames_per_press) in [
            ("30hz", 2),
            ("20hz", 3),
            ("15hz", 4),
            ("12hz", 5),
            ("10hz", 6),
        ] {
            let t = Timeline::parse(hz).unwrap();
            let presses: Vec<u32> = (0..12).filter(|&f| t.allows(f)).collect();
            let want: Vec<u32> = (0..12).step_by(frames_per_press).collect();
            assert_eq!(presses, want, "{hz}");
        }
        // 24 Hz: BetaTetris's table, 3 frames then 2, repeating.
        let t = Timeline::parse("24hz").unwrap();
        let presses: Vec<u32> = (0..24).filter(|&f| t.allows(f)).collect();
        assert_eq!(presses, [0, 3, 5, 8, 10, 13, 15, 18, 20, 23]);
        assert_eq!(
            Profile::preset("24hz").unwrap().describe(),
            "24hz (timeline X..X., tap, reaction 0, start delay 0)"
        );
        // 13.5 Hz: 3 presses in 13 frames, repeating.
        let t = Timeline::parse("13.5hz").unwrap();
        assert_eq!((0..26).filter(|&f| t.allows(f)).count(), 6);
        assert!(t.allows(0) && t.allows(5) && t.allows(9) && t.allows(13));
    }

    #[test]
    fn bad_patterns_say_why() {
        let err = |s| Timeline::parse(s).unwrap_err();
        assert!(err("....").contains("no X"));
        assert!(err("XX.").contains("two X frames running"));
        assert!(
            err("X.X").contains("two X frames running"),
            "the wrap counts"
        );
        assert!(err("X").contains("two X frames running"));
        assert!(err("X-").contains("pattern of X and ."));
        assert!(err("").contains("pattern of X and ."));
        assert!(err(&"X.".repeat(40)).contains("at most"));
    }

    fn parse(text: &str) -> Result<Profile, String> {
        Profile::from_toml(text, "my.toml", "my").map_err(|e| e.to_string())
    }

    const GOOD: &str = "timeline = \"X..\"\nshift = \"both\"\nreaction = 12\nstart_delay = 3\n";

    #[test]
    fn a_file_profile_reads_every_key() {
        let p = parse(GOOD).unwrap();
        assert_eq!(p.timeline, Timeline::Pattern { bits: 1, len: 3 });
        assert_eq!((p.shift, p.reaction, p.start_delay), (Shift::Both, 12, 3));
        assert_eq!(
            p.describe(),
            "my (timeline X.., tap or hold, reaction 12, start delay 3)"
        );
    }

    #[test]
    fn blind_placements_is_optional_and_says_itself() {
        assert_eq!(
            parse(GOOD).unwrap().blind_placements,
            0,
            "every one by default"
        );
        let p = parse(&format!("{GOOD}blind_placements = 5\n")).unwrap();
        assert_eq!(p.blind_placements, 5);
        assert_eq!(
            p.describe(),
            "my (timeline X.., tap or hold, reaction 12, start delay 3, 5 blind placements)"
        );
        for (value, want) in [
            ("-1", "`blind_placements`: -1 is not a count of placements"),
            ("201", "`blind_placements`: 201 is not a count"),
            (
                "\"all\"",
                "`blind_placements`: expected a count of placements",
            ),
        ] {
            let e = parse(&format!("{GOOD}blind_placements = {value}\n")).unwrap_err();
            assert!(
                e.starts_with("profile my.toml: ") && e.contains(want),
                "{e}"
            );
        }
    }

    #[test]
    fn file_errors_name_the_file_and_key() {
        let cases = [
            (GOOD.replace("X..", "..."), "`timeline`: \"...\" has no X"),
            (GOOD.replace("X..", "XX."), "`timeline`"),
            (GOOD.replace("12", "-4"), "`reaction`: -4 is negative"),
            (GOOD.replace("= 3", "= 9000"), "`start_delay`: 9000 frames"),
            (GOOD.replace("both", "slide"), "`shift`: \"slide\""),
            (GOOD.replace("reaction = 12\n", ""), "`reaction`: missing"),
            (format!("{GOOD}speed = 2\n"), "`speed`: unknown key"),
            (
                GOOD.replace("12", "\"soon\""),
                "expected a number of frames",
            ),
            ("timeline = ".into(), "not TOML"),
        ];
        for (text, want) in cases {
            let e = parse(&text).unwrap_err();
            assert!(e.starts_with("profile my.toml: "), "{e}");
            assert!(e.contains(want), "{e} should contain {want}");
        }
    }

    #[test]
    fn progress_counts_frames_new_direction_presses_and_the_last_tap() {
        let l = PadState::LEFT;
        let a = PadState::A;
        let inputs = [l, l, PadState::NONE, a, PadState::NONE];
        let p = PieceProgress::after(&inputs, PadState::NONE);
        assert_eq!((p.frames, p.pressed, p.last_tap), (5, l, Some(3)));
        // A direction held from the last piece was not pressed in this one.
        let p = PieceProgress::after(&[l, l], l);
        assert_eq!((p.pressed, p.last_tap), (PadState::NONE, None));
        // Counted on from a progress: the frames before come first.
        let p = PieceProgress::after(&inputs[..2], PadState::NONE).then(&inputs[2..], l);
        assert_eq!((p.frames, p.last_tap), (5, Some(3)));
        let p = PieceProgress::after(&inputs[..2], PadState::NONE).then(&[PadState::NONE], l);
        assert_eq!((p.frames, p.last_tap), (3, Some(0)));
    }
}
