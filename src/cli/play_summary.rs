//! What `nestor play` reports at the end: one line per game (how far it went, how it ended)
//! and the run's totals, labelled as such, as text or as JSON.

use std::path::PathBuf;

use serde::Serialize;

use nestor::nes::GameCounts;
use nestor::search::follow::Crash;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    ToppedOut,
    /// A limit (`--pieces`, `--frames`) or the window's Esc stopped the run in this game.
    Stopped,
    Interrupted,
    /// The cartridge froze or the driver failed in this game.
    Failed,
    /// The cartridge crashed or hung (`crash` says how and where).
    Crashed,
    /// The game reached the run's `--until` goal.
    Reached,
}

impl GameEnd {
    fn text(self) -> &'static str {
        match self {
            GameEnd::ToppedOut => "topped out",
            GameEnd::Stopped => "stopped",
            GameEnd::Interrupted => "interrupted",
            GameEnd::Failed => "failed",
            GameEnd::Crashed => "crashed",
            GameEnd::Reached => "reached the --until goal",
        }
    }
}

/// One game in the summary.
#[derive(Debug, Serialize)]
pub struct GameSummary {
    pub score: u32,
    pub lines: u32,
    pub level: u8,
    /// Lines cleared from the level-29 transition on (`None`: the game never reached 29).
    pub lines_after_29: Option<u32>,
    pub pieces: u32,
    pub tetrises: u32,
    pub tetris_rate: f64,
    pub desyncs: u32,
    pub end: GameEnd,
    /// How and where the cartridge stopped, when the game ended `crashed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crash: Option<Crash>,
}

impl GameSummary {
    pub fn new(c: &GameCounts, end: GameEnd) -> GameSummary {
        GameSummary {
            score: c.score,
            lines: c.lines,
            level: c.level,
            lines_after_29: c.lines_at_29.map(|_| c.lines_after_29()),
            pieces: c.pieces,
            tetrises: c.tetrises,
            tetris_rate: c.tetris_rate(),
            desyncs: c.desyncs,
            end,
            crash: c.crash,
        }
    }
}

/// Sums over every game of the run.
#[derive(Debug, Serialize)]
pub struct Totals {
    pub games: usize,
    pub pieces: u32,
    pub lines: u32,
    pub tetrises: u32,
    pub tetris_rate: f64,
    pub desyncs: u32,
    /// Frames whose pad `--inject-faults` corrupted.
    pub faults_injected: u64,
    /// Line clears the driver played ahead on a copy of the console (from level 150); those
    /// where the copy crashed or hung (each planned around); those whose outcome the rules
    /// model, played beside the copy, left open; those where it decided the other outcome.
    pub run_ahead_checks: u64,
    pub run_ahead_crashes: u64,
    pub run_ahead_open: u64,
    pub run_ahead_disagreements: u64,
    pub frames: u64,
    pub seconds: f64,
    pub frames_per_second: f64,
}

/// The run's summary (`--json` prints it as is).
#[derive(Debug, Serialize)]
pub struct Summary<S: Serialize> {
    /// The ROM file, or "model console, seed N".
    pub rom: String,
    /// The player profile in one line (JSON has it in full under `settings`).
    #[serde(skip)]
    pub profile: String,
    pub settings: S,
    /// The last game's score, lines and level (each game is in `games`, sums in `totals`).
    pub score: u32,
    pub lines: u32,
    pub level: u8,
    pub frames: u64,
    pub games: Vec<GameSummary>,
    pub totals: Totals,
    pub record: Option<PathBuf>,
}

impl<S: Serialize> Summary<S> {
    pub fn print(&self, json: bool) -> anyhow::Result<()> {
        if json {
            println!("{}", serde_json::to_string_pretty(self)?);
            return Ok(());
        }
        for (i, g) in self.games.iter().enumerate() {
            let after_29 = match g.lines_after_29 {
                Some(n) => format!(" ({n} after level 29)"),
                None => String::new(),
            };
            println!(
                "game {}: score {}, lines {}{after_29}, level {}, pieces {}, tetris rate {:.1}%, \
                 desyncs {}; {}",
                i + 1,
                g.score,
                g.lines,
                g.level,
                g.pieces,
                g.tetris_rate * 100.0,
                g.desyncs,
                match g.crash {
                    Some(c) => format!(
                        "crashed ({} at frame {}, level {}, {} lines)",
                        c.kind, c.frame, c.level, c.lines
                    ),
                    None => g.end.text().to_string(),
                }
            );
        }
        println!("profile {}", self.profile);
        let t = &self.totals;
        let faults = if t.faults_injected > 0 {
            format!(", {} injected faults", t.faults_injected)
        } else {
            String::new()
        };
        println!(
            "total over {} game{}: pieces {}, lines {}, tetris rate {:.1}%, desyncs {}{faults}",
            t.games,
            if t.games == 1 { "" } else { "s" },
            t.pieces,
            t.lines,
            t.tetris_rate * 100.0,
            t.desyncs
        );
        if t.run_ahead_checks > 0 {
            println!(
                "run-ahead: {} line clears checked on a copy of the console, {} crashed there \
                 (planned around), {} left open by the model, {} disagreements with the model",
                t.run_ahead_checks,
                t.run_ahead_crashes,
                t.run_ahead_open,
                t.run_ahead_disagreements
            );
        }
        println!(
            "{} frames in {:.2} s: {:.0} frames per second ({:.1}x real time)",
            t.frames,
            t.seconds,
            t.frames_per_second,
            t.frames_per_second / 60.0988
        );
        if let Some(r) = &self.record {
            println!("recorded {}", r.display());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestor::game::CrashKind;

    #[test]
    fn a_crashed_game_says_so_with_its_kind_and_place() {
        let crash = Crash {
            kind: CrashKind::Hang,
            frame: 141_155,
            level: 157,
            lines: 1512,
        };
        let counts = GameCounts {
            lines: 1512,
            level: 157,
            crash: Some(crash),
            ..GameCounts::default()
        };
        let json = serde_json::to_value(GameSummary::new(&counts, GameEnd::Crashed)).unwrap();
        assert_eq!(json["end"], "crashed");
        assert_eq!(json["crash"]["kind"], "hang");
        assert_eq!(json["crash"]["frame"], 141_155);
        assert_eq!(json["crash"]["level"], 157);
        let plain =
            serde_json::to_value(GameSummary::new(&GameCounts::default(), GameEnd::ToppedOut))
                .unwrap();
        assert!(plain.get("crash").is_none(), "{plain}");
    }
}
