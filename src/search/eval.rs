//! Scores a (current, next) placement pair: the 17 features of meatfighter's 2018 level-19 bot
//! on the final board, weighted (lower is better), plus the four rules that kept it alive.

use crate::game::score::drop_speed;
use crate::game::Board;

use super::pairs::AfterFirst;
pub use super::pairs::PairOutcome;
use super::weights::{PhaseWeights, Weights};
use crate::game::Pos;
use crate::movegen::ReachLock;
use crate::movegen::ReachTable;

use feature_values::features_of;
pub use feature_values::visible_rows;
pub use feature_values::{features, lock_height, pair_features, Features};
pub use learned::{encode, encode_rows, Encoded};
pub use prefix::Prefix;
pub use rules::{ceiling_load, spawn_region_spans_a_row, spawn_room};

mod feature_values;
mod incremental;
#[cfg(test)]
mod incremental_tests;
mod learned;
#[cfg(test)]
mod oracle;
#[cfg(test)]
mod oracle_tests;
mod pair_values;
mod prefix;
mod rules;
#[cfg(test)]
mod tests;

/// Scores pairs for the search; lower is better, `None` means a rule rejects the pair.
pub trait Evaluator: Sync {
    /// The pair's value (lower is better), or `None` when a rule rejects it.
    fn evaluate(&self, outcome: &PairOutcome) -> Option<f64>;

    /// What the pairs of one first lock share: the pass over the board after it.
    fn prefix(&self, board: &Board) -> Prefix {
        Prefix::of_rows(&visible_rows(board))
    }

    /// `f` given the pass over the board after `after`'s first lock: what every pair of that
    /// lock is valued from, made once for all of them.
    fn with_first_pass<R>(&self, after: &AfterFirst, f: impl FnOnce(FirstPass) -> R) -> R
    where
        Self: Sized,
    {
        let prefix = self.prefix(&after.board);
        f(FirstPass {
            after,
            prefix: &prefix,
        })
    }

    /// What a pair's value at `level` counts for `lines` cleared by one of its locks: the part
    /// of a lock's worth the third-piece layer, which values the two locks after it, adds back.
    fn lines_value(&self, level: u8, lines: u32) -> f64;

    /// `evaluate`, for a pair whose board after the first lock gave `prefix`; the same value.
    fn evaluate_after(&self, _prefix: &Prefix, outcome: &PairOutcome) -> Option<f64> {
        self.evaluate(outcome)
    }

    /// `AfterFirst::best_pair_after` over `seconds` (the blind plan's pairs); the same pair.
    fn best_pair_after(&self, first: FirstPass, seconds: &[ReachLock]) -> Option<(f64, Pos)>
    where
        Self: Sized,
    {
        let at = seconds.iter().map(|l| l.at);
        first.after.best_pair_after(self, first.prefix, at)
    }

    /// `best_pair_after` with how many pairs over `seconds` have its value (the best pair
    /// included): the planner's tie test without a second pass over the pairs.
    fn best_pair_after_ties(
        &self,
        first: FirstPass,
        seconds: &[ReachLock],
    ) -> Option<(f64, Pos, usize)>
    where
        Self: Sized,
    {
        let (v, second) = self.best_pair_after(first, seconds)?;
        Some((v, second, first.after.count_equal(self, seconds, 0.0, v)))
    }

    /// `f(value, second)` for every pair over `seconds` no rule rejects, in their order, each
    /// valued as `best_pair_after` values it (the blind plan keeps them for the re-plan).
    fn each_pair_after(&self, first: FirstPass, seconds: &[ReachLock], f: impl FnMut(f64, Pos))
    where
        Self: Sized,
    {
        let at = seconds.iter().map(|l| l.at);
        first.after.each_value_after(self, first.prefix, at, f)
    }
}

/// A first lock's board and the evaluator's pass over it ([`Evaluator::prefix`]): what every
/// pair of that first lock is valued from, made once for all its next pieces.
#[derive(Clone, Copy)]
pub struct FirstPass<'a> {
    /// The first lock and the board after it.
    pub after: &'a AfterFirst,
    /// The evaluator's pass over `after.board`.
    pub prefix: &'a Prefix,
}

/// `Standard::reach_of` for a gravity with no reach table.
const NO_REACH: u8 = u8::MAX;

/// meatfighter's evaluator, by phase: the weighted features plus the Tetris, ceiling-penalty,
/// spawn-room and sealed-ceiling rules, and (where weighted) the columns out of reach.
#[derive(Clone, Debug)]
pub struct Standard {
    weights: Weights,
    /// Index into `weights.phases` for every level.
    phase_of: [u8; 256],
    /// Reach tables by gravity (frames per row), derived for the phases that weigh reach.
    reach: Vec<(u8, ReachTable)>,
    /// Index into `reach` for every level's gravity ([`NO_REACH`] when none was derived):
    /// one load per pair instead of a search.
    reach_of: [u8; 256],
    /// The CPU counts bits in one instruction (see [`Standard::evaluate_portable`]); only
    /// x86-64 asks (wasm32 has its own `popcnt` and no feature to detect).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    popcnt: bool,
}

impl Default for Standard {
    fn default() -> Standard {
        Standard::new(Weights::default())
    }
}

/// Reach tables derived once and lent to many evaluators: `tune` builds one per candidate,
/// block and thread, and deriving a table (~14 ms) was 4 % of a generation's CPU.
#[derive(Clone, Debug, Default)]
pub struct ReachTables(Vec<ReachTable>);

impl ReachTables {
    /// The tables `weights` uses: one per gravity of the levels whose phase weighs
    /// `unreachable_columns`.
    pub fn for_weights(weights: &Weights) -> ReachTables {
        ReachTables(
            needed_speeds(weights)
                .into_iter()
                .map(ReachTable::derive)
                .collect(),
        )
    }

    /// The table for `speed`: lent when derived here, else derived now.
    fn get_or_derive(&self, speed: u8) -> ReachTable {
        self.0
            .iter()
            .find(|t| t.speed() == speed)
            .cloned()
            .unwrap_or_else(|| ReachTable::derive(speed))
    }
}

/// The gravities of the levels whose phase weighs `unreachable_columns`, each once.
fn needed_speeds(weights: &Weights) -> Vec<u8> {
    let mut speeds = Vec::new();
    for level in 0..=255u8 {
        let speed = drop_speed(level);
        if weights.phases[phase_index(weights, level)]
            .weights
            .unreachable_columns
            != 0.0
            && !speeds.contains(&speed)
        {
            speeds.push(speed);
        }
    }
    speeds
}

/// The phase that plays `level` (the first, when none names it).
fn phase_index(weights: &Weights, level: u8) -> usize {
    weights
        .phases
        .iter()
        .position(|p| (p.from_level..=p.to_level).contains(&level))
        .unwrap_or(0)
}

impl Standard {
    /// The evaluator of `weights`, deriving the reach tables its phases weigh.
    pub fn new(weights: Weights) -> Standard {
        Standard::with_tables(weights, &ReachTables::default())
    }

    /// `new`, with the reach tables taken from `tables` where it has them.
    pub fn with_tables(weights: Weights, tables: &ReachTables) -> Standard {
        let mut phase_of = [0u8; 256];
        for level in 0..=255u8 {
            phase_of[usize::from(level)] = phase_index(&weights, level) as u8;
        }
        let reach: Vec<(u8, ReachTable)> = needed_speeds(&weights)
            .into_iter()
            .map(|s| (s, tables.get_or_derive(s)))
            .collect();
        let mut reach_of = [NO_REACH; 256];
        for (level, r) in (0..=255u8).zip(reach_of.iter_mut()) {
            if let Some(i) = reach.iter().position(|(s, _)| *s == drop_speed(level)) {
                *r = i as u8;
            }
        }
        Standard {
            weights,
            phase_of,
            reach,
            reach_of,
            popcnt: has_popcnt(),
        }
    }

    /// The weights by phase it plays with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The weights that play `level`.
    #[inline]
    pub fn at(&self, level: u8) -> &PhaseWeights {
        &self.weights.phases[usize::from(self.phase_of[usize::from(level)])].weights
    }

    /// The reach table for `level`'s gravity, if one was derived.
    #[inline]
    fn reach_at(&self, level: u8) -> Option<&ReachTable> {
        self.reach
            .get(usize::from(self.reach_of[usize::from(level)]))
            .map(|(_, t)| t)
    }

    /// Rules 3 and 4: is the final board still playable at `level`? (Every piece can spawn,
    /// and when the stack reaches the top `ceiling_rows` rows, some line can still be cleared.)
    pub fn playable(&self, board: &Board, level: u8) -> bool {
        self.playable_rows(&visible_rows(board), level)
    }

    fn playable_rows(&self, rows: &[u16; 20], level: u8) -> bool {
        let w = self.at(level);
        if !spawn_room(rows) {
            return false;
        }
        if !w.ceiling_rules {
            return true;
        }
        let near_ceiling = rows.iter().take(w.ceiling_rows as usize).any(|&r| r != 0);
        !near_ceiling || spawn_region_spans_a_row(rows)
    }
}

impl Evaluator for Standard {
    fn lines_value(&self, level: u8, lines: u32) -> f64 {
        self.at(level).lines_cleared * f64::from(lines)
    }

    #[inline]
    fn evaluate(&self, outcome: &PairOutcome) -> Option<f64> {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `popcnt` is set only where the CPU has the instruction.
            return unsafe { self.evaluate_popcnt(outcome) };
        }
        self.evaluate_portable(outcome)
    }

    #[inline]
    fn prefix(&self, board: &Board) -> Prefix {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `popcnt` is set only where the CPU has the instruction.
            return unsafe { prefix_popcnt(board) };
        }
        Prefix::of_rows(&visible_rows(board))
    }

    #[inline]
    fn evaluate_after(&self, prefix: &Prefix, outcome: &PairOutcome) -> Option<f64> {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: as above.
            return unsafe { self.evaluate_after_popcnt(prefix, outcome) };
        }
        self.evaluate_after_portable(prefix, outcome)
    }

    fn best_pair_after(&self, first: FirstPass, seconds: &[ReachLock]) -> Option<(f64, Pos)> {
        self.best_carried(first, seconds)
            .map(|(v, second, _)| (v, second))
    }

    fn best_pair_after_ties(
        &self,
        first: FirstPass,
        seconds: &[ReachLock],
    ) -> Option<(f64, Pos, usize)> {
        self.best_carried(first, seconds)
    }

    fn each_pair_after(&self, first: FirstPass, seconds: &[ReachLock], f: impl FnMut(f64, Pos)) {
        self.each_carried(first, seconds, f)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn prefix_popcnt(board: &Board) -> Prefix {
    Prefix::of_rows(&visible_rows(board))
}

impl Standard {
    /// `evaluate` from the first board's pass: a second lock that cleared no line changed
    /// a few rows, and only their features are redone (`eval/incremental.rs`).
    #[inline(always)]
    fn evaluate_after_portable(&self, prefix: &Prefix, outcome: &PairOutcome) -> Option<f64> {
        if outcome.lines_second != 0 {
            return self.evaluate_portable(outcome);
        }
        let rows = visible_rows(outcome.board);
        if !self.playable_rows(&rows, outcome.level) {
            return None;
        }
        let board = prefix.features_after(&rows, &outcome.second);
        Some(self.value(outcome, &rows, board, None, ReachTable::unreachable))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn evaluate_after_popcnt(&self, prefix: &Prefix, outcome: &PairOutcome) -> Option<f64> {
        self.evaluate_after_portable(prefix, outcome)
    }

    /// The evaluation, inlined into both builds below: the portable one and, where the CPU
    /// has it, one with the `popcnt` instruction (the default x86-64 target lacks it, and
    /// the features are mostly bit counts). Same integers, so the same value bit for bit.
    #[inline(always)]
    fn evaluate_portable(&self, outcome: &PairOutcome) -> Option<f64> {
        let rows = visible_rows(outcome.board);
        if !self.playable_rows(&rows, outcome.level) {
            return None;
        }
        Some(self.value(
            outcome,
            &rows,
            features_of(&rows),
            None,
            ReachTable::unreachable,
        ))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn evaluate_popcnt(&self, outcome: &PairOutcome) -> Option<f64> {
        self.evaluate_portable(outcome)
    }
}

impl Standard {
    /// The value of a playable pair from its board features (`lines_cleared` and
    /// `lock_height` are added here): the weighted sum, the rules (the ceiling load is
    /// `ceiling` when the caller knows it, else counted on `rows`), and the columns out of
    /// reach as `unreachable` counts them.
    #[inline(always)]
    fn value(
        &self,
        outcome: &PairOutcome,
        rows: &[u16; 20],
        board: Features,
        ceiling: Option<u32>,
        unreachable: impl FnOnce(&ReachTable, &Board) -> u32,
    ) -> f64 {
        let w = self.at(outcome.level);
        let mut score = w.score(&Features {
            lines_cleared: outcome.lines_first + outcome.lines_second,
            lock_height: lock_height(&outcome.first) + lock_height(&outcome.second),
            ..board
        });
        if w.ceiling_rules {
            let top = ceiling.unwrap_or_else(|| ceiling_load(rows, w.top_rows));
            score += w.top_rows_penalty * f64::from(top);
        }
        if w.tetris_rules {
            if outcome.lines_first == 4 {
                score -= w.tetris_now_bonus;
            }
            if outcome.lines_second == 4 {
                score -= w.tetris_next_bonus;
            }
        }
        if w.unreachable_columns != 0.0 {
            if let Some(table) = self.reach_at(outcome.level) {
                score += w.unreachable_columns * f64::from(unreachable(table, outcome.board));
            }
        }
        if let Some(learned) = &w.learned {
            score += learned.value(rows, &board);
        }
        score
    }
}

fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}
