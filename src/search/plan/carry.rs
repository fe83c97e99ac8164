//! The third-piece layer's expectations carried to the next piece's blind plan: each one the
//! layer worked out for the chosen first lock is that plan's value of a first lock, bit for bit.

// The layer values a pair (first, second) by the expectation over the third piece of its best
// lock after both: on the board after the first lock, the second lock valued against the seven
// pieces after it, with the odds given the next piece. When the first lock is played, the next
// piece spawns on that board and its blind plan values each of its first locks the same way:
// the same board after both, evaluator level, drop speed of the third piece, lines, odds, lock
// sets (the layer searches without soft drop, so only a plan without it may use them) and the
// same sum in the same order. So the pairs the layer valued with the chosen first lock give the
// blind plan's values of those locks without their 7 × 30 pairs; each entry is checked against
// the blind plan's own `AfterFirst` before it is used, and only the decision right after may
// read them.

use crate::game::board::Board;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::profile::Profile;
use crate::movegen::MoveSet;
use crate::search::pairs::AfterFirst;
use crate::search::third::Pair;

/// One pair's expectation with what it was worked out on.
#[derive(Clone, Copy)]
struct Entry {
    second: Pos,
    board: Board,
    level: u8,
    speed: u8,
    lines: u32,
    expected: f64,
}

/// The expectations of the last decision's layer for its chosen first lock's pairs.
#[derive(Default)]
pub(super) struct Carried {
    /// The piece of the pairs' second locks (the next piece of that decision).
    piece: Option<Piece>,
    /// The profile the layer searched with (cloned only when it changes).
    profile: Profile,
    entries: Vec<Entry>,
    /// Whether the next decision may read them (set when kept, taken by that decision).
    readable: bool,
}

impl Carried {
    /// Drops every entry.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.piece = None;
    }

    /// Whether the decision starting now may read the entries; only that one may.
    pub(super) fn take_readable(&mut self) -> bool {
        std::mem::take(&mut self.readable)
    }

    /// Keeps the expectations (`(index in pairs, expectation)`) of the pairs whose first lock
    /// is `first`, their second locks being of `next`.
    pub(super) fn keep(
        &mut self,
        (next, profile): (Piece, &Profile),
        pairs: &[Pair],
        expectations: &[(usize, f64)],
        first: usize,
    ) {
        self.clear();
        self.readable = true;
        self.piece = Some(next);
        if self.profile != *profile {
            self.profile = profile.clone();
        }
        for &(k, expected) in expectations {
            let p = &pairs[k];
            if p.first == first {
                self.entries.push(Entry {
                    second: p.second,
                    board: p.board,
                    level: p.level,
                    speed: p.speed,
                    lines: p.lines_second,
                    expected,
                });
            }
        }
    }

    /// The blind plan's expectation of first lock `after` of `piece` under `profile` and
    /// `moves`, when the layer worked it out on the same board, level, speed and lines.
    pub(super) fn expected(
        &self,
        (piece, profile, moves): (Piece, &Profile, MoveSet),
        after: &AfterFirst,
    ) -> Option<f64> {
        if self.piece != Some(piece) || moves != MoveSet::default() || self.profile != *profile {
            return None;
        }
        let e = self.entries.iter().find(|e| e.second == after.first)?;
        let same = e.board == after.board
            && e.level == after.level
            && e.speed == after.speed
            && e.lines == after.lines;
        same.then_some(e.expected)
    }
}
