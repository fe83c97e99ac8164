//! `--explain N` for the commands the bot plays (`demo`, `play`): after each new plan, the top
//! N placements of that decision with their per-feature terms, for the terminal or a panel.

pub use nestor::nes::settings::parse_count;
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
    #[cfg_attr(not(feature = "window"), allow(dead_code))]
    pub panel: bool,
    /// The first placement is the planner's pick by its third-piece look-ahead, not the best
    /// two-piece value: the text says so, or the order would look wrong.
    pub pick_first: bool,
}

impl Explain {
    pub fn new(standard: &Standard, n: usize) -> Explain {
        Explain {
            ranker: Ranker::new(standard.clone()),
            n,
            planned_at: None,
            top: Vec::new(),
            panel: true,
            pick_first: false,
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
        (self.top, self.pick_first) = match driver.snapshot().to_game() {
            Ok(game) => {
                let situation = Situation::of(&game);
                let pick_first = self.ranker.rank(&situation).is_some_and(|r| r.pick_first);
                (
                    explain_top(&mut self.ranker, &situation, self.n),
                    pick_first,
                )
            }
            Err(_) => (Vec::new(), false),
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

    /// The tables of the top placements, with why the first is first when its own value is
    /// not the best.
    pub fn text(&self) -> String {
        let mut text = String::new();
        if self.pick_first && self.top.len() > 1 {
            text.push_str(PICK_NOTE);
            text.push('\n');
        }
        text.extend(self.top.iter().map(Explanation::table));
        text
    }
}

/// Why a placement of worse value can be listed first.
pub const PICK_NOTE: &str = "note: #1 is the bot's pick by its third-piece look-ahead (the \
expected value over the piece after next), which can differ from the best two-piece value; the \
others follow by two-piece value";

#[cfg(test)]
mod tests {
    use super::*;
    use nestor::search::explain::PlacementView;

    fn entry(rank: usize, value: f64) -> Explanation {
        Explanation {
            rank,
            lock: PlacementView {
                piece: 'T',
                x: 5,
                y: 18,
                orientation: 2,
            },
            next_lock: None,
            value: Some(value),
            phase: "score".into(),
            terms: Vec::new(),
            crash_risk: None,
        }
    }

    #[test]
    fn a_pick_listed_before_a_better_value_says_why() {
        let mut e = Explain::new(&Standard::new(nestor::search::Weights::default_set()), 2);
        e.top = vec![entry(1, 5.0), entry(2, 3.0)];
        assert!(!e.text().contains("third-piece"));
        e.pick_first = true;
        assert!(e.text().starts_with(PICK_NOTE), "{}", e.text());
        assert!(parse_count("0").is_err());
        assert_eq!(parse_count("4"), Ok(4));
    }
}
