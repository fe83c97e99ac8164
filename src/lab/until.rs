//! When a simulated game stops: `Until` (top-out, a level, a line count: `--until`) and `End`,
//! the reason each game ended, as plain data shared by `sim`, its outputs and the tuner.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The goal a game plays to; every game also stops at its top-out, a crash or a hang.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Play to the top-out (or a crash, a hang or a cap).
    #[default]
    TopOut,
    /// Stop when the level reaches N (`level:29` gives the figures of the level-19 bot).
    Level(u8),
    /// Stop when the line count reaches N.
    Lines(u32),
    /// Stop at the rebirth: the level rolls over from 255 to 0.
    Rebirth,
}

/// Why `--until` text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a stopping point: expected `top-out`, `level:N` (0-255), `lines:N` (1 or \
     more) or `rebirth`"
)]
pub struct UntilError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Until {
    type Err = UntilError;

    fn from_str(text: &str) -> Result<Until, UntilError> {
        let err = || UntilError {
            text: text.to_string(),
        };
        let t = text.trim();
        match t {
            "top-out" => return Ok(Until::TopOut),
            "rebirth" => return Ok(Until::Rebirth),
            _ => {}
        }
        let (kind, n) = t.split_once(':').ok_or_else(err)?;
        match kind.trim() {
            "level" => n.trim().parse().map(Until::Level).map_err(|_| err()),
            // `lines:0` would stop every game before its first piece.
            "lines" => match n.trim().parse() {
                Ok(0) | Err(_) => Err(err()),
                Ok(n) => Ok(Until::Lines(n)),
            },
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Until::TopOut => write!(f, "top-out"),
            Until::Level(n) => write!(f, "level:{n}"),
            Until::Lines(n) => write!(f, "lines:{n}"),
            Until::Rebirth => write!(f, "rebirth"),
        }
    }
}

impl Until {
    /// True once a game at `lines` lines, that reached `level` (`reached(n)`: the level
    /// showed n or more, before or after a roll-over) and rolled over when `reborn`, has
    /// reached this goal.
    pub fn is_reached(self, reached: impl Fn(u8) -> bool, lines: u32, reborn: bool) -> bool {
        match self {
            Until::TopOut => false,
            Until::Level(n) => reached(n),
            Until::Lines(n) => lines >= n,
            Until::Rebirth => reborn,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The stack reached the spawn: the game is lost.
    #[default]
    TopOut,
    /// Runs saved before games played past level 155: the game stopped at `CRASH_LEVEL`,
    /// counted as reached (kept so their part files still merge).
    CrashLevel,
    /// The cartridge crashed or hung (the rules model's `Game::crashed`).
    Crashed,
    /// The `Until` goal was reached.
    Until,
    /// The line cap (`--max-lines`).
    MaxLines,
    /// The piece cap (`--pieces`).
    MaxPieces,
    /// The frame cap.
    MaxFrames,
}

impl End {
    /// The game was lost (a top-out, a crash or a hang), not stopped by a goal or a cap.
    pub fn is_death(self) -> bool {
        matches!(self, End::TopOut | End::Crashed)
    }

    /// The name used in CSV and JSON.
    pub fn name(self) -> &'static str {
        match self {
            End::TopOut => "top_out",
            End::CrashLevel => "crash_level",
            End::Crashed => "crashed",
            End::Until => "until",
            End::MaxLines => "max_lines",
            End::MaxPieces => "max_pieces",
            End::MaxFrames => "max_frames",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn until_parses_and_prints_back() {
        for (text, until) in [
            ("top-out", Until::TopOut),
            ("level:29", Until::Level(29)),
            ("lines:230", Until::Lines(230)),
            (" level: 39 ", Until::Level(39)),
            ("rebirth", Until::Rebirth),
        ] {
            assert_eq!(text.parse::<Until>(), Ok(until), "{text}");
            assert_eq!(until.to_string().parse::<Until>(), Ok(until));
        }
    }

    #[test]
    fn each_goal_is_reached_by_its_own_measure() {
        let up_to = |peak: u8| move |n: u8| peak >= n;
        assert!(!Until::TopOut.is_reached(up_to(255), 9_999, true));
        assert!(Until::Level(29).is_reached(up_to(29), 0, false));
        assert!(!Until::Level(30).is_reached(up_to(29), 9_999, false));
        assert!(Until::Lines(230).is_reached(up_to(0), 230, false));
        assert!(!Until::Lines(230).is_reached(up_to(255), 229, true));
        assert!(Until::Rebirth.is_reached(up_to(0), 3_300, true));
        assert!(!Until::Rebirth.is_reached(up_to(255), 3_290, false));
    }

    #[test]
    fn bad_until_says_what_is_expected() {
        for text in [
            "",
            "level",
            "level:",
            "level:256",
            "lines:-1",
            "score:5",
            "29",
        ] {
            let err = text.parse::<Until>().expect_err(text);
            assert!(err.to_string().contains("level:N"), "{err}");
            assert!(err.to_string().contains(&format!("`{text}`")), "{err}");
        }
    }
}
