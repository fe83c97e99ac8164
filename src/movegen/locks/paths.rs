//! A lock query answered with paths: the locks in the order first reached, the buttons to
//! each, and the collision the frames before the search are played on.

use super::LockSets;
use crate::game::board::{Board, Collide};
use crate::game::pad::PadState;
use crate::game::piece::Piece;
use crate::game::Pos;
use crate::movegen::bfs::Lock;
use crate::movegen::kernel::LockQuery;

impl LockSets {
    /// Every lock of the query's piece with its path, in the order first reached, each with
    /// the fewest frames: the order that breaks ties between equal pairs. An entry query under
    /// a hold profile searches from three roots ([`LockSets::root_hold`]).
    pub fn search_paths(&mut self, q: &LockQuery) -> &[Lock] {
        q.search_ordered(&mut self.bfs, &mut self.map)
    }

    /// Builds the collision of `piece` on `board` for [`LockSets::search_prepared`] and
    /// returns it: the frames before the search (start delay, first-piece delay) are played
    /// on it.
    pub fn prepare(&mut self, board: &Board, piece: Piece) -> &impl Collide {
        self.map.build(board, piece);
        &self.map
    }

    /// [`LockSets::prepare`], the masks built position by position (the reference planner's
    /// way).
    pub(crate) fn prepare_by_positions(&mut self, board: &Board, piece: Piece) -> &impl Collide {
        self.map.build_by_positions(board, piece);
        &self.map
    }

    /// [`LockSets::search_paths`] on the collision the last [`LockSets::prepare`] built, which
    /// must be of the query's board and piece.
    pub fn search_prepared(&mut self, q: &LockQuery) -> &[Lock] {
        self.bfs.search_query(q, &self.map)
    }

    /// The collision of the last search with paths (or of the last `prepare`).
    pub fn collision(&self) -> &impl Collide {
        &self.map
    }

    /// The locks of the last search with paths.
    pub fn found(&self) -> &[Lock] {
        self.bfs.locks()
    }

    /// The buttons for every frame to `lock` (one of the last search's with paths), and the
    /// piece's place at the end of each.
    pub fn path(&self, lock: &Lock, inputs: &mut Vec<PadState>, expected: &mut Vec<Pos>) {
        self.bfs.path(lock, inputs, expected);
    }

    /// The button held at the root `lock` of the last search came from (an entry query's hold
    /// through the entry delay).
    pub fn root_hold(&self, lock: &Lock) -> PadState {
        self.bfs.root_hold(lock)
    }

    /// Nodes the last search with paths expanded (what the examples report).
    pub fn expanded(&self) -> usize {
        self.bfs.expanded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::score::drop_speed;
    use crate::movegen::kernel::MoveSet;
    use crate::movegen::profile::{PieceProgress, Profile, TIMED};

    /// The frames of `path` (from the spawn, `prev` nothing) that newly press a timed button.
    fn tap_frames(path: &[PadState]) -> Vec<u32> {
        let mut prev = PadState::NONE;
        let mut taps = Vec::new();
        for (f, &p) in path.iter().enumerate() {
            if p.newly_from(prev).0 & TIMED.0 != 0 {
                taps.push(f as u32);
            }
            prev = p;
        }
        taps
    }

    /// On an empty board every lock's path under a tap profile taps on the table's first
    /// slots (BetaTetris's initial taps: benches/README.md), never waiting before a tap.
    #[test]
    fn profiled_paths_tap_on_the_first_slots_of_the_table() {
        let (mut sets, mut inputs, mut expected) = (LockSets::new(), Vec::new(), Vec::new());
        for name in ["15hz", "12hz", "24hz", "human"] {
            let profile = Profile::preset(name).unwrap();
            let t = profile.timeline;
            let slots: Vec<u32> = (0..200).filter(|&f| t.allows(f)).collect();
            for level in [18u8, 29] {
                for piece in Piece::ALL {
                    let (speed, moves) = (drop_speed(level), MoveSet::default());
                    let q = LockQuery::spawn(&Board::EMPTY, piece, speed, &profile, moves);
                    sets.prepare(&Board::EMPTY, piece);
                    let locks = sets.search_prepared(&q).to_vec();
                    assert!(locks.len() > 4, "{name} {piece:?}");
                    for l in &locks {
                        sets.path(l, &mut inputs, &mut expected);
                        let taps = tap_frames(&inputs);
                        assert_eq!(
                            taps,
                            slots[..taps.len()],
                            "{name}, level {level}, {piece:?} to {:?}",
                            l.at
                        );
                        let progress = PieceProgress::after(&inputs, PadState::NONE);
                        assert_eq!(progress.last_tap.map(u32::from), taps.last().copied());
                    }
                }
            }
        }
    }
}
