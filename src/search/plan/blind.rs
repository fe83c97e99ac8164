//! The plan before the reaction time: the first lock best on average over the seven possible
//! next pieces, weighted by the cartridge's odds given the current piece; never reads `next`.

// The driver plays this plan's inputs up to `replan_after` and then plans again from the piece
// in flight, with the real next piece; the lock chosen here stays reachable from there (the
// re-plan searches from a state on its path under the same profile), so the re-plan can only
// do as well or better. The expectation uses the same evaluator and the decision's level (so
// the phase) as the two-piece plan; a next piece with no acceptable pair makes the lock worse
// than any lock whose every next piece has one (compared by the odds mass left without a
// value first, then by the expectation over the rest). No third-piece layer here.
//
// Valuing a first lock against seven next pieces is most of a `human` decision. A profile's
// `blind_placements` (0, every lock, by default) weighs only that many first locks, the best
// by their value alone, and the rest only when every weighed lock leaves some next piece
// without a pair; the re-plan values the pairs of a lock not weighed itself. 5 takes a
// `human` game under half the CPU time, and the full plan chose among those 5 in 99.6 % of
// decisions, but it plays measurably weaker (benches/README.md, issue 25): an option.

use crate::game::piece::{Orientation, Piece};
use crate::game::score::drop_speed;

use super::reuse::BlindPairs;
use super::{placement, Evaluator, Firsts, Plan, Planner, Situation};
use crate::search::bfs::MoveSet;
use crate::search::locks::{LockQuery, LockSets};
use crate::search::pairs::AfterFirst;
use crate::search::profile::Profile;
use crate::search::third::third_piece_odds;

/// A first lock's worth before the next piece is seen: (odds mass of the next pieces with no
/// acceptable pair, expected value over the others); lower is better in that order.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Blind {
    missing: f64,
    expected: f64,
}

impl Blind {
    /// Lower is better; equal worths by lock order (the first found, when all are in order).
    fn better_than(&self, i: usize, (other, j): (&Blind, usize)) -> bool {
        (self.missing, self.expected, i) < (other.missing, other.expected, j)
    }
}

/// The order of (value alone, lock index) keys: lower first, equal values by lock order.
fn key_order(a: &(f64, usize), b: &(f64, usize)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// The expectation of the best pair value of first lock `after` over the next piece; with
/// `kept` keeping pairs, every acceptable pair goes there too (for the re-plan).
fn blind_value<E: Evaluator>(
    evaluator: &E,
    (locks, kept): (&mut LockSets, &mut BlindPairs),
    profile: &Profile,
    moves: MoveSet,
    odds: &[f64; Piece::NUM],
    after: &AfterFirst,
) -> Blind {
    let mut blind = Blind {
        missing: 0.0,
        expected: 0.0,
    };
    let prefix = evaluator.prefix(&after.board);
    let keep = kept.keeping();
    if keep {
        kept.first(after.first);
    }
    for next in Piece::ALL {
        let q = LockQuery::spawn(&after.board, next, after.speed, profile, moves);
        let seconds = locks.search_after(&q, &after.first, after.lines);
        let best = if keep {
            // The same values as `best_pair_after`'s, kept; its best is the lowest of them.
            let (from, mut best) = (kept.len(), None);
            evaluator.each_pair_after(&prefix, after, seconds, |v, second| {
                kept.push(v, second);
                if best.is_none_or(|b| v < b) {
                    best = Some(v);
                }
            });
            kept.mark(next, from);
            best
        } else {
            evaluator
                .best_pair_after(&prefix, after, seconds)
                .map(|b| b.0)
        };
        match best {
            Some(v) => blind.expected += odds[next.index()] * v,
            None => blind.missing += odds[next.index()],
        }
    }
    blind
}

impl<E: Evaluator> Planner<E> {
    /// The plan of a piece whose next piece the player has not yet reacted to
    /// (`s.progress.frames` < the profile's reaction): see the module comment. Its
    /// `replan_after` is the frames left to the reaction, or `None` when it locks first.
    pub(super) fn plan_blind(&mut self, s: &Situation) -> Option<Plan> {
        let (inputs, expected) = match self.first_locks(s)? {
            Firsts::Found(inputs, expected) => (inputs, expected),
            Firsts::LockedEarly(plan) => return Some(plan),
        };
        let left = usize::from(self.profile.reaction.saturating_sub(s.progress.frames));
        let piece = Orientation::new(s.active.id)?.piece();
        let odds = third_piece_odds(piece);
        // Each next piece's search on the board before the first lock, resumed after each
        // lock that clears no line (at the decision's speed, which such a lock keeps).
        let speed = drop_speed(s.level);
        // Under a tap profile the re-plan's pairs are these (`plan/reuse.rs`): kept for it.
        let keep = !self.profile.shift.holds();
        self.kept.start(s, piece, (&self.profile, self.moves), keep);
        for next in Piece::ALL {
            let q = LockQuery::spawn(&s.board, next, speed, &self.profile, self.moves);
            self.seconds.share(&q);
        }
        let k = usize::from(self.profile.blind_placements);
        let cut = (k > 0 && k < self.firsts.len()).then(|| self.alone_cut(s, k));
        let mut best: Option<(Blind, usize)> = None;
        // The weighed locks, then (only if they leave a next piece without a pair) the rest.
        for weighed in [true, false] {
            for (i, l1) in self.firsts.iter().enumerate() {
                let among = cut.is_none_or(|c| key_order(&(self.kept.alone[i], i), &c).is_le());
                if among != weighed {
                    continue;
                }
                let after = AfterFirst::new(&s.board, s.level, s.lines, placement(l1));
                let b = blind_value(
                    &self.evaluator,
                    (&mut self.seconds, &mut self.kept),
                    &self.profile,
                    self.moves,
                    &odds,
                    &after,
                );
                if b.missing < 1.0 && best.is_none_or(|(o, j)| b.better_than(i, (&o, j))) {
                    best = Some((b, i));
                }
            }
            if cut.is_none() || best.is_some_and(|(b, _)| b.missing == 0.0) {
                break;
            }
        }
        // Every next piece rejected after every lock: the deepest lock, as the planner does.
        let plan = Plan::to_lock(
            &self.first,
            &self.firsts,
            best.map(|b| b.1),
            inputs,
            expected,
        );
        let replan_after = (plan.inputs.len() > left).then_some(left);
        Some(Plan {
            value: best.and_then(|(b, _)| (b.missing == 0.0).then_some(b.expected)),
            replan_after,
            ..plan
        })
    }

    /// The `k`-th best (value alone, lock index) key of the first locks, `k` ≥ 1 and below
    /// their count; each lock's value alone is left in `self.kept.alone`.
    fn alone_cut(&mut self, s: &Situation, k: usize) -> (f64, usize) {
        let (alone, select) = (&mut self.kept.alone, &mut self.kept.select);
        alone.clear();
        for l1 in &self.firsts {
            let after = AfterFirst::new(&s.board, s.level, s.lines, placement(l1));
            // A lock a rule rejects alone comes last.
            alone.push(after.alone(&self.evaluator).unwrap_or(f64::INFINITY));
        }
        select.clear();
        select.extend(alone.iter().copied().zip(0..));
        *select.select_nth_unstable_by(k - 1, key_order).1
    }
}
