//! The dense profiled search's nodes on the empty board, kept per spawn start: as for the rows
//! search (`rows_resume.rs`), a board the piece fits as the empty board down to a row shares them.

// Without soft drop every node of a depth is on one row (the dense kernel's premise), and a
// node's frame reads the board only at that row (shift, turn) and the row below (the drop).
// The dense kernel's dedup stamps each depth afresh, so the children of a depth depend on its
// nodes, their pressed directions and those two rows alone. Every depth whose row and the row
// below fit every orientation and column as on the empty board therefore builds the empty
// board's nodes, in the same order with the same parents; a search copies them down to the
// first depth that reads a differing row (and before any lock) and expands on from there.
// Only spawns are kept (frame 0 of the piece): a start in flight is rarely met twice.
//
// The kept nodes are a search's own, not a separate search of the empty board: its depths
// down to the first that reads a row differing from the empty board's are the empty board's.
// A start met a second time keeps them from that search (no extra search: an empty board's
// search to the floor doubled the decision that paid it, the `das` bench's p99). A later
// search that uses every kept depth and shares more with the empty board keeps its deeper
// ones instead, so the kept depths grow to what the boards met allow.

use crate::game::board::Board;
use crate::game::piece::Orientation;
use crate::movegen::collision::CollisionMap;

use super::dense_opens::{Key, Mark, Open, OPEN_KEYS};
use super::node::{Node, Run, Step};
use super::profiled::{DenseStates, Profiled, States};
use super::state::Bfs;

/// Why the depths a board shares with the empty board's search end where they do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The depth after reads a row this board fills (or the search ends there).
    Differs,
    /// A lock came before the depth after: no board shares more.
    Locks,
    /// The marks ran out: the board may share deeper depths than are kept.
    RanOut,
}

/// The last depth of `marks` whose nodes a board first differing from the empty board at row
/// `differs` shares with the empty board's search (a depth at row y reads rows y and y + 1),
/// and why it is the last.
fn shared_depth(marks: &[Mark], differs: usize) -> (usize, Stop) {
    let mut at = 0;
    for (d, m) in marks.iter().enumerate() {
        if m.locks > 0 {
            return (at, Stop::Locks);
        }
        at = d;
        if usize::from(m.y) + 1 >= differs {
            return (at, Stop::Differs);
        }
    }
    (at, Stop::RanOut)
}

/// What a dense search does with its nodes besides returning its locks.
pub(super) enum Keep {
    Nothing,
    /// Keep them as a new entry for this start (met a second time).
    New(Key),
    /// Entry `e` ran out of depths for this board: keep this search's if deeper.
    Grow(usize),
}

/// Dense states that also mark where each depth starts (a search whose nodes are kept).
pub(super) struct Marking {
    pub(super) dense: DenseStates,
    marks: Vec<Mark>,
}

impl States for Marking {
    #[inline(always)]
    fn tag(&mut self, bfs: &Bfs, i: usize, n: &Node, frame: u32) -> u32 {
        if usize::from(n.frames) == self.marks.len() {
            self.marks.push(Mark {
                start: i,
                y: n.state.y,
                locks: bfs.locks.len(),
            });
        }
        self.dense.tag(bfs, i, n, frame)
    }

    #[inline(always)]
    fn first(&mut self, bfs: &mut Bfs, tag: u32, s: &Step, pressed: u8) -> bool {
        self.dense.first(bfs, tag, s, pressed)
    }
}

impl Bfs {
    /// The keyed search for a start [`Kernel::choose`] found dense: the same nodes in the same
    /// order, deduplicated by depth; at a spawn resumed from the empty board's nodes down to
    /// the first row this board differs in ([`Bfs::dense_resume`]).
    pub(super) fn dense_search(&mut self, r: &Run) {
        let (from, keep) = self.dense_resume(r);
        let dense = self.dense_states(r);
        if matches!(keep, Keep::Nothing) {
            let mut dense = Profiled {
                rules: r.rules,
                states: dense,
            };
            self.expand(&mut dense, r, from);
            self.dense_done(&dense.states);
            return;
        }
        // This search's nodes are kept (`profiled_resume.rs`): its depths are marked.
        let mut marking = Profiled {
            rules: r.rules,
            states: self.marking(dense, &keep),
        };
        self.expand(&mut marking, r, from);
        self.dense_done(&marking.states.dense);
        self.dense_keep(r, keep, marking.states);
    }

    /// Puts the nodes (and their pressed directions) of `r`'s dense search that the kept
    /// entry of its start shares into `self.nodes` and returns the first node to expand (the
    /// roots and 0 when none is kept), and what to keep of the search.
    pub(super) fn dense_resume(&mut self, r: &Run) -> (usize, Keep) {
        if self.dense_opens.off || r.rules.offset != 0 {
            self.profiled_roots(r);
            return (0, Keep::Nothing);
        }
        let key = Key::of(r);
        let Some(e) = self.dense_opens.opens.position(|o| o.key == key) else {
            self.profiled_roots(r);
            let keep = if self.dense_opens.met_again(key) {
                Keep::New(key)
            } else {
                Keep::Nothing
            };
            return (0, keep);
        };
        #[cfg(test)]
        {
            self.dense_opens.counts[2] += 1;
        }
        let open = &self.dense_opens.opens[e];
        let differs = usize::from(r.map.first_difference(&open.map));
        let (at, stop) = shared_depth(&open.marks, differs);
        let end = open.marks.get(at + 1).map_or(open.nodes.len(), |m| m.start);
        self.nodes.extend_from_slice(&open.nodes[..end]);
        self.pressed.clear();
        self.pressed.extend_from_slice(&open.pressed[..end]);
        let keep = if stop == Stop::RanOut && !open.complete {
            Keep::Grow(e)
        } else {
            Keep::Nothing
        };
        (open.marks.get(at).map_or(0, |m| m.start), keep)
    }

    /// The states a dense search that keeps its nodes expands with: `dense`, marking each
    /// depth's start (those copied from entry `Grow(e)` marked already).
    pub(super) fn marking(&mut self, dense: DenseStates, keep: &Keep) -> Marking {
        let mut marks = std::mem::take(&mut self.dense_opens.marks);
        marks.clear();
        if let Keep::Grow(e) = *keep {
            let open = &self.dense_opens.opens[e];
            // Every depth up to the one the search expands from, which was the last kept.
            marks.extend_from_slice(&open.marks);
        }
        Marking { dense, marks }
    }

    /// After a search that marked its depths: its nodes shared with the empty board's search
    /// become entry `keep`'s (a new one, or a kept one that had fewer depths).
    #[cold]
    pub(super) fn dense_keep(&mut self, r: &Run, keep: Keep, marking: Marking) {
        let Marking { marks, .. } = marking;
        let e = match keep {
            Keep::Nothing => None,
            Keep::New(key) => {
                let piece = Orientation::new(r.start.id)
                    .expect("the dense kernel's start")
                    .piece();
                let open = Open {
                    key,
                    map: CollisionMap::new(&Board::EMPTY, piece),
                    nodes: Vec::new(),
                    pressed: Vec::new(),
                    marks: Vec::new(),
                    complete: false,
                };
                Some(self.dense_opens.opens.keep(open, OPEN_KEYS))
            }
            Keep::Grow(e) => Some(e),
        };
        if let Some(e) = e {
            let (nodes, pressed) = (&self.nodes, &self.pressed);
            let open = &mut self.dense_opens.opens[e];
            let differs = usize::from(r.map.first_difference(&open.map));
            let (at, stop) = shared_depth(&marks, differs);
            if open.marks.is_empty() || at + 1 > open.marks.len() {
                #[cfg(test)]
                {
                    let grown = usize::from(!open.marks.is_empty());
                    self.dense_opens.counts[grown] += 1;
                }
                let end = marks.get(at + 1).map_or(nodes.len(), |m| m.start);
                open.nodes.clear();
                open.nodes.extend_from_slice(&nodes[..end]);
                open.pressed.clear();
                open.pressed.extend_from_slice(&pressed[..end]);
                open.marks.clear();
                open.marks.extend_from_slice(&marks[..=at]);
                open.complete = stop == Stop::Locks;
            }
        }
        self.dense_opens.marks = marks;
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows_resume::tests::{random_board, with_path};
    use super::*;
    use crate::game::active::Active;
    use crate::game::board::{Board, Collide};
    use crate::game::pad::PadState;
    use crate::game::piece::Piece;
    use crate::game::pos::Pos;
    use crate::game::score::drop_speed;
    use crate::movegen::bfs::{Lock, MoveSet};
    use crate::movegen::kernel::{Kernel, LockQuery};
    use crate::movegen::profile::{preset_names, PieceProgress, Profile};

    /// Every kept node with its pressed directions, then every lock with its path and root.
    type Outcome = (
        Vec<(Active, usize, u16, u8)>,
        Vec<(Lock, Vec<PadState>, Vec<Pos>, PadState)>,
    );

    /// `profiled`: the query's kernel keeps pressed directions (stale otherwise).
    fn outcome(bfs: &mut Bfs, q: &LockQuery, map: &CollisionMap, profiled: bool) -> Outcome {
        bfs.search_query(q, map);
        let locks = bfs
            .locks()
            .iter()
            .map(|l| {
                let (l, inputs, expected) = with_path(bfs, l);
                (l, inputs, expected, bfs.root_hold(&l))
            })
            .collect();
        let nodes = bfs
            .reached()
            .enumerate()
            .map(|(i, (a, p, f))| (a, p, f, if profiled { bfs.pressed[i] } else { 0 }))
            .collect();
        (nodes, locks)
    }

    #[test]
    fn a_resumed_dense_search_has_the_nodes_locks_and_paths_of_a_fresh_one() {
        // Each start searched on a run of boards of every height in a row, so that it is kept
        // from one board's search, resumed on the others, and grown by those that share more
        // with the empty board; against a search that never resumes and the keyed kernel.
        let profiles: Vec<Profile> = preset_names()
            .into_iter()
            .map(|n| Profile::preset(n).unwrap())
            .collect();
        let mut resumed = Bfs::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let boards: Vec<Board> = (0..60)
            .map(|k| random_board(&mut rng, (k * 7) % 19))
            .collect();
        let (mut compared, mut dense) = (0, 0);
        for (level, run) in [18u8, 19, 29].into_iter().zip(boards.chunks(20)) {
            let speed = drop_speed(level);
            for profile in &profiles {
                for piece in Piece::ALL {
                    let moves = MoveSet::default();
                    // Spawns after a lock that left the DAS counter at 0, 10 or 16 (a hold
                    // profile's entry query), and one in flight (never kept).
                    for k in 0..4 {
                        for (b, board) in run.iter().enumerate() {
                            let map = CollisionMap::new(board, piece);
                            let q = if k < 3 {
                                let das = [0u8, 10, 16][k];
                                LockQuery::after_lock(board, piece, speed, profile, moves, das)
                            } else {
                                let spawn = LockQuery::spawn(board, piece, speed, profile, moves);
                                let mut later = spawn.start;
                                later.fall_timer = 1;
                                let progress = PieceProgress {
                                    frames: 3,
                                    ..PieceProgress::default()
                                };
                                spawn.at(later, PadState::NONE, progress)
                            };
                            if !board.fits(q.start.x, q.start.y, q.start.id) {
                                continue;
                            }
                            let kernel =
                                Kernel::choose(&q.start, speed, moves, profile, q.progress, true);
                            let profiled = matches!(kernel, Kernel::Dense | Kernel::Keyed);
                            let want = outcome(&mut Bfs::once(), &q, &map, profiled);
                            let got = outcome(&mut resumed, &q, &map, profiled);
                            let at = format!(
                                "board {b} {} {piece:?} level {level} query {k}",
                                profile.name
                            );
                            assert_eq!(got, want, "{at}");
                            if kernel == Kernel::Dense {
                                let keyed = outcome(&mut Bfs::keyed(), &q, &map, true);
                                assert_eq!(got.1, keyed.1, "{at}");
                                dense += 1;
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        let [new, grown, resumes] = resumed.dense_opens.counts;
        assert!(dense > 5000 && compared > dense, "{dense} of {compared}");
        assert!(
            new > 100 && grown > 100 && resumes > 3000,
            "{new} kept, {grown} grown, {resumes} resumed"
        );
    }
}
