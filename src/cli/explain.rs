//! `--explain N` for the commands the bot plays (`demo`, `play`): after each new plan, the top
//! N placements of that decision with their per-feature terms, for the terminal or a panel.

use nestor::nes::{Console, Driver};
use nestor::search::explain::{explain_top, Explanation};
use nestor::search::rank::Ranker;
use nestor::search::{Situation, Standard};

/// The explanations of the decision the driver planned last.
pub struct Explain {
    ranker: Ranker<Standard>,
    n: usize,
    pub planned_at: Option<u64>,
    pub top: Vec<Explanation>,
    /// The window panel is shown (key E toggles it).
    pub panel: bool,
}

impl Explain {
    pub fn new(standard: &Standard, n: usize) -> Explain {
        Explain {
            ranker: Ranker::new(standard.clone()),
            n,
            planned_at: None,
            top: Vec::new(),
            panel: true,
        }
    }

    /// Explains the driver's decision if it planned a new one in the last frame; true then.
    /// The last decision is kept while there is none (between pieces, after the game).
    pub fn update<C: Console>(&mut self, driver: &Driver<C, Standard>) -> bool {
        let at = driver.planned_at();
        if at == self.planned_at {
            return false;
        }
        self.planned_at = at;
        if at.is_none() {
            // Between pieces the last decision stays on the panel, so it does not flicker.
            return false;
        }
        // The driver plans from the RAM at the end of the frame just run.
        self.top = match driver.snapshot().to_game() {
            Ok(game) => explain_top(&mut self.ranker, &Situation::of(&game), self.n),
            Err(_) => Vec::new(),
        };
        true
    }

    /// The decision made at `frame` on stderr: its tables, or with `json` one JSON line
    /// (`{"frame": F, "top": [...]}`, the placements as `analyze --json` gives them).
    pub fn print(&self, frame: u64, json: bool) {
        if json {
            let line = serde_json::json!({ "frame": frame, "top": self.top });
            eprintln!("{line}");
        } else {
            eprint!("frame {frame}:\n{}", self.text());
        }
    }

    /// The tables of the top placements.
    pub fn text(&self) -> String {
        self.top.iter().map(Explanation::table).collect()
    }
}

/// `--explain N`: at least one placement (`--explain 0` would explain nothing).
pub fn parse_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 placements would explain nothing: give 1 or more".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}`: {e}")),
    }
}
