//! The plan before the reaction time: the first lock best on average over the seven possible
//! next pieces, weighted by the cartridge's odds given the current piece; never reads `next`.

// The driver plays this plan's inputs up to `replan_after` and then plans again from the piece
// in flight, with the real next piece; the lock chosen here stays reachable from there (the
// re-plan searches from a state on its path under the same profile), so the re-plan can only
// do as well or better (not always under `adjust = "restart"`, whose re-plan taps on a
// restarted table: it then chooses among the locks it reaches). The expectation uses the same
// evaluator and the decision's level (so the phase) as the two-piece plan; a next piece with no
// acceptable pair makes the lock worse than any lock whose every next piece has one (compared
// by the odds mass left without a value first, then by the expectation over the rest). At a
// row a frame the third piece re-ranks the best locks (`plan/blind_third.rs`).
//
// Valuing a first lock against seven next pieces is most of a `human` decision. A profile's
// `blind_placements` (0, every lock, by default) weighs only that many first locks against all
// seven, ranked by an estimate of the expectation: the I piece's best upright pair (where the
// Tetris is, the pair value that moves most from lock to lock) and every other piece's pair
// taken as the lock's value alone. The rest are weighed too when every weighed lock leaves
// some next piece without a pair, or when the best of them locks before the reaction frame
// (no re-plan follows: the plan is final); at a row a frame (level 29 on) every lock is, the
// re-plan coming too late to move the piece. The re-plan values the pairs of a lock not
// weighed itself. The `human` preset weighs 3: benches/README.md ("By player profile") has
// its strength against the full plan; the measurements that chose the ranking, the count and
// the rules for final plans are in that file at 4d0b81e (a ranking by the value alone missed
// Tetrises; pruned final plans topped out more games).

use crate::game::piece::{Orientation, Piece};
use crate::game::score::drop_speed;

use super::blind_worth::{best_pairs, key_order, Blind, UPRIGHT_I};
use super::cache::Reuse;
use super::chosen::Plan;
use super::planner::{Firsts, Planner};
use super::retime;
use super::situation::Situation;
use crate::movegen::{Lock, LockQuery};
use crate::search::clock::Instant;
use crate::search::eval::Evaluator;
use crate::search::pairs::AfterFirst;
use crate::search::third::third_piece_odds;

impl<E: Evaluator> Planner<E> {
    /// The plan of a piece whose next piece the player has not yet reacted to
    /// (`s.progress.frames` < the profile's reaction): see the module comment. Its
    /// `replan_after` is the frames left to the reaction, or `None` when it locks first.
    pub(super) fn plan_blind(&mut self, s: &Situation, reuse: Reuse) -> Option<Plan> {
        let (inputs, expected) = match self.first_locks(s)? {
            Firsts::Found(inputs, expected) => (inputs, expected),
            Firsts::LockedEarly(plan) => return Some(plan),
        };
        // The third-piece layer's deadline counts from here, as `Planner::plan`'s does.
        let started = Instant::now();
        let left = usize::from(self.profile.reaction.saturating_sub(s.progress.frames));
        let piece = Orientation::new(s.active.id)?.piece();
        let odds = third_piece_odds(piece);
        // Each next piece's search on the board before the first lock, resumed after each
        // lock that clears no line (at the decision's speed, which such a lock keeps).
        let speed = drop_speed(s.level);
        // Under a tap profile the re-plan's pairs are these (`plan/reuse.rs`): kept for it.
        let keep = !self.profile.shift.holds();
        self.cache
            .kept
            .start(s, piece, (&self.profile, self.moves), keep);
        for next in Piece::ALL {
            let q = LockQuery::spawn(&s.board, next, speed, &self.profile, self.moves);
            self.seconds.share(&q);
        }
        let k = usize::from(self.profile.blind_placements);
        let share = odds[Piece::I.index()];
        // At a row a frame the re-plan comes too late to move the piece (it is a few rows from
        // its lock by the reaction frame): the blind plan is the placement, so it weighs every
        // lock.
        let prune = k > 0 && k < self.firsts.len() && speed > 1;
        let cut = prune.then(|| self.ranking_cut(s, k, share));
        let mut best: Option<(Blind, usize)> = None;
        let mut worths = std::mem::take(&mut self.blind.worths);
        worths.clear();
        // The weighed locks, then the rest: only if every weighed one leaves a next piece without
        // a pair, or the best of them makes a final plan.
        for weighed in [true, false] {
            for i in 0..self.firsts.len() {
                let among = cut.is_none_or(|c| key_order(&self.blind.ranking[i], &c).is_le());
                if among != weighed {
                    continue;
                }
                let after = AfterFirst::new(&s.board, s.level, s.lines, self.firsts[i].at);
                // Worked out by the last decision's third-piece layer (`plan/carry.rs`).
                let at = (piece, &self.profile, self.moves);
                let carried = self.cache.carried(reuse, at, &after);
                let b = match carried {
                    Some(expected) => {
                        #[cfg(test)]
                        {
                            self.carried_values += 1;
                        }
                        Blind {
                            missing: 0.0,
                            expected,
                        }
                    }
                    None => {
                        self.cache.kept.first(after.first);
                        let mut bests = [None; Piece::NUM];
                        best_pairs(
                            &self.evaluator,
                            (&mut self.seconds, &mut self.cache.kept),
                            (&self.profile, self.moves),
                            &after,
                            &mut bests,
                        );
                        Blind::of(&bests, &odds)
                    }
                };
                if b.missing == 0.0 {
                    worths.push((b, i));
                }
                if b.missing < 1.0 && best.is_none_or(|(o, j)| b.better_than(i, (&o, j))) {
                    best = Some((b, i));
                }
            }
            // A plan that may lock before the reaction frame is final: it weighs every lock.
            let replanned = |l: &Lock| inputs.len() + usize::from(l.frames) > left;
            let ends = |(b, i): (Blind, usize)| b.missing == 0.0 && replanned(&self.firsts[i]);
            if cut.is_none() || best.is_some_and(ends) {
                break;
            }
        }
        // At a row a frame the third piece may prefer another of the best locks.
        if let Some(chosen) = self.blind_third(s, &odds, &mut worths, started) {
            best = Some(chosen);
        }
        self.blind.worths = worths;
        // Every next piece rejected after every lock: the deepest lock, as the planner does.
        let free = inputs.len();
        let plan = Plan::to_lock(
            &self.first,
            &self.firsts,
            best.map(|b| b.1),
            inputs,
            expected,
        );
        let replan_after = (plan.inputs.len() > left).then_some(left);
        let mut plan = Plan {
            value: best.and_then(|(b, _)| (b.missing == 0.0).then_some(b.expected)),
            replan_after,
            ..plan
        };
        if replan_after.is_some() {
            retime::early_taps(&mut plan, s, &self.profile, free, left);
        }
        Some(plan)
    }

    /// The `k`-th best ranking key (estimate, lock index) of the first locks, `k` ≥ 1 and
    /// below their count. A lock's estimate is the expectation with the I piece's best upright
    /// pair (where the Tetris is; `share` its odds) and every other piece's pair taken as the
    /// lock's value alone; a lock without an upright I pair, or rejected alone, comes after
    /// every lock with both. Keys are left in `self.blind.ranking`.
    fn ranking_cut(&mut self, s: &Situation, k: usize, share: f64) -> (f64, usize) {
        let (ranking, upright) = (&mut self.blind.ranking, &mut self.blind.upright);
        ranking.clear();
        for (i, l1) in self.firsts.iter().enumerate() {
            let after = AfterFirst::new(&s.board, s.level, s.lines, l1.at);
            let q = LockQuery::spawn(
                &after.board,
                Piece::I,
                after.speed,
                &self.profile,
                self.moves,
            );
            let locks = self.seconds.search_after(&q, &after.first, after.lines);
            upright.clear();
            upright.extend(locks.iter().filter(|l| l.at.id() == UPRIGHT_I));
            let evaluator = &self.evaluator;
            let estimate = evaluator.with_first_pass(&after, |first| {
                let best = evaluator.best_pair_after(first, upright);
                match (best, after.alone_after(evaluator, first.prefix)) {
                    (Some((v, _)), Some(alone)) => share * v + (1.0 - share) * alone,
                    _ => f64::INFINITY,
                }
            });
            ranking.push((estimate, i));
        }
        let select = &mut self.blind.select;
        select.clear();
        select.extend_from_slice(ranking);
        *select.select_nth_unstable_by(k - 1, key_order).1
    }
}
