//! Scores a (current, next) placement pair: the 17 features of meatfighter's 2018 level-19 bot
//! on the final board, weighted (lower is better), plus the four rules that kept it alive.

// Features read only the 20 visible rows (numbered 0..19 from the top) as bit rows, with the
// column profile computed once per call; nothing allocates. Where a feature's name leaves room,
// the definition follows the original evaluator (see each doc line).

use crate::game::board::{FULL_ROW, HIDDEN_ROWS};
use crate::game::score::drop_speed;
use crate::game::{Board, Orientation};

use super::features::{with_features, FEATURE_COUNT};
use super::pairs::AfterFirst;
pub use super::pairs::PairOutcome;
use super::weights::{PhaseWeights, Weights};
use crate::game::Pos;
use crate::movegen::ReachLock;
use crate::movegen::ReachTable;

pub use incremental::Prefix;
pub use rules::{ceiling_load, spawn_region_spans_a_row, spawn_room};

mod incremental;
#[cfg(test)]
mod incremental_tests;
#[cfg(test)]
mod oracle;
#[cfg(test)]
mod oracle_tests;
mod pair_values;
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

macro_rules! features_struct {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// The 17 feature values, by the names of the original evaluator (`search::features`).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Features {
            $(
                $(#[doc = $doc])*
                pub $name: u32,
            )*
        }

        impl Features {
            /// Every feature by its weights-file key, in file order (for debug views).
            pub fn terms(&self) -> [(&'static str, u32); FEATURE_COUNT] {
                [$((stringify!($name), self.$name)),*]
            }
        }

        impl PhaseWeights {
            /// The weighted feature sum, without the rules: the products added in file order.
            #[inline]
            pub fn score(&self, f: &Features) -> f64 {
                let terms = [$(self.$name * f64::from(f.$name)),*];
                let mut sum = terms[0];
                for t in &terms[1..] {
                    sum += t;
                }
                sum
            }
        }
    };
}
with_features!(features_struct);

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
        score
    }
}

/// All 17 features of a pair: the two placement features plus the final board's.
pub fn pair_features(outcome: &PairOutcome) -> Features {
    Features {
        lines_cleared: outcome.lines_first + outcome.lines_second,
        lock_height: lock_height(&outcome.first) + lock_height(&outcome.second),
        ..features(outcome.board)
    }
}

/// The 15 board features (`lines_cleared` and `lock_height` are 0: they belong to placements).
pub fn features(board: &Board) -> Features {
    features_of(&visible_rows(board))
}

/// Rows the piece's lowest cell sits above the floor: 19 − (pivot y + largest dy).
#[inline]
pub fn lock_height(p: &Pos) -> u32 {
    let max_dy = MAX_DY[usize::from(p.orientation.id())];
    let bottom = i32::from(p.y as i8) + i32::from(max_dy);
    (19 - bottom).max(0) as u32
}

/// Per orientation id, the largest row offset of its cells (`Orientation::extent`'s last).
const MAX_DY: [i8; Orientation::NUM] = max_dys();

const fn max_dys() -> [i8; Orientation::NUM] {
    let mut dys = [0i8; Orientation::NUM];
    let mut id = 0;
    while id < Orientation::NUM {
        if let Some(o) = Orientation::new(id as u8) {
            dys[id] = o.extent().3;
        }
        id += 1;
    }
    dys
}

/// The 15 board features of the visible rows (0..19 from the top, masked to ten columns), in
/// one pass down the pile on whole bit rows (the definitions, feature by feature, are the
/// oracle's in `eval/oracle.rs`, which the tests compare against on random boards):
/// - wells: empty cells above their column's top (not `covered`) with both neighbours
///   filled (walls count); per-column counts of 1, 2 and 3 or more as three bit masks;
/// - holes: empty cells under a filled one; their depth is the row minus the column's top;
/// - column transitions: filled/empty changes between a row and the one above, in columns
///   already covered; row transitions: along each row with walls, from the pile's top down.
#[inline(always)]
fn features_of(rows: &[u16; 20]) -> Features {
    let pile_top = rows.iter().position(|&r| r != 0).unwrap_or(20);
    let mut f = Features {
        min_column_hole_depth: 20,
        ..Features::default()
    };
    // 16 entries, indexed by a masked bit position: no bounds check in the loops below.
    let mut top = [20u8; 16];
    let mut covered = 0u16;
    // The row where the last column was first covered (20: some column never is).
    let mut full_at = 20u32;
    let (mut wells1, mut wells2, mut wells3) = (0u16, 0u16, 0u16);
    let mut above = 0u16;
    for (r, &row) in rows.iter().enumerate().skip(pile_top) {
        let holes = !row & above;
        if holes != 0 {
            let n = holes.count_ones();
            f.column_holes += n;
            f.weighted_column_holes += (r as u32 + 1) * n;
            let mut h = holes;
            while h != 0 {
                let depth = (r - usize::from(top[h.trailing_zeros() as usize & 15])) as u32;
                f.column_hole_depths += depth;
                f.min_column_hole_depth = f.min_column_hole_depth.min(depth);
                f.max_column_hole_depth = f.max_column_hole_depth.max(depth);
                h &= h - 1;
            }
        }
        f.column_transitions += ((row ^ above) & covered).count_ones();
        let mut new = row & !covered;
        if new != 0 {
            covered |= row;
            if covered == FULL_ROW {
                full_at = r as u32;
            }
            while new != 0 {
                top[new.trailing_zeros() as usize & 15] = r as u8;
                new &= new - 1;
            }
        }
        let walls = !covered & ((row << 1) | 1) & ((row >> 1) | (1 << 9)) & FULL_ROW;
        f.well_cells += walls.count_ones();
        wells3 |= wells2 & walls;
        wells2 |= wells1 & walls;
        wells1 |= walls;
        let walled = (row << 1) | 1 | (1 << 11);
        f.row_transitions += ((walled ^ (walled >> 1)) & 0x7FF).count_ones();
        // Running sums: a column first covered in row r adds 1 to each row from r to 19, its
        // height 20 − r; a filled cell in row r likewise adds its weight 20 − r.
        f.column_heights += covered.count_ones();
        f.solid_cells += row.count_ones();
        f.weighted_solid_cells += f.solid_cells;
        above = row;
    }
    f.deep_wells = wells3.count_ones();
    f.pile_height = 20 - pile_top as u32;
    // The lowest column is 0 high until every column is covered.
    f.column_height_spread = f.pile_height - (20 - full_at);
    let mut variance = 0;
    for c in 1..10 {
        variance += u32::from(top[c].abs_diff(top[c - 1]));
    }
    f.column_height_variance = variance;
    f
}

fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn visible_rows(board: &Board) -> [u16; 20] {
    let mut rows = [0u16; 20];
    for (dst, &src) in rows.iter_mut().zip(&board.rows[HIDDEN_ROWS..]) {
        *dst = src & FULL_ROW;
    }
    rows
}
