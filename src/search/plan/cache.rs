//! What a decision may reuse, behind the one type the planner's stages ask: the blind plan's
//! pairs, the third-piece layer's expectations and the next piece's search within a decision.

// Each is a speed cache only: a decision gives the same plan with or without it (the tests of
// `reuse`, `carry` and `after_search` hold that). Which of them a decision may read is decided
// once, at its start ([`Cache::begin`]); what served the decision before is dropped there.

use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::profile::Profile;
use crate::movegen::{Lock, MoveSet};
use crate::search::pairs::AfterFirst;
use crate::search::third::Pair;

use super::after_search::AfterSearch;
use super::carry::Carried;
use super::reuse::BlindPairs;
use super::situation::Situation;

/// The planner's caches from one decision to the next and within one.
#[derive(Default)]
pub(super) struct Cache {
    /// The last blind plan's pairs, for the decision right after it (`plan/reuse.rs`).
    pub(super) kept: BlindPairs,
    /// The last layer's expectations of the chosen first lock's pairs, for the next piece's
    /// blind plan (`plan/carry.rs`).
    carried: Carried,
    /// The next piece's locks with paths after one first lock (`plan/after_search.rs`).
    after: AfterSearch,
}

/// What the decision starting now may read, decided once at its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Reuse {
    /// The blind plan just before kept the pairs of this very situation.
    pub kept: bool,
    /// The layer of the decision just before kept expectations (read by a blind plan only).
    pub carried: bool,
}

impl Cache {
    /// A new decision of `piece` in `s`: what it may read; the rest of the last decision's
    /// caches are dropped.
    pub(super) fn begin(
        &mut self,
        s: &Situation,
        piece: Option<Piece>,
        search: (&Profile, MoveSet),
    ) -> Reuse {
        self.after.forget();
        Reuse {
            kept: self.kept.take_for(s, piece, search),
            carried: self.carried.take_readable(),
        }
    }

    /// The pairs the blind plan kept for first lock `first` with `next` (`None`: not valued).
    pub(super) fn kept_pairs(&self, first: Pos, next: Piece) -> Option<&[(f64, Pos)]> {
        self.kept.pairs_of(first, next)
    }

    /// The layer's expectation of first lock `after` of `piece`, when `reuse` allows it and
    /// the layer worked it out on the same board, level, speed and lines.
    pub(super) fn carried(
        &self,
        reuse: Reuse,
        at: (Piece, &Profile, MoveSet),
        after: &AfterFirst,
    ) -> Option<f64> {
        reuse
            .carried
            .then(|| self.carried.expected(at, after))
            .flatten()
    }

    /// Keeps the layer's expectations of the pairs of first lock `first` for the next
    /// decision (see [`Carried::keep`]).
    pub(super) fn keep_expectations(
        &mut self,
        at: (Piece, &Profile),
        pairs: &[Pair],
        expectations: &[(usize, f64)],
        first: usize,
    ) {
        self.carried.keep(at, pairs, expectations, first);
    }

    /// The board after `first` and the next piece's locks on it, searched once a decision.
    pub(super) fn after_first(
        &mut self,
        s: &Situation,
        first: &Lock,
        next: Piece,
        search: (&Profile, MoveSet),
    ) -> (AfterFirst, &[Lock]) {
        self.after.run(s, first, next, search)
    }

    /// The direction held at the root of the last [`Cache::after_first`] search's path to
    /// `lock`.
    pub(super) fn root_hold(&self, lock: &Lock) -> PadState {
        self.after.root_hold(lock)
    }
}
