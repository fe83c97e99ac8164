//! The blind plan's pair values kept for the plan made at the reaction frame: the same board
//! and first locks, so the real next piece's pairs are valued already (issue 25).

// At the reaction frame the follower plans again with the next piece seen. The board, level
// and lines are the spawn's (the piece is still falling), every first lock the re-plan finds
// is one the spawn's search found (it searches from a state on a spawn path), and under a tap
// profile the next piece's query after a lock is the spawn query the blind plan made
// (`LockQuery::after_lock` changes it only for hold profiles). So each re-plan pair is one the
// blind plan valued: its value (the carried one, bit for bit the full evaluation's:
// `eval::incremental_tests`) and its place in the lock set (a resumed search gives a full
// search's locks in its order: `reach::resume::tests`) are kept here. Only the call right
// after the blind plan may read them, and only for the same situation and profile.

use crate::game::board::Board;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::profile::Profile;
use crate::movegen::MoveSet;
use crate::search::third::PairKey;

use super::situation::Situation;

/// Every acceptable pair of a blind plan, by first lock and next piece.
#[derive(Default)]
pub(super) struct BlindPairs {
    /// Whether pairs are kept for the situation below; cleared once read.
    kept: bool,
    board: Board,
    level: u8,
    lines: [u8; 2],
    piece: Option<Piece>,
    /// The profile and moves they were searched with (cloned only when it changes: a
    /// profile's clone allocates its name).
    profile: Profile,
    moves: MoveSet,
    /// Per first lock: its placement and, per next piece, its pairs' range in `pairs`.
    firsts: Vec<(Pos, [(u32, u32); Piece::NUM])>,
    /// (value, second lock) of the pairs no rule rejects, in lock-set order.
    pairs: Vec<(f64, Pos)>,
}

impl BlindPairs {
    /// Starts keeping the pairs of a blind plan of `piece` in `s` (`keep` false: none kept).
    pub(super) fn start(
        &mut self,
        s: &Situation,
        piece: Piece,
        (profile, moves): (&Profile, MoveSet),
        keep: bool,
    ) {
        self.firsts.clear();
        self.pairs.clear();
        self.kept = keep;
        if keep {
            (self.board, self.level, self.lines) = (s.board, s.level, s.lines);
            self.piece = Some(piece);
            if self.profile != *profile {
                self.profile = profile.clone();
            }
            self.moves = moves;
        }
    }

    /// Whether pairs are being kept.
    #[inline]
    pub(super) fn keeping(&self) -> bool {
        self.kept
    }

    /// The next first lock's pairs follow.
    pub(super) fn first(&mut self, first: Pos) {
        self.firsts.push((first, [(0, 0); Piece::NUM]));
    }

    /// The pairs from index `from` on are the current first lock's with `next`.
    #[inline]
    pub(super) fn mark(&mut self, next: Piece, from: usize) {
        let end = self.pairs.len() as u32;
        if let Some(f) = self.firsts.last_mut() {
            f.1[next.index()] = (from as u32, end);
        }
    }

    /// An acceptable pair of the current first lock and next piece.
    #[inline]
    pub(super) fn push(&mut self, value: f64, second: Pos) {
        self.pairs.push((value, second));
    }

    /// How many pairs are kept.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the kept pairs are for `s` under `profile`; they are dropped either way (only
    /// the decision right after the blind plan may use them).
    pub(super) fn take_for(
        &mut self,
        s: &Situation,
        piece: Option<Piece>,
        (profile, moves): (&Profile, MoveSet),
    ) -> bool {
        let kept = std::mem::take(&mut self.kept);
        kept && piece.is_some()
            && self.board == s.board
            && self.level == s.level
            && self.lines == s.lines
            && self.piece == piece
            && self.moves == moves
            && self.profile == *profile
    }

    /// The kept pairs of first lock `first` with `next` (`None`: that lock was not valued).
    pub(super) fn pairs_of(&self, first: Pos, next: Piece) -> Option<&[(f64, Pos)]> {
        let f = self.firsts.iter().find(|f| f.0 == first)?;
        let (from, end) = f.1[next.index()];
        Some(&self.pairs[from as usize..end as usize])
    }
}

/// One first lock's kept pairs through the plan loop, as `Planner::plan` takes the pairs it
/// values itself, unguarded: with no pair list kept (`carried`), its first lowest pair alone;
/// else each pair with `second_penalty`'s 0.0 added as `each_pair`'s callback adds it, and its
/// key for the third-piece layer (`lookahead`) with first lock `i`'s penalty. Returns, when
/// `carried`, how many pairs share the lowest value (the planner's tie count), else 0.
#[inline]
pub(super) fn replay(
    pairs: &[(f64, Pos)],
    (carried, lookahead, i, first_penalty): (bool, bool, usize, f64),
    keys: &mut Vec<PairKey>,
    consider: &mut impl FnMut(f64, Option<Pos>),
) -> usize {
    if carried {
        // The best pair and how many share its value, as `Evaluator::best_pair_after_ties`.
        let mut best: Option<(f64, Pos, usize)> = None;
        for &(v, second) in pairs {
            if best.is_none_or(|b| v < b.0) {
                best = Some((v, second, 1));
            } else if let Some(b) = best.as_mut().filter(|b| v == b.0) {
                b.2 += 1;
            }
        }
        let Some((v, second, ties)) = best else {
            return 0;
        };
        consider(v, Some(second));
        return ties;
    }
    for &(v, second) in pairs {
        take_pair(
            (v, 0.0, second),
            (lookahead, i, first_penalty),
            keys,
            consider,
        );
    }
    0
}

/// One valued pair (its value with the second lock's `penalty` in it) into the plan loop:
/// `consider` it, and keep its key for the third-piece layer when `lookahead`, first lock
/// `i`'s penalty added.
#[inline(always)]
pub(super) fn take_pair(
    (v, penalty, second): (f64, f64, Pos),
    (lookahead, i, first_penalty): (bool, usize, f64),
    keys: &mut Vec<PairKey>,
    consider: &mut impl FnMut(f64, Option<Pos>),
) {
    consider(v, Some(second));
    if lookahead {
        keys.push(PairKey {
            value: v + first_penalty,
            first: i as u32,
            second,
            penalty: penalty + first_penalty,
        });
    }
}
