//! The chosen pair's next-piece lock read back from the path search after its first lock:
//! among equal pairs the one the search reaches first, and a hold profile's entry hold.

use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::search::eval::Evaluator;

use super::planner::Planner;
use super::situation::Situation;

impl<E: Evaluator> Planner<E> {
    /// The next piece's first lock, in the order first reached, that gives the pair with first lock
    /// `firsts[i]` the value `value`: the old planner's choice among equal pairs.
    pub(super) fn first_in_bfs_order(
        &mut self,
        s: &Situation,
        i: usize,
        next: Piece,
        value: f64,
    ) -> Option<Pos> {
        let search = (&self.profile, self.moves);
        let (after, seconds) = self.cache.after_first(s, &self.firsts[i], next, search);
        let mut found = None;
        let guard = &mut self.crash_guard;
        after.each_pair(
            &self.evaluator,
            seconds.iter().map(|l| l.at),
            |v, second, lines2, board2| {
                let v = v + guard.second_penalty((s.level, s.lines), after.lines, board2, lines2);
                if found.is_none() && v == value {
                    found = Some(second);
                }
            },
        );
        found
    }

    /// Under a hold profile, the direction to hold through the entry delay after
    /// `firsts[i]` so that `next` can reach `second` with the DAS counter the lock leaves:
    /// the hold of the fastest path to it (nothing when that needs none).
    pub(super) fn entry_hold(
        &mut self,
        s: &Situation,
        i: usize,
        next: Piece,
        second: Pos,
    ) -> PadState {
        if !self.profile.shift.holds() {
            return PadState::NONE;
        }
        let search = (&self.profile, self.moves);
        let (_, seconds) = self.cache.after_first(s, &self.firsts[i], next, search);
        match seconds.iter().find(|l| l.at == second).copied() {
            Some(l) => self.cache.root_hold(&l),
            None => PadState::NONE,
        }
    }
}
