//! A first lock's worth before the next piece is seen: its best pair with each of the seven
//! next pieces, weighed by the cartridge's odds; the blind plan's scratch.

use crate::game::piece::Piece;
use crate::movegen::profile::Profile;
use crate::movegen::{LockQuery, LockSets, MoveSet, ReachLock};
use crate::search::eval::Evaluator;
use crate::search::pairs::AfterFirst;

use super::reuse::BlindPairs;

/// The I piece's upright orientation id: its pairs rank the first locks (the Tetris).
pub(super) const UPRIGHT_I: u8 = 0x11;

/// The blind plan's scratch, allocated once: each first lock's ranking key (estimate, index),
/// the keys it selects the weighed locks from, and the upright I locks after a first lock.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) ranking: Vec<(f64, usize)>,
    pub(super) select: Vec<(f64, usize)>,
    pub(super) upright: Vec<ReachLock>,
    /// The weighed first locks whose every next piece has a pair: worth and lock index.
    pub(super) worths: Vec<(Blind, usize)>,
}

/// A first lock's best pair value per next piece (`Piece::index`): `None` for a piece with
/// no acceptable pair.
pub(super) type Bests = [Option<f64>; Piece::NUM];

/// A first lock's worth before the next piece is seen: (odds mass of the next pieces with no
/// acceptable pair, expected value over the others); lower is better in that order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Blind {
    pub(super) missing: f64,
    pub(super) expected: f64,
}

impl Blind {
    /// The worth of a lock whose every next piece is valued in `bests`, summed in
    /// `Piece::ALL`'s order (so the same bits however the values were found).
    pub(super) fn of(bests: &Bests, odds: &[f64; Piece::NUM]) -> Blind {
        let mut blind = Blind {
            missing: 0.0,
            expected: 0.0,
        };
        for next in Piece::ALL {
            match bests[next.index()] {
                Some(v) => blind.expected += odds[next.index()] * v,
                None => blind.missing += odds[next.index()],
            }
        }
        blind
    }

    /// Lower is better; equal worths by lock order (the first found, when all are in order).
    pub(super) fn better_than(&self, i: usize, (other, j): (&Blind, usize)) -> bool {
        self.order(i, (other, j)).is_lt()
    }

    /// The order of (worth, lock index) pairs: by missing mass, then expectation, then index.
    pub(super) fn order(&self, i: usize, (other, j): (&Blind, usize)) -> std::cmp::Ordering {
        (self.missing.total_cmp(&other.missing))
            .then(self.expected.total_cmp(&other.expected))
            .then(i.cmp(&j))
    }
}

/// The ranking order of (estimate, lock index) keys: lower first, equal ones by lock order.
pub(super) fn key_order(a: &(f64, usize), b: &(f64, usize)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// The best pair value of first lock `after` with each next piece, into `bests`; with `kept`
/// keeping pairs, every acceptable pair goes there too (for the re-plan).
pub(super) fn best_pairs<E: Evaluator>(
    evaluator: &E,
    (locks, kept): (&mut LockSets, &mut BlindPairs),
    (profile, moves): (&Profile, MoveSet),
    after: &AfterFirst,
    bests: &mut Bests,
) {
    let keep = kept.keeping();
    evaluator.with_first_pass(after, |first| {
        for next in Piece::ALL {
            let q = LockQuery::spawn(&after.board, next, after.speed, profile, moves);
            let seconds = locks.search_after(&q, &after.first, after.lines);
            bests[next.index()] = if keep {
                // The same values as `best_pair_after`'s, kept; its best is the lowest of them.
                let (from, mut best) = (kept.len(), None);
                evaluator.each_pair_after(first, seconds, |v, second| {
                    kept.push(v, second);
                    if best.is_none_or(|b| v < b) {
                        best = Some(v);
                    }
                });
                kept.mark(next, from);
                best
            } else {
                evaluator.best_pair_after(first, seconds).map(|b| b.0)
            };
        }
    });
}
