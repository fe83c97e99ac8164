//! The third piece: the cartridge's odds for the piece after the preview, and the expectation
//! layer that re-ranks the best (current, next) pairs by the third piece's best placement.

use crate::game::Pos;
use crate::search::clock::Instant;
use std::time::Duration;

use crate::game::board::Board;
use crate::game::piece::{Piece, SPAWN_IDS};

use super::eval::Evaluator;
use super::pairs::{level_after, AfterFirst};
use crate::game::score::drop_speed;
use crate::movegen::profile::Profile;
use crate::movegen::MoveSet;
use crate::movegen::{LockQuery, LockSets};

/// How the planner looks past the preview (settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Lookahead {
    /// The best pairs by the two-piece value that the third piece re-ranks, and at a row a
    /// frame before the reaction the best first locks by the blind worth
    /// (`plan/blind_third.rs`); 0 = off.
    pub top_k: usize,
    /// Wall-clock budget of the layer per decision, in microseconds; past it the decision
    /// keeps the two-piece ranking. 0 = no deadline (reproducible, for simulations).
    pub deadline_us: u64,
}

impl Default for Lookahead {
    /// Three pairs re-ranked: measured stronger than the two-piece search from levels 19 and
    /// 29 (benches/README.md). No deadline, so simulations stay reproducible; interactive
    /// play should set one.
    fn default() -> Self {
        Lookahead {
            top_k: 3,
            deadline_us: 0,
        }
    }
}

impl Lookahead {
    /// The exact two-piece decision alone.
    pub const OFF: Lookahead = Lookahead {
        top_k: 0,
        deadline_us: 0,
    };

    /// The layer's budget per decision, if any.
    pub fn deadline(&self) -> Option<Duration> {
        (self.deadline_us > 0).then(|| Duration::from_micros(self.deadline_us))
    }
}

/// P(the piece after `preview` is each piece), by `Piece::index`: the cartridge's pick with
/// uniform RNG bits (nes-tetris.md §8). The first draw, index ($17 + count) & 7, takes each of
/// the 8 values with 1/8; index 7 or the preview's own index rerolls once, to
/// `SPAWN[((r & 7) + spawnID) % 7]` with r uniform over 8 values, where spawnID is the
/// preview's orientation id, so residue `spawnID % 7` comes up twice in 8.
pub fn third_piece_odds(preview: Piece) -> [f64; Piece::NUM] {
    let spawn_id = SPAWN_IDS[preview.index()] as usize;
    let mut odds = [0.0; Piece::NUM];
    for (k, p) in odds.iter_mut().enumerate() {
        let first = if k == preview.index() { 0.0 } else { 1.0 / 8.0 };
        let reroll = if k == spawn_id % 7 {
            2.0 / 8.0
        } else {
            1.0 / 8.0
        };
        *p = first + (2.0 / 8.0) * reroll;
    }
    odds
}

/// A (current, next) pair the layer may re-rank: the index of its first lock among the
/// planner's candidates, its two-piece value, and the board after both pieces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    pub first: usize,
    pub value: f64,
    /// Lines the first lock clears: the layer's expectation values the two locks after it, so
    /// the re-ranking adds what the pair value counts for these (`Evaluator::lines_value`).
    pub lines_first: u32,
    pub second: Pos,
    pub lines_second: u32,
    pub board: Board,
    /// Level when the third piece falls (drop speed).
    pub speed: u8,
    /// The decision's level: it picks the weights phase, so that the third piece is scored
    /// on the same scale as the pairs it re-ranks.
    pub level: u8,
    /// The crash guard's penalty on the second lock (in `value`): the re-ranking keeps it.
    pub penalty: f64,
}

impl Pair {
    /// The pair of `after` (first lock number `first` of a decision whose lines were `lines`)
    /// and `second`, valued `value`: the second lock played on the board after the first.
    pub(crate) fn of(
        after: &AfterFirst,
        lines: [u8; 2],
        (first, value, penalty): (usize, f64, f64),
        second: Pos,
    ) -> Pair {
        let (board, lines_second) = after.then(second);
        Pair {
            first,
            value,
            lines_first: after.lines,
            second,
            lines_second,
            board,
            speed: drop_speed(level_after(after.level, lines, after.lines + lines_second)),
            level: after.level,
            penalty,
        }
    }
}

/// A pair as the two-piece loop records it for the layer: its sort key (two-piece value,
/// then first lock) and what rebuilds its [`Pair`] (the board after both is locked again for
/// the few pairs the layer looks at, instead of copied for every pair).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairKey {
    pub value: f64,
    pub first: u32,
    pub second: Pos,
    pub penalty: f64,
}

/// The order the layer ranks pairs in: best two-piece value first, equal values by their first
/// lock's BFS order.
#[inline(always)]
fn key_order(a: (f64, usize), b: (f64, usize)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// Sorts `pairs` in the layer's order, as the planner always has (`sort_unstable_by`: pairs of
/// equal key keep the order that sort gives them, which the planner's answer depends on).
pub(crate) fn sort_pairs(pairs: &mut [Pair]) {
    pairs.sort_unstable_by(|a, b| key_order((a.value, a.first), (b.value, b.first)));
}

/// The indices into `keys` of the `k` first pairs in the order [`sort_pairs`] gives, best
/// first, in `top`; `false` when that needs the sort itself: two pairs of equal key among or
/// next to those `k` (the unstable sort orders such ties its own way), or `k` over 16.
/// One pass keeps the `k` best, a second checks that nothing else ties with them.
pub(crate) fn top_k_by_key(keys: &[PairKey], k: usize, top: &mut Vec<usize>) -> bool {
    top.clear();
    if k > 16 {
        return false;
    }
    if k == 0 {
        return true;
    }
    let key = |i: usize| (keys[i].value, keys[i].first as usize);
    for i in 0..keys.len() {
        if top.len() == k && key_order(key(i), key(top[k - 1])).is_ge() {
            continue;
        }
        let at = top.partition_point(|&j| key_order(key(j), key(i)).is_le());
        if top.len() == k {
            top.pop();
        }
        top.insert(at, i);
    }
    if top
        .windows(2)
        .any(|w| key_order(key(w[0]), key(w[1])).is_eq())
    {
        return false;
    }
    let Some(&last) = top.last() else {
        return true;
    };
    // Exactly the k kept are at or before the last of them: no other pair ties with it.
    let at_or_before = (0..keys.len())
        .filter(|&i| key_order(key(i), key(last)).is_le())
        .count();
    at_or_before == top.len()
}

/// Reusable state of the layer: the third piece's lock search.
#[derive(Default)]
pub(crate) struct ThirdPiece {
    locks: LockSets,
    /// The last `choose`'s expectations (penalty not added), by index in its pairs.
    pub expectations: Vec<(usize, f64)>,
}

impl ThirdPiece {
    /// The expectation over the third piece of its best pair value with the next piece's lock
    /// (lower is better); `None` when some piece has no acceptable lock.
    pub(crate) fn expectation<E: Evaluator>(
        &mut self,
        evaluator: &E,
        pair: &Pair,
        odds: &[f64; Piece::NUM],
        profile: &Profile,
    ) -> Option<f64> {
        let after = AfterFirst {
            first: pair.second,
            board: pair.board,
            lines: pair.lines_second,
            level: pair.level,
            speed: pair.speed,
        };
        // The seven pieces' pairs share the pass over the board after both locks.
        evaluator.with_first_pass(&after, |first| {
            let mut sum = 0.0;
            for piece in Piece::ALL {
                // Without soft drop, as the layer always searched the third piece.
                let locks = self.locks.search(&LockQuery::spawn(
                    &pair.board,
                    piece,
                    pair.speed,
                    profile,
                    MoveSet::default(),
                ));
                // The carried values (`Evaluator::best_pair_after`): a third lock that clears
                // no line is valued without the board after it, the same value bit for bit.
                let (best, _) = evaluator.best_pair_after(first, locks)?;
                sum += odds[piece.index()] * best;
            }
            Some(sum)
        })
    }

    /// Re-ranks `pairs` (best two-piece value first, at most `top_k` of them) by the third
    /// piece's expectation plus the value of the lines each pair's first lock clears (the
    /// expectation values the next and third locks, so a line cleared now would count for
    /// nothing: benches/README.md, "The first lock's lines in the look-ahead"); returns the
    /// index in `pairs` of the chosen one, or `None` when the deadline passed first or no pair
    /// has an expectation (keep the two-piece choice).
    pub(crate) fn choose<E: Evaluator>(
        &mut self,
        evaluator: &E,
        pairs: &[Pair],
        preview: Piece,
        profile: &Profile,
        started: Instant,
        deadline: Option<Duration>,
    ) -> Option<usize> {
        let odds = third_piece_odds(preview);
        let mut best: Option<(f64, usize)> = None;
        self.expectations.clear();
        for (k, pair) in pairs.iter().enumerate() {
            if deadline.is_some_and(|d| started.elapsed() > d) {
                return None;
            }
            if let Some(e) = self.expectation(evaluator, pair, &odds, profile) {
                self.expectations.push((k, e));
                let e = e + pair.penalty + evaluator.lines_value(pair.level, pair.lines_first);
                if best.is_none_or(|(b, _)| e < b) {
                    best = Some((e, k));
                }
            }
        }
        best.map(|(_, k)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Picker;

    #[test]
    fn the_seven_odds_sum_to_one_and_a_repeat_is_rarest() {
        for preview in Piece::ALL {
            let odds = third_piece_odds(preview);
            assert!(
                (odds.iter().sum::<f64>() - 1.0).abs() < 1e-12,
                "{preview:?}"
            );
            let repeat = odds[preview.index()];
            for (k, &p) in odds.iter().enumerate() {
                if k != preview.index() {
                    assert!(repeat < p, "{preview:?}: repeat {repeat} vs {k} {p}");
                }
            }
            // The spec's 32nds: a repeat 1/32 (O and S: 2/32); the others 5/32 or 6/32.
            let want = if matches!(preview, Piece::O | Piece::S) {
                2.0
            } else {
                1.0
            };
            assert_eq!(repeat * 32.0, want, "{preview:?}");
        }
        // After T the favoured piece is Z, after I it is S (nes-tetris.md §8).
        assert_eq!(third_piece_odds(Piece::T)[Piece::Z.index()] * 32.0, 6.0);
        assert_eq!(third_piece_odds(Piece::I)[Piece::S.index()] * 32.0, 6.0);
    }

    /// Decisions of the bench's mid-game board at level 19 for every (current, next) pair.
    fn plans(lookahead: Lookahead) -> Vec<Option<crate::search::plan::Plan>> {
        use crate::search::eval::Standard;
        use crate::search::plan::Planner;
        let board = crate::search::fixtures::mid_board();
        let mut planner = Planner::new(Standard::default());
        planner.lookahead = lookahead;
        let mut out = Vec::new();
        for piece in Piece::ALL {
            for next in Piece::ALL {
                let s =
                    crate::search::Situation::at_spawn(board, piece, 19, [0x50, 0x01], Some(next));
                out.push(planner.plan(&s));
            }
        }
        out
    }

    #[test]
    fn the_layer_changes_some_choices_and_a_passed_deadline_keeps_the_two_piece_ones() {
        let two = plans(Lookahead::OFF);
        let three = plans(Lookahead::default());
        let changed = two.iter().zip(&three).filter(|(a, b)| a != b).count();
        assert!(changed > 0, "the third piece never changed a choice");
        // 1 µs is gone before the two-piece search ends: the layer must give up at once.
        let late = plans(Lookahead {
            top_k: 3,
            deadline_us: 1,
        });
        assert_eq!(late, two);
    }

    #[test]
    fn the_re_ranking_counts_the_lines_of_the_first_lock() {
        use crate::game::piece::Orientation;
        use crate::search::eval::Standard;
        let evaluator = Standard::default();
        let profile = Profile::preset("12hz").expect("the 12hz preset");
        // The same board after both locks, so the same expectation: only the first lock's line
        // (which the layer's pairs after it leave out) tells the two pairs apart. At level 29
        // the built-in set rewards a line.
        let level = 29;
        assert!(evaluator.lines_value(level, 1) < 0.0);
        let pair = |first, lines_first| Pair {
            first,
            value: 0.0,
            lines_first,
            second: Pos {
                x: 5,
                y: 18,
                orientation: Orientation::new(2).expect("T up"),
            },
            lines_second: 0,
            board: Board::default(),
            speed: 1,
            level,
            penalty: 0.0,
        };
        let mut layer = ThirdPiece::default();
        for (pairs, clears) in [([pair(0, 0), pair(1, 1)], 1), ([pair(0, 1), pair(1, 0)], 0)] {
            let started = Instant::now();
            let chosen = layer.choose(&evaluator, &pairs, Piece::T, &profile, started, None);
            assert_eq!(chosen, Some(clears), "{:?}", pairs.map(|p| p.lines_first));
        }
    }

    #[test]
    fn the_top_k_by_key_is_the_sorts_prefix_or_says_it_needs_the_sort() {
        use crate::game::piece::Orientation;
        let second = Pos {
            x: 4,
            y: 10,
            orientation: Orientation::new(2).unwrap(),
        };
        // A small LCG: values from a few levels so that ties come up often.
        let mut r = 12345u64;
        let mut next = |m: u64| {
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (r >> 33) % m
        };
        let (mut fast, mut slow, mut top) = (0, 0, Vec::new());
        for round in 0..3000 {
            let n = next(40) as usize;
            let spread = [3, 20, 1000][round % 3];
            let keys: Vec<PairKey> = (0..n)
                .map(|i| PairKey {
                    value: next(spread) as f64 * 0.25,
                    first: next(6) as u32,
                    second: Pos {
                        x: i as u8,
                        ..second
                    },
                    penalty: 0.0,
                })
                .collect();
            let mut pairs: Vec<Pair> = keys
                .iter()
                .map(|p| Pair {
                    first: p.first as usize,
                    value: p.value,
                    lines_first: 0,
                    second: p.second,
                    lines_second: 0,
                    board: Board::default(),
                    speed: 1,
                    level: 19,
                    penalty: 0.0,
                })
                .collect();
            sort_pairs(&mut pairs);
            let k = 1 + next(4) as usize;
            if top_k_by_key(&keys, k, &mut top) {
                fast += 1;
                assert_eq!(top.len(), k.min(n));
                for (j, &i) in top.iter().enumerate() {
                    assert_eq!(keys[i].second, pairs[j].second, "round {round}");
                }
            } else {
                slow += 1;
                // Only a tie among or next to the k best sends it to the sort.
                let key = |p: &Pair| (p.value.to_bits(), p.first);
                let last = key(&pairs[k.min(n) - 1]);
                let tied = pairs[..k.min(n)]
                    .windows(2)
                    .any(|w| key(&w[0]) == key(&w[1]))
                    || pairs.get(k).is_some_and(|p| key(p) == last);
                assert!(tied, "round {round}: no tie, yet the sort was asked for");
            }
        }
        assert!(fast > 500 && slow > 500, "{fast} by key, {slow} sorted");
    }

    #[test]
    fn the_odds_are_the_picks_frequencies_over_every_rng_state() {
        // Every 16-bit seed and every pick counter low bits, once: the cartridge's own picker.
        for preview in Piece::ALL {
            let mut counts = [0u64; Piece::NUM];
            let mut total = 0u64;
            for rng in 0..=u16::MAX {
                for count in 0..8u8 {
                    let mut p = Picker {
                        rng,
                        spawn_id: preview.spawn().id(),
                        spawn_count: count,
                    };
                    let id = p.pick();
                    let piece = Piece::from_spawn_id(id).expect("a spawn id");
                    counts[piece.index()] += 1;
                    total += 1;
                }
            }
            let odds = third_piece_odds(preview);
            for k in 0..Piece::NUM {
                let f = counts[k] as f64 / total as f64;
                assert!(
                    (f - odds[k]).abs() < 1e-9,
                    "{preview:?} → {k}: {f} vs {}",
                    odds[k]
                );
            }
        }
    }
}
