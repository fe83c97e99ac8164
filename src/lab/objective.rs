//! What "better" means when two sets of weights are compared or tuned: one number per game
//! (lines, score at 29, max-out, lines after 29), higher is better.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::batch::GameResult;
use super::until::Until;

/// The figure a game is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// Lines cleared in the game.
    Lines,
    /// Score when level 29 was reached (the final score of a game that ended before).
    ScoreAt29,
    /// 1 when the score reached 999,999 before level 29, else 0.
    MaxOut,
    /// Lines cleared after the transition to level 29.
    LinesAfter29,
    /// Line clears made at level 155 or above before the game crashed, hung or topped out
    /// (before the rebirth): how far into the crash levels a game survives.
    ClearsPast155,
}

impl Objective {
    /// Every objective, in the order `--help` and the unknown-name error list them.
    pub const ALL: [Objective; 5] = [
        Objective::Lines,
        Objective::ScoreAt29,
        Objective::MaxOut,
        Objective::LinesAfter29,
        Objective::ClearsPast155,
    ];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Lines => "lines",
            Objective::ScoreAt29 => "score-at-29",
            Objective::MaxOut => "max-out",
            Objective::LinesAfter29 => "lines-after-29",
            Objective::ClearsPast155 => "clears-past-155",
        }
    }

    /// This game's figure.
    pub fn value(self, r: &GameResult) -> f64 {
        match self {
            Objective::Lines => r.stats.lines as f64,
            Objective::ScoreAt29 => r.score_at_29_or_end() as f64,
            Objective::MaxOut => f64::from(u8::from(r.maxed_out())),
            Objective::LinesAfter29 => f64::from(r.stats.lines_after_29().unwrap_or(0)),
            Objective::ClearsPast155 => f64::from(r.stats.clears_past_155),
        }
    }

    /// How far a game must play for its figure to be known: the figures at 29 are decided
    /// at the level-29 transition, the line counts at the top-out.
    pub fn until(self) -> Until {
        match self {
            Objective::ScoreAt29 | Objective::MaxOut => Until::Level(29),
            Objective::Lines | Objective::LinesAfter29 | Objective::ClearsPast155 => Until::TopOut,
        }
    }
}

impl Objective {
    /// The levels a game from `start` passes through while its figure is decided.
    pub fn levels(self, start: u8) -> std::ops::RangeInclusive<u8> {
        match self.until() {
            // The game ends at the transition to that level: no piece is played there.
            Until::Level(n) => start..=n.saturating_sub(1),
            _ => start..=u8::MAX,
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An objective name that is not one of [`Objective::ALL`].
#[derive(Debug, thiserror::Error)]
#[error("unknown objective `{0}` (expected one of: lines, score-at-29, max-out, lines-after-29, clears-past-155)")]
pub struct UnknownObjective(String);

impl FromStr for Objective {
    type Err = UnknownObjective;
    fn from_str(s: &str) -> Result<Objective, UnknownObjective> {
        Objective::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| UnknownObjective(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::selfplay::GameStats;
    use crate::search::follow::Tally;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for o in Objective::ALL {
            assert_eq!(o.name().parse::<Objective>().expect("known"), o);
        }
        let err = "score".parse::<Objective>().expect_err("unknown");
        assert!(err.to_string().contains("`score`"), "{err}");
    }

    #[test]
    fn values_of_a_game() {
        let r = GameResult {
            index: 0,
            seed: 0,
            stats: GameStats {
                counts: Tally {
                    lines: 250,
                    score: 999_999,
                    score_at_29: Some(950_000),
                    lines_at_29: Some(230),
                    maxed_before_29: false,
                    clears_past_155: 7,
                    ..Tally::default()
                },
                start_level: 19,
                ..GameStats::default()
            },
        };
        assert_eq!(Objective::Lines.value(&r), 250.0);
        assert_eq!(Objective::LinesAfter29.value(&r), 20.0);
        assert_eq!(Objective::ScoreAt29.value(&r), 950_000.0);
        assert_eq!(Objective::MaxOut.value(&r), 0.0);
        assert_eq!(Objective::ClearsPast155.value(&r), 7.0);
        assert_eq!(Objective::ClearsPast155.until(), Until::TopOut);
    }
}
