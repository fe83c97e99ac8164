//! Why a placement is worth what it is: the standard evaluator's value of its best pair split
//! into one term per feature and rule (feature value × weight = contribution), by weights key.

// Feature names come from `Features::terms` and weights from `PhaseWeights::floats`, both by
// their weights-file key, so this file names no feature itself. The rule terms are named by
// the key of their weight. A test checks that the terms add up to `Standard::evaluate`.

use crate::game::Pos;
use serde::Serialize;

use crate::game::score::drop_speed;

use super::eval::{ceiling_load, encode_rows, pair_features, visible_rows, PairOutcome, Standard};
use super::plan::Situation;
use super::rank::{Ranked, Ranker};
use super::weights::PhaseWeights;
use crate::movegen::ReachTable;

/// One term of a value: `contribution = value × weight`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    /// The weights-file key of the feature or rule.
    pub feature: &'static str,
    /// The feature's value, or the rule's count (ceiling load, 1 for a Tetris, pairs out of
    /// reach).
    pub value: f64,
    /// The weight from the phase's table; a Tetris bonus's is negated.
    pub weight: f64,
    /// `value × weight`: this term's part of the total.
    pub contribution: f64,
}

/// A placement's value and its terms, for `--explain`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The placement's rank in the decision (1 = best, equal values share one).
    pub rank: usize,
    /// The placement as (x, y, orientation) and its piece.
    pub lock: PlacementView,
    /// The next piece's lock in the best pair, if there is a next piece and a value.
    pub next_lock: Option<PlacementView>,
    /// The total (the sum of the contributions); `None` when the rules reject every pair.
    pub value: Option<f64>,
    /// The weights phase that scored it.
    pub phase: String,
    /// The features, then the rules that apply; empty when `value` is `None`.
    pub terms: Vec<Term>,
    /// Why the crash guard refuses or weighs this lock (its line-clear frame may crash the
    /// cartridge), from level 140 on; `None` when its frame is safe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crash_risk: Option<String>,
}

/// A placement in plain numbers, for JSON and tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlacementView {
    /// The piece's letter (`T`, `J`, …).
    pub piece: char,
    /// The pivot column (0-based).
    pub x: u8,
    /// The pivot row (−2 and −1 are the hidden rows).
    pub y: i8,
    /// Orientation id ($00-$12).
    pub orientation: u8,
}

impl PlacementView {
    /// In words, as the coach prints a place: "x 5 y 16 o 02".
    pub fn words(&self) -> String {
        format!("x {} y {} o {:02x}", self.x, self.y, self.orientation)
    }
}

impl From<&Pos> for PlacementView {
    fn from(p: &Pos) -> PlacementView {
        PlacementView {
            piece: p.orientation.piece().letter(),
            x: p.x,
            y: p.y as i8,
            orientation: p.orientation.id(),
        }
    }
}

/// Splits values of `Standard` into terms; keeps the reach tables it derives.
pub struct Explainer<'a> {
    standard: &'a Standard,
    reach: Vec<(u8, ReachTable)>,
}

impl<'a> Explainer<'a> {
    /// An explainer of `standard`'s values, no reach table derived yet.
    pub fn new(standard: &'a Standard) -> Explainer<'a> {
        Explainer {
            standard,
            reach: Vec::new(),
        }
    }

    /// The terms of one pair under the weights of the decision's level.
    pub fn terms(&mut self, outcome: &PairOutcome) -> Vec<Term> {
        let w: &PhaseWeights = self.standard.at(outcome.level);
        let weight_of = |key: &str| {
            w.floats()
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(0.0, |(_, v)| *v)
        };
        let mut terms: Vec<Term> = pair_features(outcome)
            .terms()
            .iter()
            .map(|&(feature, value)| {
                let weight = weight_of(feature);
                let value = f64::from(value);
                Term {
                    feature,
                    value,
                    weight,
                    contribution: value * weight,
                }
            })
            .collect();
        let mut rule = |feature: &'static str, value: f64, weight: f64| {
            terms.push(Term {
                feature,
                value,
                weight,
                contribution: value * weight,
            })
        };
        if w.ceiling_rules {
            let rows: Vec<u16> = outcome.board.visible().to_vec();
            let mut visible = [0u16; 20];
            for (d, s) in visible.iter_mut().zip(rows) {
                *d = s & crate::game::board::FULL_ROW;
            }
            let load = ceiling_load(&visible, w.top_rows);
            rule("top_rows_penalty", f64::from(load), w.top_rows_penalty);
        }
        if w.tetris_rules {
            let now = f64::from(u8::from(outcome.lines_first == 4));
            let next = f64::from(u8::from(outcome.lines_second == 4));
            rule("tetris_now_bonus", now, -w.tetris_now_bonus);
            rule("tetris_next_bonus", next, -w.tetris_next_bonus);
        }
        if w.unreachable_columns != 0.0 {
            let speed = drop_speed(outcome.level);
            if !self.reach.iter().any(|(s, _)| *s == speed) {
                self.reach.push((speed, ReachTable::derive(speed)));
            }
            let table = self.reach.iter().find(|(s, _)| *s == speed).map(|(_, t)| t);
            if let Some(t) = table {
                let n = t.unreachable(outcome.board);
                rule("unreachable_columns", f64::from(n), w.unreachable_columns);
            }
        }
        if let Some(learned) = &w.learned {
            // The learned value of the final board, as one term of weight 1.
            let value = learned.value_of(&encode_rows(&visible_rows(outcome.board)));
            rule("learned", value, 1.0);
        }
        terms
    }

    /// The explanation of a ranked placement of decision `s`: the terms of its best pair.
    pub fn explain(&mut self, s: &Situation, entry: &Ranked) -> Explanation {
        let p1 = entry.lock;
        let mut board1 = s.board;
        let lines_first = board1.lock(p1.x, p1.y, p1.orientation);
        let mut board = board1;
        let (second, lines_second) = match entry.next_lock {
            Some(p2) => (p2, board.lock(p2.x, p2.y, p2.orientation)),
            None => (p1, 0),
        };
        let outcome = PairOutcome {
            first: p1,
            second,
            lines_first,
            lines_second,
            board: &board,
            level: s.level,
        };
        let terms = if entry.value.is_some() {
            self.terms(&outcome)
        } else {
            Vec::new()
        };
        Explanation {
            rank: entry.rank,
            lock: PlacementView::from(&p1),
            next_lock: entry.next_lock.as_ref().map(PlacementView::from),
            value: entry.value,
            phase: self.standard.weights().phase(s.level).name.clone(),
            terms,
            crash_risk: crash_note(s, &board1, lines_first),
        }
    }
}

/// What `--explain` says about a lock's line-clear frame when it is not safe with the plain
/// drop (the planner's paths at gravity 1 bring no soft drop of their own): refused or weighed,
/// or made safe by a soft drop (`search::plan::soft_drop`: the planner then holds Down alone for the
/// path's last frames, where the path leaves room for it).
fn crash_note(
    s: &Situation,
    board_after: &crate::game::board::Board,
    cleared: u32,
) -> Option<String> {
    use crate::game::crash::{ClearRisk, MAX_HOLD_DOWN_POINTS};
    use crate::search::crash_guard::{
        in_stretch, lock_risk, thin_margin_cost, GUARD_FROM_LEVEL, PREFERRED_MARGIN,
    };
    if s.level < GUARD_FROM_LEVEL {
        return None;
    }
    let at = (s.level, s.lines);
    let what = match lock_risk(board_after, at, cleared, Some(0), false) {
        r @ ClearRisk::Safe { margin_cycles } if margin_cycles < PREFERRED_MARGIN => {
            return Some(format!(
                "its line-clear frame is safe with the plain drop ({cleared} lines), but only \
                 {margin_cycles} cycles from a danger window: the planner prefers \
                 {PREFERRED_MARGIN} or more and weighs it at {:.1}",
                thin_margin_cost(r)
            ));
        }
        ClearRisk::Safe { .. } => return None,
        ClearRisk::MayCrash => "may crash",
        ClearRisk::Crashes => "would hang or crash",
    };
    let soft = (2..=MAX_HOLD_DOWN_POINTS)
        .find(|&h| lock_risk(board_after, at, cleared, Some(h), false).is_safe());
    let why = if lock_risk(board_after, at, cleared, Some(0), true).is_safe() {
        "hiding the next-piece preview (Select, pressed after the lock) makes it safe: the \
         frame then skips the preview's sprites (the bot reads the next piece from RAM)"
            .to_string()
    } else if let Some(h) = soft {
        format!(
            "a soft drop of {h} rows makes it safe: the planner holds Down alone for \
             the path's last frames (refused as a crash risk where the path leaves no room)"
        )
    } else if in_stretch(s.level, s.lines, true) {
        "weighed at a cost per line: no lock of its kind is safe at this level and line count"
            .to_string()
    } else {
        "refused as a crash risk while a safe lock exists".to_string()
    };
    Some(format!(
        "its line-clear frame {what} with the plain drop ({cleared} lines): {why}"
    ))
}

/// The top `n` placements of decision `s` with their terms (the planner's view of it).
pub fn explain_top(ranker: &mut Ranker<Standard>, s: &Situation, n: usize) -> Vec<Explanation> {
    let Some(ranking) = ranker.rank(s) else {
        return Vec::new();
    };
    let mut explainer = Explainer::new(&ranker.evaluator);
    ranking
        .entries
        .iter()
        .take(n)
        .map(|e| explainer.explain(s, e))
        .collect()
}

impl Explanation {
    /// A plain-text table: one header line per placement, then one line per term whose
    /// contribution is not zero.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let value = self
            .value
            .map_or("rejected by the rules".to_string(), |v| format!("{v:.3}"));
        let next = self.next_lock.map_or(String::new(), |n| {
            format!(
                ", next {} at x {} y {} o {:02x}",
                n.piece, n.x, n.y, n.orientation
            )
        });
        out.push_str(&format!(
            "#{} {} at x {} y {} o {:02x}{next}: value {value} (phase {})\n",
            self.rank, self.lock.piece, self.lock.x, self.lock.y, self.lock.orientation, self.phase
        ));
        if let Some(note) = &self.crash_risk {
            out.push_str(&format!("    crash guard: {note}\n"));
        }
        if !self.terms.is_empty() {
            out.push_str(&format!(
                "    {:<24} {:>9} {:>10} {:>12}\n",
                "feature", "value", "weight", "contribution"
            ));
        }
        for t in self.terms.iter().filter(|t| t.contribution != 0.0) {
            out.push_str(&format!(
                "    {:<24} {:>9} {:>10.4} {:>12.3}\n",
                t.feature, t.value, t.weight, t.contribution
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::{Board, HIDDEN_ROWS};
    use crate::search::rank::Ranker;
    use crate::search::{Situation, Weights};

    /// A stack with holes and a well, so that most features are not zero.
    pub(crate) fn messy_situation(level: u8, seed: u64) -> Situation {
        let mut s = Situation::of(&crate::game::Game::seeded(level, seed));
        s.active.ary = 0;
        let mut b = Board::EMPTY;
        for r in 12..20 {
            b.rows[HIDDEN_ROWS + r] = 0x3FF & !(1 << 9) & !(1 << ((r * 3) % 9));
        }
        b.rows[HIDDEN_ROWS + 11] = 0b0000_1111;
        s.board = b;
        s
    }

    /// The terms add up to the evaluator's value for every placement of several decisions,
    /// at levels of both default phases (the killscreen phase weighs reach).
    #[test]
    fn terms_add_up_to_the_value() {
        for set in ["default", "12hz", "15hz"] {
            terms_add_up_under(Weights::built_in(set).unwrap(), set);
        }
    }

    fn terms_add_up_under(weights: Weights, set: &str) {
        let learned = weights.at(29).learned.is_some();
        let standard = Standard::new(weights);
        let mut ranker = Ranker::new(standard.clone());
        let mut explainer = Explainer::new(&standard);
        let mut checked = 0;
        for (level, seed) in [(18u8, 3u64), (19, 11), (29, 5)] {
            let s = messy_situation(level, seed);
            let ranking = ranker.rank(&s).unwrap();
            for e in &ranking.entries {
                let x = explainer.explain(&s, e);
                let sum: f64 = x.terms.iter().map(|t| t.contribution).sum();
                match e.value {
                    Some(v) => assert!((sum - v).abs() < 1e-6, "level {level}: {sum} vs {v}"),
                    None => assert!(x.terms.is_empty()),
                }
                checked += 1;
            }
            let x = explainer.explain(&s, &ranking.entries[0]);
            let nonzero = x.terms.iter().filter(|t| t.contribution != 0.0).count();
            if level == 29 && learned {
                // A learned phase: the lines and the learned value, nothing else.
                assert!(x.table().contains("learned"), "{set}: {}", x.table());
            } else {
                assert!(nonzero >= 4, "{set} level {level}: {}", x.table());
                assert!(x.table().contains("column_holes"), "{}", x.table());
            }
        }
        assert!(checked > 30, "{set}");
    }

    /// An I at its spawn at `level` and BCD `lines`, on a board whose `rows` lack only
    /// column 9; the explanation of every ranked lock clearing `n` lines and how many there
    /// are, with the ranker and the situation.
    fn explained_clears(
        level: u8,
        lines: [u8; 2],
        rows: &[i8],
        n: u32,
    ) -> (Vec<Explanation>, Situation, Ranker<Standard>) {
        use crate::game::piece::Piece;
        let mut s = messy_situation(29, 5);
        let mut b = Board::EMPTY;
        for &r in rows {
            for c in 0..9 {
                b.set(r, c);
            }
        }
        s.board = b;
        s.level = level;
        s.lines = lines;
        s.active = crate::game::active::Active::spawn(Piece::I.spawn().id(), 0, 0);
        let standard = Standard::new(Weights::default_set());
        let mut ranker = Ranker::new(standard.clone());
        let mut explainer = Explainer::new(&standard);
        let ranking = ranker.rank(&s).unwrap();
        let mut out = Vec::new();
        for e in &ranking.entries {
            let mut board = s.board;
            let x = explainer.explain(&s, e);
            if board.lock(e.lock.x, e.lock.y, e.lock.orientation) == n {
                out.push(x);
            } else if let Some(note) = &x.crash_risk {
                assert!(note.contains("cycles from a danger window"), "{note}");
            }
        }
        (out, s, ranker)
    }

    /// Level 157, 1,571 lines: a single's frame may crash with the preview shown, a lock
    /// without a line is safe. The I standing in column 9 (row 19 lacks only it) is explained
    /// as made safe by hiding the preview (394 cycles fewer land it below every window).
    #[test]
    fn a_lock_whose_clear_may_crash_is_explained_with_the_preview_lever() {
        let (singles, mut s, mut ranker) = explained_clears(157, [0x71, 0x0F], &[19], 1);
        assert!(!singles.is_empty());
        for x in &singles {
            assert!(
                x.table().contains("hiding the next-piece preview"),
                "{}",
                x.table()
            );
        }
        s.level = 100;
        let e = &ranker.rank(&s).unwrap().entries[0];
        let standard = Standard::new(Weights::default_set());
        assert_eq!(Explainer::new(&standard).explain(&s, e).crash_risk, None);
    }

    /// Level 169, 1,630 lines: a double's frame may crash with the plain drop and the
    /// preview shown, and is safe with the preview hidden (the planner's first lever, before
    /// the soft drop); the explanation says so.
    #[test]
    fn a_double_made_safe_by_hiding_the_preview_is_explained() {
        let (doubles, ..) = explained_clears(169, [0x30, 16], &[18, 19], 2);
        assert!(!doubles.is_empty());
        for x in &doubles {
            let t = x.table();
            assert!(t.contains("hiding the next-piece preview"), "{t}");
        }
    }

    /// A lock whose frame is safe but closer than the preferred margin to a window says how
    /// close and what it costs; one at the preferred margin or farther has no note.
    #[test]
    fn a_thin_margin_is_explained_and_a_wide_one_is_not() {
        use crate::game::crash::ClearRisk;
        use crate::search::crash_guard::{lock_risk, PREFERRED_MARGIN};
        let mut s = messy_situation(29, 5);
        let (mut thin, mut wide) = (0, 0);
        for level in 150..=255u8 {
            for lines in (0..=0x20u8).flat_map(|h| (0..0x99u8).step_by(7).map(move |l| [l, h])) {
                (s.level, s.lines) = (level, lines);
                for cleared in 0..=4 {
                    let risk = lock_risk(&Board::EMPTY, (level, lines), cleared, Some(0), false);
                    let ClearRisk::Safe { margin_cycles } = risk else {
                        continue;
                    };
                    let note = crash_note(&s, &Board::EMPTY, cleared);
                    if margin_cycles < PREFERRED_MARGIN {
                        thin += 1;
                        let note = note.expect("a thin margin has a note");
                        assert!(
                            note.contains(&format!("only {margin_cycles} cycles")),
                            "{note}"
                        );
                    } else {
                        wide += 1;
                        assert_eq!(note, None);
                    }
                }
            }
        }
        assert!(thin > 0 && wide > thin, "{thin} thin, {wide} wide");
    }
}
