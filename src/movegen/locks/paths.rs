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
